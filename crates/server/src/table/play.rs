//! A game's course at a table (its start is in [`super::deal`]): every action committed
//! to the store before anyone hears of it, computers thinking off the table's task, turn
//! timers and chess clocks, 托管 after timeouts, until the game ends ([`super::end`]).

use super::deal::{random_seed, Dealing};
use super::log::{Audience, Entry};
use super::seats::Auto;
use super::stall::Stall;
use super::{Client, TableTask};
use crate::hall::Refusal;
use crate::protocol::ErrorCode;
use crate::protocol::GameState;
use crate::store::StoreError;
use game::{Applied, GameError, Nonce, Seat, Seed, Table, ToAct, Viewer};
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
    /// The table cannot go on until the store answers ([`super::stall`]).
    Stalled(Stall),
}

/// A game being played.
pub struct Running {
    pub(super) game_id: String,
    pub(super) table: Box<dyn Table>,
    /// Changes with every action: a computer's answer for an older turn is dropped.
    pub(super) turn: u64,
    /// When the seats to act run out of time, and which seats that is for.
    pub(super) deadline: Option<(Instant, Vec<Seat>)>,
    /// When the current turn began (for chess clocks).
    pub(super) turn_started: Instant,
    /// Each seat's thinking time left, for chess-clock games.
    pub(super) banks: Vec<Duration>,
    /// Seats whose computer is thinking, and for which turn.
    pub(super) thinking: HashMap<Seat, u64>,
    /// The seats to act, as of the last change.
    pub(super) acting: Vec<Seat>,
    /// Per seat, the sequence number its current turn began at: a move sent against an
    /// older state is stale. Where several seats act at once (五人斗地主's grab), the
    /// others' moves do not start a new turn for a seat still deciding, so its move is
    /// not refused for what it could not have seen coming.
    pub(super) turn_since: Vec<u64>,
}

impl Running {
    /// After a change at `seq` by `mover` (none for a deal): seats that start to act, and
    /// the mover if it acts again, begin a new turn.
    pub(super) fn turns_begin(&mut self, seq: u64, mover: Option<Seat>) {
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
            Phase::Stalled(_) => "stalled",
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
        // A seat's legal actions also when it is not to act: the rules may allow some off
        // turn (Gomoku's undo of the stone just played, resigning); most allow none.
        let legal = match audience {
            Audience::Seat(s) => run.table.legal(s).unwrap_or_default(),
            Audience::Spectator => Vec::new(),
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

impl TableTask {
    pub(super) fn set_phase(&mut self, phase: Phase) {
        self.count_state(-1);
        self.phase = phase;
        self.count_state(1);
    }

    /// Takes the phase out, leaving the table waiting (gauges follow).
    pub(super) fn take_phase(&mut self) -> Phase {
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
            Phase::Stalled(stall) => Some(stall.retry_at),
        };
        away.chain(phase)
            .chain(self.fill_at)
            .chain(self.renew_at)
            .min()
    }

    /// Everything due now: nonces that did not come, turns that ran out, seats away too
    /// long, quick play's computers.
    pub(super) async fn on_timer(&mut self) {
        self.renew_if_due().await;
        if self.closed {
            return;
        }
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
        self.retry_stalled().await;
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
            .map_or("random", |g| hall.computer_at(g, &self.options));
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
        let own = self.own.clone();
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
                        let own = own.clone();
                        hall.bots.think(game_name, task, delay, move |result| {
                            // Fails only once the table has closed, when no move matters.
                            let _ = own.send(super::Cmd::BotMoved {
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
                .turn_seconds_in(clock.phase)
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
        if !self.still_owned().await {
            self.unowned_move(seat);
            return self.refuse(
                from,
                Refusal::new(
                    ErrorCode::Storage,
                    "another server has taken this table over; reconnect to go on playing",
                ),
            );
        }
        let stale_before = match &self.phase {
            Phase::Playing(run) if run.acting.contains(&seat) => {
                run.turn_since.get(seat).copied().unwrap_or(self.changed_at)
            }
            Phase::Playing(_) => self.changed_at,
            Phase::Stalled(_) => {
                return self.refuse(
                    from,
                    Refusal::new(
                        ErrorCode::Storage,
                        "the server is waiting for its storage; nothing was taken, try again in a moment",
                    ),
                )
            }
            _ => return self.refuse(from, Refusal::new(ErrorCode::WrongPhase, "no game is being played")),
        };
        if seq.is_some_and(|s| s < stale_before) {
            return self.refuse(
                from,
                Refusal::new(
                    ErrorCode::Stale,
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
        let Some(fence) = self.lease.as_ref().map(|l| l.fence()) else {
            return;
        };
        let committing = Instant::now();
        let stored = self
            .hall
            .store
            .append_action(
                &fence,
                &run.game_id,
                index,
                applied.seat,
                &applied.public,
                sealed,
            )
            .await;
        self.hall
            .metrics
            .action_commit_seconds
            .observe(committing.elapsed().as_secs_f64());
        if let Err(e) = stored {
            if self.fenced(&e) {
                // Another node owns the table now: nothing of this move is applied.
                self.unowned_move(applied.seat);
                return;
            }
            // Not durable, so not accepted: rebuild the game from what is stored.
            tracing::error!(table = %self.id, error = %e, "cannot store an action");
            return self
                .reload_game("the server could not store that move; try again")
                .await;
        }
        let now = Instant::now();
        if let Phase::Playing(run) = &mut self.phase {
            let spent = now.saturating_duration_since(run.turn_started);
            // The time since the turn began is the acting seats', also when another seat
            // acted off turn (a Gomoku undo asked while the opponent thinks).
            let charged = if run.acting.contains(&applied.seat) {
                vec![applied.seat]
            } else {
                run.acting.clone()
            };
            for seat in charged {
                if let Some(bank) = run.banks.get_mut(seat) {
                    *bank = bank.saturating_sub(spent);
                }
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
        self.tell_storage(why);
        self.set_phase(Phase::Waiting);
        self.rebuild_game().await;
    }

    /// After a restart (or a failed write): the table's unfinished game, rebuilt from its
    /// journal and checked against its commitment.
    /// A store that cannot be read is the caller's to wait for ([`super::stall`]); a
    /// journal that does not replay is logged, and the table waits for a new game.
    pub(super) async fn resume_game(&mut self) -> Result<(), StoreError> {
        let Some(unfinished) = self.hall.store.unfinished_game(&self.id).await? else {
            return Ok(());
        };
        let hall = self.hall.clone();
        let Ok(game) = hall.registry.get(&self.game) else {
            return Ok(());
        };
        match game.resume(&unfinished.journal, unfinished.seed) {
            Ok(table) => {
                let bank = Duration::from_secs(u64::from(
                    self.options.game_seconds.or(game.game_clock()).unwrap_or(0),
                ));
                tracing::info!(table = %self.id, game = %unfinished.journal.id, actions = unfinished.journal.actions.len(), "resumed");
                self.ready_for_resumed_game();
                self.start_running(unfinished.journal.id.clone(), table, bank)
                    .await;
            }
            Err(e) => tracing::error!(table = %self.id, error = %e, "cannot resume the game"),
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "play_tests.rs"]
mod tests;
