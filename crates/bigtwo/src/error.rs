//! Why a play is refused, in words for the player who tried it.

use crate::combo::Kind;
use cards::{Card, CardSet};
use game::RuleError;

/// A play or pass that breaks a rule of the deal. Each message says what rule and, where it
/// helps, what would be allowed instead. Converted to [`RuleError::Illegal`] for the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The player leads the trick, and a leader must play.
    #[error("you lead this trick: play something, you cannot pass")]
    LeaderPasses,
    /// An empty play.
    #[error("play at least one card, or pass")]
    NoCards,
    /// Cards not in the player's hand.
    #[error("you do not hold {0}")]
    NotHeld(CardSet),
    /// Two or three cards that are not of one rank.
    #[error("{cards} is not {}: it needs {} of one rank", .kind.described(), count(.kind.size()))]
    NotSameRank {
        /// What was tried.
        cards: CardSet,
        /// The pair or triple the number of cards asks for.
        kind: Kind,
    },
    /// Five cards that are none of the five-card hands.
    #[error(
        "{0} is no five-card hand: play a straight, flush, full house, four of a kind with one \
         card, or straight flush (A and 2 cannot sit inside a straight: JQKA2 is not one)"
    )]
    NoFiveCardHand(CardSet),
    /// Four cards, or more than five.
    #[error("{0} cards is no play: play 1, 2, 3 or 5 cards")]
    WrongCount(u32),
    /// The match's first play leaves out 3♦.
    #[error("the first play of the match must include {0}")]
    MustInclude(Card),
    /// A play of another size than the one on the table.
    #[error("{} is on the table: follow with {} or pass", .on_table.described(), count(*.size))]
    WrongSize {
        /// The kind of play on the table.
        on_table: Kind,
        /// How many cards it has.
        size: u32,
    },
    /// A play that does not beat the one on the table.
    #[error("{play} does not beat {last}")]
    TooLow {
        /// What was tried.
        play: CardSet,
        /// What is on the table.
        last: CardSet,
    },
}

fn count(n: u32) -> &'static str {
    match n {
        1 => "one card",
        2 => "two cards",
        3 => "three cards",
        _ => "five cards",
    }
}

impl PlayError {
    /// Why `cards` (held by the player) are no play at all.
    pub(crate) fn not_a_play(cards: CardSet) -> PlayError {
        match cards.len() {
            2 => PlayError::NotSameRank {
                cards,
                kind: Kind::Pair,
            },
            3 => PlayError::NotSameRank {
                cards,
                kind: Kind::Triple,
            },
            5 => PlayError::NoFiveCardHand(cards),
            n => PlayError::WrongCount(n),
        }
    }
}

impl From<PlayError> for RuleError {
    fn from(e: PlayError) -> RuleError {
        RuleError::Illegal(e.to_string())
    }
}
