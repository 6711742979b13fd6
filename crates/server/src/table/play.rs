//! A game's life at a table: the commitment and the nonces, the deal, every action
//! committed to the store before anyone hears of it, computers thinking off the table's
//! task, turn timers and chess clocks, 托管 after timeouts, the end, ratings and the
//! match's rotation.

use super::log::{Audience, Entry};
use super::seats::Auto;
use super::{Client, TableTask};
use crate::hall::Refusal;
use crate::protocol::GameState;
use crate::rating;
use crate::store::{LastGame, RatingUpdate, StoredGame};
use game::{fair, Applied, GameError, Nonce, Seat, Seed, Table, TableSetup, ToAct, Viewer};
use rand::TryRngCore;
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Where a table is between and during games.
pub enum Phase {
    /// Between games: waiting for every seat to be filled and ready.
    Waiting,
    /// The commitment is out; collecting the seats' nonces before the deal.
    Dealing(Dealing),
    /// A game is on.
    Playing(Box<Running>),
}

/// The deal being prepared.
pub struct Dealing {
    game_id: String,
    seed: Seed,
    commitment: String,
    config: Value,
    nonces: Vec<Option<Nonce>>,
    until: Instant,
}

/// A game being played.
pub struct Running {
    game_id: String,
    table: Box<dyn Table>,
    /// Changes with every action: a computer's answer for an older turn is dropped.
    turn: u64,
    /// When the seats to act run out of time, and which seats that is for.
    deadline: Option<(Instant, Vec<Seat>)>,
    /// When the current turn began (for chess clocks).
    turn_started: Instant,
    /// Each seat's thinking time left, for chess-clock games.
    banks: Vec<Duration>,
    /// Seats whose computer is thinking, and for which turn.
    thinking: HashMap<Seat, u64>,
    /// The seats to act, as of the last change.
    acting: Vec<Seat>,
    /// Per seat, the sequence number its current turn began at: a move sent against an
    /// older state is stale. Where several seats act at once (五人斗地主's grab), the
    /// others' moves do not start a new turn for a seat still deciding, so its move is
    /// not refused for what it could not have seen coming.
    turn_since: Vec<u64>,
}

impl Running {
    /// After a change at `seq` by `mover` (none for a deal): seats that start to act, and
    /// the mover if it acts again, begin a new turn.
    fn turns_begin(&mut self, seq: u64, mover: Option<Seat>) {
        let now: Vec<Seat> = self.table.to_act().seats().iter().collect();
        for &s in &now {
            if Some(s) == mover || mover.is_none() || !self.acting.contains(&s) {
                if let Some(since) = self.turn_since.get_mut(s) {
                    *since = seq;
                }
            }
        }
        self.acting = now;
    }
}

impl Phase {
    /// The status the lobby shows.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Dealing(_) => "dealing",
            Phase::Playing(_) => "playing",
        }
    }

    /// The running game as `audience` may see it.
    pub fn state_for(&self, task: &TableTask, audience: Audience) -> Option<GameState> {
        let Phase::Playing(run) = self else {
            return None;
        };
        let viewer = match audience {
            Audience::Seat(s) => Viewer::Seat(s),
            Audience::Spectator => Viewer::Spectator,
        };
        let to_act: Vec<Seat> = run.table.to_act().seats().iter().collect();
        let legal = match audience {
            Audience::Seat(s) if to_act.contains(&s) => run.table.legal(s).unwrap_or_default(),
            _ => Vec::new(),
        };
        let record = run.table.record();
        let now = Instant::now();
        Some(GameState {
            game_id: run.game_id.clone(),
            commitment: record.commitment,
            nonces: record
                .nonces
                .iter()
                .map(|n| n.as_ref().map(Nonce::to_hex))
                .collect(),
            view: run.table.view(viewer).unwrap_or(Value::Null),
            to_act,
            legal,
            deadline_ms: run
                .deadline
                .as_ref()
                .map(|(t, _)| t.saturating_duration_since(now).as_millis() as u64),
            phase: run.table.clock().phase.to_string(),
            clocks_ms: if task
                .hall
                .registry
                .get(&task.game)
                .ok()?
                .game_clock()
                .is_some()
            {
                run.banks
                    .iter()
                    .enumerate()
                    .map(|(s, b)| {
                        let spent = match &run.deadline {
                            Some((_, seats)) if seats.contains(&s) => {
                                now.saturating_duration_since(run.turn_started)
                            }
                            _ => Duration::ZERO,
                        };
                        b.saturating_sub(spent).as_millis() as u64
                    })
                    .collect()
            } else {
                Vec::new()
            },
        })
    }
}

fn random_seed() -> Result<Seed, Refusal> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Refusal::new("internal", format!("no randomness: {e}")))?;
    Ok(Seed(bytes))
}

impl TableTask {
    fn set_phase(&mut self, phase: Phase) {
        self.count_state(-1);
        self.phase = phase;
        self.count_state(1);
    }

    /// Takes the phase out, leaving the table waiting (gauges follow).
    fn take_phase(&mut self) -> Phase {
        self.count_state(-1);
        let old = std::mem::replace(&mut self.phase, Phase::Waiting);
        self.count_state(1);
        old
    }

    /// The earliest moment something must happen without a command.
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let grace = self.hall.config.timing.grace;
        let away = self
            .seats
            .iter()
            .filter(|s| s.person.is_some() && s.auto != Some(Auto::Away))
            .filter_map(|s| s.away_since.map(|t| t + grace));
        let phase = match &self.phase {
            Phase::Waiting => None,
            Phase::Dealing(d) => Some(d.until),
            Phase::Playing(run) => run.deadline.as_ref().map(|(t, _)| *t),
        };
        away.chain(phase).chain(self.fill_at).min()
    }

    /// Everything due now: nonces that did not come, turns that ran out, seats away too
    /// long, quick play's computers.
    pub(super) async fn on_timer(&mut self) {
        let now = Instant::now();
        if self.fill_at.is_some_and(|t| t <= now) {
            self.fill_at = None;
            self.fill_with_computers().await;
        }
        let grace = self.hall.config.timing.grace;
        let mut changed = false;
        let playing = !matches!(self.phase, Phase::Waiting);
        for seat in &mut self.seats {
            let overdue = seat.away_since.is_some_and(|t| t + grace <= now);
            if seat.person.is_some() && overdue && seat.auto != Some(Auto::Away) {
                changed = true;
                if playing {
                    seat.auto = Some(Auto::Away);
                } else {
                    // Between games a seat is not held for someone who is gone.
                    seat.clear();
                }
            }
        }
        if changed {
            self.sync_auto_bots();
            self.save().await;
            self.publish_seats();
            self.close_if_abandoned().await;
        }
        if matches!(&self.phase, Phase::Dealing(d) if d.until <= now) {
            self.deal().await;
        }
        let due = match &self.phase {
            Phase::Playing(run) => run
                .deadline
                .as_ref()
                .filter(|(t, _)| *t <= now)
                .map(|(_, seats)| seats.clone()),
            _ => None,
        };
        if let Some(seats) = due {
            self.time_out(seats).await;
        }
        if changed {
            self.schedule().await;
        }
    }

    /// Quick play: the empty seats get the game's strongest computer (once someone sits).
    async fn fill_with_computers(&mut self) {
        let people = self.seats.iter().any(|s| s.person.is_some());
        if !self.options.computers || !matches!(self.phase, Phase::Waiting) || !people {
            return;
        }
        let Some(bot) = self
            .hall
            .registry
            .get(&self.game)
            .ok()
            .map(|g| g.default_bot().to_string())
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
        let window = self.hall.config.timing.nonce_window;
        self.set_phase(Phase::Dealing(Dealing {
            game_id: game_id.clone(),
            seed,
            commitment: commitment.clone(),
            config,
            nonces: vec![None; seats],
            until: Instant::now() + window,
        }));
        self.publish(Entry::Commitment {
            game_id,
            commitment,
        });
        self.publish_seats();
        if self.all_nonces_in() {
            self.deal().await;
        }
    }

    /// Whether every person has sent a nonce (computers send none).
    fn all_nonces_in(&self) -> bool {
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

    pub(super) async fn nonce(&mut self, from: &Client, game_id: &str, nonce: &str) {
        let seat = match self.seated(from) {
            Ok(s) => s,
            Err(r) => return self.refuse(from, r),
        };
        let refusal = match &mut self.phase {
            Phase::Dealing(d) if d.game_id == game_id => match Nonce::from_hex(nonce) {
                Ok(_) if d.nonces[seat].is_some() => {
                    Some(Refusal::new("nonce_sent", "this seat has sent its nonce"))
                }
                Ok(n) => {
                    d.nonces[seat] = Some(n);
                    None
                }
                Err(e) => Some(Refusal::new("bad_nonce", e)),
            },
            _ => Some(Refusal::new(
                "wrong_phase",
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
    async fn deal(&mut self) {
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
        };
        if let Err(e) = self.hall.store.start_game(&stored).await {
            tracing::error!(table = %self.id, error = %e, "cannot store the deal");
            return self.back_to_waiting("the server could not store the deal");
        }
        let bank = Duration::from_secs(u64::from(
            self.options.game_seconds.or(game.game_clock()).unwrap_or(0),
        ));
        self.start_running(d.game_id, table, bank).await;
    }

    fn back_to_waiting(&mut self, why: &str) {
        self.set_phase(Phase::Waiting);
        for sub in self.subs.values() {
            sub.out.send(&crate::protocol::ServerMessage::error(
                "storage",
                why,
                Some(&self.id),
            ));
        }
        self.publish_seats();
    }

    async fn start_running(&mut self, game_id: String, mut table: Box<dyn Table>, bank: Duration) {
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
        self.schedule().await;
    }

    /// Gives computers the seats that need one now (computer seats and 托管), and takes
    /// them back from people who play again.
    pub(super) fn sync_auto_bots(&mut self) {
        let hall = self.hall.clone();
        let Phase::Playing(run) = &mut self.phase else {
            return;
        };
        let default_bot = hall
            .registry
            .get(&self.game)
            .ok()
            .map_or("random", |g| g.default_bot());
        for (seat, s) in self.seats.iter().enumerate() {
            let wanted = s.computer_plays();
            if wanted && !run.table.has_bot(seat) {
                let bot = s.bot.as_deref().unwrap_or(default_bot);
                let seed = random_seed().unwrap_or(Seed([9; 32]));
                if let Err(e) = run.table.set_bot(seat, bot, &seed) {
                    tracing::error!(table = %self.id, error = %e, "cannot seat a computer");
                }
            } else if !wanted && run.table.has_bot(seat) {
                run.table.clear_bot(seat);
                run.thinking.remove(&seat);
            }
        }
    }

    /// After any change: computers to move start thinking; people to move get a deadline.
    pub(super) async fn schedule(&mut self) {
        let hall = self.hall.clone();
        let delay = hall.config.timing.bot_delay;
        let commands = self.commands.clone();
        let game_name: &'static str = hall
            .registry
            .get(&self.game)
            .map(|g| g.id())
            .unwrap_or("unknown");
        let Phase::Playing(run) = &mut self.phase else {
            return;
        };
        let to_act = run.table.to_act();
        if to_act == ToAct::Finished {
            return;
        }
        let mut people = Vec::new();
        for seat in to_act.seats().iter() {
            if run.table.has_bot(seat) {
                if run.thinking.contains_key(&seat) {
                    continue;
                }
                match run.table.bot_task(seat) {
                    Ok(task) => {
                        run.thinking.insert(seat, run.turn);
                        let game_id = run.game_id.clone();
                        let turn = run.turn;
                        let commands = commands.clone();
                        hall.bots.think(game_name, task, delay, move |result| {
                            let _ = commands.try_send(super::Cmd::BotMoved {
                                game_id,
                                seat,
                                turn,
                                result,
                            });
                        });
                    }
                    Err(e) => tracing::error!(table = %self.id, error = %e, "no bot task"),
                }
            } else {
                people.push(seat);
            }
        }
        if people.is_empty() {
            run.deadline = None;
        } else if run.deadline.as_ref().is_none_or(|(_, s)| *s != people) {
            let clock = run.table.clock();
            let seconds = self
                .options
                .turn_seconds
                .get(clock.phase)
                .copied()
                .unwrap_or(clock.seconds);
            let mut limit = Duration::from_secs(u64::from(seconds.max(1)));
            if hall
                .registry
                .get(&self.game)
                .is_ok_and(|g| g.game_clock().is_some())
            {
                for s in &people {
                    limit = limit.min(run.banks[*s].max(Duration::from_millis(1)));
                }
            }
            run.deadline = Some((run.turn_started + limit, people));
        }
    }

    /// A person's move.
    pub(super) async fn act(
        &mut self,
        from: &Client,
        action: Value,
        seq: Option<u64>,
        at: Instant,
    ) {
        self.hall
            .metrics
            .action_queue_seconds
            .observe(at.elapsed().as_secs_f64());
        let seat = match self.seated(from) {
            Ok(s) => s,
            Err(r) => return self.refuse(from, r),
        };
        let stale_before = match &self.phase {
            Phase::Playing(run) if run.acting.contains(&seat) => {
                run.turn_since.get(seat).copied().unwrap_or(self.changed_at)
            }
            Phase::Playing(_) => self.changed_at,
            _ => return self.refuse(from, Refusal::new("wrong_phase", "no game is being played")),
        };
        if seq.is_some_and(|s| s < stale_before) {
            return self.refuse(
                from,
                Refusal::new(
                    "stale",
                    "the game changed since the state this move was made in",
                ),
            );
        }
        // Acting again takes the seat back from the computer.
        let seat_state = &mut self.seats[seat];
        let took_back = seat_state.auto.is_some();
        seat_state.auto = None;
        seat_state.timeouts = 0;
        if took_back {
            self.sync_auto_bots();
            self.publish_seats();
        }
        let applied = match &mut self.phase {
            Phase::Playing(run) => run.table.apply(seat, &action),
            _ => return,
        };
        match applied {
            Ok(applied) => self.accepted(applied, at, false).await,
            Err(e) => {
                self.refuse(from, Refusal::game(&e));
                if took_back {
                    self.schedule().await;
                }
            }
        }
    }

    /// A computer's move, if it is still wanted.
    pub(super) async fn bot_moved(
        &mut self,
        game_id: &str,
        seat: Seat,
        turn: u64,
        result: Result<Value, GameError>,
    ) {
        let Phase::Playing(run) = &mut self.phase else {
            return;
        };
        if run.game_id != game_id || run.thinking.get(&seat) != Some(&turn) {
            return;
        }
        run.thinking.remove(&seat);
        let to_act = run.table.to_act();
        let current = run.turn == turn || matches!(to_act, ToAct::Seats(_));
        if !current || !to_act.includes(seat) || !run.table.has_bot(seat) {
            return self.schedule().await;
        }
        let applied = match result {
            Ok(action) => run.table.apply(seat, &action),
            Err(e) => Err(e),
        };
        let applied = match applied {
            Ok(a) => Ok(a),
            Err(e) => {
                // A computer that fails must not stall the game: the rules' default move.
                tracing::warn!(table = %self.id, seat, error = %e, "bot failed; default move");
                run.table.apply_default(seat)
            }
        };
        match applied {
            Ok(applied) => self.accepted(applied, Instant::now(), false).await,
            Err(e) => tracing::error!(table = %self.id, seat, error = %e, "no move possible"),
        }
    }

    /// The turn ran out for `seats`: the rules' default move; too many in a row, 托管.
    async fn time_out(&mut self, seats: Vec<Seat>) {
        let limit = self.hall.config.timing.timeouts_to_auto;
        for seat in seats {
            let applied = match &mut self.phase {
                Phase::Playing(run) if run.table.to_act().includes(seat) => {
                    run.deadline = None;
                    run.table.apply_default(seat)
                }
                _ => continue,
            };
            match applied {
                Ok(applied) => {
                    // The move is published first; then, if these were too many timeouts
                    // in a row, the seat goes to a computer.
                    self.accepted(applied, Instant::now(), true).await;
                    let s = &mut self.seats[seat];
                    s.timeouts += 1;
                    let playing = matches!(self.phase, Phase::Playing(_));
                    if playing && s.timeouts >= limit && s.person.is_some() && s.auto.is_none() {
                        s.auto = Some(Auto::Timeouts);
                        self.sync_auto_bots();
                        self.publish_seats();
                    }
                }
                Err(e) => tracing::error!(table = %self.id, seat, error = %e, "no default move"),
            }
            if !matches!(self.phase, Phase::Playing(_)) {
                break;
            }
        }
        self.schedule().await;
    }

    /// An applied action: stored first, then published; the table moves on. `timed_out`
    /// marks the rules' default move for a seat whose turn ran out.
    async fn accepted(&mut self, applied: Applied, at: Instant, timed_out: bool) {
        let Phase::Playing(run) = &mut self.phase else {
            return;
        };
        let index = run.table.actions() - 1;
        let sealed = (applied.public != applied.action).then_some(&applied.action);
        let committing = Instant::now();
        let stored = self
            .hall
            .store
            .append_action(&run.game_id, index, applied.seat, &applied.public, sealed)
            .await;
        self.hall
            .metrics
            .action_commit_seconds
            .observe(committing.elapsed().as_secs_f64());
        if let Err(e) = stored {
            // Not durable, so not accepted: rebuild the game from what is stored.
            tracing::error!(table = %self.id, error = %e, "cannot store an action");
            return self
                .reload_game("the server could not store that move; try again")
                .await;
        }
        let now = Instant::now();
        if let Phase::Playing(run) = &mut self.phase {
            let spent = now.saturating_duration_since(run.turn_started);
            if let Some(bank) = run.banks.get_mut(applied.seat) {
                *bank = bank.saturating_sub(spent);
            }
            run.turn += 1;
            run.turn_started = now;
            run.deadline = None;
        }
        self.hall
            .metrics
            .actions
            .with_label_values(&[self.game.as_str()])
            .inc();
        self.changed_at = self.seq + 1;
        if let Phase::Playing(run) = &mut self.phase {
            run.turns_begin(self.changed_at, Some(applied.seat));
        }
        let finished = matches!(&self.phase, Phase::Playing(run) if run.table.outcome().is_some());
        if !finished {
            // The next turn's deadline is set before the move is published, so the game
            // state in the action already carries it (a page shows the turn timer at
            // once). Computers started here answer through the command queue, after this.
            self.schedule().await;
        }
        self.publish(Entry::Action {
            seat: applied.seat,
            private: applied.action,
            public: applied.public,
            events: applied.events,
            timed_out,
        });
        self.hall
            .metrics
            .action_seconds
            .observe(at.elapsed().as_secs_f64());
        if finished {
            self.finish().await;
        }
    }

    /// Rebuilds the running game from the store, dropping what was not stored.
    async fn reload_game(&mut self, why: &str) {
        for sub in self.subs.values() {
            sub.out.send(&crate::protocol::ServerMessage::error(
                "storage",
                why,
                Some(&self.id),
            ));
        }
        self.set_phase(Phase::Waiting);
        self.resume_game().await;
    }

    /// After a restart (or a failed write): the table's unfinished game, rebuilt from its
    /// journal and checked against its commitment.
    pub(super) async fn resume_game(&mut self) {
        let unfinished = match self.hall.store.unfinished_game(&self.id).await {
            Ok(Some(u)) => u,
            Ok(None) => return,
            Err(e) => return tracing::error!(table = %self.id, error = %e, "cannot read the game"),
        };
        let hall = self.hall.clone();
        let Ok(game) = hall.registry.get(&self.game) else {
            return;
        };
        match game.resume(&unfinished.journal, unfinished.seed) {
            Ok(table) => {
                let bank = Duration::from_secs(u64::from(
                    self.options.game_seconds.or(game.game_clock()).unwrap_or(0),
                ));
                tracing::info!(table = %self.id, game = %unfinished.journal.id, actions = unfinished.journal.actions.len(), "resumed");
                self.start_running(unfinished.journal.id.clone(), table, bank)
                    .await;
                // The crash came after the last move was stored and before the game's end
                // was: end it now.
                if matches!(&self.phase, Phase::Playing(run) if run.table.outcome().is_some()) {
                    self.finish().await;
                }
            }
            Err(e) => tracing::error!(table = %self.id, error = %e, "cannot resume the game"),
        }
    }

    /// The game is over: the record (seed revealed), ratings and the match's totals are
    /// stored together, then published; the table waits for the next game.
    async fn finish(&mut self) {
        if !matches!(self.phase, Phase::Playing(_)) {
            return;
        }
        let Phase::Playing(run) = self.take_phase() else {
            return;
        };
        let record = run.table.record();
        let Some(outcome) = record.outcome.clone() else {
            return;
        };
        for (total, score) in self.totals.iter_mut().zip(&outcome.scores) {
            *total = total.saturating_add(*score);
        }
        self.games += 1;
        // Its game_over is the next message published.
        self.last_game = Some(LastGame {
            id: record.id.clone(),
            seq: self.seq + 1,
        });
        if let Some(Ok(next)) = run.table.next_game() {
            self.next_config = next;
        }
        let ratings = self.rate(&outcome).await;
        for s in &mut self.seats {
            s.ready = s.bot.is_some();
            s.timeouts = 0;
            if s.auto == Some(Auto::Timeouts) {
                s.auto = None;
            }
        }
        if let Err(e) = self
            .hall
            .store
            .finish_game(&record, &self.stored(), &ratings)
            .await
        {
            tracing::error!(table = %self.id, error = %e, "cannot store the game's end");
        }
        self.changed_at = self.seq + 1;
        self.publish(Entry::GameOver {
            game_id: record.id.clone(),
            scores: outcome.scores.clone(),
            record: serde_json::to_value(&record).unwrap_or(Value::Null),
            totals: self.totals.clone(),
        });
        self.publish_seats();
        self.close_if_abandoned().await;
    }

    /// New ratings for a rated game's registered players.
    async fn rate(&self, outcome: &game::Outcome) -> Vec<RatingUpdate> {
        if !self.options.rated {
            return Vec::new();
        }
        let mut before = Vec::new();
        for s in &self.seats {
            before.push(match &s.person {
                Some(p) if !p.guest => self.hall.store.rating(p.id, &self.game).await.ok(),
                _ => None,
            });
        }
        rating::rate_game(outcome, &before)
            .into_iter()
            .zip(&self.seats)
            .filter_map(|(r, s)| {
                Some(RatingUpdate {
                    user: s.person.as_ref()?.id,
                    game: self.game.clone(),
                    rating: r?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "play_tests.rs"]
mod tests;
