//! The `search` bot's knowledge of Big Two (see [`game::search`]): worlds deal the unseen
//! cards to the other three hands in the sizes the view shows; the candidates are the
//! heuristic's choice, then the plays it rates best (every legal play weighed, not only
//! its plan's); a finished deal is worth the seat's result, the score the table keeps.

use super::Heuristic;
use crate::rules::{Action, BigTwo, State, SEATS};
use crate::View;
use cards::{Card, CardSet};
use game::search::{deal_unseen, Determinize};
use game::{Bot, GameRng, Seat, Seed};

impl Determinize for BigTwo {
    fn determinize(view: &View, seat: Seat, rng: &mut GameRng) -> Option<State> {
        if seat >= SEATS || view.result.is_some() {
            return None;
        }
        let mut hands = [CardSet::EMPTY; SEATS];
        hands[seat] = view.hand?;
        let others: Vec<Seat> = (0..SEATS).filter(|&s| s != seat).collect();
        let sizes: Vec<usize> = others
            .iter()
            .map(|&s| view.cards_left.get(s).map(|&n| n as usize))
            .collect::<Option<_>>()?;
        let mut pool: Vec<Card> = view.unseen().iter().collect();
        let dealt = deal_unseen(&mut pool, &sizes, rng)?;
        for (&s, cards) in others.iter().zip(&dealt) {
            hands[s] = cards.iter().fold(CardSet::EMPTY, |mut h, &c| {
                h.insert(c);
                h
            });
        }
        Some(State::world(view, hands))
    }

    fn candidates(view: &View, seat: Seat, legal: &[Action], limit: usize) -> Vec<Action> {
        let heuristic = Heuristic::new();
        let mut favourite = heuristic.rate(view, seat, legal, false);
        if favourite.len() == 1 && favourite[0].0 == f32::NEG_INFINITY {
            return vec![favourite.remove(0).1];
        }
        let mut rated = heuristic.rate(view, seat, legal, true);
        rated.sort_by(|a, b| a.0.total_cmp(&b.0));
        let first = favourite
            .into_iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, a)| a);
        let mut out: Vec<Action> = first.into_iter().collect();
        for (_, a) in rated {
            if out.len() >= limit.max(2) {
                break;
            }
            if !out.contains(&a) {
                out.push(a);
            }
        }
        out
    }

    fn rollout_bot(_: &Seed) -> Box<dyn Bot<BigTwo>> {
        Box::new(Heuristic::new())
    }

    fn value(_: &View, seat: Seat, end: &State) -> f64 {
        end.result()
            .and_then(|r| r.results.get(seat))
            .map_or(0.0, |&r| r as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Decision, Rules};

    #[test]
    fn the_heuristic_choice_comes_first() {
        let state = BigTwo::start(&Default::default(), 4, &Seed::from_u64(5)).expect("a deal");
        let seat = state.turn;
        let legal = BigTwo::legal(&state, seat);
        let view = BigTwo::view(&state, game::Viewer::Seat(seat));
        let mut h = Heuristic::new();
        let choice = h.act(&Decision::from_view(&view, seat, &legal));
        let candidates = BigTwo::candidates(&view, seat, &legal, 12);
        assert_eq!(candidates.first(), Some(&choice));
        assert!(candidates.len() > 2 && candidates.iter().all(|c| legal.contains(c)));
    }
}
