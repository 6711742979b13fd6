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

/// Why and when a connection must close.
#[derive(Default)]
pub struct Closing {
    closed: AtomicBool,
    reason: Mutex<String>,
    notify: Notify,
}

impl Closing {
    /// Waits until someone asks the connection to close; returns why.
    pub async fn wait(&self) -> String {
        loop {
            let notified = self.notify.notified();
            if self.closed.load(Ordering::Acquire) {
                return self.reason.lock().map(|r| r.clone()).unwrap_or_default();
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

    /// Asks the connection to close, saying why.
    pub fn close(&self, reason: &str) {
        if let Ok(mut r) = self.closing.reason.lock() {
            *r = reason.to_string();
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
