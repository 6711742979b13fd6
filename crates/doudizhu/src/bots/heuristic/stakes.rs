//! Doubling (加倍) and showing (明牌) by the bot's own estimate of winning.
//!
//! The estimate is the bidding's hand strength ([`super::bidding::strength`]) read through
//! tables of how often such hands won in heuristic self-play with bidding (60,000 deals,
//! the ignored test `calibration::strength_against_wins` prints them): the landlord's by
//! the strength of its 20 cards after the kitty, a peasant's side by the strength of the
//! peasant's 17 cards and the landlord's bid (a landlord who bid 3 is stronger). Doubling
//! a stake pays in expectation whenever the side wins more than half the time, and
//! quadrupling it pays more; the bot keeps a margin, since one lost super-doubled game
//! costs what four won plain games bring: it doubles from [`DOUBLE_AT`], super-doubles
//! from [`SUPER_AT`], and a landlord shows its hand only from [`SHOW_AT`], when the
//! peasants seeing it can hardly change the result. The heuristic's peasants win a third
//! of their games, so they seldom double: only a very strong peasant hand under a bid of 3.

use super::bidding::strength;
use super::decompose::Decomposer;
use crate::{Action, View};

/// The estimated chance of winning from which the bot doubles its stake.
pub(crate) const DOUBLE_AT: f64 = 0.55;
/// The estimated chance of winning from which the bot super-doubles, where allowed.
pub(crate) const SUPER_AT: f64 = 0.75;
/// The estimated chance of winning from which a landlord shows its hand.
pub(crate) const SHOW_AT: f64 = 0.9;

/// The landlord's chance of winning by the strength of its 20 cards: (strength from, wins),
/// rounded from the measurement (rows of fewer than 300 deals pooled).
const LANDLORD: &[(i32, f64)] = &[
    (i32::MIN, 0.3),
    (4, 0.34),
    (5, 0.4),
    (6, 0.46),
    (7, 0.54),
    (8, 0.61),
    (9, 0.64),
    (10, 0.7),
    (11, 0.76),
    (12, 0.81),
    (14, 0.83),
    (15, 0.85),
    (16, 0.86),
    (18, 0.89),
    (19, 0.91),
];

/// A peasant side's chance of winning by the strength of one peasant's 17 cards, for a
/// landlord's bid of 1, 2 and 3 (a bid of 1 also stands for a landlord made after three
/// redeals).
const PEASANT: [&[(i32, f64)]; 3] = [
    &[
        (i32::MIN, 0.27),
        (1, 0.31),
        (2, 0.35),
        (3, 0.39),
        (4, 0.43),
        (5, 0.45),
        (6, 0.49),
    ],
    &[
        (i32::MIN, 0.24),
        (1, 0.28),
        (2, 0.31),
        (3, 0.33),
        (4, 0.36),
        (5, 0.4),
        (6, 0.43),
        (7, 0.47),
        (8, 0.51),
        (9, 0.54),
    ],
    &[
        (i32::MIN, 0.16),
        (1, 0.18),
        (2, 0.2),
        (3, 0.23),
        (4, 0.25),
        (5, 0.29),
        (6, 0.32),
        (7, 0.36),
        (8, 0.38),
        (9, 0.41),
        (10, 0.44),
        (11, 0.53),
        (12, 0.57),
    ],
];

/// The chance read off `table` for `strength`: the row of the highest bar it reaches.
fn chance(table: &[(i32, f64)], strength: i32) -> f64 {
    table
        .iter()
        .take_while(|&&(from, _)| strength >= from)
        .last()
        .map_or(0.5, |&(_, p)| p)
}

/// The seat's estimated chance of winning this deal, from its view after the kitty.
pub(crate) fn win_chance(view: &View, dec: &mut Decomposer) -> Option<f64> {
    let hand = view.hand?;
    let landlord = view.landlord?;
    let s = strength(hand, dec);
    Some(if view.seat? == landlord {
        chance(LANDLORD, s)
    } else {
        chance(PEASANT[usize::from(view.bid.clamp(1, 3) - 1)], s)
    })
}

/// The doubling this seat wants among the legal ones.
pub(crate) fn double(view: &View, legal: &[Action], dec: &mut Decomposer) -> Option<Action> {
    let p = win_chance(view, dec)?;
    let wanted: &[u8] = if p >= SUPER_AT {
        &[4, 2, 1]
    } else if p >= DOUBLE_AT {
        &[2, 1]
    } else {
        &[1]
    };
    wanted
        .iter()
        .map(|&f| Action::Double(f))
        .find(|a| legal.contains(a))
}

/// Whether the landlord shows its hand: only a very strong one.
pub(crate) fn show(view: &View, dec: &mut Decomposer) -> Option<Action> {
    Some(Action::Show(win_chance(view, dec)? >= SHOW_AT))
}

#[cfg(test)]
mod calibration {
    use super::*;
    use crate::{DouDizhu, Phase};
    use game::{Bot, Decision, Rules, Seed, Viewer};

    /// Prints, per hand strength after the kitty, how often the landlord's side and a
    /// peasant's side won in heuristic self-play: the source of [`LANDLORD`] and
    /// [`PEASANT`]. `cargo test --release -p doudizhu --lib calibration -- --ignored
    /// --nocapture`
    #[test]
    #[ignore = "a measurement (a minute), not a check"]
    fn strength_against_wins() {
        let mut dec = Decomposer::default();
        let mut bot = super::super::HeuristicBot::new(&Seed::from_u64(0));
        let mut landlord = std::collections::BTreeMap::<i32, (u32, u32)>::new();
        let mut peasant = std::collections::BTreeMap::<(u8, i32), (u32, u32)>::new();
        let mut legal = Vec::new();
        for g in 0..60_000u64 {
            let mut state =
                DouDizhu::start(&Default::default(), 3, &Seed::from_u64(7).derive(g)).unwrap();
            let mut strengths = None;
            while let game::ToAct::Seat(seat) = DouDizhu::to_act(&state) {
                if state.phase() == Phase::Playing && strengths.is_none() {
                    strengths = Some([0, 1, 2].map(|s| strength(state.hand(s), &mut dec)));
                }
                legal.clear();
                DouDizhu::legal_into(&state, seat, &mut legal);
                let view = DouDizhu::view(&state, Viewer::Seat(seat));
                let a = bot.act(&Decision::from_view(&view, seat, &legal));
                DouDizhu::apply(&mut state, seat, a, &mut Vec::new()).unwrap();
            }
            let (Some(s), Some(l)) = (strengths, state.landlord()) else {
                continue;
            };
            let landlord_won = DouDizhu::outcome(&state).unwrap().won[l];
            let bid = DouDizhu::view(&state, Viewer::Spectator).bid;
            for (seat, strength) in s.into_iter().enumerate() {
                let e = if seat == l {
                    landlord.entry(strength).or_default()
                } else {
                    peasant.entry((bid, strength)).or_default()
                };
                e.0 += 1;
                e.1 += u32::from((seat == l) == landlord_won);
            }
        }
        println!("landlord: strength games won");
        for (s, (n, w)) in landlord {
            println!("  {s:>3} {n:>6} {:.3}", f64::from(w) / f64::from(n));
        }
        println!("peasant: bid strength games won");
        for ((b, s), (n, w)) in peasant {
            println!("  {b} {s:>3} {n:>6} {:.3}", f64::from(w) / f64::from(n));
        }
    }
}
