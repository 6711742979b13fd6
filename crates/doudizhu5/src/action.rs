//! What players do, and what everyone sees happen.

use crate::declare::{InstantWin, Mode};
use crate::grab::Shown;
use crate::play::Kind;
use cards::{Card, RankCounts};
use game::Seat;
use serde::{Deserialize, Serialize};

/// The phase of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Everyone may grab at once.
    Grab,
    /// The landlord chooses open solo, hidden solo or a partner call.
    Declare,
    /// Cards are played.
    Play,
    /// Someone went out, or the landlord won instantly.
    Finished,
}

/// One move. JSON: `{"grab":"9h"}`, `"decline"`, `{"declare":"partner"}`,
/// `{"play":"3 3 3 4 4"}`, `"pass"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Click a grab card: shows a pair of it, or the triple if the pair is already shown.
    Grab(Card),
    /// Stop grabbing (also what a timeout does).
    Decline,
    /// The landlord's declaration.
    Declare(Mode),
    /// Cards played, by rank.
    Play(RankCounts),
    /// Not following the play on the table (过).
    Pass,
}

/// The landlord's declaration as the others learn it: an open solo is open; a hidden solo
/// and a partner call are both just "a card is marked".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PublicMode {
    /// 明独打: one against four in the open.
    OpenSolo,
    /// A hidden solo or a partner call: only the landlord knows which.
    Marked,
}

/// What the other seats learn of an [`Action`]: the action itself, except that a hidden
/// solo and a partner call both read `{"declare":"marked"}`. JSON as for [`Action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PublicAction {
    /// A grab card was clicked (the set it shows is public).
    Grab(Card),
    /// Stopped grabbing.
    Decline,
    /// The landlord declared.
    Declare(PublicMode),
    /// Cards played, by rank.
    Play(RankCounts),
    /// Passed.
    Pass,
}

impl From<Action> for PublicAction {
    fn from(action: Action) -> PublicAction {
        match action {
            Action::Grab(card) => PublicAction::Grab(card),
            Action::Decline => PublicAction::Decline,
            Action::Declare(Mode::OpenSolo) => PublicAction::Declare(PublicMode::OpenSolo),
            Action::Declare(Mode::HiddenSolo | Mode::Partner) => {
                PublicAction::Declare(PublicMode::Marked)
            }
            Action::Play(cards) => PublicAction::Play(cards),
            Action::Pass => PublicAction::Pass,
        }
    }
}

/// Something everyone sees happen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A player showed a grab set.
    Grabbed {
        /// Who.
        seat: Seat,
        /// The set shown: the card and how many copies.
        shown: Shown,
    },
    /// A player stopped grabbing.
    Declined {
        /// Who.
        seat: Seat,
    },
    /// The grab is over: the landlord took the kitty.
    Landlord {
        /// The landlord (正地主).
        seat: Seat,
        /// The number of grabs.
        grabs: u32,
    },
    /// The landlord won without play.
    InstantWin {
        /// The landlord.
        seat: Seat,
        /// Why.
        reason: InstantWin,
    },
    /// The landlord declared. A hidden solo and a partner call look the same here.
    Declared {
        /// The landlord.
        seat: Seat,
        /// Whether it is the open solo (一打四).
        open_solo: bool,
        /// The marked card (找…), for a hidden solo or a partner call.
        marked: Option<Card>,
    },
    /// Cards were played.
    Played {
        /// Who.
        seat: Seat,
        /// The cards.
        cards: RankCounts,
        /// As what.
        kind: Kind,
    },
    /// A player passed.
    Passed {
        /// Who.
        seat: Seat,
    },
    /// The marked card was played: its player is the partner (the landlord, for a hidden
    /// solo).
    Revealed {
        /// The partner (副地主).
        partner: Seat,
        /// Whether it was the landlord's own hidden solo (暗独打): the log says "alone"
        /// rather than naming a partner.
        #[serde(default)]
        hidden_solo: bool,
    },
    /// The game is over.
    Finished {
        /// Who went out (the landlord for an instant win).
        winner: Seat,
        /// Whether the landlord's side won.
        landlord_won: bool,
        /// Each seat's score change.
        scores: Vec<i64>,
    },
}

/// One turn of the play phase, for the public history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Who.
    pub seat: Seat,
    /// The cards, or `None` for a pass.
    pub cards: Option<RankCounts>,
}
