//! Scoring of a finished game (the original rules' scoring appendix, docs/rules/doudizhu.md).

use serde::{Deserialize, Serialize};

/// The most bombs and rockets one game can count: one deck makes thirteen four-of-a-kinds
/// and one rocket. A count above it describes no real game, and [`ScoreInput::check`]
/// refuses it.
pub const MAX_BOMBS: u32 = 14;

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
    /// The landlord showed their hand (明牌, ×2; the `show_cards` table option). Absent in
    /// JSON means not shown.
    #[serde(default)]
    pub shown: bool,
}

impl ScoreInput {
    /// Why these inputs describe no game a table can reach, if they do not: a bid outside
    /// 1–3, more than [`MAX_BOMBS`] bombs, or a spring and an anti-spring at once. The
    /// judge refuses such inputs rather than answer a number no game can score.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=3).contains(&self.bid) {
            return Err(format!("the bid is 1, 2 or 3, not {}", self.bid));
        }
        if self.bombs > MAX_BOMBS {
            return Err(format!(
                "a game has at most {MAX_BOMBS} bombs and rockets (thirteen four-of-a-kinds \
                 and the rocket), not {}",
                self.bombs
            ));
        }
        if self.spring && self.anti_spring {
            return Err("a game cannot be both a spring and an anti-spring".into());
        }
        if self.spring && !self.landlord_won {
            return Err("a spring is a landlord's win".into());
        }
        if self.anti_spring && self.landlord_won {
            return Err("an anti-spring is the peasants' win".into());
        }
        Ok(())
    }

    /// The multiplier: ×2 per counted bomb or rocket, ×2 for spring, ×2 for anti-spring,
    /// ×2 for a shown hand.
    /// Every game a table can reach (see [`ScoreInput::check`]) is at most 2^15; inputs
    /// beyond that saturate at `i64::MAX` rather than wrap.
    pub fn multiplier(&self) -> i64 {
        let doublings = self
            .bombs
            .saturating_add(u32::from(self.spring))
            .saturating_add(u32::from(self.anti_spring))
            .saturating_add(u32::from(self.shown));
        // 2^62 is the largest power of two an i64 holds.
        if doublings > 62 {
            i64::MAX
        } else {
            1i64 << doublings
        }
    }
}

/// The score change of the landlord and of each peasant.
///
/// Appendix B: the landlord wins 2 × base and each peasant loses base; if the landlord loses
/// the signs flip; the multiplier scales both. So the three changes always sum to zero.
///
/// The arithmetic saturates: for inputs no game reaches (see [`ScoreInput::check`]) the
/// stake is capped at a quarter of `i64::MAX`, so the landlord's twice-the-stake still fits
/// and the three changes still sum to zero — never a wrapped number.
pub fn score(input: &ScoreInput) -> (i64, i64) {
    let unit = i64::from(input.bid)
        .saturating_mul(input.multiplier())
        .min(i64::MAX / 4);
    let peasant = if input.landlord_won { -unit } else { unit };
    (-2 * peasant, peasant)
}

/// The score change of the landlord and of each peasant when seats doubled (加倍):
/// `landlord` is the landlord's factor and `peasants` the two peasants' (1, 2 or 4 each;
/// 1 for a seat that did not double).
///
/// As 欢乐斗地主 settles: each peasant plays the landlord for a stake of base × multiplier
/// × the landlord's factor × that peasant's own factor, and the landlord wins or loses the
/// sum of the two stakes. Without doubling (all 1) this is [`score`]. The three changes
/// sum to zero; each stake saturates at an eighth of `i64::MAX`, so their sum still fits.
pub fn settle(input: &ScoreInput, landlord: u8, peasants: [u8; 2]) -> (i64, [i64; 2]) {
    let unit = i64::from(input.bid)
        .saturating_mul(input.multiplier())
        .saturating_mul(i64::from(landlord.max(1)));
    let stakes = peasants.map(|f| {
        let stake = unit.saturating_mul(i64::from(f.max(1))).min(i64::MAX / 8);
        if input.landlord_won {
            -stake
        } else {
            stake
        }
    });
    (-(stakes[0] + stakes[1]), stakes)
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
            shown: false,
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
        for bombs in [0, 5, 14, 60, 61, 62, 63, 64, 1000, u32::MAX] {
            for won in [true, false] {
                for bid in [1, 3, u8::MAX] {
                    let (l, p) = score(&input(bid, won, bombs, true, true));
                    assert_eq!(l.checked_add(p.checked_mul(2).unwrap()), Some(0));
                    assert_eq!(l > 0, won, "bombs {bombs}: the landlord's sign");
                    assert!(p.unsigned_abs() <= (i64::MAX / 4) as u64);
                }
            }
        }
    }

    #[test]
    fn the_largest_real_score_is_exact() {
        // Bid 3, fourteen bombs and a spring: 3 × 2^15 for each peasant.
        let top = input(3, true, MAX_BOMBS, true, false);
        assert_eq!(top.check(), Ok(()));
        assert_eq!(score(&top), (6 * 32_768, -3 * 32_768));
    }

    #[test]
    fn settling_without_doubles_is_the_plain_score() {
        for won in [true, false] {
            for bombs in [0, 3, MAX_BOMBS] {
                let i = input(3, won, bombs, false, false);
                let (l, p) = score(&i);
                assert_eq!(settle(&i, 1, [1, 1]), (l, [p, p]));
            }
        }
    }

    #[test]
    fn settling_saturates_and_sums_to_zero() {
        let i = input(u8::MAX, true, u32::MAX, true, false);
        let (l, p) = settle(&i, 4, [4, 2]);
        assert_eq!(
            l.checked_add(p[0]).and_then(|x| x.checked_add(p[1])),
            Some(0)
        );
    }

    #[test]
    fn bomb_counts_no_game_reaches_are_refused() {
        assert!(input(3, true, MAX_BOMBS + 1, false, false)
            .check()
            .unwrap_err()
            .contains("at most 14"));
        assert!(input(3, true, 63, false, false).check().is_err());
        assert!(input(0, true, 0, false, false).check().is_err());
        assert!(input(2, false, 0, true, false).check().is_err());
    }
}
