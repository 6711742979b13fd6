//! A player at its table: sits down (the host opens the table and seats the computers),
//! plays games with a bot choosing from its own view, as a person would from the screen,
//! and keeps what it saw of each game for the record check.
//!
//! When its connection drops (its node died, or closed it to say a table moved), it
//! connects again to another node and resumes the table with the last sequence number it
//! saw, as the browser and terminal clients do. What the table replays is counted once,
//! by sequence number. When it cannot know how many actions it missed (the table was
//! taken over by another node, whose replay starts afresh), what it sees next is a new
//! [`Segment`] of the game, whose place in the record the check finds.

use super::client::{dropped, reconnect, Ctx, Pace, SeatPlan, Session, Step, STALL};
use super::stats::{GameSeen, Live, Segment, Tally, View};
use game::Seed;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use server::client::{ClientError, Connection};
use server::protocol::request;
use server::protocol::{ClientMessage, ErrorCode, GameState, ServerMessage, TableOptions};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How long a resume may go unanswered before the client tries another node (the node it
/// reached may have sent the request to a node that died).
const RESUME_WAIT: Duration = Duration::from_secs(5);

/// A resume on its way: from which sequence number, until when it is awaited, and whether
/// the table replayed anything yet.
struct Resuming {
    from_seq: u64,
    by: Instant,
    replayed: bool,
}

/// A player's state at its table.
pub struct Player {
    plan: SeatPlan,
    rng: SmallRng,
    table: String,
    seq: u64,
    state: Option<GameState>,
    game_id: Option<String>,
    /// The current game's stretches before the one being followed.
    done: Vec<Segment>,
    /// The stretch being followed.
    seg: Segment,
    /// A game is being dealt or played.
    in_game: bool,
    /// Bumped whenever the game state is replaced.
    version: u64,
    /// The state version this client last moved at: it moves again only on a new state.
    acted_at: Option<u64>,
    /// When this client's move on its way was sent, and on which connection.
    sent_at: Option<(Instant, u64)>,
    /// Moves of this game given up at a resume whose broadcast may yet come: one sent to
    /// a table across nodes while Redis restarts can reach it after the resume's
    /// snapshot. Its broadcast then is late, not a move applied twice (the same turn's
    /// move sent again after the resume is refused as stale).
    unsettled: u32,
    move_at: Option<Instant>,
    ready_at: Option<Instant>,
    /// Connections made so far (the latency of a move counts only on the connection it
    /// was sent on).
    connection: u64,
    resuming: Option<Resuming>,
    /// Connect again at once: the table is not where this connection reaches it.
    again: bool,
    moves: u64,
    seed: u64,
}

impl Player {
    /// Client `index`'s player of `plan`'s seat.
    pub fn new(plan: SeatPlan, index: u64) -> Player {
        Player {
            plan,
            rng: SmallRng::seed_from_u64(index ^ 0x9e37_79b9_7f4a_7c15),
            table: String::new(),
            seq: 0,
            state: None,
            game_id: None,
            done: Vec::new(),
            seg: Segment::default(),
            in_game: false,
            version: 0,
            acted_at: None,
            sent_at: None,
            unsettled: 0,
            move_at: None,
            ready_at: None,
            connection: 0,
            resuming: None,
            again: false,
            moves: 0,
            seed: index,
        }
    }

    fn think(&mut self, pace: Pace) -> Duration {
        let (lo, hi) = pace.think_ms;
        Duration::from_millis(if hi > lo {
            self.rng.random_range(lo..=hi)
        } else {
            lo
        })
    }

    /// Acknowledged actions of the game in hand.
    fn acks(&self) -> u64 {
        let before: usize = self.done.iter().map(|s| s.acks.len()).sum();
        (before + self.seg.acks.len()) as u64
    }

    /// Sits down: the host opens the table and seats the computers; the others join.
    async fn sit(&mut self, ctx: &Ctx, conn: &mut Connection) -> Result<bool, ClientError> {
        if self.plan.host {
            conn.send(&ClientMessage::CreateTable {
                game: self.plan.game.clone(),
                options: TableOptions {
                    seats: Some(self.plan.seats),
                    ..TableOptions::default()
                },
            })
            .await?;
            let id = loop {
                match conn.recv_within(STALL).await? {
                    ServerMessage::Created { table, .. } => break table,
                    ServerMessage::Error { code, message, .. } => {
                        return Err(ClientError::Refused { code, message })
                    }
                    _ => {}
                }
            };
            for (seat, bot) in self.plan.computers.clone() {
                conn.send(&ClientMessage::AddBot(request::AddBot {
                    table: id.clone(),
                    seat,
                    bot,
                }))
                .await?;
            }
            self.table = id.clone();
            self.plan.table.send_replace(Some(id));
        } else {
            let mut rx = self.plan.table.subscribe();
            let mut step = ctx.step.clone();
            let id = tokio::select! {
                id = rx.wait_for(Option::is_some) => id.ok().and_then(|id| id.clone()),
                _ = step.wait_for(|s| *s >= Step::Stop) => None,
            };
            let Some(id) = id else { return Ok(false) };
            self.table = id.clone();
            conn.send(&ClientMessage::Join(request::Join {
                table: id,
                seat: Some(self.plan.seat),
                invite: None,
            }))
            .await?;
        }
        Ok(true)
    }

    /// Plays games until the run stops (finishing the game in hand) or aborts, connecting
    /// again whenever the connection drops.
    pub async fn play(
        &mut self,
        ctx: &Ctx,
        mut conn: Connection,
        session: &mut Session,
        tally: &mut Tally,
        arrived: &mut bool,
    ) -> Result<(), ClientError> {
        if !self.sit(ctx, &mut conn).await? {
            conn.close().await;
            return Ok(());
        }
        ctx.arrive(arrived);
        let mut step = ctx.step.clone();
        let mut said_ready = false;
        loop {
            let now = *step.borrow_and_update();
            if now == Step::Abort {
                tally.unfinished_acks += self.acks();
                conn.close().await;
                return Ok(());
            }
            if now >= Step::Stop && !self.in_game {
                conn.close().await;
                return Ok(());
            }
            if now == Step::Go && !said_ready {
                said_ready = true;
                self.ready_at = Some(Instant::now());
            }
            let stuck = self
                .resuming
                .as_ref()
                .is_some_and(|r| r.by <= Instant::now());
            if self.again || stuck {
                self.again = false;
                conn.close().await;
                conn = self.back(ctx, session).await?;
                continue;
            }
            if self.move_at.is_none() && self.may_move() {
                // After the window the game in hand is finished flat out.
                let think = if now == Step::Go {
                    self.think(ctx.pace)
                } else {
                    Duration::ZERO
                };
                self.move_at = Some(Instant::now() + think);
            }
            // While a resume is awaited, only its deadline wakes the player.
            let wake = match &self.resuming {
                Some(r) => [None, None, Some(r.by)],
                None => [self.move_at, self.ready_at, None],
            }
            .into_iter()
            .flatten()
            .min();
            let result = tokio::select! {
                m = conn.recv_within(STALL) => match m {
                    Ok(m) => self.take(ctx, &mut conn, m, tally).await,
                    Err(e) => Err(e),
                },
                _ = sleep_until(wake) => self.due(ctx, &mut conn).await,
                _ = step.changed() => Ok(()),
            };
            match result {
                Ok(()) => {}
                // Done with the run and with games: nothing to come back for.
                Err(e) if dropped(&e) && ctx.now() >= Step::Stop && !self.in_game => return Ok(()),
                Err(e) if dropped(&e) => {
                    self.plan.outage.dropped(&ctx.live);
                    conn = self.back(ctx, session).await?;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Connects again (to another node) and resumes the table from the last sequence
    /// number seen.
    async fn back(&mut self, ctx: &Ctx, session: &mut Session) -> Result<Connection, ClientError> {
        let resume = ClientMessage::Resume(request::Resume {
            table: self.table.clone(),
            last_seq: self.seq,
            invite: None,
        });
        let conn = reconnect(ctx, session, &resume).await?;
        self.connection += 1;
        self.move_at = None;
        self.resuming = Some(Resuming {
            from_seq: self.seq,
            by: Instant::now() + RESUME_WAIT,
            replayed: false,
        });
        Ok(conn)
    }

    /// Whether this client is to move in a state it has not moved in, with no move of its
    /// own still on its way, and not in the middle of a resume.
    fn may_move(&self) -> bool {
        self.sent_at.is_none()
            && self.resuming.is_none()
            && self.acted_at != Some(self.version)
            && self
                .state
                .as_ref()
                .is_some_and(|s| s.to_act.contains(&self.plan.seat) && !s.legal.is_empty())
    }

    fn set_state(&mut self, state: Option<GameState>) {
        self.state = state;
        self.version += 1;
    }

    /// A timer fired: make the move, or say ready.
    async fn due(&mut self, ctx: &Ctx, conn: &mut Connection) -> Result<(), ClientError> {
        let now = Instant::now();
        if self.move_at.is_some_and(|t| t <= now) {
            self.move_at = None;
            if self.may_move() {
                let action = self.choose(ctx).await;
                self.acted_at = Some(self.version);
                self.sent_at = Some((Instant::now(), self.connection));
                conn.send(&ClientMessage::Act(request::Act {
                    table: self.table.clone(),
                    action,
                    seq: Some(self.seq),
                }))
                .await?;
            }
        }
        if self.ready_at.is_some_and(|t| t <= now) && self.resuming.is_none() {
            self.ready_at = None;
            if ctx.now() == Step::Go {
                conn.send(&ClientMessage::Ready(request::Ready {
                    table: self.table.clone(),
                    ready: true,
                }))
                .await?;
            }
        }
        Ok(())
    }

    /// The move the bot chooses from this seat's view (on a blocking thread: a searching
    /// bot must not hold up other clients' messages); the first legal move if it fails.
    async fn choose(&mut self, ctx: &Ctx) -> serde_json::Value {
        let Some(state) = &self.state else {
            return serde_json::Value::Null;
        };
        self.moves += 1;
        let seed = Seed::from_u64(self.seed.wrapping_mul(1_000_003) ^ self.moves);
        let (view, legal) = (state.view.clone(), state.legal.clone());
        let first = legal[0].clone();
        let (registry, game, bot, seat) = (
            ctx.registry.clone(),
            self.plan.game.clone(),
            self.plan.bot.clone(),
            self.plan.seat,
        );
        let chosen = tokio::task::spawn_blocking(move || {
            registry
                .get(&game)
                .and_then(|g| g.bot_act(&bot, &seed, seat, &view, &legal))
                .map_err(|e| e.to_string())
        })
        .await
        .unwrap_or_else(|e| Err(e.to_string()));
        chosen.unwrap_or_else(|e| {
            tracing::debug!(error = %e, "the bot failed");
            ctx.live.error("bot");
            first
        })
    }

    /// Whether a numbered message is news (a number not seen before; a replay of one seen
    /// is not), taking its number as the last seen.
    ///
    /// The first message of a resume that does not follow the last one seen means the
    /// replay starts past a gap (the table moved to another node, whose numbers begin at
    /// its new epoch, or its replay buffer no longer reaches back): what this client saw of
    /// the game in hand ends there, and a `game_over` resent from the store must not make
    /// it look whole.
    fn fresh(&mut self, seq: u64) -> bool {
        if seq <= self.seq {
            return false;
        }
        self.seq = seq;
        if let Some(r) = &mut self.resuming {
            let gap = !r.replayed && seq != r.from_seq + 1;
            r.replayed = true;
            if gap {
                self.lose_track();
            }
        }
        true
    }

    /// What this client saw of the game in hand stops here: what it sees next is a new
    /// stretch, placed in the record on its own.
    fn lose_track(&mut self) {
        let next = Segment::default();
        self.done.push(std::mem::replace(&mut self.seg, next));
    }

    /// Takes in one message.
    async fn take(
        &mut self,
        ctx: &Ctx,
        conn: &mut Connection,
        m: ServerMessage,
        tally: &mut Tally,
    ) -> Result<(), ClientError> {
        let live = &ctx.live;
        match m {
            ServerMessage::Table {
                table, seq, game, ..
            } if table == self.table => self.snapshot(ctx, seq, game, tally),
            ServerMessage::Commitment {
                table,
                seq,
                game_id,
                ..
            } if table == self.table => {
                if !self.fresh(seq) {
                    return Ok(());
                }
                self.in_game = true;
                let nonce: [u8; 16] = self.rng.random();
                conn.send(&ClientMessage::Nonce(request::Nonce {
                    table,
                    game_id,
                    nonce: hex(&nonce),
                }))
                .await?;
            }
            ServerMessage::Action {
                table,
                seq,
                seat,
                action,
                game,
                timed_out,
                ..
            } if table == self.table => {
                if !self.fresh(seq) {
                    live.replayed.fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
                if game.is_some() {
                    self.plan.outage.played(live);
                }
                if seat == self.plan.seat {
                    self.own(live, tally, timed_out);
                    self.seg.acks.push((self.seg.seats.len(), action));
                }
                self.seg.seats.push(u8::try_from(seat).unwrap_or(u8::MAX));
                if self.plan.host {
                    live.count(&live.actions, 1);
                }
                if game.is_some() {
                    self.set_state(game);
                }
            }
            ServerMessage::GameOver {
                table,
                seq,
                game_id,
                ..
            } if table == self.table => {
                if !self.fresh(seq) {
                    return Ok(());
                }
                self.game_over(ctx, game_id, tally);
            }
            ServerMessage::Seats { table, seq, .. } if table == self.table => {
                self.fresh(seq);
            }
            ServerMessage::Chat {
                table: Some(table),
                seq: Some(seq),
                ..
            } if table == self.table => {
                self.fresh(seq);
            }
            ServerMessage::Error { code, table, .. } => {
                let ours = table.as_deref() == Some(self.table.as_str());
                // The table is between nodes (its node died and no other serves it
                // yet), or this node lost it: connect again and resume.
                if ours && code == ErrorCode::NoTable {
                    self.again = true;
                } else {
                    live.error(code.as_str());
                    self.again |= ours && code == ErrorCode::Storage;
                }
                // A refused move is made again from the next state, not this one.
                if refuses_a_move(code) {
                    self.sent_at = None;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// This seat's action was broadcast: the acknowledgment of the move on its way, or,
    /// with none on its way, an action applied twice (unless the turn ran out, it is a
    /// replay after a resume, or it is a move given up at a resume that came late).
    fn own(&mut self, live: &Live, tally: &mut Tally, timed_out: bool) {
        match self.sent_at.take() {
            Some((sent, on))
                if live.in_window() && on == self.connection && self.resuming.is_none() =>
            {
                let us = sent.elapsed().as_micros() as u64;
                tally.latency(us);
                live.acked.fetch_add(1, Ordering::Relaxed);
            }
            Some(_) => {}
            None if !timed_out && self.resuming.is_none() && self.unsettled > 0 => {
                self.unsettled -= 1;
            }
            None if !timed_out && self.resuming.is_none() => {
                live.doubled.fetch_add(1, Ordering::Relaxed);
            }
            None => {}
        }
    }

    /// The table's snapshot: after a deal, the new game; at the end of a resume, the
    /// table as it is now, which says whether anything was missed.
    fn snapshot(&mut self, ctx: &Ctx, seq: u64, game: Option<GameState>, tally: &mut Tally) {
        let back = self.resuming.take();
        self.seq = self.seq.max(seq);
        let Some(back) = back else {
            if let Some(g) = game {
                if self.game_id.as_deref() != Some(g.game_id.as_str()) {
                    self.new_game(&ctx.live, tally, g.game_id.clone(), Some(0));
                }
                self.set_state(Some(g));
            }
            return;
        };
        // Whatever move was on its way is in this state, or comes late (`unsettled`).
        if self.sent_at.take().is_some() {
            self.unsettled += 1;
        }
        // A replay that started past a gap has said so already ([`Player::fresh`]); one that
        // sent nothing missed whatever the table numbered since.
        let missed = !back.replayed && seq > back.from_seq + 1;
        match game {
            Some(g) if self.game_id.as_deref() != Some(g.game_id.as_str()) => {
                self.new_game(&ctx.live, tally, g.game_id.clone(), None);
                self.set_state(Some(g));
            }
            Some(g) => {
                if missed {
                    self.lose_track();
                }
                self.set_state(Some(g));
            }
            None => {
                // Between games: the game in hand, if any, ended unseen; ready again.
                if self.state.is_some() {
                    self.abandon(&ctx.live, tally);
                }
                self.in_game = false;
                self.set_state(None);
                if ctx.now() == Step::Go {
                    self.ready_at = Some(Instant::now());
                }
            }
        }
    }

    /// A new game at the table; its first stretch starts at `start` (0 from its deal,
    /// unknown when first seen at a resume).
    fn new_game(&mut self, live: &Live, tally: &mut Tally, game_id: String, start: Option<usize>) {
        if self.game_id.is_some() && self.in_game && self.state.is_some() {
            self.abandon(live, tally);
        }
        if self.plan.host {
            live.playing.fetch_add(1, Ordering::Relaxed);
        }
        self.game_id = Some(game_id);
        self.done.clear();
        self.seg = Segment {
            start,
            ..Segment::default()
        };
        self.in_game = true;
        self.acted_at = None;
        self.sent_at = None;
        self.unsettled = 0;
    }

    /// The game in hand ended without this client seeing its end: what it acknowledged
    /// there cannot be checked.
    fn abandon(&mut self, live: &Live, tally: &mut Tally) {
        tally.unfinished_acks += self.acks();
        self.done.clear();
        self.seg = Segment::default();
        if self.plan.host {
            live.playing.fetch_sub(1, Ordering::Relaxed);
        }
        self.state = None;
    }

    /// A game ended: what this client saw of it goes to the tally.
    fn game_over(&mut self, ctx: &Ctx, game_id: String, tally: &mut Tally) {
        let live = &ctx.live;
        if self.game_id.as_deref() == Some(game_id.as_str()) && self.state.is_some() {
            if self.plan.host {
                live.playing.fetch_sub(1, Ordering::Relaxed);
                live.count(&live.games, 1);
            }
            let mut segments = std::mem::take(&mut self.done);
            segments.push(std::mem::take(&mut self.seg));
            tally.games.push(GameSeen {
                game_id,
                views: vec![View {
                    seat: self.plan.seat,
                    host: self.plan.host,
                    segments,
                }],
            });
        } else if self.state.is_some() {
            self.abandon(live, tally);
        }
        self.in_game = false;
        self.set_state(None);
        self.move_at = None;
        self.ready_at = Some(Instant::now() + self.think(ctx.pace));
    }
}

/// Whether an error with `code` may be the refusal of a move (and not of a nonce, a
/// ready or a chat line): the move on its way is then no longer awaited.
fn refuses_a_move(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::Stale
            | ErrorCode::NotYourTurn
            | ErrorCode::Illegal
            | ErrorCode::BadAction
            | ErrorCode::WrongPhase
            | ErrorCode::GameOver
            | ErrorCode::NotSeated
            | ErrorCode::NoTable
            | ErrorCode::Storage
            | ErrorCode::RateLimited
            | ErrorCode::BadMessage
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}
