//! The suits a bot puts on the table.
//!
//! Bots choose their plays by rank (the rules compare ranks, and rollouts stay cheap); at
//! the table a player puts down suited cards, chosen from the hand. [`Suits`] turns a bot's
//! rank play into the suited cards a careful person would pick from the same hand: the
//! bot's own choice, so it may be shown to everyone. The `random` bot stays by rank: it is
//! uniform over the legal list, and the load of speed benchmarks.

use crate::action::Action;
use crate::rules::DouDizhu5;
use crate::suited::SuitedCards;
use cards::{Card, RankCounts};
use game::{Bot, Decision};

/// A bot that chooses by rank, putting its plays down suited: lowest suit first and the
/// marked card last, so that a partner's mark, or a hidden solo's, shows as late as the
/// hand allows.
pub struct Suits<B> {
    inner: B,
}

impl<B> Suits<B> {
    /// `inner`, its plays put down suited.
    pub fn new(inner: B) -> Suits<B> {
        Suits { inner }
    }
}

impl<B: Bot<DouDizhu5>> Bot<DouDizhu5> for Suits<B> {
    fn act(&mut self, decision: &Decision<'_, DouDizhu5>) -> Action {
        // The view is made once, for the bot and for its suits.
        let view = decision.view();
        let action = self.inner.act(&Decision::from_view(
            &*view,
            decision.seat(),
            decision.legal(),
        ));
        let Action::Play(ranks) = action else {
            return action;
        };
        let Some(hand) = &view.hand else {
            return action;
        };
        match choose(hand, ranks, view.declaration.and_then(|d| d.marked)) {
            Some(cards) if cards.has_suits() => Action::PlaySuited(cards),
            _ => action,
        }
    }
}

/// The copies of `ranks` a careful player takes from `hand` (ascending by rank then suit),
/// or `None` if the hand lacks some.
fn choose(hand: &[Card], ranks: RankCounts, marked: Option<Card>) -> Option<SuitedCards> {
    let mut out = SuitedCards::EMPTY;
    let mut need = ranks;
    // The lowest suit comes first, and the marked card's copies in a second round.
    for marked_round in [false, true] {
        for &c in hand {
            if (Some(c) == marked) == marked_round && need.count(c.rank()) > 0 {
                out.add(c);
                need.remove(c.rank(), 1);
            }
        }
    }
    need.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::parse_cards;

    #[test]
    fn a_careful_player_keeps_the_marked_card_to_the_last() {
        let hand = parse_cards("6d 6c 6c 6h 9s").unwrap();
        let marked = "6d".parse().ok();
        let pick = |n: &str| choose(&hand, n.parse().unwrap(), marked);
        assert_eq!(pick("6 6").unwrap().to_string(), "6c 6c");
        assert_eq!(pick("6 6 6").unwrap().to_string(), "6c 6c 6h");
        assert_eq!(pick("6 6 6 6 9").unwrap().to_string(), "6d 6c 6c 6h 9s");
        assert_eq!(pick("6 6 6 6 6"), None);
    }
}
