//! A rule-of-thumb player: grabs with a strong hand, keeps its bombs for the other side,
//! sheds low cards in long plays, and never beats a known teammate.

use crate::action::{Action, Phase};
use crate::declare::Mode;
use crate::movegen::for_each_play;
use crate::play::{KindSet, Play};
use crate::rules::DouDizhu5;
use crate::view::View;
use cards::{Rank, RankCounts};
use game::{Bot, Decision, Seat};

/// Hand strength at which the bot grabs (see [`strength`]).
const GRAB_AT: u32 = 16;
/// Strength of a 38-card hand the bot will play open solo with.
const OPEN_SOLO_AT: u32 = 40;
/// An enemy this close to going out is worth a bomb.
const DANGER: usize = 8;

/// The heuristic bot. Deterministic: it draws no randomness.
pub struct HeuristicBot;

/// A rough hand strength: bombs by their size beyond three, jokers, 2s and aces.
pub fn strength(hand: RankCounts) -> u32 {
    let mut s = 0;
    for r in Rank::SUITED {
        let n = hand.count(r);
        if n >= 4 {
            s += 2 * (n - 3);
        }
    }
    s + 3 * (hand.count(Rank::BlackJoker) + hand.count(Rank::RedJoker))
        + 2 * hand.count(Rank::Two)
        + hand.count(Rank::Ace)
}

/// Who is on the viewer's side, as far as the viewer knows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Friend,
    Enemy,
    Unknown,
}

fn side_of(view: &View, me: Seat, other: Seat) -> Side {
    let Some(landlord) = view.landlord else {
        return Side::Unknown;
    };
    if other == me {
        return Side::Friend;
    }
    let solo =
        view.declaration.is_some_and(|d| d.open_solo) || view.my_mode == Some(Mode::HiddenSolo);
    let landlord_side = |s: Seat| s == landlord || view.partner == Some(s);
    let i_am_landlord_side = landlord_side(me);
    if landlord_side(other) {
        return if i_am_landlord_side {
            Side::Friend
        } else {
            Side::Enemy
        };
    }
    // `other` is not known to be on the landlord's side.
    if i_am_landlord_side {
        // The landlord's partner unknown: any other seat may be it.
        if solo || view.partner.is_some() {
            Side::Enemy
        } else {
            Side::Unknown
        }
    } else if solo || view.partner.is_some() {
        Side::Friend
    } else {
        Side::Unknown
    }
}

/// What a play costs the hand: cards of a bomb broken up, and high cards spent.
pub(crate) fn lead_score(hand: RankCounts, p: &Play) -> i32 {
    let mut broken = 0;
    for (r, _) in p.cards.iter() {
        if hand.count(r) >= 4 && !r.is_joker() {
            broken += 1;
        }
    }
    let high = p.cards.highest().map_or(0, |r| r.index() as i32);
    3 * p.cards.len() as i32 - 2 * high - 40 * broken
}

fn smallest(
    hand: RankCounts,
    last: Option<&Play>,
    kinds: KindSet,
    keep_bombs: bool,
) -> Option<Play> {
    let mut best: Option<(i32, Play)> = None;
    for_each_play(hand, last, kinds, |p| {
        let broken = p
            .cards
            .iter()
            .filter(|&(r, _)| !r.is_joker() && hand.count(r) >= 4)
            .count() as i32;
        if keep_bombs && broken > 0 && p.cards != hand {
            return;
        }
        let cost = p.key as i32 + 20 * broken;
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, p));
        }
    });
    best.map(|(_, p)| p)
}

impl HeuristicBot {
    fn grab(&self, view: &View) -> Action {
        match view.can_grab.first() {
            Some(&c) if strength(view.ranks()) >= GRAB_AT => Action::Grab(c),
            _ => Action::Decline,
        }
    }

    fn declare(&self, view: &View) -> Action {
        let strong = strength(view.ranks()) >= OPEN_SOLO_AT;
        let has = |m: Mode| view.options.iter().any(|&(o, _)| o == m);
        if strong {
            Action::Declare(Mode::OpenSolo)
        } else if has(Mode::Partner) {
            Action::Declare(Mode::Partner)
        } else if has(Mode::HiddenSolo) {
            Action::Declare(Mode::HiddenSolo)
        } else {
            Action::Declare(Mode::OpenSolo)
        }
    }

    fn lead(&self, hand: RankCounts) -> Action {
        if Play::classify(hand).is_some() {
            return Action::Play(hand);
        }
        let mut best: Option<(i32, Play)> = None;
        for_each_play(hand, None, KindSet::ALL.without_bombs(), |p| {
            let s = lead_score(hand, &p);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, p));
            }
        });
        match best {
            Some((_, p)) => Action::Play(p.cards),
            None => smallest(hand, None, KindSet::BOMBS, false)
                .map_or(Action::Pass, |p| Action::Play(p.cards)),
        }
    }

    fn follow(&self, view: &View, me: Seat, hand: RankCounts, last: &Play, by: Seat) -> Action {
        let all = KindSet(last.kind.bit()).0 | KindSet::BOMBS.0;
        let mut out = None;
        for_each_play(hand, Some(last), KindSet(all), |p| {
            if p.cards == hand {
                out = Some(p);
            }
        });
        if let Some(p) = out {
            return Action::Play(p.cards);
        }
        let side = side_of(view, me, by);
        if side == Side::Friend {
            return Action::Pass;
        }
        let kind_only = if last.kind.is_bomb() {
            KindSet(0)
        } else {
            KindSet(last.kind.bit())
        };
        if let Some(p) = smallest(hand, Some(last), kind_only, true) {
            // Keep the top cards for later unless the player is dangerous.
            let danger = view.hand_sizes.get(by).is_some_and(|&n| n <= DANGER);
            if p.rank >= Rank::Two && !danger && side == Side::Unknown {
                return Action::Pass;
            }
            return Action::Play(p.cards);
        }
        let danger = view.hand_sizes.get(by).is_some_and(|&n| n <= DANGER);
        let worth = match side {
            Side::Enemy => danger || hand.len() <= 12,
            Side::Unknown => view.hand_sizes.get(by).is_some_and(|&n| n <= 4),
            Side::Friend => false,
        };
        if worth {
            if let Some(p) = smallest(hand, Some(last), KindSet::BOMBS, false) {
                return Action::Play(p.cards);
            }
        }
        Action::Pass
    }
}

impl Bot<DouDizhu5> for HeuristicBot {
    fn act(&mut self, decision: &Decision<'_, DouDizhu5>) -> Action {
        let view = decision.view();
        let me = decision.seat();
        let choice = match view.phase {
            Phase::Grab => self.grab(&view),
            Phase::Declare => self.declare(&view),
            Phase::Play => {
                let hand = view.ranks();
                match &view.on_table {
                    None => self.lead(hand),
                    Some(t) => match Play::classify(t.cards) {
                        Some(last) => self.follow(&view, me, hand, &last, t.seat),
                        None => Action::Pass,
                    },
                }
            }
            Phase::Finished => Action::Decline,
        };
        let legal = decision.legal();
        if legal.contains(&choice) {
            choice
        } else {
            legal.last().copied().unwrap_or(Action::Pass)
        }
    }
}
