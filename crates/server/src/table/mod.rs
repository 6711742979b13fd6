//! Tables: one task each, owning its seats, its current game and its match alone.
//!
//! Connections send a table [`Cmd`]s through its [`TableHandle`]; the table answers errors
//! to the asker and publishes everything else, numbered, to every connection watching it —
//! each its own seat's view, spectators the spectator's. Nothing else touches a table.
//!
//! * [`seats`]: who sits where, and when a computer plays a person's seat;
//! * [`play`]: a game's life — commitment and nonces, the deal, actions (committed, then
//!   broadcast), computers, timers, the end and the match's rotation;
//! * [`log`]: what was published, kept for clients that reconnect.

pub(crate) mod log;
pub mod play;
pub mod seats;

use crate::hall::{Hall, Refusal};
use crate::outbox::{ConnId, Outbox};
use crate::protocol::{ServerMessage, TableId, TableInfo, TableOptions, UserInfo};
use crate::store::{LastGame, StoredTable};
use game::{GameError, Seat};
use log::{Audience, Entry, Log};
use play::Phase;
use seats::{Auto, SeatState};
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

/// What a table can be asked (the fields name themselves: who asks, and the request's
/// own fields as in [`crate::protocol::ClientMessage`]).
pub(crate) enum Cmd {
    /// Sit down (at `seat`, or the first free seat).
    Join {
        from: Client,
        seat: Option<usize>,
        invite: Option<String>,
    },
    /// Watch.
    Watch {
        from: Client,
        invite: Option<String>,
    },
    /// Come back after a reconnect.
    Resume { from: Client, last_seq: u64 },
    /// Get up.
    Stand { from: Client },
    /// Get up and stop watching.
    Leave { from: Client },
    /// Ready or not.
    Ready { from: Client, ready: bool },
    /// Put a computer in a seat.
    AddBot {
        from: Client,
        seat: usize,
        bot: String,
    },
    /// Take a computer out.
    RemoveBot { from: Client, seat: usize },
    /// A nonce for the deal being prepared.
    Nonce {
        from: Client,
        game_id: String,
        nonce: String,
    },
    /// A move.
    Act {
        from: Client,
        action: Value,
        seq: Option<u64>,
        at: Instant,
    },
    /// 托管 on or off.
    Auto { from: Client, on: bool },
    /// Table chat.
    Chat { from: Client, text: String },
    /// A connection closed.
    Gone { conn: ConnId },
    /// A computer chose (see [`play`]).
    BotMoved {
        game_id: String,
        seat: Seat,
        turn: u64,
        result: Result<Value, GameError>,
    },
    /// Stop: the server is shutting down.
    Shutdown { done: oneshot::Sender<()> },
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
    commands: mpsc::Sender<Cmd>,
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
    }
}

/// Opens a new table and starts its task.
pub fn open(hall: Arc<Hall>, stored: StoredTable) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let now = Instant::now();
    let (commands, inbox) = mpsc::channel(1024);
    let handle = TableHandle {
        id: stored.id.clone(),
        game: stored.game.clone(),
        commands: commands.clone(),
    };
    let task = TableTask {
        seats: stored
            .seats
            .iter()
            .map(|s| SeatState::restored(s, now))
            .collect(),
        log: Log::new(hall.config.timing.replay_buffer),
        fill_at: None,
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
        commands,
        closed: false,
    };
    let join = tokio::spawn(task.run(inbox));
    (handle, join)
}

impl TableTask {
    /// The task: resumes an unfinished game, then serves commands and timers until closed.
    async fn run(mut self, mut inbox: mpsc::Receiver<Cmd>) {
        self.save().await;
        self.resume_game().await;
        self.count_state(1);
        self.publish_seats();
        loop {
            let wake = self.next_wake();
            let cmd = tokio::select! {
                cmd = inbox.recv() => cmd,
                _ = sleep_until(wake) => {
                    self.on_timer().await;
                    None
                }
            };
            match cmd {
                Some(Cmd::Shutdown { done }) => {
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
            Cmd::Join { from, seat, invite } => self.join(from, seat, invite).await,
            Cmd::Watch { from, invite } => self.watch(from, invite),
            Cmd::Resume { from, last_seq } => self.resume(from, last_seq).await,
            Cmd::Stand { from } => self.stand(&from, false).await,
            Cmd::Leave { from } => self.stand(&from, true).await,
            Cmd::Ready { from, ready } => self.ready(&from, ready).await,
            Cmd::AddBot { from, seat, bot } => self.add_bot(&from, seat, bot).await,
            Cmd::RemoveBot { from, seat } => self.remove_bot(&from, seat).await,
            Cmd::Nonce {
                from,
                game_id,
                nonce,
            } => self.nonce(&from, &game_id, &nonce).await,
            Cmd::Act {
                from,
                action,
                seq,
                at,
            } => self.act(&from, action, seq, at).await,
            Cmd::Auto { from, on } => self.auto(&from, on).await,
            Cmd::Chat { from, text } => self.chat(&from, text),
            Cmd::Gone { conn } => self.gone(conn).await,
            Cmd::BotMoved {
                game_id,
                seat,
                turn,
                result,
            } => self.bot_moved(&game_id, seat, turn, result).await,
            Cmd::Shutdown { .. } => {}
        }
    }

    fn refuse(&self, to: &Client, refusal: Refusal) {
        self.hall
            .metrics
            .errors
            .with_label_values(&[refusal.code])
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
            .ok_or_else(|| Refusal::new("not_seated", "you have no seat at this table"))
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

    async fn save(&self) {
        if let Err(e) = self.hall.store.save_table(&self.stored()).await {
            tracing::error!(table = %self.id, error = %e, "cannot save the table");
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
    fn publish_seats(&mut self) {
        let info = self.info();
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

    /// Adds (or replaces) a subscriber; a person's second connection takes over.
    fn subscribe(&mut self, from: &Client) {
        if let Some(user) = &from.user {
            let older: Vec<ConnId> = self
                .subs
                .iter()
                .filter(|(c, s)| {
                    **c != from.conn && s.user.as_ref().is_some_and(|u| u.id == user.id)
                })
                .map(|(c, _)| *c)
                .collect();
            for c in older {
                if let Some(sub) = self.subs.remove(&c) {
                    sub.out.send(&ServerMessage::error(
                        "taken_over",
                        "this table is now followed from another connection",
                        Some(&self.id),
                    ));
                }
            }
        }
        self.subs.insert(
            from.conn,
            Sub {
                user: from.user.clone(),
                out: from.out.clone(),
            },
        );
        self.recount_connections();
    }

    /// Counts each seated person's connections; a person back from away takes the seat
    /// back from the computer.
    fn recount_connections(&mut self) {
        let now = Instant::now();
        for seat in &mut self.seats {
            let Some(person) = &seat.person else { continue };
            let n = self
                .subs
                .values()
                .filter(|s| s.user.as_ref().is_some_and(|u| u.id == person.id))
                .count();
            seat.connections = n;
            if n == 0 {
                seat.away_since.get_or_insert(now);
            } else {
                seat.away_since = None;
                if seat.auto == Some(Auto::Away) {
                    seat.auto = None;
                }
            }
        }
    }

    fn check_invite(&self, invite: Option<&str>) -> Result<(), Refusal> {
        match &self.invite {
            Some(code) if invite != Some(code.as_str()) => Err(Refusal::new(
                "private",
                "this table is private: you need its invite code",
            )),
            _ => Ok(()),
        }
    }

    fn watch(&mut self, from: Client, invite: Option<String>) {
        let already_seated = from.user.as_ref().and_then(|u| self.seat_of(u)).is_some();
        if !already_seated {
            if let Err(r) = self.check_invite(invite.as_deref()) {
                return self.refuse(&from, r);
            }
        }
        self.subscribe(&from);
        from.out.send(&self.snapshot(from.user.as_ref()));
        self.sync_auto_bots();
        self.publish_seats();
    }

    async fn resume(&mut self, from: Client, last_seq: u64) {
        let seated = from.user.as_ref().and_then(|u| self.seat_of(u)).is_some();
        if !seated && self.invite.is_some() && !self.subs.contains_key(&from.conn) {
            return self.refuse(
                &from,
                Refusal::new(
                    "private",
                    "this table is private: join it with its invite code",
                ),
            );
        }
        self.subscribe(&from);
        let audience = self.audience(from.user.as_ref());
        let mut replayed_end = false;
        if last_seq < self.seq {
            if let Some(missed) = self.log.since(last_seq) {
                for (seq, entry) in missed {
                    replayed_end |= self.last_game.as_ref().is_some_and(|g| g.seq == *seq);
                    if let Entry::Chat { from: who, .. } = entry {
                        if from.out.mutes(who) {
                            continue;
                        }
                    }
                    // A deal's call for nonces is replayed only while that deal still
                    // waits for them: answering a past one could only be refused.
                    if let Entry::Commitment { game_id, .. } = entry {
                        if !self.waits_for_nonces(game_id) {
                            continue;
                        }
                    }
                    if let Some(m) = log::message(&self.id, *seq, entry, audience) {
                        from.out.send(&m);
                    }
                }
            }
        }
        if !replayed_end {
            self.resend_game_over(&from, last_seq).await;
        }
        from.out.send(&self.snapshot(from.user.as_ref()));
        self.sync_auto_bots();
        self.publish_seats();
    }

    /// The end of the last game, from the store, for a client that last heard of the table
    /// before it and cannot be replayed it (the server restarted in between: the replay
    /// buffer lives in memory, the record does not).
    async fn resend_game_over(&self, to: &Client, last_seq: u64) {
        let Some(last) = self.last_game.as_ref().filter(|g| last_seq < g.seq) else {
            return;
        };
        match self.hall.store.finished_record(&last.id).await {
            Ok(Some(record)) => {
                let scores = record
                    .outcome
                    .as_ref()
                    .map(|o| o.scores.clone())
                    .unwrap_or_default();
                to.out.send(&ServerMessage::GameOver {
                    table: self.id.clone(),
                    seq: last.seq,
                    game_id: last.id.clone(),
                    scores,
                    record: serde_json::to_value(&record).unwrap_or(Value::Null),
                    totals: self.totals.clone(),
                });
            }
            Ok(None) => {}
            Err(e) => tracing::error!(table = %self.id, error = %e, "cannot read the last game"),
        }
    }

    async fn join(&mut self, from: Client, seat: Option<usize>, invite: Option<String>) {
        let Some(user) = from.user.clone() else {
            return self.refuse(&from, Refusal::not_logged_in());
        };
        if let Some(s) = self.seat_of(&user) {
            if seat.is_none_or(|want| want == s) {
                self.subscribe(&from);
                from.out.send(&self.snapshot(Some(&user)));
                self.sync_auto_bots();
                return self.publish_seats();
            }
            return self.refuse(
                &from,
                Refusal::new("seated", format!("you already sit in seat {s}")),
            );
        }
        if let Err(r) = self.check_invite(invite.as_deref()) {
            return self.refuse(&from, r);
        }
        if !matches!(self.phase, Phase::Waiting) {
            return self.refuse(
                &from,
                Refusal::new(
                    "playing",
                    "a game is being played: watch, and sit when it ends",
                ),
            );
        }
        let target = match seat {
            Some(s) if s >= self.seats.len() => {
                return self.refuse(
                    &from,
                    Refusal::new(
                        "no_seat",
                        format!("there is no seat {s} (seats 0 to {})", self.seats.len() - 1),
                    ),
                )
            }
            Some(s) if !self.seats[s].is_empty() => {
                return self.refuse(
                    &from,
                    Refusal::new("seat_taken", format!("seat {s} is taken")),
                )
            }
            Some(s) => s,
            None => match self.seats.iter().position(SeatState::is_empty) {
                Some(s) => s,
                None => {
                    return self.refuse(&from, Refusal::new("table_full", "every seat is taken"))
                }
            },
        };
        self.seats[target] = SeatState {
            person: Some(user.clone()),
            ..SeatState::default()
        };
        if self.quick && self.fill_at.is_none() && self.seats.iter().any(SeatState::is_empty) {
            // Quick play: people have a moment to join, then computers fill the rest.
            self.fill_at = Some(Instant::now() + self.hall.config.timing.quick_play_wait);
        }
        self.subscribe(&from);
        self.save().await;
        from.out.send(&self.snapshot(Some(&user)));
        self.publish_seats();
    }

    async fn stand(&mut self, from: &Client, leave: bool) {
        if let Some(user) = &from.user {
            if let Some(s) = self.seat_of(user) {
                if !matches!(self.phase, Phase::Waiting) {
                    if leave {
                        // Leaving mid-game: the seat is held; a computer plays it after the
                        // grace period, as for a dropped connection.
                        self.subs.remove(&from.conn);
                        self.recount_connections();
                        self.publish_seats();
                        return;
                    }
                    return self.refuse(
                        from,
                        Refusal::new("playing", "you can stand up when the game ends"),
                    );
                }
                self.seats[s].clear();
                self.save().await;
            }
        }
        if leave {
            self.subs.remove(&from.conn);
        }
        self.recount_connections();
        self.publish_seats();
        self.close_if_abandoned().await;
    }

    async fn ready(&mut self, from: &Client, ready: bool) {
        match self.seated(from) {
            Ok(s) => {
                self.seats[s].ready = ready;
                self.publish_seats();
                self.maybe_start().await;
            }
            Err(r) => self.refuse(from, r),
        }
    }

    fn is_host(&self, from: &Client) -> bool {
        from.user.as_ref().is_some_and(|u| u.id == self.host.id)
    }

    async fn add_bot(&mut self, from: &Client, seat: usize, bot: String) {
        let hall = self.hall.clone();
        let Ok(game) = hall.registry.get(&self.game) else {
            return;
        };
        let refusal = if !self.is_host(from) {
            Some(Refusal::new(
                "not_host",
                "only the table's host seats computers",
            ))
        } else if !self.options.computers {
            Some(Refusal::new(
                "no_computers",
                "this table is for people only",
            ))
        } else if !matches!(self.phase, Phase::Waiting) {
            Some(Refusal::new("playing", "computers sit down between games"))
        } else if seat >= self.seats.len() {
            Some(Refusal::new("no_seat", format!("there is no seat {seat}")))
        } else if !self.seats[seat].is_empty() {
            Some(Refusal::new("seat_taken", format!("seat {seat} is taken")))
        } else if !game.bot_names().contains(&bot.as_str()) {
            Some(Refusal::new(
                "unknown_bot",
                format!(
                    "{} has no bot '{bot}' (bots: {})",
                    self.game,
                    game.bot_names().join(", ")
                ),
            ))
        } else {
            None
        };
        if let Some(r) = refusal {
            return self.refuse(from, r);
        }
        self.seats[seat] = SeatState {
            bot: Some(bot),
            ready: true,
            ..SeatState::default()
        };
        self.save().await;
        self.publish_seats();
        self.maybe_start().await;
    }

    async fn remove_bot(&mut self, from: &Client, seat: usize) {
        if !self.is_host(from) {
            return self.refuse(
                from,
                Refusal::new("not_host", "only the table's host removes computers"),
            );
        }
        if !matches!(self.phase, Phase::Waiting) {
            return self.refuse(
                from,
                Refusal::new("playing", "computers get up between games"),
            );
        }
        match self.seats.get_mut(seat) {
            Some(s) if s.bot.is_some() => s.clear(),
            _ => {
                return self.refuse(
                    from,
                    Refusal::new("no_bot", format!("no computer sits in seat {seat}")),
                )
            }
        }
        self.save().await;
        self.publish_seats();
    }

    fn chat(&mut self, from: &Client, text: String) {
        let Some(user) = &from.user else {
            return self.refuse(from, Refusal::not_logged_in());
        };
        if !self.subs.contains_key(&from.conn) {
            return self.refuse(
                from,
                Refusal::new("not_watching", "join or watch the table to chat there"),
            );
        }
        self.publish(Entry::Chat {
            from: user.name.clone(),
            text,
        });
    }

    async fn auto(&mut self, from: &Client, on: bool) {
        match self.seated(from) {
            Ok(s) => {
                self.seats[s].auto = on.then_some(Auto::Asked);
                self.seats[s].timeouts = 0;
                self.sync_auto_bots();
                self.publish_seats();
                self.schedule().await;
            }
            Err(r) => self.refuse(from, r),
        }
    }

    async fn gone(&mut self, conn: ConnId) {
        if self.subs.remove(&conn).is_some() {
            self.recount_connections();
            self.publish_seats();
            self.close_if_abandoned().await;
        }
    }

    /// Closes the table when nobody sits in it and nobody watches.
    async fn close_if_abandoned(&mut self) {
        let people = self.seats.iter().any(|s| s.person.is_some());
        if people || !self.subs.is_empty() || !matches!(self.phase, Phase::Waiting) {
            return;
        }
        self.closed = true;
        if let Err(e) = self.hall.store.close_table(&self.id).await {
            tracing::error!(table = %self.id, error = %e, "cannot close the table");
        }
        let mut info = self.info();
        info.status = "closed".into();
        self.hall.lobby.update(info);
        self.hall.forget_table(&self.id);
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
