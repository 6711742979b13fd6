//! Leading a round: which group of the plan to put down.
//!
//! The cheapest group first — low solos, pairs and trios, chains that shed many cards —
//! keeping the strong groups that win rounds back for later. Exceptions, in order: go out if
//! the hand is one play; if every group but one is unbeatable, play those first and win;
//! as a peasant, feed a partner about to go out; and never lead the kind an opponent with
//! one or two cards could go out on while another choice exists.

use super::decompose::{Group, Plan};
use super::situation::{next, Situation};
use crate::{Kind, Play};
use cards::{Rank, RankCounts};

/// Plans with at most this many groups are checked for a sure finish (each check runs the
/// move generator over the unseen cards, so not on every lead).
const FINISH_CHECK: usize = 4;

/// The cards to lead.
pub(crate) fn lead(sit: &Situation, plan: &Plan, buf: &mut Vec<Play>) -> Option<RankCounts> {
    let groups = plan.groups();
    if groups.len() == 1 {
        return Some(groups[0].cards);
    }
    if let Some(cards) = sure_finish(sit, groups, buf) {
        return Some(cards);
    }
    if let Some(cards) = feed_partner(sit) {
        return Some(cards);
    }
    let risky = |g: &Group| {
        (g.kind == Kind::Solo && sit.opponent_min() == 1)
            || (g.kind == Kind::Pair && has_opponent_with(sit, 2))
    };
    let choice = groups
        .iter()
        .filter(|g| !g.is_bomb() && !risky(g))
        .min_by_key(|g| lead_cost(g))
        .or_else(|| {
            // Only risky groups (or bombs) left: the strongest of them is the least likely
            // to let an opponent out.
            groups
                .iter()
                .filter(|g| !g.is_bomb())
                .max_by_key(|g| g.value())
        })
        .or_else(|| groups.iter().min_by_key(|g| g.value()));
    choice.map(|g| g.cards)
}

/// Leading order: weak groups first, and of equal weakness the one shedding more cards.
fn lead_cost(g: &Group) -> i32 {
    2 * g.value() - g.cards.len() as i32
}

fn has_opponent_with(sit: &Situation, cards: u32) -> bool {
    (0..3).any(|s| sit.is_opponent(s) && sit.sizes[s] == cards)
}

/// When all groups but one are unbeatable, one of those (bombs last: they win a round
/// whenever needed) — the hand then goes out whatever the opponents do.
fn sure_finish(sit: &Situation, groups: &[Group], buf: &mut Vec<Play>) -> Option<RankCounts> {
    if groups.len() > FINISH_CHECK {
        return None;
    }
    let mut safe: Option<Group> = None;
    let mut unsafe_groups = 0;
    for g in groups {
        match Play::classify(g.cards) {
            Some(p) if !sit.beatable(p, buf) => {
                if safe.is_none_or(|s| s.is_bomb() && !g.is_bomb()) {
                    safe = Some(*g);
                }
            }
            _ => unsafe_groups += 1,
        }
        if unsafe_groups > 1 {
            return None;
        }
    }
    safe.map(|g| g.cards)
}

/// A peasant whose partner is down to one or two cards leads the lowest solo or pair, which
/// the partner can likely beat — unless the landlord, acting first, could go out on it.
fn feed_partner(sit: &Situation) -> Option<RankCounts> {
    let partner = sit.partner()?;
    let partner_first = next(sit.me) == partner;
    let landlord_cards = sit.sizes[sit.landlord];
    match sit.sizes[partner] {
        1 if partner_first || landlord_cards > 1 => {
            let low = sit.hand.lowest()?;
            Some(RankCounts::of(low, 1))
        }
        2 if partner_first || landlord_cards > 2 => {
            let low = Rank::ALL[..13]
                .iter()
                .copied()
                .find(|&r| (2..4).contains(&sit.hand.count(r)))?;
            Some(RankCounts::of(low, 2))
        }
        _ => None,
    }
}
