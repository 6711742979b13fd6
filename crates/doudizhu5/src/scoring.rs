//! The score table (the original rules' §7).
//!
//! One player's stake U is the grab multiplier (at least 1, ×2 for an open solo) times the
//! table's base. With a partner, each of the three others pays or receives U, the partner U
//! and the landlord 2U; alone (open or hidden solo, or an instant win) each of the four pays
//! or receives U and the landlord 4U.

use crate::declare::Mode;
use serde::{Deserialize, Serialize};

/// How the landlord played, for scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreMode {
    /// A declaration was made and played.
    Declared(Mode),
    /// The landlord won without play.
    Instant,
}

/// Score changes of one game, per role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Scores {
    /// The landlord's change.
    pub landlord: i64,
    /// The partner's change, if there is a partner.
    pub partner: Option<i64>,
    /// Each opponent's change.
    pub opponent: i64,
}

/// One player's stake: grabs (floored at 1), ×2 for an open solo, times the base.
///
/// Every real game's stake is small (at most 12 grabs × 2 × a `u32` base); for inputs
/// beyond any game the stake saturates at a quarter of `i64::MAX`, so that the landlord's
/// four stakes still fit and no score ever wraps.
pub fn stake(grabs: u64, base: u64, mode: ScoreMode) -> i64 {
    let open = u64::from(mode == ScoreMode::Declared(Mode::OpenSolo)) + 1;
    i64::try_from(grabs.max(1).saturating_mul(open).saturating_mul(base)).unwrap_or(i64::MAX / 4)
}

/// The score changes for a game with `grabs` grabs and base score `base`.
pub fn score(grabs: u64, base: u64, mode: ScoreMode, landlord_won: bool) -> Scores {
    let u = stake(grabs, base, mode);
    let sign = if landlord_won { 1 } else { -1 };
    match mode {
        ScoreMode::Declared(Mode::Partner) => Scores {
            landlord: sign * 2 * u,
            partner: Some(sign * u),
            opponent: -sign * u,
        },
        _ => Scores {
            landlord: sign * 4 * u,
            partner: None,
            opponent: -sign * u,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_7_partner_game_landlord_takes_two_stakes() {
        let s = score(6, 1, ScoreMode::Declared(Mode::Partner), true);
        assert_eq!((s.landlord, s.partner, s.opponent), (12, Some(6), -6));
    }

    #[test]
    fn scores_never_wrap_at_the_extremes() {
        let real = score(
            crate::grab::MAX_GRABS,
            u64::from(u32::MAX),
            ScoreMode::Declared(Mode::OpenSolo),
            false,
        );
        let u = 24 * i64::from(u32::MAX);
        assert_eq!((real.landlord, real.opponent), (-4 * u, u));
        for mode in [ScoreMode::Instant, ScoreMode::Declared(Mode::Partner)] {
            for won in [true, false] {
                let s = score(u64::MAX, u64::MAX, mode, won);
                let partner = s.partner.unwrap_or(0);
                assert_eq!(
                    i128::from(s.landlord) + i128::from(partner),
                    -i128::from(s.opponent) * if s.partner.is_some() { 3 } else { 4 },
                    "{mode:?} {won}: the sides still balance"
                );
                assert_eq!(s.landlord > 0, won);
            }
        }
    }

    #[test]
    fn rule_7_open_solo_doubles_and_landlord_takes_four() {
        let s = score(0, 2, ScoreMode::Declared(Mode::OpenSolo), false);
        assert_eq!((s.landlord, s.partner, s.opponent), (-16, None, 4));
    }
}
