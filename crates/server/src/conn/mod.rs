//! One WebSocket connection: reads frames within the limits, reads messages, answers
//! accounts and the lobby itself, and passes table requests to their tables.
//!
//! Bad input never hurts anyone else: an oversize frame, a binary frame, malformed JSON,
//! an unknown message type or a flood gets a typed error (or, past the limits, the
//! connection closed); nothing else changes and every other connection carries on.

mod account;

use crate::hall::{Hall, Refusal};
use crate::outbox::{next_conn_id, Outbox, CLOSE_NORMAL, CLOSE_POLICY, CLOSE_RESTART};
use crate::protocol::ErrorCode;
use crate::protocol::{ClientMessage, ServerMessage, TableRequest, VERSION};
use crate::ratelimit::Bucket;
use crate::table::{Client, Cmd};
use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a new connection has to say hello.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// Errors in a row after which a flooding connection is closed.
const MAX_STRIKES: u32 = 50;

/// A connection's own state.
struct Conn {
    hall: Arc<Hall>,
    client: Client,
    address: String,
    token: Option<String>,
    greeted: bool,
    tables: HashSet<String>,
    lobby: Option<tokio::task::JoinHandle<()>>,
    bucket: Bucket,
    strikes: u32,
}

/// Serves one upgraded WebSocket from a client at `address` until it closes. An address
/// that already has its share of connections open is told so and closed at once.
pub async fn serve(mut socket: WebSocket, hall: Arc<Hall>, address: IpAddr) {
    let Some(_live) = hall.connection(address) else {
        let refusal = ServerMessage::error(
            ErrorCode::TooManyConnections,
            format!(
                "your address already has as many connections open here as one address may \
                 ({}): close one (another tab?) and try again",
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
    let (out, mut frames, closing) = Outbox::new(conn_id, hall.config.limits.send_queue);
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        loop {
            tokio::select! {
                frame = frames.recv() => match frame {
                    Some(text) => {
                        if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                            break;
                        }
                    }
                    None => break,
                },
                (code, reason) = closing.wait() => {
                    // Drain what is queued (the last error), then close.
                    while let Ok(text) = frames.try_recv() {
                        let _ = sink.send(Message::Text(text.as_ref().into())).await;
                    }
                    let _ = sink
                        .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                            code,
                            reason: reason.chars().take(120).collect::<String>().into(),
                        })))
                        .await;
                    break;
                }
            }
        }
    });
    let limits = &hall.config.limits;
    let mut conn = Conn {
        bucket: Bucket::new(limits.messages_per_second, limits.message_burst),
        client: Client {
            conn: conn_id,
            user: None,
            out: out.clone(),
        },
        address: crate::ratelimit::address_key(address).to_string(),
        token: None,
        greeted: false,
        tables: HashSet::new(),
        lobby: None,
        strikes: 0,
        hall: hall.clone(),
    };
    let hello_by = Instant::now() + HELLO_WITHIN;
    let mut stopping = hall.stopping();
    loop {
        let greeted = conn.greeted;
        let read = async {
            if greeted {
                Some(stream.next().await)
            } else {
                tokio::time::timeout_at(hello_by.into(), stream.next())
                    .await
                    .ok()
            }
        };
        let next = tokio::select! {
            biased;
            _ = stopping.wait_for(|stop| *stop) => {
                out.close_with(CLOSE_RESTART, "server restarting");
                break;
            }
            next = read => next,
        };
        let Some(next) = next else {
            conn.error(ErrorCode::HelloFirst, "say hello within 10 seconds");
            out.close("no hello");
            break;
        };
        let Some(Ok(message)) = next else { break };
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

impl Conn {
    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.refuse(Refusal::new(code, message));
    }

    fn refuse(&self, r: Refusal) {
        self.hall
            .metrics
            .errors
            .with_label_values(&[r.code.as_str()])
            .inc();
        self.client
            .out
            .send(&ServerMessage::error(r.code, r.message, None));
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
            return self.strike();
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
            return self.strike();
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
        match self.handle(message).await {
            Ok(()) => {
                self.strikes = 0;
                true
            }
            Err(r) => {
                self.refuse(r);
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
                self.set_user(u.clone());
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

    fn set_user(&mut self, user: crate::protocol::UserInfo) {
        if let Some(old) = &self.client.user {
            self.hall.release_online(old, self.client.conn);
        }
        self.hall
            .claim_online(&user, &self.client.out, &self.address);
        self.client.user = Some(user);
    }

    fn user(&self) -> Result<&crate::protocol::UserInfo, Refusal> {
        self.client.user.as_ref().ok_or_else(Refusal::not_logged_in)
    }

    fn session(&mut self, s: crate::accounts::Session) {
        self.token = Some(s.token.clone());
        self.set_user(s.user.clone());
        self.client.out.send(&ServerMessage::Session {
            token: s.token,
            user: s.user,
        });
    }

    /// Hands `cmd` to table `table`, which answers the client itself.
    async fn send_to(&mut self, table: &str, cmd: Cmd) -> Result<(), Refusal> {
        let handle = self.hall.table(table).ok_or_else(|| {
            Refusal::new(ErrorCode::NoTable, format!("there is no table {table}"))
        })?;
        if handle.send(cmd).await {
            self.tables.insert(table.to_string());
            Ok(())
        } else {
            Err(Refusal::new(
                ErrorCode::NoTable,
                format!("table {table} has closed"),
            ))
        }
    }

    /// A request to one table, passed on whole: the table alone reads it.
    async fn forward(&mut self, request: TableRequest) -> Result<(), Refusal> {
        if matches!(request, TableRequest::Join(_)) {
            self.user()?;
        }
        self.hall.check_invite(&request, &self.address)?;
        let table = request.table().clone();
        let leaving = matches!(request, TableRequest::Leave(_));
        let cmd = Cmd::Request {
            from: self.client.clone(),
            request,
            at: Instant::now(),
        };
        let sent = self.send_to(&table, cmd).await;
        if leaving {
            self.tables.remove(&table);
        }
        sent
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
        )
        .await
    }

    async fn handle(&mut self, message: ClientMessage) -> Result<(), Refusal> {
        let message = match message.into_table_request() {
            Ok(request) => return self.forward(request).await,
            Err(other) => other,
        };
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
                let (handle, invite) = hall.create_table(&user, &game, options, false).await?;
                self.client.out.send(&ServerMessage::Created {
                    table: handle.id.clone(),
                    game,
                    invite: invite.clone(),
                });
                self.sit(&handle.id, Some(0), invite, false).await
            }
            ClientMessage::QuickPlay { game } => {
                let user = self.user()?.clone();
                let handle = hall.quick_play(&user, &game).await?;
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
                self.client.out.set_muted(&user, mute);
                Ok(())
            }
            // Passed on whole by `into_table_request` above; never read here.
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
        for t in std::mem::take(&mut self.tables) {
            if let Some(handle) = self.hall.table(&t) {
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
