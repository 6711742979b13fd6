//! One WebSocket connection: reads frames within the limits, reads messages, answers
//! accounts and the lobby itself, and passes table requests to their tables.
//!
//! Bad input never hurts anyone else: an oversize frame, a binary frame, malformed JSON,
//! an unknown message type or a flood gets a typed error (or, past the limits, the
//! connection closed); nothing else changes and every other connection carries on.

mod account;
mod followed;

pub use followed::MAX_FOLLOWED;

use crate::hall::{Hall, Refusal};
use crate::outbox::{
    next_conn_id, Outbox, CLOSE_GOING_AWAY, CLOSE_INVALID_DATA, CLOSE_NORMAL, CLOSE_POLICY,
    CLOSE_RESTART, CLOSE_TOO_BIG,
};
use crate::protocol::ErrorCode;
use crate::protocol::{ClientMessage, ServerMessage, TableRequest, VERSION};
use crate::ratelimit::Bucket;
use crate::table::{Client, Cmd};
use axum::extract::ws::{Message, WebSocket};
use followed::Followed;
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a new connection has to say hello.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// Refused messages in a row after which a connection is closed: a client that keeps
/// getting errors is broken or probing.
const MAX_STRIKES: u32 = 50;
/// Messages over the rate limit a connection may send, and how fast that allowance
/// comes back (one a second): a steady flood is closed within seconds even though some
/// of its messages get through, while a burst now and then is only slowed.
const FLOOD_ALLOWANCE: f64 = 50.0;
/// See [`FLOOD_ALLOWANCE`].
const FLOOD_FORGIVEN_PER_SECOND: f64 = 1.0;
/// How long a closing connection's last frames and close frame may take to be written.
const GOODBYE_WITHIN: Duration = Duration::from_secs(5);
/// The longest user name a mute may carry: longer is nobody's name.
const MAX_MUTE_NAME: usize = 64;

/// A connection's own state.
struct Conn {
    hall: Arc<Hall>,
    client: Client,
    address: String,
    token: Option<String>,
    greeted: bool,
    /// The tables it follows, bounded by [`MAX_FOLLOWED`].
    followed: Followed,
    lobby: Option<tokio::task::JoinHandle<()>>,
    bucket: Bucket,
    /// What is left of [`FLOOD_ALLOWANCE`].
    flood: Bucket,
    strikes: u32,
}

/// Serves one upgraded WebSocket from a client at `address` until it closes. An address
/// that already has its share of connections open is told so and closed at once.
pub async fn serve(mut socket: WebSocket, hall: Arc<Hall>, address: IpAddr) {
    let Some(_live) = hall.connection(address).await else {
        let refusal = ServerMessage::error(
            ErrorCode::TooManyConnections,
            format!(
                "your address already has as many connections open in this hall as one \
                 address may ({}): close one (another tab?) and try again",
                hall.config.limits.connections_per_address
            ),
            None,
        );
        let _ = socket.send(Message::Text(refusal.to_text().into())).await;
        let _ = socket
            .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                code: CLOSE_POLICY,
                reason: "too many connections".into(),
            })))
            .await;
        return;
    };
    let conn_id = next_conn_id();
    let limits = &hall.config.limits;
    let (out, mut frames, closing) =
        Outbox::new(conn_id, limits.send_queue, limits.send_queue_bytes);
    let (mut sink, mut stream) = socket.split();
    let silent_for = limits.silent_for;
    let writer = tokio::spawn(async move {
        // A connection silent for `silent_for` (no message, no pong) is dead — a lost
        // network, a sleeping laptop — and is closed by the reader, so it holds nothing;
        // pings at two fifths of that give a live client two chances to answer.
        let every = silent_for.mul_f64(0.4);
        let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            tokio::select! {
                frame = frames.next() => match frame {
                    Some(text) => {
                        if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                            break;
                        }
                    }
                    None => break,
                },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                }
                (code, reason) = closing.wait() => {
                    // What is queued (the last error), then the close frame; a client that
                    // does not read them is not waited for long.
                    let goodbye = async {
                        while let Some(text) = frames.try_next() {
                            if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                                return;
                            }
                        }
                        let reason = reason.chars().take(120).collect::<String>();
                        let _ = sink
                            .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                                code,
                                reason: reason.into(),
                            })))
                            .await;
                    };
                    let _ = tokio::time::timeout(GOODBYE_WITHIN, goodbye).await;
                    break;
                }
            }
        }
    });
    let mut conn = Conn {
        bucket: Bucket::new(limits.messages_per_second, limits.message_burst),
        flood: Bucket::new(FLOOD_FORGIVEN_PER_SECOND, FLOOD_ALLOWANCE),
        client: Client {
            conn: conn_id,
            user: None,
            out: out.clone(),
        },
        address: crate::ratelimit::address_key(address).to_string(),
        token: None,
        greeted: false,
        followed: Followed::default(),
        lobby: None,
        strikes: 0,
        hall: hall.clone(),
    };
    let hello_by = Instant::now() + HELLO_WITHIN;
    let mut heard = Instant::now();
    let mut stopping = hall.stopping();
    loop {
        let until = if conn.greeted {
            heard + silent_for
        } else {
            hello_by
        };
        let next = tokio::select! {
            biased;
            _ = stopping.wait_for(|stop| *stop) => {
                out.close_with(CLOSE_RESTART, "server restarting");
                break;
            }
            next = tokio::time::timeout_at(until.into(), stream.next()) => next,
        };
        let Ok(next) = next else {
            if conn.greeted {
                out.close_with(CLOSE_GOING_AWAY, "no answer to pings");
            } else {
                conn.error(ErrorCode::HelloFirst, "say hello within 10 seconds");
                out.close("no hello");
            }
            break;
        };
        heard = Instant::now();
        let message = match next {
            Some(Ok(message)) => message,
            Some(Err(e)) => {
                let (code, reason) = unreadable(&e);
                out.close_with(code, reason);
                break;
            }
            None => break,
        };
        match message {
            Message::Text(text) => {
                if !conn.on_text(text.as_str()).await {
                    break;
                }
            }
            Message::Binary(_) => {
                conn.error(ErrorCode::BadMessage, "messages are JSON in text frames");
                if !conn.strike() {
                    break;
                }
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => {}
        }
    }
    conn.finish().await;
    out.close_with(CLOSE_NORMAL, "bye");
    let _ = writer.await;
}

/// The close code and reason for a frame that could not be read: too large (1009), not
/// UTF-8 (1007), or anything else the WebSocket layer refused (1008). The WebSocket
/// library's error reaches us only as text through axum, so it is read from its message.
fn unreadable(e: &axum::Error) -> (u16, &'static str) {
    let text = e.to_string().to_ascii_lowercase();
    if text.contains("too long") || text.contains("too big") || text.contains("space limit") {
        (CLOSE_TOO_BIG, "message too big")
    } else if text.contains("utf-8") || text.contains("utf8") {
        (CLOSE_INVALID_DATA, "text frames are UTF-8")
    } else {
        (CLOSE_POLICY, "unreadable frame")
    }
}

impl Conn {
    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.refuse(Refusal::new(code, message));
    }

    fn refuse(&self, r: Refusal) {
        self.refuse_at(r, None);
    }

    /// Refuses a request, naming the table it was for: a client waiting to get into a
    /// table (a wrong invite code, a table gone) learns that its way in was refused.
    fn refuse_at(&self, r: Refusal, table: Option<&str>) {
        self.hall
            .metrics
            .errors
            .with_label_values(&[r.code.as_str()])
            .inc();
        self.client
            .out
            .send(&ServerMessage::error(r.code, r.message, table));
    }

    /// Counts a message over the rate limit against [`FLOOD_ALLOWANCE`], which accepted
    /// messages do not refill; false (and the connection closing) when it is spent.
    fn flooded(&mut self) -> bool {
        if self.flood.take() {
            return true;
        }
        self.client.out.close("flooding: too many messages");
        false
    }

    /// Counts a bad message; false when the connection should close.
    fn strike(&mut self) -> bool {
        self.strikes += 1;
        if self.strikes > MAX_STRIKES {
            self.client.out.close("too many bad messages");
            return false;
        }
        true
    }

    /// One text frame; false when the connection should close.
    async fn on_text(&mut self, text: &str) -> bool {
        self.hall.metrics.messages_in.inc();
        if !self.bucket.take() {
            self.error(ErrorCode::RateLimited, "too many messages: slow down");
            return self.flooded();
        }
        if self
            .client
            .user
            .as_ref()
            .is_some_and(|u| !self.hall.may_send(u))
        {
            self.error(
                ErrorCode::RateLimited,
                "too many messages from this account: slow down",
            );
            return self.flooded();
        }
        let message = match serde_json::from_str::<ClientMessage>(text) {
            Ok(m) => m,
            Err(e) => {
                let code = if serde_json::from_str::<serde_json::Value>(text).is_ok() {
                    ErrorCode::BadMessage
                } else {
                    ErrorCode::BadJson
                };
                self.error(code, format!("cannot read that message: {e}"));
                return self.strike();
            }
        };
        if !self.greeted {
            return self.hello(message).await;
        }
        let done = match message.into_table_request() {
            Ok(request) => {
                let table = request.table().clone();
                self.forward(request).await.map_err(|r| (r, Some(table)))
            }
            Err(other) => self.handle(other).await.map_err(|r| (r, None)),
        };
        match done {
            Ok(()) => {
                self.strikes = 0;
                true
            }
            Err((r, table)) => {
                self.refuse_at(r, table.as_deref());
                self.strike()
            }
        }
    }

    async fn hello(&mut self, message: ClientMessage) -> bool {
        let ClientMessage::Hello { version, token } = message else {
            self.error(
                ErrorCode::HelloFirst,
                "the first message is a hello with the protocol version",
            );
            return false;
        };
        if version != VERSION {
            self.error(
                ErrorCode::BadVersion,
                format!("this server speaks protocol version {VERSION}, not {version}"),
            );
            self.client.out.close("wrong protocol version");
            return false;
        }
        self.greeted = true;
        let user = match token {
            Some(t) => match self.hall.accounts.resume(&t).await {
                Ok(u) => {
                    self.token = Some(t);
                    Some(u)
                }
                Err(e) => {
                    self.error(e.code(), e.to_string());
                    None
                }
            },
            None => None,
        };
        let seated = match &user {
            Some(u) => {
                self.set_user(u.clone()).await;
                self.hall.seated_tables(u)
            }
            None => Vec::new(),
        };
        self.client.out.send(&ServerMessage::Welcome {
            version: VERSION,
            user,
            seated,
        });
        true
    }

    async fn set_user(&mut self, user: crate::protocol::UserInfo) {
        if let Some(old) = &self.client.user {
            self.hall.release_online(old, self.client.conn);
        }
        self.hall
            .claim_online(&user, &self.client.out, &self.address)
            .await;
        self.client.user = Some(user);
    }

    fn user(&self) -> Result<&crate::protocol::UserInfo, Refusal> {
        self.client.user.as_ref().ok_or_else(Refusal::not_logged_in)
    }

    /// A session opened on this connection (a guest, a registration, a login): the client
    /// hears of it first, then every table the connection follows and every table where
    /// its person sits, so that their seats show the name the person has now, the
    /// connection sees each table as its new person may, and follows the tables where
    /// the account logged in sits (as a hello with its token would have it resume them).
    async fn session(&mut self, s: crate::accounts::Session) {
        self.token = Some(s.token.clone());
        self.set_user(s.user.clone()).await;
        self.client.out.send(&ServerMessage::Session {
            token: s.token,
            user: s.user.clone(),
        });
        let mut tables = self.followed.oldest_first();
        for t in self.hall.seated_tables(&s.user) {
            if !tables.contains(&t) {
                tables.push(t);
            }
        }
        for t in tables {
            let from = self.client.clone();
            // A table that closed meanwhile, or one past the bound of tables followed,
            // is left as it is: the account's seat there is kept, and a reconnect
            // resumes it (or says why not).
            if let Err(r) = self.send_to(&t, Cmd::User { from }, false).await {
                tracing::debug!(table = %t, code = r.code.as_str(), "a table not told of a session");
            }
        }
    }

    /// Hands `cmd` to table `table`, which answers the client itself. The connection
    /// follows the table from then on (unless it is leaving it), which may first need one
    /// of the tables it follows to let go (see [`followed`]).
    async fn send_to(&mut self, table: &str, cmd: Cmd, leaving: bool) -> Result<(), Refusal> {
        let handle = self.hall.find_table(table).await.ok_or_else(|| {
            Refusal::new(ErrorCode::NoTable, format!("there is no table {table}"))
        })?;
        if !leaving && !self.followed.contains(table) {
            self.room_for_one_more().await?;
        }
        if !handle.send(cmd).await {
            self.followed.forget(table);
            return Err(Refusal::new(
                ErrorCode::NoTable,
                format!("table {table} has closed"),
            ));
        }
        if leaving {
            self.followed.forget(table);
        } else {
            self.followed.touch(table);
        }
        Ok(())
    }

    /// Makes room to follow one more table, if the connection is at its bound.
    async fn room_for_one_more(&mut self) -> Result<(), Refusal> {
        if self.followed.is_full() {
            self.make_room().await
        } else {
            Ok(())
        }
    }

    /// Lets go of the table followed longest ago that holds no seat of this connection's
    /// person (a closed table first of all); refuses when every one of them does.
    async fn make_room(&mut self) -> Result<(), Refusal> {
        for table in self.followed.oldest_first() {
            let let_go = match self.hall.find_table(&table).await {
                None => true,
                Some(handle) => {
                    let (done, answer) = tokio::sync::oneshot::channel();
                    let conn = self.client.conn;
                    // A table that closed meanwhile has let go too.
                    !handle.send(Cmd::Unfollow { conn, done }).await || answer.await.unwrap_or(true)
                }
            };
            if let_go {
                self.followed.forget(&table);
                return Ok(());
            }
        }
        Err(Refusal::new(
            ErrorCode::TooManyTables,
            format!("you already play at {MAX_FOLLOWED} tables: leave one first"),
        ))
    }

    /// A request to one table, passed on whole: the table alone reads it.
    async fn forward(&mut self, request: TableRequest) -> Result<(), Refusal> {
        if matches!(request, TableRequest::Join(_)) {
            self.user()?;
        }
        self.hall.check_invite(&request, &self.address).await?;
        let table = request.table().clone();
        let leaving = matches!(request, TableRequest::Leave(_));
        let cmd = Cmd::Request {
            from: self.client.clone(),
            request,
            at: Instant::now(),
        };
        self.send_to(&table, cmd, leaving).await
    }

    /// Seats this connection's user at `table`, as creating a table or quick play does.
    async fn sit(
        &mut self,
        table: &str,
        seat: Option<usize>,
        invite: Option<String>,
        ready: bool,
    ) -> Result<(), Refusal> {
        let from = self.client.clone();
        self.send_to(
            table,
            Cmd::Sit {
                from,
                seat,
                invite,
                ready,
            },
            false,
        )
        .await
    }

    /// A message that is not a table's request (those are [`Conn::forward`]ed whole).
    async fn handle(&mut self, message: ClientMessage) -> Result<(), Refusal> {
        let hall = self.hall.clone();
        match message {
            ClientMessage::Hello { .. } => {
                Err(Refusal::new(ErrorCode::HelloAgain, "you have said hello"))
            }
            ClientMessage::Ping => {
                self.client.out.send(&ServerMessage::Pong);
                Ok(())
            }
            m @ (ClientMessage::Register { .. }
            | ClientMessage::Login { .. }
            | ClientMessage::ChangePassword { .. }
            | ClientMessage::DeleteAccount { .. }
            | ClientMessage::Guest
            | ClientMessage::Logout
            | ClientMessage::Ban { .. }
            | ClientMessage::Unban { .. }
            | ClientMessage::Bans) => self.account(m).await,
            ClientMessage::Games => {
                self.client.out.send(&ServerMessage::Games {
                    games: hall.games(),
                });
                Ok(())
            }
            ClientMessage::Lobby { game } => {
                if let Some(g) = &game {
                    hall.registry.get(g).map_err(|e| Refusal::game(&e))?;
                }
                if let Some(old) = self.lobby.take() {
                    old.abort();
                }
                self.lobby = Some(hall.lobby.watch(game, self.client.out.clone()));
                Ok(())
            }
            ClientMessage::LeaveLobby => {
                if let Some(old) = self.lobby.take() {
                    old.abort();
                }
                Ok(())
            }
            ClientMessage::CreateTable { game, options } => {
                let user = self.user()?.clone();
                // Room first, so that a refusal never leaves a table nobody sits at.
                self.room_for_one_more().await?;
                let (handle, invite) = hall.create_table(&user, &game, options, false).await?;
                self.client.out.send(&ServerMessage::Created {
                    table: handle.id.clone(),
                    game,
                    invite: invite.clone(),
                });
                self.sit(&handle.id, Some(0), invite, false).await
            }
            ClientMessage::QuickPlay { game, level } => {
                let user = self.user()?.clone();
                self.room_for_one_more().await?;
                let handle = hall.quick_play(&user, &game, level).await?;
                self.sit(&handle.id, None, None, true).await
            }
            ClientMessage::Chat { table, text } => {
                let user = self.user()?.clone();
                let text = crate::chat::clean(&text, hall.config.limits.max_chat)?;
                if !hall.may_chat(&user) {
                    return Err(Refusal::new(
                        ErrorCode::RateLimited,
                        "too much chat: wait a moment",
                    ));
                }
                match table {
                    Some(table) => self.forward(TableRequest::Chat { table, text }).await,
                    None => {
                        hall.lobby.chat(&user.name, &text);
                        Ok(())
                    }
                }
            }
            ClientMessage::Mute { user, mute } => {
                if user.chars().count() > MAX_MUTE_NAME {
                    return Err(Refusal::new(ErrorCode::NoUser, "there is no such player"));
                }
                self.client
                    .out
                    .set_muted(&user, mute)
                    .map_err(|e| Refusal::new(ErrorCode::NotAllowed, e.to_string()))
            }
            // Passed on whole by `on_text`'s `into_table_request`; never read here.
            ClientMessage::Join(_)
            | ClientMessage::Watch(_)
            | ClientMessage::Stand(_)
            | ClientMessage::Leave(_)
            | ClientMessage::Ready(_)
            | ClientMessage::AddBot(_)
            | ClientMessage::RemoveBot(_)
            | ClientMessage::Nonce(_)
            | ClientMessage::Act(_)
            | ClientMessage::Auto(_)
            | ClientMessage::Resume(_) => Err(Refusal::new(
                ErrorCode::Internal,
                "a table's request was not passed on to its table",
            )),
        }
    }

    /// The connection closed: its tables hear it, its lobby watch ends.
    async fn finish(&mut self) {
        if let Some(lobby) = self.lobby.take() {
            lobby.abort();
        }
        for t in self.followed.take() {
            if let Some(handle) = self.hall.find_table(&t).await {
                handle
                    .send(Cmd::Gone {
                        conn: self.client.conn,
                    })
                    .await;
            }
        }
        if let Some(u) = &self.client.user {
            self.hall.release_online(u, self.client.conn);
        }
    }
}
