//! What the messages describe: a table's options, a user, a game offered, a seat, a table
//! as the lobby lists it, and a game in progress as one client sees it.

use super::TableId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a table plays, chosen when it is opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TableOptions {
    /// The game's configuration (its options: `{"rule":"renju"}`); `null` for the default.
    pub config: Value,
    /// Number of seats, for games that take several (Ten and a half: 2–8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// Private: not listed in the lobby, joined with the invite code only.
    pub private: bool,
    /// At a private table, whether those with the invite code may watch when they do not
    /// play (the host's choice, off unless asked: a private game is its players' own).
    /// Anyone may watch a public table.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub spectators: bool,
    /// Whether computers may fill empty seats and take over for players who time out or
    /// leave.
    pub computers: bool,
    /// Whether the games count for the players' ratings (registered players only).
    pub rated: bool,
    /// Seconds per turn, by the game's phase names (`{"bid":15,"play":40}`), with `"*"`
    /// for every phase not named (`{"*":20}`: one time for every turn, without knowing the
    /// game's phases); phases not named keep the game's default. See
    /// [`TableOptions::turn_seconds_in`].
    pub turn_seconds: std::collections::BTreeMap<String, u32>,
    /// Each player's thinking time for a whole game, for games on a chess clock (Gomoku);
    /// `None` keeps the game's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_seconds: Option<u32>,
    /// 记牌器: the table shows every player how many cards of each rank are still out
    /// (neither in their hand nor played yet), for the games whose cards are ranked (the
    /// page's `cards` screen); the same aid for all at the table. Off unless asked.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub card_counter: bool,
    /// The computers' strength: one of the game's levels ([`GameInfo::levels`]: `easy`,
    /// `normal`, `strong`, Gomoku's `L1`…`L10`), the bot that fills empty seats and plays
    /// for people who time out or leave; `None` keeps the hall's default computer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

impl TableOptions {
    /// The seconds a turn in `phase` gets at this table, if the table sets them: the
    /// phase's own entry, else the `"*"` entry. `None` keeps the game's default.
    pub fn turn_seconds_in(&self, phase: &str) -> Option<u32> {
        self.turn_seconds
            .get(phase)
            .or_else(|| self.turn_seconds.get("*"))
            .copied()
    }
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            config: Value::Null,
            seats: None,
            private: false,
            spectators: false,
            computers: true,
            rated: false,
            turn_seconds: Default::default(),
            game_seconds: None,
            card_counter: false,
            level: None,
        }
    }
}

/// A user as others see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UserInfo {
    /// The account's id.
    pub id: i64,
    /// The name shown at tables.
    pub name: String,
    /// Whether it is a guest account.
    pub guest: bool,
}

/// A banned account, as its moderators see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BanInfo {
    /// The account's name.
    pub user: String,
    /// Why it was banned, as the player was told.
    pub reason: String,
    /// When, in seconds since 1970 (UTC).
    pub since: i64,
}

/// One game this server offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameInfo {
    /// Its id (`doudizhu`).
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// The numbers of seats it takes.
    pub seats: [usize; 2],
    /// Its bots, strongest last.
    pub bots: Vec<String>,
    /// Its default configuration.
    pub config: Value,
    /// What to type at a terminal.
    pub help: String,
    /// Its name in Chinese, for the page (`斗地主`).
    pub name_zh: String,
    /// Its name in English, for the page (`Dou Dizhu`).
    pub name_en: String,
    /// One line about it in Chinese.
    pub blurb_zh: String,
    /// One line about it in English.
    pub blurb_en: String,
    /// The lobby's icon for it.
    pub icon: String,
    /// The page's table screen that draws it: `cards`, `tenhalf` or `board`.
    pub screen: String,
    /// The computers' strengths a table may ask for ([`TableOptions::level`]), weakest
    /// first.
    pub levels: Vec<LevelInfo>,
    /// The level of the computer a table seats when nobody chooses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_level: Option<String>,
}

/// One strength of computer a game offers people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LevelInfo {
    /// The level's name, for the page to translate: `easy`, `normal`, `strong`, or a
    /// numbered level (`L1`…`L10`).
    pub name: String,
    /// The bot that plays it (`search:strong`, `engine:L3`).
    pub bot: String,
}

/// A player's rating at a game before and after a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// Whether the rating after it is still provisional (too few games to rank by).
    pub provisional: bool,
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    /// The seat number.
    pub seat: usize,
    /// The person sitting there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<UserInfo>,
    /// The computer playing there (a bot's name), when a computer fills the seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Ready for the next game.
    pub ready: bool,
    /// The person is connected.
    pub connected: bool,
    /// A computer plays the person's seat for now (托管): asked for, after timeouts, or
    /// while the person is away.
    pub auto: bool,
}

/// The state of a table as the lobby and its players see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableInfo {
    /// The table.
    pub id: TableId,
    /// The game.
    pub game: String,
    /// `waiting` for players, `dealing` (collecting nonces), `playing`, `stalled` (the
    /// store is out of reach and the table waits for it before it goes on), or `closed`.
    pub status: String,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// The people watching.
    pub spectators: usize,
    /// The table's options (the invite code is not shown).
    pub options: TableOptions,
    /// The host: who opened it.
    pub host: String,
    /// Games finished at this table.
    pub games: u64,
    /// Each seat's running total over the match.
    pub totals: Vec<i64>,
    /// Opened by quick play: others' quick play may join it.
    pub quick: bool,
    /// Quick play: milliseconds, from when this was sent, until computers take the empty
    /// seats; absent when none are coming. The person who asked to play computers sees
    /// an empty table for these seconds (people who join meanwhile play each other), so a
    /// client says how soon the computers come.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill_ms: Option<u64>,
}

/// A game in progress at a table, as one client may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameState {
    /// The game's id (for its record).
    pub game_id: String,
    /// The commitment published before the deal.
    pub commitment: String,
    /// Every seat's nonce, in seat order.
    pub nonces: Vec<Option<String>>,
    /// The game's view for this client (its seat's, or a spectator's).
    pub view: Value,
    /// The seats that may act now.
    pub to_act: Vec<usize>,
    /// This client's legal actions, when it may act.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legal: Vec<Value>,
    /// Milliseconds until the acting seats' time runs out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// The phase the turn timer counts for (`bid`, `play`, `move`).
    pub phase: String,
    /// Each seat's thinking time left for the game, in milliseconds (chess-clock games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks_ms: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_time_is_the_phase_s_own_else_the_star_s_else_the_game_s() {
        let options: TableOptions =
            serde_json::from_str(r#"{"turn_seconds":{"bid":15,"*":20}}"#).unwrap();
        assert_eq!(options.turn_seconds_in("bid"), Some(15));
        assert_eq!(options.turn_seconds_in("play"), Some(20));
        let named: TableOptions = serde_json::from_str(r#"{"turn_seconds":{"bid":15}}"#).unwrap();
        assert_eq!(named.turn_seconds_in("play"), None);
        assert_eq!(TableOptions::default().turn_seconds_in("move"), None);
    }
}
