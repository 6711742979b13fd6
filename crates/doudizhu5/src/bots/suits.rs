//! The suits a bot puts on the table.
//!
//! Bots choose their plays by rank (the rules compare ranks, and rollouts stay cheap); at
//! the table a player puts down suited cards, chosen from the hand. [`Suits`] turns a bot's
//! rank play into the suited cards a person would pick from the same hand: the bot's own
//! choice, so it may be shown to everyone.

use crate::action::Action;
use crate::rules::DouDizhu5;
use crate::suited::SuitedCards;
use crate::view::View;
use cards::{Card, RankCounts};
use game::{deal, Bot, Decision, GameRng, Seed};

/// How a bot picks the copies of each rank it plays.
enum Pick {
    /// Lowest suit first and the marked card last, as a careful person would: a partner's
    /// mark, or a hidden solo's, then shows as late as the hand allows.
    Careful,
    /// Any copies, uniformly: the random bot's, which also plays the marked card early.
    Random(Box<GameRng>),
}

/// A bot that chooses by rank, putting down suited cards.
pub struct Suits<B> {
    inner: B,
    pick: Pick,
}

impl<B> Suits<B> {
    /// `inner`, its plays put down as a careful person would.
    pub fn careful(inner: B) -> Suits<B> {
        Suits {
            inner,
            pick: Pick::Careful,
        }
    }

    /// `inner`, its plays put down with copies drawn from `seed`.
    pub fn random(inner: B, seed: &Seed) -> Suits<B> {
        Suits {
            inner,
            pick: Pick::Random(Box::new(seed.rng())),
        }
    }
}

impl<B: Bot<DouDizhu5>> Bot<DouDizhu5> for Suits<B> {
    fn act(&mut self, decision: &Decision<'_, DouDizhu5>) -> Action {
        let seat = decision.seat();
        let legal = decision.legal();
        match self.pick {
            // The random bot needs no view to choose: a view is made only for a play.
            Pick::Random(_) => match self.inner.act(decision) {
                action @ Action::Play(_) => self.suited(&decision.view(), action),
                action => action,
            },
            // The view is made once, for the bot and for its suits.
            Pick::Careful => {
                let view = decision.view();
                let action = self.inner.act(&Decision::from_view(&*view, seat, legal));
                self.suited(&view, action)
            }
        }
    }
}

impl<B> Suits<B> {
    /// `action` with its cards suited from the viewer's hand, when it is a play.
    fn suited(&mut self, view: &View, action: Action) -> Action {
        let Action::Play(ranks) = action else {
            return action;
        };
        let (Some(hand), marked) = (&view.hand, view.declaration.and_then(|d| d.marked)) else {
            return action;
        };
        match choose(hand, ranks, marked, &mut self.pick) {
            Some(cards) if cards.has_suits() => Action::PlaySuited(cards),
            _ => action,
        }
    }
}

/// The copies of `ranks` taken from `hand`, or `None` if the hand lacks some.
fn choose(
    hand: &[Card],
    ranks: RankCounts,
    marked: Option<Card>,
    pick: &mut Pick,
) -> Option<SuitedCards> {
    let mut out = SuitedCards::EMPTY;
    for (rank, n) in ranks.iter() {
        // The hand is ascending by rank then suit: the lowest suit comes first.
        let mut copies: Vec<Card> = hand.iter().copied().filter(|c| c.rank() == rank).collect();
        match pick {
            Pick::Careful => copies.sort_by_key(|&c| (Some(c) == marked, c)),
            Pick::Random(rng) => deal::shuffle(&mut copies, rng),
        }
        let take = copies.get(..usize::try_from(n).ok()?)?;
        for &c in take {
            out.add(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::parse_cards;

    #[test]
    fn a_careful_player_keeps_the_marked_card_to_the_last() {
        let hand = parse_cards("6d 6c 6c 6h 9s").unwrap();
        let marked = "6d".parse().ok();
        let pick = |n: &str| choose(&hand, n.parse().unwrap(), marked, &mut Pick::Careful);
        assert_eq!(pick("6 6").unwrap().to_string(), "6c 6c");
        assert_eq!(pick("6 6 6").unwrap().to_string(), "6c 6c 6h");
        assert_eq!(pick("6 6 6 6 9").unwrap().to_string(), "6d 6c 6c 6h 9s");
        assert_eq!(pick("6 6 6 6 6"), None);
    }
}
