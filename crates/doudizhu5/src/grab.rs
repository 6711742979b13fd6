//! 抢地主, the grab: showing pairs and triples of jokers or of the face-up card's rank.
//!
//! The original rules (§5.2): a player may grab with two or three *identical* cards (same rank and
//! suit) that are RJ, BJ or of the 明牌's rank. One click shows a pair; a player holding
//! three identical cards may click again to show the triple. Every click adds one to the
//! multiplier; the strongest set shown makes its holder landlord.

use crate::hand::Hand;
use cards::{Card, Suit};
use serde::{Deserialize, Serialize};

/// One card's sets shown on the table by one player: a pair, then maybe the triple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// The card shown.
    pub card: Card,
    /// How many copies are shown (2 or 3).
    pub count: u8,
}

impl Shown {
    /// How many grabs (clicks) this set took: one for the pair, one more for the triple.
    pub fn grabs(self) -> u32 {
        u32::from(self.count) - 1
    }

    /// The set's strength: any triple beats any pair; then RJ > BJ > ♠ > ♥ > ♣ > ♦.
    pub fn strength(self) -> u32 {
        u32::from(self.count) * 8 + card_strength(self.card)
    }
}

/// The rank of a card among grab cards: RJ 5, BJ 4, ♠ 3, ♥ 2, ♣ 1, ♦ 0.
fn card_strength(card: Card) -> u32 {
    match card.suit() {
        None if card == Card::RED_JOKER => 5,
        None => 4,
        Some(s) => s.index() as u32,
    }
}

/// The cards one may grab with when `face_up` is the 明牌, strongest first.
pub fn grab_cards(face_up: Card) -> Vec<Card> {
    let mut out = vec![Card::RED_JOKER, Card::BLACK_JOKER];
    if !face_up.is_joker() {
        out.extend(
            Suit::ALL
                .iter()
                .rev()
                .map(|&s| Card::suited(face_up.rank(), s)),
        );
    }
    out
}

/// The cards `hand` can still click, strongest first, given what it has already shown.
pub fn clickable(hand: &Hand, face_up: Card, shown: &[Shown]) -> Vec<Card> {
    grab_cards(face_up)
        .into_iter()
        .filter(|&c| {
            let have = hand.copies(c);
            let showing = shown.iter().find(|s| s.card == c).map_or(0, |s| s.count);
            have >= 2 && showing < have
        })
        .collect()
}

/// Every grab a hand can make, one entry per click, strongest card first and each card's
/// clicks in order (the pair, then the triple): what the judge's `grabs` op lists.
pub fn all_grabs(hand: &Hand, face_up: Card) -> Vec<Shown> {
    let mut out = Vec::new();
    for c in grab_cards(face_up) {
        for count in 2..=hand.copies(c) {
            out.push(Shown { card: c, count });
        }
    }
    out
}

/// The most grabs one game can have: six grab cards (both jokers and the four suits of the
/// 明牌's rank), three copies of each in three decks, so at most one player holds two or
/// three copies of a card and clicks it at most twice. The judge refuses larger counts.
pub const MAX_GRABS: u64 = 12;

/// The grab multiplier: the number of grabs, at least 1.
pub fn multiplier(grabs: u32) -> u32 {
    grabs.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::parse_cards;

    #[test]
    fn triples_beat_pairs_then_jokers_then_suits() {
        let s = |t: &str, n| Shown {
            card: t.parse().unwrap(),
            count: n,
        };
        assert!(s("RJ", 3).strength() > s("BJ", 3).strength());
        assert!(s("BJ", 3).strength() > s("9s", 3).strength());
        assert!(s("9d", 3).strength() > s("RJ", 2).strength());
        assert!(s("9h", 2).strength() > s("9c", 2).strength());
    }

    #[test]
    fn clicks_show_the_pair_then_the_triple() {
        let hand = Hand::of(&parse_cards("9h 9h 9h 9c").unwrap());
        let face: Card = "9s".parse().unwrap();
        assert_eq!(clickable(&hand, face, &[]), vec!["9h".parse().unwrap()]);
        let shown = [Shown {
            card: "9h".parse().unwrap(),
            count: 3,
        }];
        assert!(clickable(&hand, face, &shown).is_empty());
    }
}
