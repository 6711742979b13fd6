//! The `search` bot's knowledge of Dou Dizhu: how to deal a world from a seat's view, which
//! plays are worth trying, and what a finished game is worth (see [`game::search`]).
//!
//! Worlds: the cards the seat has not seen go to the other two hands (and, while bidding,
//! the hidden kitty) in the sizes the view shows; the landlord keeps the kitty's cards it
//! has not played yet, since everyone saw them go into its hand, and its whole hand once
//! shown (明牌). A world is then kept with
//! the chance that the other seats, holding its hands, would have done what they did
//! ([`super::inference`]): what the others did shapes what they are believed to hold.
//!
//! Candidates: going out when a play empties the hand; otherwise the heuristic's own choice,
//! then passing, then for each kind of play the one that leaves the best plan and the
//! highest, ordered by the plan they leave. Two rules of cooperation are kept by leaving
//! moves out: a peasant whose partner's play has already passed the landlord lets it stand,
//! and a peasant facing a landlord's play with the landlord down to one or two cards never
//! passes when it can beat it.
//!
//! Value: while bidding, the score; while playing, a win (1) or a loss (0), with the score
//! as a small tie-break (a bigger win, a smaller loss). Near the end of a deal a world is
//! first solved with every hand open ([`crate::endgame`]): a world the seat's side wins
//! against any defence counts as a win without a play-out.

use super::careless::random_chances;
use super::heuristic::decompose::Decomposer;
use super::heuristic::situation::Situation;
use super::inference::actions_explained;
use super::HeuristicBot;
use crate::endgame::{Open, Solver};
use crate::rules::{Action, DouDizhu, Phase, State};
use crate::{Play, View};
use cards::{Rank, RankCounts};
use game::rand::{RngCore, SeedableRng};
use game::search::{deal_unseen, Determinize};
use game::{Bot, Decision, GameRng, Seat, Seed};

/// The weight of the score beside a win in the play phase: enough to break ties, never
/// enough to prefer a bigger loss risk.
const SCORE_TIE_BREAK: f64 = 1e-3;

impl Determinize for DouDizhu {
    fn determinize(view: &View, seat: Seat, rng: &mut GameRng) -> Option<State> {
        if seat >= 3 || view.phase == Phase::Finished {
            return None;
        }
        let hand = view.hand?;
        let mut known = [RankCounts::EMPTY; 3];
        known[seat] = hand;
        let kitty_shown = view.kitty.filter(|_| view.landlord.is_some());
        if let (Some(kitty), Some(landlord)) = (kitty_shown, view.landlord) {
            if landlord != seat {
                // A shown hand (明牌) is known whole; otherwise the kitty's cards it kept.
                known[landlord] = view
                    .shown
                    .unwrap_or_else(|| kept(kitty, view.played_by(landlord)));
            }
        }
        let others: Vec<Seat> = (0..3).filter(|&s| s != seat).collect();
        let pool_counts = others
            .iter()
            .try_fold(view.unseen(), |u, &s| u.checked_minus(known[s]))?;
        let mut pool: Vec<Rank> = pool_counts
            .iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r, n as usize))
            .collect();
        let mut sizes: Vec<usize> = others
            .iter()
            .map(|&s| {
                view.hand_sizes[s]
                    .checked_sub(known[s].len())
                    .map(|n| n as usize)
            })
            .collect::<Option<_>>()?;
        if kitty_shown.is_none() {
            sizes.push(pool.len().checked_sub(sizes.iter().sum())?);
        }
        let dealt = deal_unseen(&mut pool, &sizes, rng)?;
        let mut hands = known;
        for (&s, cards) in others.iter().zip(&dealt) {
            hands[s] = hands[s].plus(RankCounts::from_ranks(cards.iter().copied()));
        }
        let kitty = match kitty_shown {
            Some(k) => k,
            None => RankCounts::from_ranks(dealt.get(2)?.iter().copied()),
        };
        let world_rng = GameRng::seed_from_u64(rng.next_u64());
        Some(State::world(view, hands, kitty, world_rng))
    }

    fn candidates(view: &View, seat: Seat, legal: &[Action], limit: usize) -> Vec<Action> {
        match view.phase {
            Phase::Playing => plays_worth_trying(view, seat, legal, limit),
            // Doubling and showing follow the heuristic's estimate of winning, as the
            // heuristic bot does: one candidate, no search.
            Phase::Doubling | Phase::Showing => {
                vec![HeuristicBot::new(&Seed::from_u64(0))
                    .act(&Decision::from_view(view, seat, legal))]
            }
            _ => legal.to_vec(),
        }
    }

    fn rollout_bot(seed: &Seed) -> Box<dyn Bot<DouDizhu>> {
        Box::new(HeuristicBot::new(seed))
    }

    fn plausibility(view: &View, seat: Seat, world: &State, at_random: &[Seat], floor: f64) -> f64 {
        actions_explained(view, seat, world, at_random, floor)
    }

    fn proven_win(view: &View, seat: Seat, state: &State) -> Option<f64> {
        if view.phase != Phase::Playing {
            return None;
        }
        let open = Open::of(state).filter(|o| o.cards_left() <= SOLVE_CARDS)?;
        let landlord_wins = SOLVER.with_borrow_mut(|s| s.landlord_wins(&open, SOLVE_NODES))?;
        if landlord_wins != (open.landlord == seat) {
            return None;
        }
        // The least such a win scores: the bid at today's multiplier and stakes, no spring.
        let share = i64::from(state.bid)
            .saturating_mul(state.multiplier())
            .saturating_mul(state.stake_units(seat));
        Some(1.0 + SCORE_TIE_BREAK * share as f64)
    }

    fn random_play(view: &View, seat: Seat, rng: &mut GameRng) -> Vec<f64> {
        random_chances(view, seat, rng)
    }

    const INFERS: bool = true;

    fn value(view: &View, seat: Seat, end: &State) -> f64 {
        let Some(result) = end.result else {
            return 0.0;
        };
        let score = result.scores[seat % 3] as f64;
        match view.phase {
            Phase::Playing => {
                let won = (Some(result.winner) == end.landlord) == (end.landlord == Some(seat));
                f64::from(u8::from(won)) + SCORE_TIE_BREAK * score
            }
            // A deal redealt after the bidding is another game: neither gained nor lost.
            _ if end.redeals != view.redeals => 0.0,
            _ => score,
        }
    }
}

/// The most cards left in the three hands for a world to be solved with open hands
/// ([`Determinize::proven_win`]): at 24, half the solves take under 20 positions and nine
/// in ten under 10,000 (`endgame::tests::nodes_by_cards_left`).
const SOLVE_CARDS: u32 = 24;

/// The most positions one solve may visit (about 90 ns each) before the world is played
/// out instead: about three play-outs' worth. A limit of 2,000 kept no more won endgames
/// (`search_keeps_won_endgames_that_the_heuristic_lets_go`: 96 of 128 at 500, 95 at
/// 2,000) and cost more time.
const SOLVE_NODES: u64 = 500;

thread_local! {
    /// The endgame solver of this thread's search bots: its table is 3 MiB, too big to
    /// allocate per solve, and each solve starts it afresh, so sharing it changes nothing.
    static SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::default());
}

/// The kitty's cards a landlord must still hold, having played `played`.
fn kept(kitty: RankCounts, played: RankCounts) -> RankCounts {
    let mut out = RankCounts::EMPTY;
    for (r, n) in kitty.iter() {
        out.add(r, n.saturating_sub(played.count(r)));
    }
    out
}

/// The plays worth trying in the play phase (see the module docs).
pub(super) fn plays_worth_trying(
    view: &View,
    seat: Seat,
    legal: &[Action],
    limit: usize,
) -> Vec<Action> {
    let Some(sit) = Situation::of(view) else {
        return legal.to_vec();
    };
    if let Some(out) = legal
        .iter()
        .find(|a| matches!(a, Action::Play(p) if p.cards() == sit.hand))
    {
        return vec![*out];
    }
    let can_pass = legal.contains(&Action::Pass);
    if let (Some((by, _)), Some(partner)) = (view.last, sit.partner()) {
        let landlord_passed = by == partner && (by + 1) % 3 == sit.landlord;
        if landlord_passed && can_pass {
            return vec![Action::Pass];
        }
    }
    let must_stop = !sit.is_landlord()
        && sit.sizes[sit.landlord] <= 2
        && view.last.is_some_and(|(by, _)| by == sit.landlord)
        && legal.iter().any(|a| matches!(a, Action::Play(_)));
    let mut heuristic = HeuristicBot::new(&Seed::from_u64(0));
    let favourite = heuristic.act(&Decision::from_view(view, seat, legal));
    let mut out: Vec<Action> = Vec::with_capacity(limit + 2);
    if !(must_stop && favourite == Action::Pass) {
        out.push(favourite);
    }
    if can_pass && !must_stop && !out.contains(&Action::Pass) {
        out.push(Action::Pass);
    }
    for p in ranked_plays(sit.hand, legal) {
        if out.len() >= limit.max(2) {
            break;
        }
        if !out.contains(&Action::Play(p)) {
            out.push(Action::Play(p));
        }
    }
    out
}

/// Per kind and length of play, the play that leaves the best plan and the highest play;
/// all of them ordered by the plan they leave, best first.
fn ranked_plays(hand: RankCounts, legal: &[Action]) -> Vec<Play> {
    let mut dec = Decomposer::default();
    let mut rated: Vec<(i32, Play)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(p) if hand.contains(p.cards()) => {
                Some((dec.plan(hand.minus(p.cards())).score(), *p))
            }
            _ => None,
        })
        .collect();
    rated.sort_by_key(|&(score, p)| (std::cmp::Reverse(score), p.rank()));
    let mut chosen: Vec<(i32, Play)> = Vec::new();
    for (i, &(score, p)) in rated.iter().enumerate() {
        let same_shape = |q: &Play| q.kind() == p.kind() && q.len() == p.len();
        let first_of_shape = !rated[..i].iter().any(|(_, q)| same_shape(q));
        let highest_of_shape = rated
            .iter()
            .filter(|(_, q)| same_shape(q))
            .map(|(_, q)| q.rank())
            .max()
            == Some(p.rank())
            && !chosen
                .iter()
                .any(|(_, q)| same_shape(q) && q.rank() == p.rank());
        if first_of_shape || highest_of_shape {
            chosen.push((score, p));
        }
    }
    chosen.into_iter().map(|(_, p)| p).collect()
}
