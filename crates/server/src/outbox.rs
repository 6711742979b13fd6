//! The way out to one connection: a queue of frames bounded in frames and in bytes,
//! drained by the connection's writer. Tables and the lobby never wait on a slow client:
//! when its queue is full the connection is dropped, and the client reconnects and resumes
//! from its last sequence number. So a client that never reads costs the server at most
//! its queue's bytes, however much it asks for.

use crate::protocol::ServerMessage;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, Notify};

/// A connection's id, unique across the nodes of a hall: a table on one node keys the
/// connections that follow it from every node by it ([`crate::cluster`]).
pub type ConnId = u64;

/// A new connection id: this process's random 21 bits above a count of 32, so the ids of
/// two nodes meet only if both drew the same bits (one chance in two million for two
/// nodes) and every id stays below 2^53, exact in any JSON reader.
pub fn next_conn_id() -> ConnId {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    static NODE_BITS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let high = *NODE_BITS.get_or_init(|| {
        use rand::TryRngCore;
        let drawn = rand::rngs::OsRng
            .try_next_u32()
            .unwrap_or_else(|_| std::process::id());
        u64::from(drawn & 0x1f_ffff) << 32
    });
    high | (NEXT.fetch_add(1, Ordering::Relaxed) & 0xffff_ffff)
}

/// The sending side of one connection.
#[derive(Clone)]
pub struct Outbox {
    /// The connection.
    pub conn: ConnId,
    frames: mpsc::Sender<Arc<str>>,
    queued: Arc<Queued>,
    closing: Arc<Closing>,
    muted: Arc<Mutex<HashSet<String>>>,
}

/// The bytes queued for a connection and not yet written, and the most it may hold.
pub struct Queued {
    bytes: AtomicUsize,
    max: usize,
}

impl Queued {
    /// A frame of `len` bytes has been written to the socket.
    fn written(&self, len: usize) {
        self.bytes.fetch_sub(len, Ordering::AcqRel);
    }
}

/// Names one connection may mute at once: a person mutes a few; the set lives as long as
/// the connection, so it must not grow on a client's say-so.
pub const MAX_MUTED: usize = 100;

/// Why a mute was refused.
#[derive(Debug, thiserror::Error)]
pub enum MuteError {
    /// The set is full.
    #[error("you can mute at most {MAX_MUTED} names at once: unmute one first")]
    Full,
}

/// The WebSocket close code of a connection the client is done with, or that says goodbye
/// (RFC 6455: normal closure).
pub const CLOSE_NORMAL: u16 = 1000;
/// The close code of a connection closed for what its client did: no hello, a flood, a
/// full send queue, another protocol version (RFC 6455: policy violation).
pub const CLOSE_POLICY: u16 = 1008;
/// The close code of a frame larger than the hall reads (RFC 6455: message too big).
pub const CLOSE_TOO_BIG: u16 = 1009;
/// The close code of a text frame that is not UTF-8 (RFC 6455: invalid frame payload data).
pub const CLOSE_INVALID_DATA: u16 = 1007;
/// The close code of a connection that stopped answering pings (RFC 6455: going away).
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// The close code of a server that is stopping to start again (IANA: service restart): the
/// client did nothing wrong, and should reconnect and resume.
pub const CLOSE_RESTART: u16 = 1012;

/// Why and when a connection must close. The first reason given is the one sent: a
/// connection closed for flooding and then finished says "flooding", not "bye".
#[derive(Default)]
pub struct Closing {
    closed: AtomicBool,
    reason: Mutex<Option<(u16, String)>>,
    notify: Notify,
}

impl Closing {
    /// Waits until someone asks the connection to close; returns the close code and why.
    pub async fn wait(&self) -> (u16, String) {
        loop {
            let notified = self.notify.notified();
            if self.closed.load(Ordering::Acquire) {
                let reason = self.reason.lock().ok().and_then(|r| r.clone());
                return reason.unwrap_or((CLOSE_NORMAL, String::new()));
            }
            notified.await;
        }
    }
}

impl Outbox {
    /// A new outbox of at most `frames` frames and `bytes` bytes, the receiver its
    /// connection drains (telling [`Queued::written`] what it wrote) and how it closes.
    pub fn new(conn: ConnId, frames: usize, bytes: usize) -> (Outbox, Drain, Arc<Closing>) {
        let (sender, rx) = mpsc::channel(frames.max(1));
        let closing = Arc::new(Closing::default());
        let queued = Arc::new(Queued {
            bytes: AtomicUsize::new(0),
            max: bytes,
        });
        (
            Outbox {
                conn,
                frames: sender,
                queued: queued.clone(),
                closing: closing.clone(),
                muted: Arc::default(),
            },
            Drain { frames: rx, queued },
            closing,
        )
    }

    /// Queues a message; false (and the connection is closed) when the client is not
    /// reading fast enough, or is gone.
    pub fn send(&self, message: &ServerMessage) -> bool {
        self.send_text(message.to_text().into())
    }

    /// Queues an already encoded frame (one encoding shared by many connections).
    pub fn send_text(&self, text: Arc<str>) -> bool {
        let len = text.len();
        let before = self.queued.bytes.fetch_add(len, Ordering::AcqRel);
        // A frame larger than the whole allowance still goes to a client that has read
        // everything before it (a big lobby): what is bounded is what waits.
        let over = before > 0 && before + len > self.queued.max;
        let sent = !over && self.frames.try_send(text).is_ok();
        if !sent {
            self.queued.bytes.fetch_sub(len, Ordering::AcqRel);
            if !self.frames.is_closed() {
                self.close("too slow: the send queue is full; reconnect and resume");
            }
        }
        sent
    }

    /// Asks the connection to close for what its client did ([`CLOSE_POLICY`]), saying why.
    pub fn close(&self, reason: &str) {
        self.close_with(CLOSE_POLICY, reason);
    }

    /// Asks the connection to close with `code`, saying why; once asked, later calls
    /// change nothing.
    pub fn close_with(&self, code: u16, reason: &str) {
        if let Ok(mut r) = self.closing.reason.lock() {
            if r.is_none() {
                *r = Some((code, reason.to_string()));
            }
        }
        self.closing.closed.store(true, Ordering::Release);
        self.closing.notify.notify_waiters();
    }

    /// Queues a frame a table served by another node sent this connection
    /// ([`crate::cluster`]): that table does not know this connection's mutes, so chat
    /// from a muted name is dropped here, as a table here would not have sent it. True
    /// when dropped or queued; false as [`Outbox::send_text`].
    pub fn send_relayed(&self, text: Arc<str>) -> bool {
        if self.muted.lock().is_ok_and(|m| !m.is_empty()) && self.mutes_chat(&text) {
            return true;
        }
        self.send_text(text)
    }

    /// Whether `frame` is chat from a name this connection mutes. A message's type comes
    /// first in its encoding, so any other frame is passed over without being read.
    fn mutes_chat(&self, frame: &str) -> bool {
        if !frame.starts_with(r#"{"type":"chat""#) {
            return false;
        }
        #[derive(serde::Deserialize)]
        struct Said {
            #[serde(rename = "type")]
            kind: String,
            from: Option<String>,
        }
        match serde_json::from_str::<Said>(frame) {
            Ok(Said {
                kind,
                from: Some(from),
            }) => kind == "chat" && self.mutes(&from),
            _ => false,
        }
    }

    /// Whether chat from `name` is muted for this connection.
    pub fn mutes(&self, name: &str) -> bool {
        self.muted.lock().is_ok_and(|m| m.contains(name))
    }

    /// Mutes or unmutes `name` for this connection; at most [`MAX_MUTED`] names at once.
    pub fn set_muted(&self, name: &str, muted: bool) -> Result<(), MuteError> {
        let Ok(mut m) = self.muted.lock() else {
            return Ok(());
        };
        if !muted {
            m.remove(name);
        } else if !m.contains(name) {
            if m.len() >= MAX_MUTED {
                return Err(MuteError::Full);
            }
            m.insert(name.to_string());
        }
        Ok(())
    }
}

/// The connection's side of its outbox: the frames to write, in order.
pub struct Drain {
    frames: mpsc::Receiver<Arc<str>>,
    queued: Arc<Queued>,
}

impl Drain {
    /// The next frame to write; `None` once every outbox is gone.
    pub async fn next(&mut self) -> Option<Arc<str>> {
        let frame = self.frames.recv().await;
        if let Some(f) = &frame {
            self.queued.written(f.len());
        }
        frame
    }

    /// The next frame if one is queued now.
    pub fn try_next(&mut self) -> Option<Arc<str>> {
        let frame = self.frames.try_recv().ok();
        if let Some(f) = &frame {
            self.queued.written(f.len());
        }
        frame
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relayed_chat_from_a_muted_name_is_dropped_and_nothing_else() {
        let (out, mut drain, _closing) = Outbox::new(1, 16, 1 << 16);
        let chat = |from: &str| {
            ServerMessage::Chat {
                table: Some("t1".into()),
                seq: Some(3),
                from: from.into(),
                text: "hi".into(),
            }
            .to_text()
        };
        out.set_muted("loud", true).expect("muted");
        for frame in [chat("loud"), chat("quiet"), ServerMessage::Pong.to_text()] {
            assert!(out.send_relayed(frame.into()));
        }
        let passed: Vec<String> = std::iter::from_fn(|| drain.try_next())
            .map(|f| f.to_string())
            .collect();
        assert_eq!(passed, [chat("quiet"), ServerMessage::Pong.to_text()]);
    }
}
