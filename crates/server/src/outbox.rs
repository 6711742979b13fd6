//! The way out to one connection: a bounded queue of frames, drained by the connection's
//! writer. Tables and the lobby never wait on a slow client: when its queue is full the
//! connection is dropped, and the client reconnects and resumes from its last sequence
//! number.

use crate::protocol::ServerMessage;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, Notify};

/// A connection's id, unique for the server's life.
pub type ConnId = u64;

/// A new connection id.
pub fn next_conn_id() -> ConnId {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The sending side of one connection.
#[derive(Clone)]
pub struct Outbox {
    /// The connection.
    pub conn: ConnId,
    frames: mpsc::Sender<Arc<str>>,
    closing: Arc<Closing>,
    muted: Arc<Mutex<HashSet<String>>>,
}

/// The WebSocket close code of a connection the client is done with, or that says goodbye
/// (RFC 6455: normal closure).
pub const CLOSE_NORMAL: u16 = 1000;
/// The close code of a connection closed for what its client did: no hello, a flood, a
/// full send queue, another protocol version (RFC 6455: policy violation).
pub const CLOSE_POLICY: u16 = 1008;
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
    /// A new outbox of `capacity` frames and the receiver its connection drains.
    pub fn new(conn: ConnId, capacity: usize) -> (Outbox, mpsc::Receiver<Arc<str>>, Arc<Closing>) {
        let (frames, rx) = mpsc::channel(capacity.max(1));
        let closing = Arc::new(Closing::default());
        (
            Outbox {
                conn,
                frames,
                closing: closing.clone(),
                muted: Arc::default(),
            },
            rx,
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
        match self.frames.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close("too slow: the send queue is full; reconnect and resume");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
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

    /// Whether chat from `name` is muted for this connection.
    pub fn mutes(&self, name: &str) -> bool {
        self.muted.lock().is_ok_and(|m| m.contains(name))
    }

    /// Mutes or unmutes `name` for this connection.
    pub fn set_muted(&self, name: &str, muted: bool) {
        if let Ok(mut m) = self.muted.lock() {
            if muted {
                m.insert(name.to_string());
            } else {
                m.remove(name);
            }
        }
    }
}
