//! One simulated person: a WebSocket client that logs in as a guest and then plays a seat
//! (choosing moves with a bot from its own view, as a person would from the screen),
//! watches a table, or just holds its connection.

use super::stats::{Ack, GameSeen, Live, Tally};
use game::{Registry, Seed};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use server::client::{ClientError, Connection};
use server::protocol::request;
use server::protocol::{ClientMessage, GameState, ServerMessage, TableOptions};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify, Semaphore};

/// How long a client waits for any message before calling its table stalled.
const STALL: Duration = Duration::from_secs(120);

/// Where the run is; every client follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// Connecting and sitting down.
    Setup,
    /// Playing, and measuring.
    Go,
    /// Finish the game in hand, start no other.
    Stop,
    /// Leave now.
    Abort,
}

/// How people pace their moves.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// Think time before a move (and before saying ready again), in milliseconds.
    pub think_ms: (u64, u64),
}

/// What every client shares.
pub struct Ctx {
    /// The server.
    pub url: String,
    /// The games, for the bots that choose moves.
    pub registry: Arc<Registry>,
    /// Live counters.
    pub live: Arc<Live>,
    /// The pace.
    pub pace: Pace,
    /// Bounds connections being opened at once (the server's accept backlog).
    pub connecting: Semaphore,
    /// The run's step.
    pub step: watch::Receiver<Step>,
    /// Clients done with their setup (successfully or not).
    pub arrived: AtomicUsize,
    /// Told whenever a client arrives.
    pub arrival: Notify,
    /// Local addresses the clients connect from, in turn (`--addresses`); 0 for the
    /// system's choice.
    pub addresses: usize,
}

/// The `k`th of the loopback addresses 127.`network`.0.1, 127.`network`.0.2, …: on
/// Linux every address of 127.0.0.0/8 is this machine's, so one load generator can stand
/// for clients at many addresses.
pub fn loopback(network: u8, k: usize) -> std::net::IpAddr {
    let (hi, lo) = (k / 250 % 250, k % 250 + 1);
    std::net::IpAddr::from([127, network, hi as u8, lo as u8])
}

impl Ctx {
    fn arrive(&self, arrived: &mut bool) {
        if !*arrived {
            *arrived = true;
            self.arrived.fetch_add(1, Ordering::AcqRel);
            self.arrival.notify_one();
        }
    }
}

/// One seat to play.
pub struct SeatPlan {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub seats: usize,
    /// This client's seat.
    pub seat: usize,
    /// The bot that chooses this client's moves.
    pub bot: String,
    /// Computers the host seats (seat, bot); empty for other players.
    pub computers: Vec<(usize, String)>,
    /// The host creates the table and publishes its id here; the others wait for it.
    pub table: watch::Sender<Option<String>>,
    /// Whether this client is the host (counts the table's actions and games).
    pub host: bool,
}

/// What a client does.
pub enum Role {
    /// Plays a seat.
    Player(SeatPlan),
    /// Watches the table whose id arrives here.
    Spectator(watch::Receiver<Option<String>>),
    /// Holds its connection.
    Idle,
}

/// The class an error is counted under.
fn class(e: &ClientError) -> String {
    match e {
        ClientError::Refused { code, .. } => code.to_string(),
        ClientError::Connection(_) => "connection".into(),
        ClientError::Closed { .. } => "closed".into(),
        ClientError::Unreadable(_) => "unreadable".into(),
        ClientError::Timeout(_) => "stalled".into(),
    }
}

/// Runs one client to the end of the run; its tally.
pub async fn run(ctx: Arc<Ctx>, role: Role, index: u64) -> Tally {
    let mut tally = Tally::new();
    let mut arrived = false;
    let opened = {
        let _permit = ctx.connecting.acquire().await;
        let from = (ctx.addresses > 0).then(|| loopback(0, 1 + index as usize % ctx.addresses));
        open(&ctx.url, from).await
    };
    match opened {
        Ok(mut conn) => {
            ctx.live.connections.fetch_add(1, Ordering::Relaxed);
            let result = match role {
                Role::Player(plan) => {
                    let mut p = Player::new(&ctx, plan, index);
                    p.play(&ctx, &mut conn, &mut tally, &mut arrived).await
                }
                Role::Spectator(table) => spectate(&ctx, &mut conn, table, &mut arrived).await,
                Role::Idle => {
                    ctx.arrive(&mut arrived);
                    wait_for(&ctx, Step::Stop).await;
                    Ok(())
                }
            };
            if let Err(e) = result {
                if *ctx.step.borrow() != Step::Abort {
                    tracing::debug!(error = %e, "a client failed");
                    ctx.live.error(&class(&e));
                }
            }
            ctx.live.connections.fetch_sub(1, Ordering::Relaxed);
            conn.close().await;
        }
        Err(e) => ctx.live.error(&format!("connect: {}", class(&e))),
    }
    ctx.arrive(&mut arrived);
    tally
}

async fn open(url: &str, from: Option<std::net::IpAddr>) -> Result<Connection, ClientError> {
    let (mut conn, _, _) = Connection::open_from(url, None, from).await?;
    conn.session(ClientMessage::Guest).await?;
    Ok(conn)
}

/// Waits until the run reaches `step` (or later).
async fn wait_for(ctx: &Ctx, step: Step) {
    let mut rx = ctx.step.clone();
    let _ = rx.wait_for(|s| *s >= step).await;
}

/// Watches a table until the run stops.
async fn spectate(
    ctx: &Ctx,
    conn: &mut Connection,
    mut table: watch::Receiver<Option<String>>,
    arrived: &mut bool,
) -> Result<(), ClientError> {
    let mut step = ctx.step.clone();
    let id = tokio::select! {
        id = table.wait_for(Option::is_some) => id.ok().and_then(|id| id.clone()),
        _ = step.wait_for(|s| *s >= Step::Stop) => None,
    };
    let Some(id) = id else { return Ok(()) };
    conn.send(&ClientMessage::Watch(request::Watch {
        table: id,
        invite: None,
    }))
    .await?;
    ctx.arrive(arrived);
    loop {
        tokio::select! {
            m = conn.recv() => {
                if let ServerMessage::Error { code, .. } = m? {
                    ctx.live.error(code.as_str());
                }
            }
            _ = step.wait_for(|s| *s >= Step::Stop) => return Ok(()),
        }
    }
}

/// A player's state at its table.
struct Player {
    plan: SeatPlan,
    rng: SmallRng,
    table: String,
    seq: u64,
    state: Option<GameState>,
    game_id: Option<String>,
    /// Actions of the current game seen so far.
    index: usize,
    acks: Vec<Ack>,
    /// A game is being dealt or played.
    in_game: bool,
    /// Bumped whenever the game state is replaced.
    version: u64,
    /// The state version this client last moved at: it moves again only on a new state.
    acted_at: Option<u64>,
    sent_at: Option<Instant>,
    move_at: Option<Instant>,
    ready_at: Option<Instant>,
    moves: u64,
    seed: u64,
}

impl Player {
    fn new(ctx: &Ctx, plan: SeatPlan, index: u64) -> Player {
        let _ = ctx;
        Player {
            plan,
            rng: SmallRng::seed_from_u64(index ^ 0x9e37_79b9_7f4a_7c15),
            table: String::new(),
            seq: 0,
            state: None,
            game_id: None,
            index: 0,
            acks: Vec::new(),
            in_game: false,
            version: 0,
            acted_at: None,
            sent_at: None,
            move_at: None,
            ready_at: None,
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

    /// Plays games until the run stops (finishing the game in hand) or aborts.
    async fn play(
        &mut self,
        ctx: &Ctx,
        conn: &mut Connection,
        tally: &mut Tally,
        arrived: &mut bool,
    ) -> Result<(), ClientError> {
        if !self.sit(ctx, conn).await? {
            return Ok(());
        }
        ctx.arrive(arrived);
        let mut step = ctx.step.clone();
        let mut said_ready = false;
        loop {
            let now = *step.borrow_and_update();
            if now == Step::Abort {
                tally.unfinished_acks += self.acks.len() as u64;
                return Ok(());
            }
            if now >= Step::Stop && !self.in_game {
                return Ok(());
            }
            if now == Step::Go && !said_ready {
                said_ready = true;
                self.ready_at = Some(Instant::now());
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
            let wake = match (self.move_at, self.ready_at) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            tokio::select! {
                m = conn.recv_within(STALL) => self.take(ctx, conn, m?, tally).await?,
                _ = sleep_until(wake) => self.due(ctx, conn).await?,
                _ = step.changed() => {}
            }
        }
    }

    /// Whether this client is to move in a state it has not moved in, with no move of its
    /// own still on its way.
    fn may_move(&self) -> bool {
        self.sent_at.is_none()
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
                self.sent_at = Some(Instant::now());
                conn.send(&ClientMessage::Act(request::Act {
                    table: self.table.clone(),
                    action,
                    seq: Some(self.seq),
                }))
                .await?;
            }
        }
        if self.ready_at.is_some_and(|t| t <= now) {
            self.ready_at = None;
            if *ctx.step.borrow() == Step::Go {
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
            } if table == self.table => {
                self.seq = seq;
                if let Some(g) = game {
                    if self.game_id.as_deref() != Some(g.game_id.as_str()) {
                        self.new_game(live, g.game_id.clone());
                    }
                    self.set_state(Some(g));
                }
            }
            ServerMessage::Commitment {
                table,
                seq,
                game_id,
                ..
            } if table == self.table => {
                self.seq = seq;
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
                ..
            } if table == self.table => {
                self.seq = seq;
                if seat == self.plan.seat {
                    if let Some(sent) = self.sent_at.take() {
                        if live.in_window() {
                            let us = sent.elapsed().as_micros() as u64;
                            tally.latency(us);
                            live.acked.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    self.acks.push(Ack {
                        index: self.index,
                        seat,
                        action,
                    });
                }
                self.index += 1;
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
                self.seq = seq;
                if self.plan.host {
                    live.playing.fetch_sub(1, Ordering::Relaxed);
                    live.count(&live.games, 1);
                }
                tally.games.push(GameSeen {
                    game_id,
                    actions: self.plan.host.then_some(self.index),
                    acks: std::mem::take(&mut self.acks),
                });
                self.in_game = false;
                self.set_state(None);
                self.move_at = None;
                self.ready_at = Some(Instant::now() + self.think(ctx.pace));
            }
            ServerMessage::Seats { table, seq, .. } if table == self.table => self.seq = seq,
            ServerMessage::Chat {
                table: Some(table),
                seq: Some(seq),
                ..
            } if table == self.table => self.seq = seq,
            ServerMessage::Error { code, .. } => {
                live.error(code.as_str());
                // A refused move is made again from the next state, not this one.
                self.sent_at = None;
            }
            _ => {}
        }
        Ok(())
    }

    fn new_game(&mut self, live: &Live, game_id: String) {
        if self.plan.host {
            live.playing.fetch_add(1, Ordering::Relaxed);
        }
        self.game_id = Some(game_id);
        self.index = 0;
        self.acks.clear();
        self.in_game = true;
        self.acted_at = None;
        self.sent_at = None;
    }
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
