//! What players do, and what everyone sees happen.

use crate::declare::{InstantWin, Mode};
use crate::grab::Shown;
use crate::play::Kind;
use crate::suited::{names_suits, SuitedCards};
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
/// `{"play":"3 3 3 4 4"}` (by rank), `{"play":"3d 3d 3c 4h 4s"}` (the player's own suited
/// cards), `"pass"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Wire<Mode>", into = "Wire<Mode>")]
pub enum Action {
    /// Click a grab card: shows a pair of it, or the triple if the pair is already shown.
    Grab(Card),
    /// Stop grabbing (also what a timeout does).
    Decline,
    /// The landlord's declaration.
    Declare(Mode),
    /// Cards played, by rank: the game chooses which copies leave the hand (lowest suit
    /// first, the marked card last), and the table shows ranks only.
    Play(RankCounts),
    /// Cards played as the player chose them, suits and all: exactly these copies leave the
    /// hand, and the table shows them. A play of jokers alone is a rank-only play.
    PlaySuited(SuitedCards),
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
#[serde(from = "Wire<PublicMode>", into = "Wire<PublicMode>")]
pub enum PublicAction {
    /// A grab card was clicked (the set it shows is public).
    Grab(Card),
    /// Stopped grabbing.
    Decline,
    /// The landlord declared.
    Declare(PublicMode),
    /// Cards played, by rank.
    Play(RankCounts),
    /// Cards played with their suits, as the player chose them.
    PlaySuited(SuitedCards),
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
            Action::PlaySuited(cards) => PublicAction::PlaySuited(cards),
            Action::Pass => PublicAction::Pass,
        }
    }
}

/// The cards of a play as JSON writes them: one string, suited cards (`"6d 6c"`) for a
/// suited play, ranks (`"6 6"`) otherwise, so that records and clients from before suited
/// plays read on unchanged.
#[derive(Clone, Copy)]
enum PlayText {
    Ranks(RankCounts),
    Suited(SuitedCards),
}

impl Serialize for PlayText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PlayText::Ranks(r) => r.serialize(s),
            PlayText::Suited(c) => c.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for PlayText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let read = if names_suits(&text) {
            text.parse().map(PlayText::Suited)
        } else {
            text.parse().map(PlayText::Ranks)
        };
        read.map_err(serde::de::Error::custom)
    }
}

/// [`Action`] and [`PublicAction`] as JSON: both play forms under the one key `play`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Wire<M> {
    Grab(Card),
    Decline,
    Declare(M),
    Play(PlayText),
    Pass,
}

/// A suited play of jokers alone names nothing a rank-only play does not: it is written,
/// and read back, as ranks.
fn play_text(cards: SuitedCards) -> PlayText {
    if cards.has_suits() {
        PlayText::Suited(cards)
    } else {
        PlayText::Ranks(cards.ranks())
    }
}

impl From<Wire<Mode>> for Action {
    fn from(w: Wire<Mode>) -> Action {
        match w {
            Wire::Grab(c) => Action::Grab(c),
            Wire::Decline => Action::Decline,
            Wire::Declare(m) => Action::Declare(m),
            Wire::Play(PlayText::Ranks(r)) => Action::Play(r),
            Wire::Play(PlayText::Suited(c)) => Action::PlaySuited(c),
            Wire::Pass => Action::Pass,
        }
    }
}

impl From<Action> for Wire<Mode> {
    fn from(a: Action) -> Wire<Mode> {
        match a {
            Action::Grab(c) => Wire::Grab(c),
            Action::Decline => Wire::Decline,
            Action::Declare(m) => Wire::Declare(m),
            Action::Play(r) => Wire::Play(PlayText::Ranks(r)),
            Action::PlaySuited(c) => Wire::Play(play_text(c)),
            Action::Pass => Wire::Pass,
        }
    }
}

impl From<Wire<PublicMode>> for PublicAction {
    fn from(w: Wire<PublicMode>) -> PublicAction {
        match w {
            Wire::Grab(c) => PublicAction::Grab(c),
            Wire::Decline => PublicAction::Decline,
            Wire::Declare(m) => PublicAction::Declare(m),
            Wire::Play(PlayText::Ranks(r)) => PublicAction::Play(r),
            Wire::Play(PlayText::Suited(c)) => PublicAction::PlaySuited(c),
            Wire::Pass => PublicAction::Pass,
        }
    }
}

impl From<PublicAction> for Wire<PublicMode> {
    fn from(a: PublicAction) -> Wire<PublicMode> {
        match a {
            PublicAction::Grab(c) => Wire::Grab(c),
            PublicAction::Decline => Wire::Decline,
            PublicAction::Declare(m) => Wire::Declare(m),
            PublicAction::Play(r) => Wire::Play(PlayText::Ranks(r)),
            PublicAction::PlaySuited(c) => Wire::Play(play_text(c)),
            PublicAction::Pass => Wire::Pass,
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
        /// The same cards with their suits, when the player named them; `None` for a play
        /// by rank, whose copies the game chose and nobody sees.
        #[serde(default)]
        suited: Option<SuitedCards>,
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
    /// The same cards with their suits, for a play whose player named them; `None` for a
    /// pass and for a play by rank (the copies the game chose would tell what the hand
    /// still holds, so nobody is shown them).
    #[serde(default)]
    pub suited: Option<SuitedCards>,
}
