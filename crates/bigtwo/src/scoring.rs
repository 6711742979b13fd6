//! The seed's scoring: a card score (牌分) from the cards each player is left holding, then
//! each player's result against the other three.

use cards::{Card, CardSet, Rank, Suit};

/// 2♠, the card that doubles a card score of eight or more cards.
pub const TWO_OF_SPADES: Card = Card::suited(Rank::Two, Suit::Spades);

/// The card score of a hand left when the deal ends, with `n` cards:
/// n < 8 → n; 8 ≤ n < 10 → 2n; 10 ≤ n < 13 → 3n; n = 13 → 4n; and doubled again when
/// n ≥ 8 and the hand holds 2♠. The steps punish being caught with many cards far more than
/// with a few, which is why a player near the end sheds cards rather than keeps strength.
pub fn card_score(hand: CardSet) -> i64 {
    let n = i64::from(hand.len());
    let base = match n {
        0..=7 => n,
        8..=9 => 2 * n,
        10..=12 => 3 * n,
        _ => 4 * n,
    };
    if n >= 8 && hand.contains(TWO_OF_SPADES) {
        2 * base
    } else {
        base
    }
}

/// Each player's result from the card scores: the sum over the other players of (their card
/// score − own card score). Results always sum to zero.
pub fn results(card_scores: &[i64]) -> Vec<i64> {
    let total: i64 = card_scores.iter().sum();
    let n = card_scores.len() as i64;
    card_scores.iter().map(|&own| total - n * own).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_sum_to_zero() {
        let r = results(&[3, 0, 26, 104]);
        assert_eq!(r.iter().sum::<i64>(), 0);
    }
}
