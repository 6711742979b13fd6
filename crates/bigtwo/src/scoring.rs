//! The original rules' scoring: a card score (牌分) from the cards each player is left holding, then
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
///
/// A real card score is at most 104 (thirteen cards with 2♠), but the function is public:
/// it works in `i128`, which no sum of `i64` scores can overflow, and saturates a result
/// outside `i64` rather than wrap.
pub fn results(card_scores: &[i64]) -> Vec<i64> {
    let total: i128 = card_scores.iter().map(|&s| i128::from(s)).sum();
    let n = card_scores.len() as i128;
    card_scores
        .iter()
        .map(|&own| {
            let r = total - n * i128::from(own);
            i64::try_from(r).unwrap_or(if r < 0 { i64::MIN } else { i64::MAX })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_sum_to_zero() {
        let r = results(&[3, 0, 26, 104]);
        assert_eq!(r.iter().sum::<i64>(), 0);
    }

    #[test]
    fn the_worst_real_card_scores_are_exact() {
        // Thirteen cards with 2♠ against three empty hands: the deal's extreme.
        let caught: CardSet = crate::DECK
            .iter()
            .filter(|c| c.suit() == Some(Suit::Spades))
            .collect();
        assert_eq!(card_score(caught), 104);
        assert_eq!(results(&[0, 0, 0, 104]), [104, 104, 104, -312]);
    }

    #[test]
    fn results_never_wrap_on_extreme_scores() {
        let r = results(&[i64::MAX, 0, 0, i64::MIN]);
        assert_eq!(
            r[0],
            i64::MIN,
            "far below: saturates, does not wrap to a gain"
        );
        assert_eq!(r[3], i64::MAX);
        assert_eq!(results(&[i64::MAX; 4]), [0; 4]);
    }
}
