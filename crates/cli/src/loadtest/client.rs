//! One simulated person: a WebSocket client that logs in as a guest and then plays a seat
//! ([`super::player`]), watches a table, or just holds its connection. Each connects to
//! a node of the hall chosen at random (from its own seed, so a run is repeatable); when
//! its connection drops it connects again to another node and resumes ([`reconnect`]).

use super::player::Player;
use super::stats::{Live, Outage, Tally};
use game::Registry;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use server::client::{ClientError, Connection};
use server::protocol::request;
use server::protocol::{ClientMessage, ErrorCode, ServerMessage};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify, Semaphore};

/// How long a client waits for any message before calling its table stalled.
pub const STALL: Duration = Duration::from_secs(120);

/// The first wait before connecting again after a drop; it doubles up to
/// [`LONGEST_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// The longest wait between two attempts to connect again.
const LONGEST_BACKOFF: Duration = Duration::from_secs(2);

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
    /// The hall's nodes (one for a hall of one node).
    pub urls: Vec<String>,
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
    /// Counts this client as done with its setup (once).
    pub fn arrive(&self, arrived: &mut bool) {
        if !*arrived {
            *arrived = true;
            self.arrived.fetch_add(1, Ordering::AcqRel);
            self.arrival.notify_one();
        }
    }

    /// The run's step now.
    pub fn now(&self) -> Step {
        *self.step.borrow()
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
    /// The table's interruptions, shared by its players.
    pub outage: Arc<Outage>,
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
pub fn class(e: &ClientError) -> String {
    match e {
        ClientError::Refused { code, .. } => code.to_string(),
        ClientError::Connection(_) => "connection".into(),
        ClientError::Closed { .. } => "closed".into(),
        ClientError::Unreadable(_) => "unreadable".into(),
        ClientError::Timeout(_) => "stalled".into(),
    }
}

/// Whether `e` is a connection that dropped or was closed by its server (it died, it
/// stopped, it lost the table): the client connects again rather than giving up.
pub fn dropped(e: &ClientError) -> bool {
    matches!(e, ClientError::Connection(_) | ClientError::Closed { .. })
}

/// A client's way back into the hall: its session, the node it is connected to, and
/// where it connects from.
pub struct Session {
    /// The session's token, which a new connection says hello with.
    pub token: String,
    /// The node it is connected to (an index into [`Ctx::urls`]).
    pub node: usize,
    /// The local address it connects from, if chosen.
    pub from: Option<std::net::IpAddr>,
    /// Its own randomness: which node next, how long to wait.
    pub rng: SmallRng,
}

/// Connects again, after a drop, to another node (any other, at random; the same one in
/// a hall of one node) with the session's token, waiting longer after each failure, and
/// sends `then` (a resume) on the new connection. Gives up when the run aborts or
/// after [`STALL`].
pub async fn reconnect(
    ctx: &Ctx,
    session: &mut Session,
    then: &ClientMessage,
) -> Result<Connection, ClientError> {
    ctx.live.reconnects.fetch_add(1, Ordering::Relaxed);
    let mut wait = FIRST_BACKOFF;
    let deadline = Instant::now() + STALL;
    let mut last = ClientError::Connection("no node answered".into());
    while Instant::now() < deadline && ctx.now() != Step::Abort {
        let jitter = session.rng.random_range(0..=wait.as_millis() as u64 / 2);
        tokio::time::sleep(wait + Duration::from_millis(jitter)).await;
        wait = (wait * 2).min(LONGEST_BACKOFF);
        let n = ctx.urls.len();
        if n > 1 {
            session.node = (session.node + session.rng.random_range(1..n)) % n;
        }
        let url = &ctx.urls[session.node];
        match Connection::open_from(url, Some(&session.token), session.from).await {
            Ok((mut conn, Some(_), _)) => match conn.send(then).await {
                Ok(()) => return Ok(conn),
                Err(e) => last = e,
            },
            Ok((_, None, _)) => {
                return Err(ClientError::Refused {
                    code: ErrorCode::BadToken,
                    message: "the session ended while reconnecting".into(),
                })
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Runs one client to the end of the run; its tally.
pub async fn run(ctx: Arc<Ctx>, role: Role, index: u64) -> Tally {
    let mut tally = Tally::new();
    let mut arrived = false;
    let mut rng = SmallRng::seed_from_u64(index ^ 0x5851_f42d_4c95_7f2d);
    let node = rng.random_range(0..ctx.urls.len().max(1));
    let from = (ctx.addresses > 0).then(|| loopback(0, 1 + index as usize % ctx.addresses));
    let opened = {
        let _permit = ctx.connecting.acquire().await;
        open(&ctx.urls[node], from).await
    };
    match opened {
        Ok((conn, token)) => {
            let mut session = Session {
                token,
                node,
                from,
                rng,
            };
            ctx.live.connections.fetch_add(1, Ordering::Relaxed);
            let result = match role {
                Role::Player(plan) => {
                    let mut p = Player::new(plan, index);
                    p.play(&ctx, conn, &mut session, &mut tally, &mut arrived)
                        .await
                }
                Role::Spectator(table) => {
                    spectate(&ctx, conn, &mut session, table, &mut arrived).await
                }
                Role::Idle => {
                    ctx.arrive(&mut arrived);
                    wait_for(&ctx, Step::Stop).await;
                    conn.close().await;
                    Ok(())
                }
            };
            if let Err(e) = result {
                if ctx.now() != Step::Abort {
                    tracing::debug!(error = %e, "a client failed");
                    ctx.live.error(&class(&e));
                }
            }
            ctx.live.connections.fetch_sub(1, Ordering::Relaxed);
        }
        Err(e) => ctx.live.error(&format!("connect: {}", class(&e))),
    }
    ctx.arrive(&mut arrived);
    tally
}

/// A new guest's connection to `url`, and its session's token.
async fn open(
    url: &str,
    from: Option<std::net::IpAddr>,
) -> Result<(Connection, String), ClientError> {
    let (mut conn, _, _) = Connection::open_from(url, None, from).await?;
    let (token, _) = conn.session(ClientMessage::Guest).await?;
    Ok((conn, token))
}

/// Waits until the run reaches `step` (or later).
pub async fn wait_for(ctx: &Ctx, step: Step) {
    let mut rx = ctx.step.clone();
    let _ = rx.wait_for(|s| *s >= step).await;
}

/// Watches a table until the run stops, watching again from another node when the
/// connection drops.
async fn spectate(
    ctx: &Ctx,
    mut conn: Connection,
    session: &mut Session,
    mut table: watch::Receiver<Option<String>>,
    arrived: &mut bool,
) -> Result<(), ClientError> {
    let mut step = ctx.step.clone();
    let id = tokio::select! {
        id = table.wait_for(Option::is_some) => id.ok().and_then(|id| id.clone()),
        _ = step.wait_for(|s| *s >= Step::Stop) => None,
    };
    let Some(id) = id else {
        conn.close().await;
        return Ok(());
    };
    let watch = ClientMessage::Watch(request::Watch {
        table: id,
        invite: None,
    });
    conn.send(&watch).await?;
    ctx.arrive(arrived);
    loop {
        // The step's guard must not live across an await: what came is looked at after.
        let m = tokio::select! {
            m = conn.recv() => m,
            _ = step.wait_for(|s| *s >= Step::Stop) => break,
        };
        match m {
            // The table is between nodes (its node died and no other has it yet).
            Ok(ServerMessage::Error { code, .. })
                if code == ErrorCode::NoTable && ctx.now() < Step::Stop =>
            {
                conn.close().await;
                conn = reconnect(ctx, session, &watch).await?;
            }
            Ok(ServerMessage::Error { code, .. }) => ctx.live.error(code.as_str()),
            Ok(_) => {}
            Err(e) if dropped(&e) && ctx.now() < Step::Stop => {
                conn = reconnect(ctx, session, &watch).await?;
            }
            Err(e) => return Err(e),
        }
    }
    conn.close().await;
    Ok(())
}
