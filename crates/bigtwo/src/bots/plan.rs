//! Splitting a hand into plays: the heuristic bot's picture of its own hand.
//!
//! A hand is as good as the plays it will take to get rid of it and how many of those plays
//! can be beaten. A [`Plan`] partitions the hand into plays (five-card hands first, then the
//! rest by rank as triples, pairs and singles) and costs it as the sum over its plays of
//! (1 − strength), where strength estimates how likely the play is to hold when led, given
//! the cards still unseen. The best plan is the cheapest partition found.

use crate::combo::{suits_of, Combo, Kind};
use crate::movegen::for_each_play;
use cards::{Card, CardSet};

/// Five-card plays considered in pairs when searching for the best plan: enough for real
/// hands, and a bound on the search for freak ones (a 13-card suit has 1,287).
const MAX_FIVES: usize = 16;

/// A small cost per play, so that of two plans of equal strength the one with fewer plays
/// (fewer turns needed to go out) wins.
const PER_PLAY: f32 = 0.1;

/// What the strength of a play depends on: the cards the bot cannot see, which are the ones
/// that could beat it.
#[derive(Clone, Copy, Debug)]
pub struct Unseen {
    cards: CardSet,
    per_rank: [u32; 13],
}

impl Unseen {
    /// From the cards neither in the bot's hand nor played.
    pub fn new(cards: CardSet) -> Unseen {
        let mut per_rank = [0; 13];
        for (r, n) in per_rank.iter_mut().enumerate() {
            *n = suits_of(cards, r).count_ones();
        }
        Unseen { cards, per_rank }
    }

    /// How many unseen cards are higher than `card`: how many singles could beat it.
    pub fn higher_than(&self, card: Card) -> u32 {
        (self.cards.bits() >> (card.id() + 1)).count_ones()
    }

    /// How many ranks could still hold a `size`-of-a-rank play (pair, triple) above `top`.
    fn higher_sets(&self, top: Card, size: u32) -> u32 {
        let rank = top.rank().index();
        let above = self.per_rank[rank + 1..]
            .iter()
            .filter(|&&n| n >= size)
            .count() as u32;
        let same = suits_of(self.cards, rank);
        let beats_at_rank =
            same.count_ones() >= size && same >> top.suit().map_or(0, |s| s.index()) > 1;
        above + u32::from(beats_at_rank)
    }

    /// An estimate in 0..=1 of how likely `play` is to stand when led: 1 when nothing unseen
    /// can beat it.
    pub fn strength(&self, play: &Combo) -> f32 {
        let r = play.top.rank().index() as f32 / 12.0;
        match play.kind {
            Kind::Single => (1.0 - self.higher_than(play.top) as f32 / 10.0).max(0.0),
            Kind::Pair => (1.0 - self.higher_sets(play.top, 2) as f32 / 5.0).max(0.0),
            Kind::Triple => (1.0 - self.higher_sets(play.top, 3) as f32 / 4.0).max(0.0),
            Kind::Straight => 0.35 + 0.3 * r,
            Kind::Flush => 0.6 + 0.2 * r,
            Kind::FullHouse => 0.75 + 0.2 * r,
            Kind::FourOfAKind => 0.95,
            Kind::StraightFlush => 1.0,
        }
    }

    /// What one play adds to a plan's cost.
    pub fn cost(&self, play: &Combo) -> f32 {
        1.0 - self.strength(play) + PER_PLAY
    }
}

/// A partition of a hand into plays, and its cost (lower is better).
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The plays, every card of the hand in exactly one.
    pub plays: Vec<Combo>,
    /// The sum of the plays' costs.
    pub cost: f32,
}

/// The cards left after the five-card plays, grouped by rank: triples, pairs, singles (four
/// of a rank left over is two pairs).
fn by_rank(rest: CardSet, unseen: &Unseen, mut take: impl FnMut(Combo, f32)) {
    for rank in 0..13 {
        let suits = suits_of(rest, rank);
        let groups: &[u64] = match suits.count_ones() {
            0 => &[],
            4 => &[0b0011, 0b1100],
            _ => &[0b1111],
        };
        for &g in groups {
            let bits = (suits & g) << (4 * rank);
            if let Some(play) = Combo::classify(CardSet::from_bits(bits)) {
                take(play, unseen.cost(&play));
            }
        }
    }
}

fn rest_cost(rest: CardSet, unseen: &Unseen) -> f32 {
    let mut cost = 0.0;
    by_rank(rest, unseen, |_, c| cost += c);
    cost
}

/// The cheapest plan for `hand` found by trying no, one and two five-card plays.
pub fn best_plan(hand: CardSet, unseen: &Unseen) -> Plan {
    let mut fives: Vec<(Combo, f32)> = Vec::new();
    for_each_play(hand, 5, &mut |c| {
        let cost = unseen.cost(&c) + rest_cost(hand.minus(c.cards), unseen);
        fives.push((c, cost));
    });
    fives.sort_by(|a, b| a.1.total_cmp(&b.1));
    fives.truncate(MAX_FIVES);

    let mut best: (f32, Option<Combo>, Option<Combo>) = (rest_cost(hand, unseen), None, None);
    for (i, &(a, cost_a)) in fives.iter().enumerate() {
        if cost_a < best.0 {
            best = (cost_a, Some(a), None);
        }
        for &(b, _) in &fives[i + 1..] {
            if a.cards.bits() & b.cards.bits() != 0 {
                continue;
            }
            let rest = hand.minus(a.cards).minus(b.cards);
            let cost = unseen.cost(&a) + unseen.cost(&b) + rest_cost(rest, unseen);
            if cost < best.0 {
                best = (cost, Some(a), Some(b));
            }
        }
    }
    let (cost, a, b) = best;
    let mut plays: Vec<Combo> = a.into_iter().chain(b).collect();
    let rest = plays.iter().fold(hand, |h, p| h.minus(p.cards));
    by_rank(rest, unseen, |p, _| plays.push(p));
    Plan { plays, cost }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combo::DECK;

    fn plan(text: &str) -> Plan {
        let hand: CardSet = text.parse().unwrap();
        best_plan(hand, &Unseen::new(DECK.minus(hand)))
    }

    #[test]
    fn a_plan_partitions_the_hand() {
        let hand: CardSet = "3d 4c 5h 6s 7d 7c 7h 9s 9d Jd Qd Kd 2s".parse().unwrap();
        let p = best_plan(hand, &Unseen::new(DECK.minus(hand)));
        let mut seen = CardSet::EMPTY;
        for play in &p.plays {
            assert_eq!(seen.bits() & play.cards.bits(), 0);
            seen = seen.union(play.cards);
        }
        assert_eq!(seen, hand);
    }

    #[test]
    fn loose_low_cards_go_into_a_straight() {
        let p = plan("3d 4c 5h 6s 7d Ah 2s");
        assert!(p.plays.iter().any(|c| c.kind == Kind::Straight));
        assert_eq!(p.plays.len(), 3);
    }

    #[test]
    fn the_top_single_is_full_strength() {
        let u = Unseen::new(DECK.minus("2s".parse().unwrap()));
        let two: CardSet = "2s".parse().unwrap();
        assert_eq!(u.strength(&Combo::classify(two).unwrap()), 1.0);
    }
}
