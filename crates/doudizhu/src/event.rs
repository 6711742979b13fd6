//! What everyone sees happen in a game of Dou Dizhu: the table's log and animations.

use crate::Play;
use cards::RankCounts;
use game::Seat;
use serde::{Deserialize, Serialize};

/// Something everyone sees happen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A player bid (0 = no bid).
    Bid {
        /// Who.
        seat: Seat,
        /// The bid.
        bid: u8,
    },
    /// Everybody declined; the cards were shuffled and dealt again.
    Redealt {
        /// Redeals in a row so far.
        redeals: u8,
    },
    /// The landlord is known; the kitty is shown and joins their hand.
    Landlord {
        /// The landlord's seat.
        seat: Seat,
        /// The base score (the winning bid).
        bid: u8,
        /// The kitty, shown to all.
        kitty: RankCounts,
    },
    /// A player chose how much to double their own stake (加倍): 1 不加倍, 2 加倍, 4 超级加倍.
    /// Only at tables with the `doubling` option.
    Doubled {
        /// Who.
        seat: Seat,
        /// The factor chosen.
        factor: u8,
    },
    /// The landlord decided whether to show their hand (明牌), at tables with the
    /// `show_cards` option.
    Shown {
        /// The landlord.
        seat: Seat,
        /// The hand shown to everyone from now on; `None` when the landlord keeps it hidden.
        hand: Option<RankCounts>,
    },
    /// Cards were played.
    Played {
        /// Who.
        seat: Seat,
        /// What.
        play: Play,
        /// The multiplier after this play (a bomb doubles it).
        multiplier: i64,
    },
    /// A player passed.
    Passed {
        /// Who.
        seat: Seat,
    },
    /// The other two passed: the round is over and this player leads.
    RoundWon {
        /// Who leads next.
        seat: Seat,
    },
    /// Someone went out; the game is over.
    Finished {
        /// Who went out.
        winner: Seat,
        /// Whether the landlord's side won.
        landlord_won: bool,
        /// Score change per seat.
        scores: [i64; 3],
        /// Spring (春天).
        spring: bool,
        /// Anti-spring (反春).
        anti_spring: bool,
        /// Each seat's doubling (加倍: 1, 2 or 4); all 0, and left out of the JSON, at tables
        /// without the `doubling` option, so their events read as they always did.
        #[serde(default, skip_serializing_if = "crate::stakes::no_doubles")]
        doubles: [u8; 3],
        /// Whether the landlord showed their hand (明牌, ×2); left out of the JSON when not.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shown: bool,
    },
}
