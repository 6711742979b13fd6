//! The codes of [`ServerMessage::Error`](super::ServerMessage::Error): one enum, so the
//! server cannot send a code that the schema, docs/protocol.md and the page's tables do
//! not know (a test reads all three against [`ErrorCode::ALL`]).

use game::{GameError, RuleError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares [`ErrorCode`] from one list: each code's variant, its text on the wire, and
/// its meaning (which the schema carries as the code's description).
macro_rules! error_codes {
    ($( $(#[doc = $doc:literal])+ $variant:ident = $text:literal, )+) => {
        /// Why the server refused a request: the stable `code` of an error message, for a
        /// client to act on (its `message` is for people).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
        pub enum ErrorCode {
            $( $(#[doc = $doc])+ #[serde(rename = $text)] $variant, )+
        }

        impl ErrorCode {
            /// Every code, in the order docs/protocol.md lists them.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The code as it is sent (`not_your_turn`), also the label of the errors metric.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $text,)+
                }
            }
        }
    };
}

error_codes! {
    /// The frame is not JSON.
    BadJson = "bad_json",
    /// JSON, but not a message of this protocol (unknown `type`, a missing or unknown
    /// field, a binary frame).
    BadMessage = "bad_message",
    /// `hello` asked for another protocol version; the connection closes.
    BadVersion = "bad_version",
    /// The first message must be `hello`.
    HelloFirst = "hello_first",
    /// Only the first message may be `hello`.
    HelloAgain = "hello_again",
    /// Too many messages, chat lines, failed logins or wrong invite codes: wait.
    RateLimited = "rate_limited",
    /// The address already has its share of connections open (64 by default); sent at
    /// once, then the connection closes (1008): close another.
    TooManyConnections = "too_many_connections",
    /// The address has made its share of new accounts (guests and registrations, 60 an
    /// hour by default): log in, or try later.
    TooManyAccounts = "too_many_accounts",
    /// The request needs an account or a guest session.
    NotLoggedIn = "not_logged_in",
    /// A name that may not be registered.
    BadName = "bad_name",
    /// A password too short or too long.
    BadPassword = "bad_password",
    /// The name belongs to another account.
    NameTaken = "name_taken",
    /// The password is wrong.
    WrongPassword = "wrong_password",
    /// The session token is unknown, expired or revoked.
    BadToken = "bad_token",
    /// A guest has no password to check or change.
    Guest = "guest",
    /// The account holds a seat (leave the tables first), or already sits at this table.
    Seated = "seated",
    /// The account is banned.
    Banned = "banned",
    /// No new account from this address for now, after a ban.
    AddressBlocked = "address_blocked",
    /// Only moderators may do that.
    NotModerator = "not_moderator",
    /// A moderator may not ban that account (themselves, another moderator).
    NotAllowed = "not_allowed",
    /// No account has that name.
    NoUser = "no_user",
    /// A ban's reason is missing or too long.
    BadReason = "bad_reason",
    /// The server has no such game.
    UnknownGame = "unknown_game",
    /// The table's options are not valid for the game.
    BadOptions = "bad_options",
    /// The game has no such bot.
    UnknownBot = "unknown_bot",
    /// The server has as many tables open as it may.
    HallFull = "hall_full",
    /// No such table, or it has closed.
    NoTable = "no_table",
    /// The connection follows as many tables as it may, each holding its seat.
    TooManyTables = "too_many_tables",
    /// The table is private: its invite code is needed.
    Private = "private",
    /// The private table's host lets nobody watch: only its players follow it.
    NoSpectators = "no_spectators",
    /// The table has no such seat.
    NoSeat = "no_seat",
    /// Someone sits in that seat.
    SeatTaken = "seat_taken",
    /// Every seat is taken.
    TableFull = "table_full",
    /// The request needs a seat at this table.
    NotSeated = "not_seated",
    /// Only the table's host may do that.
    NotHost = "not_host",
    /// The table does not take computers.
    NoComputers = "no_computers",
    /// No computer sits in that seat.
    NoBot = "no_bot",
    /// Join or watch the table first.
    NotWatching = "not_watching",
    /// Not while a game is being played.
    Playing = "playing",
    /// Not in this phase of the game (or of the table).
    WrongPhase = "wrong_phase",
    /// The nonce is not 1–32 bytes of hex, or not for this game.
    BadNonce = "bad_nonce",
    /// This seat has sent its nonce.
    NonceSent = "nonce_sent",
    /// It is another seat's turn.
    NotYourTurn = "not_your_turn",
    /// The rules do not allow that action.
    Illegal = "illegal",
    /// The action is not one of the game's actions at all.
    BadAction = "bad_action",
    /// The game is over.
    GameOver = "game_over",
    /// The action was sent against an older state than the table's now.
    Stale = "stale",
    /// A game's configuration that its rules refuse.
    BadConfig = "bad_config",
    /// A record that does not replay.
    BadRecord = "bad_record",
    /// A computer could not decide.
    BotFailed = "bot_failed",
    /// A game that cannot go on (a bug).
    Stuck = "stuck",
    /// A chat line that is empty or too long.
    BadChat = "bad_chat",
    /// Another connection of the account took over this one.
    TakenOver = "taken_over",
    /// The store could not be written or read: nothing was accepted; try again. A table
    /// that cannot go on without its store says so too, and its status is `stalled` until
    /// the store answers.
    Storage = "storage",
    /// Something could not be encoded (a bug): nothing was accepted.
    Internal = "internal",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code equals its text on the wire, so a client can compare what it received with
/// `"stale"` as well as with [`ErrorCode::Stale`].
impl PartialEq<str> for ErrorCode {
    fn eq(&self, text: &str) -> bool {
        self.as_str() == text
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, text: &&str) -> bool {
        self.as_str() == *text
    }
}

impl From<&RuleError> for ErrorCode {
    fn from(e: &RuleError) -> Self {
        match e {
            RuleError::NotYourTurn(_) => ErrorCode::NotYourTurn,
            RuleError::GameOver => ErrorCode::GameOver,
            RuleError::WrongPhase(_) => ErrorCode::WrongPhase,
            RuleError::Illegal(_) => ErrorCode::Illegal,
            RuleError::BadConfig(_) => ErrorCode::BadConfig,
        }
    }
}

impl From<&GameError> for ErrorCode {
    fn from(e: &GameError) -> Self {
        match e {
            GameError::UnknownGame { .. } => ErrorCode::UnknownGame,
            GameError::Rule(e) => e.into(),
            GameError::BadAction(_) => ErrorCode::BadAction,
            GameError::BadConfig(_) => ErrorCode::BadConfig,
            GameError::UnknownBot { .. } => ErrorCode::UnknownBot,
            GameError::NoBot(_) => ErrorCode::NoBot,
            GameError::Replay(_) | GameError::BadImport(_) => ErrorCode::BadRecord,
            GameError::Stuck(_) => ErrorCode::Stuck,
            GameError::BotFailed { .. } => ErrorCode::BotFailed,
            GameError::Encode(_) => ErrorCode::Internal,
        }
    }
}
