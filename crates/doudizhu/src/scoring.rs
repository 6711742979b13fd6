//! Scoring of a finished game (seed 000, appendix B).

use serde::{Deserialize, Serialize};

/// What the score of a game depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreInput {
    /// The winning bid, 1–3: the base score.
    pub bid: u8,
    /// Whether the landlord went out first.
    pub landlord_won: bool,
    /// Bombs and rockets that double the score: the effective ones (played to beat another
    /// play), or every one under the `all_bombs_double` option.
    pub bombs: u32,
    /// The landlord went out and neither peasant played a card (×2).
    pub spring: bool,
    /// A peasant went out while the landlord had played only the opening lead (×2).
    pub anti_spring: bool,
}

impl ScoreInput {
    /// The multiplier: ×2 per counted bomb or rocket, ×2 for spring, ×2 for anti-spring.
    pub fn multiplier(&self) -> i64 {
        // 2^bombs, saturating rather than overflowing on absurd inputs from the judge.
        let doublings = self.bombs + self.spring as u32 + self.anti_spring as u32;
        1i64.checked_shl(doublings)
            .filter(|m| *m > 0)
            .unwrap_or(i64::MAX / 8)
    }
}

/// The score change of the landlord and of each peasant.
///
/// Appendix B: the landlord wins 2 × base and each peasant loses base; if the landlord loses
/// the signs flip; the multiplier scales both. So the three changes always sum to zero.
pub fn score(input: &ScoreInput) -> (i64, i64) {
    let unit = (input.bid as i64).saturating_mul(input.multiplier());
    let peasant = if input.landlord_won { -unit } else { unit };
    (peasant.saturating_mul(-2), peasant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(bid: u8, landlord_won: bool, bombs: u32, spring: bool, anti: bool) -> ScoreInput {
        ScoreInput {
            bid,
            landlord_won,
            bombs,
            spring,
            anti_spring: anti,
        }
    }

    #[test]
    fn appendix_b_landlord_wins_twice_the_bid_peasants_lose_the_bid() {
        assert_eq!(score(&input(3, true, 0, false, false)), (6, -3));
        assert_eq!(score(&input(1, true, 0, false, false)), (2, -1));
    }

    #[test]
    fn appendix_b_landlord_loses_twice_the_bid() {
        assert_eq!(score(&input(2, false, 0, false, false)), (-4, 2));
    }

    #[test]
    fn appendix_b_each_effective_bomb_doubles() {
        assert_eq!(score(&input(2, true, 1, false, false)), (8, -4));
        assert_eq!(score(&input(1, false, 3, false, false)), (-16, 8));
    }

    #[test]
    fn appendix_b_spring_and_anti_spring_double() {
        assert_eq!(score(&input(3, true, 0, true, false)), (12, -6));
        assert_eq!(score(&input(3, false, 1, false, true)), (-24, 12));
    }

    #[test]
    fn scores_sum_to_zero_and_never_overflow() {
        for bombs in [0, 5, 62, 63, 64, 1000] {
            for won in [true, false] {
                let (l, p) = score(&input(3, won, bombs, true, true));
                assert_eq!(l + 2 * p, 0);
            }
        }
    }
}
