//! Tables: one task each, owning its seats, its current game and its match alone.
//!
//! Connections send a table [`Cmd`]s through its [`TableHandle`]; the table answers errors
//! to the asker and publishes everything else, numbered, to every connection watching it —
//! each its own seat's view, spectators the spectator's. Nothing else touches a table.
//!
//! * [`seats`]: who sits where — joining, standing, readiness, computers — and when a
//!   computer plays a person's seat;
//! * [`watchers`]: who follows the table — watching, resuming after a drop, chat, and
//!   closing the table when nobody is left;
//! * [`deal`]: a game's start — computers filling a quick-play table, the commitment and
//!   the nonces, the deal;
//! * [`play`]: a game's course — actions (committed, then broadcast), computers, timers;
//! * [`end`]: a game's end — the record, ratings and the match's totals, stored together;
//! * [`stall`]: waiting out a store that is out of reach, rather than going on without it;
//! * [`lease`]: the table's lease — claimed when it opens, renewed, and the stop of a
//!   table whose write was fenced because another claim came since;
//! * [`log`]: what was published, kept for clients that reconnect.

mod deal;
mod end;
mod lease;
pub(crate) mod log;
pub mod play;
pub mod seats;
mod stall;
mod watchers;

use crate::hall::{Hall, Refusal};
use crate::outbox::{ConnId, Outbox};
use crate::protocol::ErrorCode;
use crate::protocol::{ServerMessage, TableId, TableInfo, TableOptions, TableRequest, UserInfo};
use crate::store::{LastGame, Lease, StoredTable};
use game::{GameError, Seat};
use log::{Audience, Entry, Log};
use play::Phase;
use seats::SeatState;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// The way to a table.
#[derive(Clone)]
pub struct TableHandle {
    /// The table.
    pub id: TableId,
    /// Its game.
    pub game: String,
    commands: mpsc::Sender<Cmd>,
}

impl TableHandle {
    /// A handle whose commands go to `commands`: a table's task, or the forwarder of a
    /// table another node serves ([`crate::cluster`]).
    pub(crate) fn new(id: TableId, game: String, commands: mpsc::Sender<Cmd>) -> TableHandle {
        TableHandle { id, game, commands }
    }

    /// Sends a command; false when the table has closed.
    pub(crate) async fn send(&self, cmd: Cmd) -> bool {
        self.commands.send(cmd).await.is_ok()
    }
}

/// Who asks: a connection, its user if logged in, and the way back to it.
#[derive(Clone)]
pub struct Client {
    /// The connection.
    pub conn: ConnId,
    /// Its user.
    pub user: Option<UserInfo>,
    /// Where answers go.
    pub out: Outbox,
}

/// What a table can be asked: a client's request, whole as the client sent it, or what
/// the hall and the table's own helpers tell it.
pub(crate) enum Cmd {
    /// A client's request, received at `at` (when an action's latency starts).
    Request {
        from: Client,
        request: TableRequest,
        at: Instant,
    },
    /// Seat the hall's client (at `seat`, or the first free seat), as creating a table
    /// and quick play do; `ready` for the next game at once, as quick play sits people
    /// (they asked to play now, and are not asked again).
    Sit {
        from: Client,
        seat: Option<usize>,
        invite: Option<String>,
        ready: bool,
    },
    /// A connection closed.
    Gone { conn: ConnId },
    /// The connection's person changed or was renamed: a guest who registered keeps its
    /// account under the new name, a login or a new guest puts another account behind the
    /// connection (see [`TableTask::user_changed`]).
    User { from: Client },
    /// A connection at its bound of tables asks to stop following this one: `done` hears
    /// whether it did (not while the connection's person holds a seat here).
    Unfollow {
        conn: ConnId,
        done: oneshot::Sender<bool>,
    },
    /// A computer chose (see [`play`]).
    BotMoved {
        game_id: String,
        seat: Seat,
        turn: u64,
        result: Result<Value, GameError>,
    },
    /// Stop: the server is shutting down. The table stops between two commands, so no
    /// move is half applied; it lets go of its lease if `release` (a drain: another node
    /// takes it over at once), else keeps it for this node to claim again when it restarts.
    Shutdown {
        done: oneshot::Sender<()>,
        release: bool,
    },
}

/// A connection watching the table.
struct Sub {
    user: Option<UserInfo>,
    out: Outbox,
}

/// The table task's state.
pub struct TableTask {
    hall: Arc<Hall>,
    id: TableId,
    game: String,
    options: TableOptions,
    invite: Option<String>,
    host: UserInfo,
    seats: Vec<SeatState>,
    subs: HashMap<ConnId, Sub>,
    seq: u64,
    /// The sequence number of the last change to the game: an action sent against an
    /// older one is stale.
    changed_at: u64,
    log: Log,
    phase: Phase,
    games: u64,
    totals: Vec<i64>,
    next_config: Value,
    /// Quick play: when computers fill the empty seats.
    fill_at: Option<Instant>,
    /// Opened by quick play.
    quick: bool,
    /// Times opened, this one included (see [`StoredTable::epoch`]).
    epoch: u64,
    /// The last finished game (see [`StoredTable::last_game`]).
    last_game: Option<LastGame>,
    /// The way back to the table for its own computers' moves: apart from the clients'
    /// bounded queue and unbounded, so a move is never dropped for a queue full of
    /// requests (at most one move a seat is ever on its way).
    own: mpsc::UnboundedSender<Cmd>,
    /// The seats as last published (with `fill_ms` left out, and when computers fill
    /// them), so that a request that changes nothing publishes nothing.
    published: Option<(TableInfo, Option<Instant>)>,
    /// The table's lease: every write carries its epoch. `None` before the claim, and
    /// after a write was fenced (the table then stops).
    lease: Option<Lease>,
    /// When the lease is renewed next.
    renew_at: Option<Instant>,
    closed: bool,
}

/// A stored table as the lobby shows it before its task has started (right after a
/// restart: nobody connected yet, no game running).
pub fn stored_info(stored: &StoredTable) -> TableInfo {
    TableInfo {
        id: stored.id.clone(),
        game: stored.game.clone(),
        status: "waiting".into(),
        seats: stored
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatState::restored(s, Instant::now()).info(i))
            .collect(),
        spectators: 0,
        options: stored.options.clone(),
        host: stored.host.name.clone(),
        games: stored.games,
        totals: stored.totals.clone(),
        quick: stored.quick,
        fill_ms: None,
    }
}

/// Opens a new table and starts its task, under `lease` if the caller claimed it (a new
/// table); a restored one claims its own first.
pub fn open(
    hall: Arc<Hall>,
    stored: StoredTable,
    lease: Option<Lease>,
) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let (commands, inbox) = mpsc::channel(1024);
    let (own, own_inbox) = mpsc::unbounded_channel();
    let handle = TableHandle {
        id: stored.id.clone(),
        game: stored.game.clone(),
        commands,
    };
    let mut task = TableTask::new(hall, stored, own);
    task.renew_at = lease
        .as_ref()
        .map(|_| Instant::now() + task.hall.config.timing.lease_renew);
    task.lease = lease;
    let join = tokio::spawn(task.run(inbox, own_inbox));
    (handle, join)
}

impl TableTask {
    /// The table as stored, between games, its task not yet started; `own` is the way
    /// back to it for its computers' moves.
    fn new(hall: Arc<Hall>, stored: StoredTable, own: mpsc::UnboundedSender<Cmd>) -> TableTask {
        let now = Instant::now();
        let seats: Vec<SeatState> = stored
            .seats
            .iter()
            .map(|s| SeatState::restored(s, now))
            .collect();
        // A quick-play table restored with people waiting at it (a restart, or another
        // node taking it over) counts down again: its computers would otherwise never come.
        let waiting =
            seats.iter().any(|s| s.person.is_some()) && seats.iter().any(SeatState::is_empty);
        TableTask {
            fill_at: (stored.quick && waiting).then(|| now + hall.config.timing.quick_play_wait),
            seats,
            log: Log::new(hall.config.timing.replay_buffer),
            quick: stored.quick,
            epoch: stored.epoch + 1,
            last_game: stored.last_game,
            hall,
            id: stored.id,
            game: stored.game,
            options: stored.options,
            invite: stored.invite,
            host: stored.host,
            subs: HashMap::new(),
            seq: (stored.epoch + 1) << 32,
            changed_at: (stored.epoch + 1) << 32,
            phase: Phase::Waiting,
            games: stored.games,
            totals: stored.totals,
            next_config: stored.next_config,
            own,
            published: None,
            lease: None,
            renew_at: None,
            closed: false,
        }
    }

    /// The task: resumes an unfinished game, then serves commands and timers until closed.
    async fn run(mut self, mut inbox: mpsc::Receiver<Cmd>, mut own: mpsc::UnboundedReceiver<Cmd>) {
        if self.lease.is_none() && !self.claim().await {
            return;
        }
        self.save().await;
        self.rebuild_game().await;
        self.count_state(1);
        self.publish_seats();
        loop {
            let wake = self.next_wake();
            let cmd = tokio::select! {
                // The task holds a sender of its own: this never ends the loop.
                Some(cmd) = own.recv() => Some(cmd),
                cmd = inbox.recv() => cmd,
                _ = sleep_until(wake) => {
                    self.on_timer().await;
                    None
                }
            };
            match cmd {
                Some(Cmd::Shutdown { done, release }) => {
                    if release {
                        self.release().await;
                    }
                    let _ = done.send(());
                    break;
                }
                Some(cmd) => self.handle(cmd).await,
                None if wake.is_none() && inbox.is_closed() => break,
                None => {}
            }
            if self.closed {
                break;
            }
        }
        self.count_state(-1);
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Request { from, request, at } => self.request(from, request, at).await,
            Cmd::Sit {
                from,
                seat,
                invite,
                ready,
            } => self.join(from, seat, invite, ready).await,
            Cmd::Gone { conn } => self.gone(conn).await,
            Cmd::User { from } => self.user_changed(from).await,
            Cmd::Unfollow { conn, done } => {
                let let_go = !self.seated_connection(conn);
                if let_go {
                    self.gone(conn).await;
                }
                let _ = done.send(let_go);
            }
            Cmd::BotMoved {
                game_id,
                seat,
                turn,
                result,
            } => self.bot_moved(&game_id, seat, turn, result).await,
            Cmd::Shutdown { .. } => {}
        }
    }

    /// A client's request.
    async fn request(&mut self, from: Client, request: TableRequest, at: Instant) {
        match request {
            TableRequest::Join(r) => self.join(from, r.seat, r.invite, false).await,
            TableRequest::Watch(r) => self.watch(from, r.invite),
            TableRequest::Resume(r) => self.resume(from, r.last_seq, r.invite).await,
            TableRequest::Stand(_) => self.stand(&from, false).await,
            TableRequest::Leave(_) => self.stand(&from, true).await,
            TableRequest::Ready(r) => self.ready(&from, r.ready).await,
            TableRequest::AddBot(r) => self.add_bot(&from, r.seat, r.bot).await,
            TableRequest::RemoveBot(r) => self.remove_bot(&from, r.seat).await,
            TableRequest::Nonce(r) => self.nonce(&from, &r.game_id, &r.nonce).await,
            TableRequest::Act(r) => self.act(&from, r.action, r.seq, at).await,
            TableRequest::Auto(r) => self.auto(&from, r.on).await,
            TableRequest::Chat { text, .. } => self.chat(&from, text),
        }
    }

    fn refuse(&self, to: &Client, refusal: Refusal) {
        self.hall
            .metrics
            .errors
            .with_label_values(&[refusal.code.as_str()])
            .inc();
        to.out.send(&ServerMessage::error(
            refusal.code,
            refusal.message,
            Some(&self.id),
        ));
    }

    /// The seat `user` holds here.
    fn seat_of(&self, user: &UserInfo) -> Option<Seat> {
        self.seats.iter().position(|s| s.holds(user))
    }

    /// The seat a client plays, or a refusal.
    fn seated(&self, from: &Client) -> Result<Seat, Refusal> {
        let user = from.user.as_ref().ok_or_else(Refusal::not_logged_in)?;
        self.seat_of(user)
            .ok_or_else(|| Refusal::new(ErrorCode::NotSeated, "you have no seat at this table"))
    }

    fn audience(&self, user: Option<&UserInfo>) -> Audience {
        match user.and_then(|u| self.seat_of(u)) {
            Some(s) => Audience::Seat(s),
            None => Audience::Spectator,
        }
    }

    /// The table as the lobby and players see it.
    pub fn info(&self) -> TableInfo {
        TableInfo {
            id: self.id.clone(),
            game: self.game.clone(),
            status: self.phase.name().into(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| s.info(i))
                .collect(),
            spectators: self
                .subs
                .values()
                .filter(|s| self.audience(s.user.as_ref()) == Audience::Spectator)
                .count(),
            options: self.options.clone(),
            host: self.host.name.clone(),
            games: self.games,
            totals: self.totals.clone(),
            quick: self.quick,
            fill_ms: self.fill_at.map(|t| {
                let left = t.saturating_duration_since(Instant::now()).as_millis();
                u64::try_from(left).unwrap_or(u64::MAX)
            }),
        }
    }

    /// The table as stored.
    pub fn stored(&self) -> StoredTable {
        StoredTable {
            id: self.id.clone(),
            game: self.game.clone(),
            options: self.options.clone(),
            invite: self.invite.clone(),
            host: self.host.clone(),
            seats: self.seats.iter().map(SeatState::stored).collect(),
            games: self.games,
            totals: self.totals.clone(),
            next_config: self.next_config.clone(),
            quick: self.quick,
            epoch: self.epoch,
            last_game: self.last_game.clone(),
        }
    }

    async fn save(&mut self) {
        let Some(fence) = self.fence() else { return };
        if let Err(e) = self.hall.store.save_table(&fence, &self.stored()).await {
            if !self.fenced(&e) {
                tracing::error!(table = %self.id, error = %e, "cannot save the table");
            }
        }
    }

    /// Publishes an entry to everyone watching, each in their form.
    fn publish(&mut self, entry: Entry) {
        self.seq += 1;
        let seq = self.seq;
        // Encode once per audience, not once per connection.
        let mut encoded: HashMap<Audience, Option<Arc<str>>> = HashMap::new();
        let chat_from = match &entry {
            Entry::Chat { from, .. } => Some(from.clone()),
            _ => None,
        };
        let mut lagging = Vec::new();
        for (conn, sub) in &self.subs {
            if chat_from.as_deref().is_some_and(|f| sub.out.mutes(f)) {
                continue;
            }
            let audience = self.audience(sub.user.as_ref());
            let text = encoded
                .entry(audience)
                .or_insert_with(|| {
                    let mut m = log::message(&self.id, seq, &entry, audience)?;
                    if let ServerMessage::Action { game, .. } = &mut m {
                        *game = self.phase.state_for(self, audience);
                    }
                    Some(m.to_text().into())
                })
                .clone();
            if let Some(text) = text {
                self.hall.metrics.messages_out.inc();
                if !sub.out.send_text(text) {
                    lagging.push(*conn);
                }
            }
        }
        for conn in lagging {
            self.subs.remove(&conn);
        }
        self.log.push(seq, entry);
    }

    /// Publishes who sits where, to the table and the lobby.
    ///
    /// Only a change is published: watching again, resuming or any request that leaves
    /// the seats as they were costs the table's watchers and the lobby nothing, so a client
    /// cannot make the server send others frames by asking the same thing over and over.
    fn publish_seats(&mut self) {
        let info = self.info();
        let key = (
            TableInfo {
                fill_ms: None,
                ..info.clone()
            },
            self.fill_at,
        );
        if self.published.as_ref() == Some(&key) {
            return;
        }
        self.published = Some(key);
        self.hall.lobby.update(info.clone());
        self.publish(Entry::Seats(info));
    }

    /// A full snapshot for one connection.
    fn snapshot(&self, user: Option<&UserInfo>) -> ServerMessage {
        let audience = self.audience(user);
        ServerMessage::Table {
            table: self.id.clone(),
            seq: self.seq,
            info: self.info(),
            you: match audience {
                Audience::Seat(s) => Some(s),
                Audience::Spectator => None,
            },
            game: self.phase.state_for(self, audience),
        }
    }

    /// Counts the table in the `tables` gauge under its game and state.
    fn count_state(&self, delta: i64) {
        self.hall
            .metrics
            .tables
            .with_label_values(&[self.game.as_str(), self.phase.name()])
            .add(delta);
    }
}

async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}
