//! A client of the protocol over a real WebSocket: what `qipai connect`, the load harness
//! and the tests use to talk to a server.

use crate::protocol::ErrorCode;
use crate::protocol::{ClientMessage, ServerMessage, UserInfo, VERSION};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Why a client call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The connection could not be made or broke.
    #[error("connection: {0}")]
    Connection(String),
    /// The server closed the connection, with the close frame's code (1012: it is
    /// restarting) and reason if it sent one.
    #[error("the server closed the connection{}", closed_because(*.code, .reason))]
    Closed {
        /// The close code, if the server sent a close frame.
        code: Option<u16>,
        /// The reason it gave ("" if none).
        reason: String,
    },
    /// The server sent something that is not a protocol message.
    #[error("unreadable message from the server: {0}")]
    Unreadable(String),
    /// The server answered with an error.
    #[error("{code}: {message}")]
    Refused {
        /// The error code.
        code: ErrorCode,
        /// Its message.
        message: String,
    },
    /// Nothing came in time.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
}

/// One connection to a server.
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// The WebSocket URL of a server given as `host:port`, `http://…` or `ws://…`.
pub fn ws_url(server: &str) -> String {
    let base = server.trim_end_matches('/');
    let base = if let Some(rest) = base.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if let Some(rest) = base.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if base.starts_with("ws://") || base.starts_with("wss://") {
        base.to_string()
    } else {
        format!("ws://{base}")
    };
    if base.ends_with("/ws") {
        base
    } else {
        format!("{base}/ws")
    }
}

impl Connection {
    /// Connects and says hello (with `token` to resume a session). Returns the connection,
    /// the user the token names (if any) and the tables where that user sits.
    pub async fn open(
        server: &str,
        token: Option<&str>,
    ) -> Result<(Connection, Option<UserInfo>, Vec<String>), ClientError> {
        Connection::open_from(server, token, None).await
    }

    /// [`Connection::open`] from the local address `from` (one of this machine's, such as
    /// any of 127.0.0.0/8): a load generator on one machine standing for clients at many
    /// addresses, each within the server's limits per address. Plain `ws://` only.
    pub async fn open_from(
        server: &str,
        token: Option<&str>,
        from: Option<std::net::IpAddr>,
    ) -> Result<(Connection, Option<UserInfo>, Vec<String>), ClientError> {
        let mut conn = Connection::connect_at(server, from).await?;
        conn.send(&ClientMessage::Hello {
            version: VERSION,
            token: token.map(str::to_string),
        })
        .await?;
        loop {
            match conn.recv().await? {
                ServerMessage::Welcome { user, seated, .. } => return Ok((conn, user, seated)),
                ServerMessage::Error { code, message, .. } if code != ErrorCode::BadToken => {
                    return Err(ClientError::Refused { code, message })
                }
                _ => continue,
            }
        }
    }

    /// Connects without saying hello: for a caller that reads the server's frames its own
    /// way (the hall's tests check each one against the schema) and so says hello itself.
    pub async fn connect(server: &str) -> Result<Connection, ClientError> {
        Connection::connect_at(server, None).await
    }

    /// [`Connection::connect`] from the local address `from`, if given.
    pub async fn connect_at(
        server: &str,
        from: Option<std::net::IpAddr>,
    ) -> Result<Connection, ClientError> {
        let failed = |e: &dyn std::fmt::Display| ClientError::Connection(e.to_string());
        // No Nagle: a move is one small frame that should leave at once. A small read buffer:
        // a load generator holds thousands of connections.
        let config = WebSocketConfig::default().read_buffer_size(crate::http::READ_BUFFER);
        let url = ws_url(server);
        let ws = match from {
            None => {
                tokio_tungstenite::connect_async_with_config(url, Some(config), true)
                    .await
                    .map_err(|e| failed(&e))?
                    .0
            }
            Some(from) => {
                let tcp = connect_from(from, &url).await.map_err(|e| failed(&e))?;
                tokio_tungstenite::client_async_with_config(
                    url,
                    MaybeTlsStream::Plain(tcp),
                    Some(config),
                )
                .await
                .map_err(|e| failed(&e))?
                .0
            }
        };
        Ok(Connection { ws })
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), ClientError> {
        let text =
            serde_json::to_string(message).map_err(|e| ClientError::Unreadable(e.to_string()))?;
        self.send_raw(text).await
    }

    /// Sends any text frame (the fuzz tests send broken ones).
    pub async fn send_raw(&mut self, text: String) -> Result<(), ClientError> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| ClientError::Connection(e.to_string()))
    }

    /// The next message from the server.
    pub async fn recv(&mut self) -> Result<ServerMessage, ClientError> {
        let text = self.recv_text().await?;
        serde_json::from_str(&text).map_err(|e| ClientError::Unreadable(format!("{e}: {text}")))
    }

    /// The next text frame from the server, as it came: for a caller that checks the
    /// frame itself (against the schema) before reading it as a message.
    pub async fn recv_text(&mut self) -> Result<String, ClientError> {
        loop {
            let frame = self
                .ws
                .next()
                .await
                .ok_or_else(|| ClientError::Closed {
                    code: None,
                    reason: String::new(),
                })?
                .map_err(|e| ClientError::Connection(e.to_string()))?;
            match frame {
                Message::Text(text) => return Ok(text.as_str().to_string()),
                Message::Close(frame) => {
                    return Err(ClientError::Closed {
                        code: frame.as_ref().map(|f| u16::from(f.code)),
                        reason: frame.map(|f| f.reason.to_string()).unwrap_or_default(),
                    })
                }
                _ => continue,
            }
        }
    }

    /// The next message, or [`ClientError::Timeout`] after `wait`.
    pub async fn recv_within(&mut self, wait: Duration) -> Result<ServerMessage, ClientError> {
        tokio::time::timeout(wait, self.recv())
            .await
            .map_err(|_| ClientError::Timeout(wait))?
    }

    /// Sends `message` and waits for the session it opens (register, login, guest).
    pub async fn session(
        &mut self,
        message: ClientMessage,
    ) -> Result<(String, UserInfo), ClientError> {
        self.send(&message).await?;
        loop {
            match self.recv().await? {
                ServerMessage::Session { token, user } => return Ok((token, user)),
                ServerMessage::Error { code, message, .. } => {
                    return Err(ClientError::Refused { code, message })
                }
                _ => continue,
            }
        }
    }

    /// Closes the connection politely.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A TCP connection from the local address `from` to the host of the `ws://` URL `url`.
pub async fn connect_from(from: std::net::IpAddr, url: &str) -> std::io::Result<TcpStream> {
    let host = url
        .strip_prefix("ws://")
        .unwrap_or(url)
        .split('/')
        .next()
        .unwrap_or_default();
    let to = tokio::net::lookup_host(host)
        .await?
        .find(|a| a.is_ipv4() == from.is_ipv4())
        .ok_or_else(|| std::io::Error::other(format!("{host} has no address like {from}")))?;
    let socket = if from.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.bind(std::net::SocketAddr::new(from, 0))?;
    let tcp = socket.connect(to).await?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// How a close reads after "the server closed the connection": its reason, if any.
fn closed_because(code: Option<u16>, reason: &str) -> String {
    match code {
        _ if !reason.is_empty() => format!(": {reason}"),
        Some(code) => format!(" (code {code})"),
        None => String::new(),
    }
}
