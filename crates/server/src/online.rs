//! Who is online: each account's one live connection in the hall. A newer connection of
//! an account takes over from an older one, which is told and closed, on this node or on
//! another.
//!
//! Across nodes, which connection is the newer is told by its login's number, drawn from
//! Redis when the connection is claimed ([`crate::cluster::shared::Shared::login`]): the
//! news that account X logged in on node B ([`crate::cluster::news::News::Online`]) may
//! arrive late, after X logged in here again, and must then close nothing. A notice that
//! arrives while this node is still drawing its own number is remembered, and compared
//! once the number is drawn.

use crate::outbox::{ConnId, Outbox};
use crate::protocol::{ErrorCode, ServerMessage};
use std::collections::HashMap;
use std::sync::Mutex;

/// What a taken-over connection is told.
pub const TAKEN_OVER: &str = "you connected again elsewhere; this connection closes";

/// One account's live connection here.
struct Entry {
    out: Outbox,
    /// The address it is at (its key for limits).
    address: String,
    /// Its login's number, once drawn; `None` in a hall of one node, or when Redis did
    /// not answer.
    login: Option<u64>,
    /// Whether its number is being drawn.
    numbering: bool,
    /// The newest login elsewhere heard of while its number was drawn.
    heard: Option<u64>,
}

/// Each account's live connection on this node.
#[derive(Default)]
pub struct Online {
    by_account: Mutex<HashMap<i64, Entry>>,
}

/// Whether a connection here, whose login is numbered `mine` (`numbering` while its
/// number is drawn), is older than a login elsewhere numbered `theirs`: a login without a
/// number (Redis did not answer) is taken as the newest, as on one node.
pub fn older(numbering: bool, mine: Option<u64>, theirs: Option<u64>) -> bool {
    match (numbering, mine, theirs) {
        (_, _, None) => true,
        (true, _, Some(_)) => false,
        (false, Some(mine), Some(theirs)) => mine < theirs,
        (false, None, Some(_)) => true,
    }
}

fn tell(out: &Outbox, code: ErrorCode, message: &str) {
    out.send(&ServerMessage::error(code, message, None));
    // A close frame's reason is short (123 bytes): the code, the message went before.
    out.close(code.as_str());
}

impl Online {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Entry>> {
        self.by_account.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records that `user` is online on `out`, at `address`; an older connection of the
    /// same account here is told and closed. `numbering` when its login's number is
    /// being drawn ([`Online::numbered`] follows).
    pub fn claim(&self, user: i64, out: &Outbox, address: &str, numbering: bool) {
        let entry = Entry {
            out: out.clone(),
            address: address.to_string(),
            login: None,
            numbering,
            heard: None,
        };
        if let Some(old) = self.lock().insert(user, entry) {
            if old.out.conn != out.conn {
                old.out.send(&ServerMessage::error(
                    ErrorCode::TakenOver,
                    TAKEN_OVER,
                    None,
                ));
                old.out.close("taken over by a newer connection");
            }
        }
    }

    /// The login of `user` on connection `conn` is numbered `login` (`None`: Redis did
    /// not answer). If a newer login elsewhere was heard of meanwhile, the connection is
    /// told and closed, and false returned.
    pub fn numbered(&self, user: i64, conn: ConnId, login: Option<u64>) -> bool {
        let mut online = self.lock();
        let Some(entry) = online.get_mut(&user).filter(|e| e.out.conn == conn) else {
            return false;
        };
        entry.numbering = false;
        entry.login = login;
        let newer_elsewhere = entry.heard.is_some() && older(false, login, entry.heard);
        if newer_elsewhere {
            if let Some(entry) = online.remove(&user) {
                tell(&entry.out, ErrorCode::TakenOver, TAKEN_OVER);
            }
            return false;
        }
        true
    }

    /// `user` logged in on another node, that login numbered `login`: the connection
    /// here is told and closed if it is the older.
    pub fn elsewhere(&self, user: i64, login: Option<u64>) {
        let mut online = self.lock();
        let Some(entry) = online.get_mut(&user) else {
            return;
        };
        if !older(entry.numbering, entry.login, login) {
            if entry.numbering {
                entry.heard = entry.heard.max(login);
            }
            return;
        }
        if let Some(entry) = online.remove(&user) {
            tell(&entry.out, ErrorCode::TakenOver, TAKEN_OVER);
        }
    }

    /// Forgets `user`'s connection `conn` when it closes.
    pub fn release(&self, user: i64, conn: ConnId) {
        let mut online = self.lock();
        if online.get(&user).is_some_and(|e| e.out.conn == conn) {
            online.remove(&user);
        }
    }

    /// Tells `user`'s live connection, if any, why it ends and closes it; returns the
    /// address it was at.
    pub fn disconnect(&self, user: i64, code: ErrorCode, message: &str) -> Option<String> {
        let entry = self.lock().remove(&user)?;
        tell(&entry.out, code, message);
        Some(entry.address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_notice_of_an_older_login_closes_nothing() {
        // Numbered logins: only a newer one elsewhere takes over.
        assert!(older(false, Some(5), Some(6)));
        assert!(!older(false, Some(6), Some(5)), "the notice is stale");
        assert!(!older(false, Some(6), Some(6)));
        // While this connection's number is drawn, nothing is decided.
        assert!(!older(true, None, Some(6)));
        // Without numbers (Redis did not answer), the notice is the newer, as on one node.
        assert!(older(false, Some(6), None));
        assert!(older(false, None, Some(6)));
    }

    #[tokio::test]
    async fn a_newer_login_heard_while_numbering_closes_the_connection_once_numbered() {
        let online = Online::default();
        let (out, _drain, closing) = Outbox::new(7, 16, 1 << 16);
        online.claim(1, &out, "203.0.113.1", true);
        online.elsewhere(1, Some(10));
        assert!(online.lock().contains_key(&1), "undecided while numbering");
        assert!(!online.numbered(1, 7, Some(9)), "9 is older than 10");
        assert!(!online.lock().contains_key(&1));
        let (code, _) = closing.wait().await;
        assert_eq!(code, crate::outbox::CLOSE_POLICY);
        // A stale notice, heard while numbering or after, leaves a newer login alone.
        let (out, _drain, _closing) = Outbox::new(8, 16, 1 << 16);
        online.claim(2, &out, "203.0.113.1", true);
        online.elsewhere(2, Some(3));
        assert!(online.numbered(2, 8, Some(9)));
        online.elsewhere(2, Some(4));
        assert!(online.lock().contains_key(&2));
        online.elsewhere(2, Some(12));
        assert!(!online.lock().contains_key(&2));
    }
}
