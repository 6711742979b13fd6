//! The start of a game: computers fill a quick-play table, the server commits to a seed
//! and collects the seats' nonces (docs/fairness.md), then deals and starts the clocks.
//! A deal that cannot be made sends the table back to waiting, saying why.

use super::log::Entry;
use super::play::{Phase, Running};
use super::stall::Owed;
use super::{Client, TableTask};
use crate::hall::Refusal;
use crate::protocol::ErrorCode;
use crate::store::{StoreError, StoreResult, StoredGame};
use game::{fair, Nonce, Seed, Table, TableSetup};
use rand::TryRngCore;
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A deal made and waiting to be stored: nobody sees a card of it before it is.
pub struct Dealt {
    /// The game as it is stored: seed, nonces, players.
    pub(super) stored: StoredGame,
    /// The game dealt.
    pub(super) table: Box<dyn Table>,
    /// Each seat's game clock.
    pub(super) bank: Duration,
}

/// The deal being prepared: the server is committed to its seed and waits for nonces.
pub struct Dealing {
    /// The game about to be dealt.
    pub(super) game_id: String,
    /// The server's secret seed, revealed in the record when the game ends.
    pub(super) seed: Seed,
    /// The published commitment to `seed` (docs/fairness.md).
    pub(super) commitment: String,
    /// The game's configuration, fixed before the commitment.
    pub(super) config: Value,
    /// Each seat's nonce once sent; computers send none.
    pub(super) nonces: Vec<Option<Nonce>>,
    /// When the deal goes ahead with the nonces it has.
    pub(super) until: Instant,
}

/// A fresh seed from the operating system: a deal's (committed to before any nonce is
/// asked for) or a computer's.
pub(super) fn random_seed() -> Result<Seed, Refusal> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
    Ok(Seed(bytes))
}

impl TableTask {
    /// Quick play: the empty seats get the game's strongest computer (once someone sits).
    pub(super) async fn fill_with_computers(&mut self) {
        let people = self.seats.iter().any(|s| s.person.is_some());
        if !self.options.computers || !matches!(self.phase, Phase::Waiting) || !people {
            return;
        }
        let Some(bot) = self
            .hall
            .registry
            .get(&self.game)
            .ok()
            .map(|g| self.hall.computer_at(g, &self.options).to_string())
        else {
            return;
        };
        for seat in self.seats.iter_mut().filter(|s| s.is_empty()) {
            seat.bot = Some(bot.clone());
            seat.ready = true;
        }
        self.save().await;
        self.publish_seats();
        self.maybe_start().await;
    }

    /// Starts a game when every seat is filled and ready, and someone is there to play it.
    pub(super) async fn maybe_start(&mut self) {
        let all_ready = self.seats.iter().all(|s| !s.is_empty() && s.ready);
        let people = self.seats.iter().any(|s| s.person.is_some());
        if !matches!(self.phase, Phase::Waiting) || !all_ready || !people {
            return;
        }
        let seed = match random_seed() {
            Ok(s) => s,
            Err(e) => return tracing::error!(table = %self.id, "{}", e.message),
        };
        let game_id = format!("{}-{}", self.id, self.games + 1);
        let hall = self.hall.clone();
        let Ok(game) = hall.registry.get(&self.game) else {
            return;
        };
        let config = match game.normalize_config(&self.next_config) {
            Ok(c) => c,
            Err(e) => return tracing::error!(table = %self.id, error = %e, "bad configuration"),
        };
        let seats = self.seats.len();
        let commitment = fair::commitment(&self.game, &game_id, seats, &config, &seed);
        let until = Instant::now() + self.hall.config.timing.nonce_window;
        self.set_phase(Phase::Dealing(Dealing {
            game_id: game_id.clone(),
            seed,
            commitment: commitment.clone(),
            config,
            nonces: vec![None; seats],
            until,
        }));
        self.publish(Entry::Commitment {
            game_id,
            commitment,
            until,
        });
        self.publish_seats();
        if self.all_nonces_in() {
            self.deal().await;
        }
    }

    /// Whether every person has sent a nonce (computers send none).
    pub(super) fn all_nonces_in(&self) -> bool {
        let Phase::Dealing(d) = &self.phase else {
            return false;
        };
        self.seats
            .iter()
            .zip(&d.nonces)
            .all(|(s, n)| s.person.is_none() || n.is_some())
    }

    /// Whether the deal of `game_id` is still collecting nonces.
    pub(super) fn waits_for_nonces(&self, game_id: &str) -> bool {
        matches!(&self.phase, Phase::Dealing(d) if d.game_id == game_id)
    }

    /// A seat's nonce for the deal being prepared; the last one in deals at once.
    pub(super) async fn nonce(&mut self, from: &Client, game_id: &str, nonce: &str) {
        let seat = match self.seated(from) {
            Ok(s) => s,
            Err(r) => return self.refuse(from, r),
        };
        let refusal = match &mut self.phase {
            Phase::Dealing(d) if d.game_id == game_id => match Nonce::from_hex(nonce) {
                Ok(_) if d.nonces[seat].is_some() => Some(Refusal::new(
                    ErrorCode::NonceSent,
                    "this seat has sent its nonce",
                )),
                Ok(n) => {
                    d.nonces[seat] = Some(n);
                    None
                }
                Err(e) => Some(Refusal::new(ErrorCode::BadNonce, e.to_string())),
            },
            _ => Some(Refusal::new(
                ErrorCode::WrongPhase,
                format!("no deal of {game_id} is waiting for nonces"),
            )),
        };
        if let Some(r) = refusal {
            return self.refuse(from, r);
        }
        if self.all_nonces_in() {
            self.deal().await;
        }
    }

    /// Deals: the game is stored (seed and nonces) before anyone sees a card.
    pub(super) async fn deal(&mut self) {
        if !matches!(self.phase, Phase::Dealing(_)) {
            return;
        }
        let Phase::Dealing(d) = self.take_phase() else {
            return;
        };
        let hall = self.hall.clone();
        let Ok(game) = hall.registry.get(&self.game) else {
            return;
        };
        let setup = TableSetup {
            id: d.game_id.clone(),
            config: d.config.clone(),
            seats: self.seats.len(),
            seed: d.seed,
            nonces: d.nonces.clone(),
        };
        let table = match game.new_table(&setup) {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "cannot deal");
                return self.back_to_waiting("the deal failed");
            }
        };
        let stored = StoredGame {
            id: d.game_id.clone(),
            table: self.id.clone(),
            game: self.game.clone(),
            config: d.config,
            seats: self.seats.len(),
            commitment: d.commitment,
            seed: d.seed,
            nonces: d.nonces,
            players: self
                .seats
                .iter()
                .map(|s| (s.person.as_ref().map(|p| p.id), s.bot.clone()))
                .collect(),
            rated: self.options.rated,
            private: self.options.private,
        };
        let bank = Duration::from_secs(u64::from(
            self.options.game_seconds.or(game.game_clock()).unwrap_or(0),
        ));
        let dealt = Dealt {
            stored,
            table,
            bank,
        };
        match self.store_deal(&dealt.stored, false).await {
            Ok(()) => self.start_running(d.game_id, dealt.table, dealt.bank).await,
            Err(e) => self.stall(Owed::Deal(Box::new(dealt)), 0, &e),
        }
    }

    /// Stores a deal. `retried`: an earlier attempt at this very deal failed, and may have
    /// been stored unheard (the database went out of reach before it answered), so its
    /// row already there is this deal's: only this table, under its lease, deals a game
    /// with this id, and it deals no other while this one waits.
    pub(super) async fn store_deal(&self, game: &StoredGame, retried: bool) -> StoreResult<()> {
        let fence = self.fence().ok_or_else(|| StoreError::Fenced {
            table: self.id.clone(),
            epoch: 0,
            current: None,
        })?;
        match self.hall.store.start_game(&fence, game).await {
            Err(StoreError::Exists(_)) if retried => Ok(()),
            other => other,
        }
    }

    /// Gives up a deal that could not be made, telling everyone why.
    pub(super) fn back_to_waiting(&mut self, why: &str) {
        self.set_phase(Phase::Waiting);
        self.tell_storage(why);
        self.publish_seats();
    }

    /// Seats the computers and starts the game's turns and clocks (a fresh deal, or one
    /// resumed from the store after a restart); a game already over ends at once.
    pub(super) async fn start_running(
        &mut self,
        game_id: String,
        mut table: Box<dyn Table>,
        bank: Duration,
    ) {
        for (seat, s) in self.seats.iter().enumerate() {
            if let Some(bot) = &s.bot {
                if let Err(e) = table.set_bot(seat, bot, &random_seed().unwrap_or(Seed([7; 32]))) {
                    tracing::error!(table = %self.id, error = %e, "cannot seat a computer");
                }
            }
        }
        let seats = self.seats.len();
        self.set_phase(Phase::Playing(Box::new(Running {
            game_id,
            table,
            turn: 0,
            deadline: None,
            turn_started: Instant::now(),
            banks: vec![bank; seats],
            thinking: HashMap::new(),
            acting: Vec::new(),
            turn_since: vec![0; seats],
        })));
        self.sync_auto_bots();
        self.changed_at = self.seq + 1;
        if let Phase::Playing(run) = &mut self.phase {
            run.turns_begin(self.changed_at, None);
        }
        // Before the snapshots, so they carry the first turn's deadline (computers' answers
        // come back as commands, after this).
        self.schedule().await;
        self.publish(Entry::Dealt);
        // Everyone gets the new game: their seat's view and their legal actions.
        let subs: Vec<Client> = self
            .subs
            .iter()
            .map(|(c, s)| Client {
                conn: *c,
                user: s.user.clone(),
                out: s.out.clone(),
            })
            .collect();
        for c in subs {
            c.out.send(&self.snapshot(c.user.as_ref()));
        }
        self.publish_seats();
        // A game can be over before anyone acts (五人斗地主: nobody can grab and the
        // landlord wins at once), and a resumed one may have been stored up to its last
        // move by a server that stopped before storing its end: end it now, or the table
        // would wait for a move nobody can make.
        if matches!(&self.phase, Phase::Playing(run) if run.table.outcome().is_some()) {
            self.finish().await;
        }
    }
}

#[cfg(test)]
#[path = "deal_tests.rs"]
mod tests;
