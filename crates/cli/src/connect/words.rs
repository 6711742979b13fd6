//! What the terminal client says about people, time and the connection, in words.

use server::client::ClientError;
use server::protocol::UserInfo;

/// A user, in words.
pub fn describe(user: &UserInfo) -> String {
    if user.guest {
        format!("{} (a guest)", user.name)
    } else {
        user.name.clone()
    }
}

/// How long before `now` the moment `then` was (both in seconds since 1970), roughly.
pub fn ago(then: i64, now: i64) -> String {
    match now.saturating_sub(then).max(0) {
        s if s < 60 => "just now".into(),
        s if s < 3600 => format!("{} min ago", s / 60),
        s if s < 2 * 86400 => format!("{} h ago", s / 3600),
        s => format!("{} days ago", s / 86400),
    }
}

/// What the person reads when the connection is lost: a server that is restarting says so
/// with close code 1012, and that is no fault to report.
pub fn lost_line(why: &ClientError) -> String {
    match why {
        ClientError::Closed {
            code: Some(server::outbox::CLOSE_RESTART),
            ..
        } => "The server is restarting; reconnecting…".into(),
        _ => format!("Connection lost ({why}); reconnecting…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restarting_server_is_not_reported_as_a_lost_connection() {
        let restart = ClientError::Closed {
            code: Some(1012),
            reason: "server restarting".into(),
        };
        assert_eq!(
            lost_line(&restart),
            "The server is restarting; reconnecting…"
        );
        let reset = ClientError::Connection("Connection reset without closing handshake".into());
        assert_eq!(
            lost_line(&reset),
            "Connection lost (connection: Connection reset without closing handshake); reconnecting…"
        );
    }

    #[test]
    fn a_ban_says_roughly_how_long_ago_it_was() {
        let now = 1_764_961_200;
        assert_eq!(ago(now - 5, now), "just now");
        assert_eq!(ago(now + 30, now), "just now");
        assert_eq!(ago(now - 150, now), "2 min ago");
        assert_eq!(ago(now - 3 * 3600 - 10, now), "3 h ago");
        assert_eq!(ago(now - 47 * 3600, now), "47 h ago");
        assert_eq!(ago(now - 9 * 86400, now), "9 days ago");
    }
}
