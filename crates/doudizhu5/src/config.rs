//! Table options, and the deal they may fix.

use crate::rules::{DECK, HAND, KITTY, SEATS};
use cards::Card;
use game::{RuleError, Seat};
use serde::{Deserialize, Serialize};

/// Table options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The table's base score (基础分): one player's stake is multiplier × base.
    pub base: u32,
    /// The grab window in seconds; the server applies `decline` to the seats still
    /// deciding when it closes.
    pub grab_seconds: u32,
    /// The landlord's time to declare; the server applies the default (a partner call)
    /// when it runs out.
    pub declare_seconds: u32,
    /// Given hands, kitty and face-up card instead of a shuffled deal: tests and puzzles.
    pub deal: Option<CustomDeal>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            base: 1,
            grab_seconds: 10,
            declare_seconds: 10,
            deal: None,
        }
    }
}

/// A deal chosen by hand: five hands of 31, a kitty of 7, together three full decks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomDeal {
    /// The five hands, seat 0 first.
    pub hands: Vec<Vec<Card>>,
    /// The seven kitty cards.
    pub kitty: Vec<Card>,
    /// The face-up card (明牌) and the seat holding it.
    pub face_up: (Card, Seat),
}

/// Checks that a fixed deal is five hands of 31 and a kitty of 7 making exactly three
/// decks, and that the face-up card is in its holder's hand.
pub(crate) fn check_deal(d: &CustomDeal) -> Result<(), RuleError> {
    let bad = |m: String| Err(RuleError::BadConfig(m));
    if d.hands.len() != SEATS || d.hands.iter().any(|h| h.len() != HAND) || d.kitty.len() != KITTY {
        return bad(format!(
            "a deal is {SEATS} hands of {HAND} cards and a kitty of {KITTY}"
        ));
    }
    let all: Vec<Card> = d.hands.iter().flatten().chain(&d.kitty).copied().collect();
    let mut sorted = all;
    sorted.sort();
    if sorted != DECK.cards() {
        return bad("the hands and kitty must be exactly three decks with jokers".into());
    }
    let (card, holder) = d.face_up;
    if !d.hands.get(holder).is_some_and(|h| h.contains(&card)) {
        return bad(format!(
            "seat {holder} does not hold the face-up card {card}"
        ));
    }
    Ok(())
}
