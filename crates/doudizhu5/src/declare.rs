//! After the kitty: the landlord's instant wins, and the three declarations.
//!
//! The original rules, §5.4–5.5. The marked card is "the lowest" suited card the landlord holds three
//! of (hidden solo) or exactly two of (calling a partner): lowest by rank 3 < … < A < 2,
//! then suit ♦ < ♣ < ♥ < ♠ — which is exactly the order of card ids.

use crate::hand::Hand;
use cards::{Card, Rank};
use serde::{Deserialize, Serialize};

/// How the landlord plays (正地主叫副地主).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// 明独打: one against four in the open, multiplier ×2.
    OpenSolo,
    /// 暗独打: alone, but marked like a partner call; needs three identical cards.
    HiddenSolo,
    /// 叫朋友: the holder of the third copy of the marked card is the secret partner.
    Partner,
}

impl Mode {
    /// The name in JSON and the judge.
    pub fn name(self) -> &'static str {
        match self {
            Mode::OpenSolo => "open_solo",
            Mode::HiddenSolo => "hidden_solo",
            Mode::Partner => "partner",
        }
    }
}

/// Why a landlord wins without play (不打自胜), the original rules' §5.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstantWin {
    /// No suited card held twice: nothing to mark, no partner to call.
    NoPartnerCard,
    /// A bomb of ten or more cards.
    BigBomb,
    /// No bomb at all (joker bombs count as bombs).
    NoBomb,
}

impl InstantWin {
    /// The name in JSON and the judge.
    pub fn name(self) -> &'static str {
        match self {
            InstantWin::NoPartnerCard => "no_partner_card",
            InstantWin::BigBomb => "big_bomb",
            InstantWin::NoBomb => "no_bomb",
        }
    }

    /// What the table announces.
    pub fn message(self) -> &'static str {
        match self {
            InstantWin::NoPartnerCard => "the landlord has no card to call a partner with",
            InstantWin::BigBomb => "the landlord holds a bomb of ten or more cards",
            InstantWin::NoBomb => "the landlord holds no bomb at all",
        }
    }
}

/// The instant win of a landlord's 38-card hand, checked in the original rules' order.
pub fn instant_win(hand: &Hand) -> Option<InstantWin> {
    let ranks = hand.ranks();
    if !Card::all().any(|c| !c.is_joker() && hand.copies(c) >= 2) {
        return Some(InstantWin::NoPartnerCard);
    }
    if Rank::SUITED.iter().any(|&r| ranks.count(r) >= 10) {
        return Some(InstantWin::BigBomb);
    }
    let black = ranks.count(Rank::BlackJoker);
    let red = ranks.count(Rank::RedJoker);
    let joker_bomb = black == 3 || red == 3 || black + red >= 4;
    if !joker_bomb && !Rank::SUITED.iter().any(|&r| ranks.count(r) >= 4) {
        return Some(InstantWin::NoBomb);
    }
    None
}

/// The lowest suited card the hand holds exactly `copies` of.
fn lowest_with(hand: &Hand, copies: u8) -> Option<Card> {
    Card::all().find(|&c| !c.is_joker() && hand.copies(c) == copies)
}

/// The card `mode` marks for this hand: `None` for open solo, or when the mode is not
/// available (hidden solo without three identical cards, a partner call without exactly
/// two).
pub fn marked_card(hand: &Hand, mode: Mode) -> Option<Card> {
    match mode {
        Mode::OpenSolo => None,
        Mode::HiddenSolo => lowest_with(hand, 3),
        Mode::Partner => lowest_with(hand, 2),
    }
}

/// The declarations open to the landlord, with the card each marks: open solo always,
/// hidden solo and the partner call when the hand has their card.
pub fn declarations(hand: &Hand) -> Vec<(Mode, Option<Card>)> {
    let mut out = vec![(Mode::OpenSolo, None)];
    for mode in [Mode::HiddenSolo, Mode::Partner] {
        if let Some(c) = marked_card(hand, mode) {
            out.push((mode, Some(c)));
        }
    }
    out
}

/// What the landlord declares when the 10 s run out: a partner call if possible, otherwise
/// the hidden solo (one of them exists whenever there was no instant win).
pub fn default_mode(hand: &Hand) -> Mode {
    if marked_card(hand, Mode::Partner).is_some() {
        Mode::Partner
    } else if marked_card(hand, Mode::HiddenSolo).is_some() {
        Mode::HiddenSolo
    } else {
        Mode::OpenSolo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::parse_cards;

    fn mark(cards: &str, mode: Mode) -> Option<String> {
        marked_card(&Hand::of(&parse_cards(cards).unwrap()), mode).map(|c| c.to_string())
    }

    #[test]
    fn rule_5_4_lowest_is_by_rank_then_suit_and_never_a_joker() {
        assert_eq!(mark("As As 3s 3s", Mode::Partner).as_deref(), Some("3s"));
        assert_eq!(mark("4s 4s 4d 4d", Mode::Partner).as_deref(), Some("4d"));
        assert_eq!(
            mark("2d 2d As As", Mode::Partner).as_deref(),
            Some("As"),
            "A is below 2"
        );
        assert_eq!(mark("BJ BJ 5d 5d", Mode::Partner).as_deref(), Some("5d"));
        assert_eq!(
            mark("BJ BJ BJ 9c 9c 9c", Mode::HiddenSolo).as_deref(),
            Some("9c")
        );
    }

    #[test]
    fn rule_5_4_partner_card_excludes_cards_held_three_times() {
        assert_eq!(mark("3d 3d 3d 7h 7h", Mode::Partner).as_deref(), Some("7h"));
        assert_eq!(
            mark("3d 3d 3d 7h 7h", Mode::HiddenSolo).as_deref(),
            Some("3d")
        );
        assert_eq!(mark("3d 7h 7h", Mode::HiddenSolo), None);
        assert_eq!(mark("3d 3d 3d", Mode::OpenSolo), None);
    }
}
