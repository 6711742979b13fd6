//! The `heuristic` bot: plan the hand, shed the weakest plays, hold control, and count cards
//! when someone is about to go out.
//!
//! It splits its hand into plays ([`best_plan`]) and scores each legal action by the plan
//! left behind, plus three concerns a good player weighs:
//!
//! * **control** — 2s, top singles and strong five-card hands win tricks and with them the
//!   lead; spending one just to follow costs a keep penalty, unless the bot is about to go
//!   out or someone else is;
//! * **the score** — every action is weighed by the card score (牌分) the bot would hold,
//!   and more heavily once another player is down to a few cards: it sheds big plays, gets
//!   under 8 and 10 cards, and does not sit on 2♠ with eight cards or more;
//! * **blocking** — when a player has one card (or two), leading a single (or pair) that can
//!   be beaten hands them the deal, and following low lets them out;
//! * **running out** — when all its plays but one are sure winners, it leads the sure ones
//!   first and keeps the lead to the end.

use super::plan::{best_plan, Plan, Unseen};
use crate::combo::Combo;
use crate::rules::{Action, BigTwo, SEATS};
use crate::scoring::card_score;
use crate::View;
use cards::CardSet;
use game::{Bot, Decision, Seat};

/// The weights the heuristic bot trades its concerns with.
///
/// The defaults come from self-play over 3,000-deal runs against `random` and against a bot
/// that always plays its smallest legal play. Shedding matters most: the original rules' scoring
/// doubles and triples the cost of being caught with 8 and 10 cards, so a card shed is worth
/// about as much as keeping a 2 (`per_card` ≈ `keep`); keeping 2s any harder cost about two
/// points a deal against the smallest-play bot. Counting card scores from five cards left
/// (`danger_cards`) gained about one point a deal over never counting them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Cards left at which another player counts as about to go out.
    pub danger_cards: u32,
    /// What passing costs in plan terms: a turn spent without shedding anything.
    pub pass: f32,
    /// Penalty per unit of strength for spending a strong play while it is not needed.
    pub keep: f32,
    /// Strength above which a play counts as control worth keeping.
    pub control: f32,
    /// Weight of each card shed: cards held are what the scoring punishes, so big plays go
    /// early and a play usually beats a pass.
    pub per_card: f32,
    /// Weight of the card score held once someone is about to go out (plays to minimise the
    /// score, not to win the deal).
    pub score_near: f32,
    /// Penalty for letting a player with one or two cards out by leading or following weakly.
    pub block: f32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            danger_cards: 5,
            pass: 0.45,
            keep: 2.0,
            control: 0.6,
            per_card: 2.0,
            score_near: 1.0,
            block: 3.0,
        }
    }
}

/// The heuristic bot. It keeps no memory between turns: the view (own hand, cards played,
/// cards left per seat, the play to beat) is all it needs.
#[derive(Debug, Default, Clone, Copy)]
pub struct Heuristic {
    weights: Weights,
}

impl Heuristic {
    /// A heuristic bot with the default weights.
    pub fn new() -> Heuristic {
        Heuristic::default()
    }

    /// A heuristic bot with other weights, for tuning and for weaker or bolder players.
    pub fn with_weights(weights: Weights) -> Heuristic {
        Heuristic { weights }
    }
}

impl Bot<BigTwo> for Heuristic {
    fn act(&mut self, decision: &Decision<'_, BigTwo>) -> Action {
        let legal = decision.legal();
        self.rate(&decision.view(), decision.seat(), legal, false)
            .into_iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, a)| a)
            .or_else(|| legal.first().cloned())
            .unwrap_or(Action::Pass)
    }
}

impl Heuristic {
    /// The legal actions this bot weighs, each with its cost (lower is better); its choice
    /// is the cheapest. A play that goes out, or the lead that runs the hand out, comes
    /// alone with cost −∞. Leading, the bot weighs only its plan's plays; `wide` weighs
    /// every legal play as well (the search bot's candidates).
    pub(crate) fn rate(
        &self,
        view: &View,
        me: Seat,
        legal: &[Action],
        wide: bool,
    ) -> Vec<(f32, Action)> {
        let hand = view.hand.unwrap_or_default();
        let unseen = Unseen::new(view.unseen());
        let left = |s: usize| view.cards_left.get(s).copied().unwrap_or(13);
        let others = (1..SEATS).map(|k| (me + k) % SEATS);
        let fewest = others.clone().map(left).min().unwrap_or(13);
        let w = self.weights;
        let danger = fewest <= w.danger_cards;
        let last = view.last.map(|t| t.play);

        let plays: Vec<Combo> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Play(c) => Combo::classify(*c),
                Action::Pass => None,
            })
            .collect();
        if let Some(out) = plays.iter().find(|p| p.cards == hand) {
            return vec![(f32::NEG_INFINITY, Action::Play(out.cards))];
        }

        let plan = best_plan(hand, &unseen);
        if last.is_none() {
            if let Some(p) = run_out(&plan, &unseen, &plays) {
                return vec![(f32::NEG_INFINITY, Action::Play(p.cards))];
            }
        }
        let end_term = |rest: CardSet| {
            if danger {
                w.score_near * card_score(rest) as f32
            } else {
                0.0
            }
        };
        // Plays a player with `n` cards could answer: singles with one card, pairs with two.
        let exposed = |p: &Combo| {
            let size = p.size();
            if size <= 2 && others.clone().any(|s| left(s) == size) {
                1.0 - unseen.strength(p)
            } else {
                0.0
            }
        };

        let mut scored: Vec<(f32, Action)> = Vec::with_capacity(plays.len() + 1);

        if last.is_none() {
            // Leading: one of the plan's plays, and the plan's cost without it is what is left.
            for p in plan.plays.iter().filter(|p| plays.contains(p)) {
                let rest = hand.minus(p.cards);
                let score = plan.cost - unseen.cost(p) - w.per_card * p.size() as f32
                    + keep_penalty(&w, &unseen, p, danger, plan.plays.len())
                    + end_term(rest)
                    + w.block * exposed(p);
                scored.push((score, Action::Play(p.cards)));
            }
        }
        if scored.is_empty() || wide {
            let planned = scored.len();
            for p in &plays {
                if scored[..planned]
                    .iter()
                    .any(|(_, a)| *a == Action::Play(p.cards))
                {
                    continue;
                }
                let rest = hand.minus(p.cards);
                let after = best_plan(rest, &unseen);
                let score = after.cost - w.per_card * p.size() as f32
                    + keep_penalty(&w, &unseen, p, danger, after.plays.len() + 1)
                    + end_term(rest)
                    + w.block * exposed(p);
                scored.push((score, Action::Play(p.cards)));
            }
        }
        if legal.contains(&Action::Pass) {
            // Passing while a nearly-out player's play stands lets them lead again.
            let standing = view.last.is_some_and(|t| left(t.seat) <= 2 && t.seat != me);
            let score = plan.cost + w.pass + end_term(hand) + if standing { w.block } else { 0.0 };
            scored.push((score, Action::Pass));
        }
        scored
    }
}

/// When every play of the plan but one is sure to win its trick, the way out is to lead the
/// sure ones first, keeping the lead, and the last one at the end: the biggest sure play.
fn run_out(plan: &Plan, unseen: &Unseen, legal: &[Combo]) -> Option<Combo> {
    let sure = |p: &&Combo| unseen.strength(p) >= 1.0;
    let unsure = plan.plays.iter().filter(|p| !sure(p)).count();
    if unsure > 1 {
        return None;
    }
    plan.plays
        .iter()
        .filter(sure)
        .filter(|p| legal.contains(p))
        .max_by_key(|p| p.order_key())
        .copied()
}

/// The cost of spending control now: none when someone is about to go out or when the bot
/// itself is down to a couple of plays (then winning the lead is how it goes out).
fn keep_penalty(
    w: &Weights,
    unseen: &Unseen,
    play: &Combo,
    danger: bool,
    plays_left: usize,
) -> f32 {
    let s = unseen.strength(play);
    if danger || plays_left <= 2 || s < w.control {
        0.0
    } else {
        w.keep * s
    }
}
