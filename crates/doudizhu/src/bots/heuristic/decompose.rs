//! Splitting a hand into few strong groups: the plan the bot plays by.
//!
//! A hand is played out one group per round, and every round it leads with a weak group is a
//! round the opponents may take over. So a plan is judged by how many moves it needs and by
//! how strong its groups are: `score = Σ value(group) − MOVE_COST × moves`. Bombs and the
//! rocket are kept whole; chains (solo, pair, trio) are searched; what is left falls into
//! trios, pairs and solos, and trios and planes take the lowest solos or pairs as kickers.

use crate::{Kind, Play};
use cards::{Rank, RankCounts};

/// What one more move to play the hand out costs, in group-value points: a hand that needs
/// one move less is worth a group seven ranks stronger.
pub(crate) const MOVE_COST: i32 = 7;
/// Leaves of the chain search explored per hand before the best plan so far is taken: the
/// bound that keeps chain-rich hands fast.
const LEAF_BUDGET: u32 = 400;
/// A hand has at most 20 cards, so at most 20 groups.
const MAX_GROUPS: usize = 20;
/// At most this many chains fit in 20 cards (four solo chains of five).
const MAX_CHAINS: usize = 4;
/// Rank index of the ace: chains end there at the latest, and the highest kicker.
const ACE: usize = Rank::Ace as usize;
/// The last rank a chain (a trio chain of two: K K K A A A) may start at.
const LAST_CHAIN_START: usize = Rank::King as usize;
/// Plays out the whole hand at once; better than any other plan.
const GOING_OUT: i32 = 100;

/// Chain shapes: (cards per rank, shortest, longest).
const CHAINS: [(u8, u8, u8); 3] = [(3, 2, 6), (2, 3, 10), (1, 5, 12)];

/// One group of a plan: the cards of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    /// What kind of play the group is.
    pub kind: Kind,
    /// The main rank index: a chain's lowest, a trio's or four's rank.
    pub rank: u8,
    /// Ranks in the chain (1 for other kinds).
    pub len: u8,
    /// All its cards, kickers included.
    pub cards: RankCounts,
}

const NO_GROUP: Group = Group {
    kind: Kind::Solo,
    rank: 0,
    len: 1,
    cards: RankCounts::EMPTY,
};

/// How strong a single rank is: 3 → −10, K → 0, A → 1, 2 → 2, jokers 3 and 4.
fn rank_value(rank: u8) -> i32 {
    rank as i32 - 10
}

impl Group {
    /// The group a play makes.
    pub fn of_play(play: Play) -> Group {
        Group {
            kind: play.kind(),
            rank: play.rank().index() as u8,
            len: play.len().max(1),
            cards: play.cards(),
        }
    }

    /// The highest rank index of the main part.
    pub fn top(self) -> u8 {
        self.rank + self.len - 1
    }

    /// How hard the group is to beat, and so how likely it wins its round: by its main rank,
    /// chains and planes a little more (they are seldom matched), bombs and the rocket most.
    pub fn value(self) -> i32 {
        match self.kind {
            Kind::SoloChain | Kind::PairChain => rank_value(self.top()) + 1,
            Kind::TrioChain | Kind::PlaneSolo | Kind::PlanePair => rank_value(self.top()) + 2,
            Kind::Bomb => 9 + self.rank as i32 / 4,
            Kind::Rocket => 12,
            _ => rank_value(self.rank),
        }
    }

    /// Whether it is a bomb or the rocket.
    pub fn is_bomb(self) -> bool {
        matches!(self.kind, Kind::Bomb | Kind::Rocket)
    }
}

/// A hand split into groups, and how good the split is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    groups: [Group; MAX_GROUPS],
    len: usize,
    score: i32,
}

impl Plan {
    const EMPTY: Plan = Plan {
        groups: [NO_GROUP; MAX_GROUPS],
        len: 0,
        score: i32::MIN,
    };

    /// The groups.
    pub fn groups(&self) -> &[Group] {
        &self.groups[..self.len]
    }

    /// Moves needed to play the hand out if every group won its round.
    pub fn moves(&self) -> usize {
        self.len
    }

    /// Σ value − MOVE_COST × moves: higher is better.
    pub fn score(&self) -> i32 {
        self.score
    }

    fn push(&mut self, g: Group) {
        if self.len < MAX_GROUPS {
            self.groups[self.len] = g;
            self.len += 1;
        }
    }

    fn rate(&mut self) {
        let values: i32 = self.groups().iter().map(|g| g.value()).sum();
        self.score = values - MOVE_COST * self.len as i32;
    }
}

/// The plan search, with its scratch space (reused between hands: no allocation).
pub(crate) struct Decomposer {
    counts: [u8; 15],
    chains: [Group; MAX_CHAINS],
    n_chains: usize,
    fixed: Plan,
    best: Plan,
    leaves: u32,
}

impl Default for Decomposer {
    fn default() -> Self {
        Decomposer {
            counts: [0; 15],
            chains: [NO_GROUP; MAX_CHAINS],
            n_chains: 0,
            fixed: Plan::EMPTY,
            best: Plan::EMPTY,
            leaves: 0,
        }
    }
}

fn counts_of(rank: usize, n: u8) -> RankCounts {
    Rank::from_index(rank).map_or(RankCounts::EMPTY, |r| RankCounts::of(r, n as u32))
}

fn simple(kind: Kind, rank: usize, n: u8) -> Group {
    Group {
        kind,
        rank: rank as u8,
        len: 1,
        cards: counts_of(rank, n),
    }
}

impl Decomposer {
    /// The best plan found for `hand`.
    pub fn plan(&mut self, hand: RankCounts) -> Plan {
        let mut plan = Plan::EMPTY;
        if hand.is_empty() {
            plan.score = GOING_OUT;
            return plan;
        }
        if let Some(play) = Play::classify(hand) {
            plan.push(Group::of_play(play));
            plan.rate();
            plan.score += GOING_OUT;
            return plan;
        }
        for (i, c) in self.counts.iter_mut().enumerate() {
            *c = hand.count_at(i) as u8;
        }
        self.fixed = Plan::EMPTY;
        if self.counts[13] == 1 && self.counts[14] == 1 {
            self.counts[13] = 0;
            self.counts[14] = 0;
            self.fixed.push(Group {
                kind: Kind::Rocket,
                rank: 14,
                len: 1,
                cards: counts_of(13, 1).plus(counts_of(14, 1)),
            });
        }
        for r in 0..13 {
            if self.counts[r] == 4 {
                self.counts[r] = 0;
                self.fixed.push(simple(Kind::Bomb, r, 4));
            }
        }
        self.n_chains = 0;
        self.best = Plan::EMPTY;
        self.leaves = 0;
        self.search(0, 0);
        self.best
    }

    /// The score of the best plan for `hand`.
    pub fn score(&mut self, hand: RankCounts) -> i32 {
        self.plan(hand).score
    }

    /// Chooses chains starting at the lowest rank ≥ `from`, option ids ≥ `first` at `from`
    /// (so the same set of chains is not tried in several orders).
    fn search(&mut self, from: usize, first: u8) {
        if self.leaves >= LEAF_BUDGET {
            return;
        }
        let mut r = from;
        let mut first = first;
        while r <= LAST_CHAIN_START && self.counts[r] == 0 {
            r += 1;
            first = 0;
        }
        if r > LAST_CHAIN_START {
            self.leaf();
            return;
        }
        for (shape, &(width, shortest, longest)) in CHAINS.iter().enumerate() {
            let mut run = 0u8;
            while (r + run as usize) <= ACE
                && run < longest
                && self.counts[r + run as usize] >= width
            {
                run += 1;
            }
            let mut len = run;
            while len >= shortest {
                let id = (shape as u8) * 16 + (15 - len);
                if id >= first && self.n_chains < MAX_CHAINS {
                    self.take_chain(r, width, len);
                    self.search(r, id);
                    self.n_chains -= 1;
                    for i in r..r + len as usize {
                        self.counts[i] += width;
                    }
                }
                len -= 1;
            }
        }
        self.search(r + 1, 0);
    }

    fn take_chain(&mut self, r: usize, width: u8, len: u8) {
        let mut cards = RankCounts::EMPTY;
        for i in r..r + len as usize {
            self.counts[i] -= width;
            cards = cards.plus(counts_of(i, width));
        }
        let kind = match width {
            1 => Kind::SoloChain,
            2 => Kind::PairChain,
            _ => Kind::TrioChain,
        };
        self.chains[self.n_chains] = Group {
            kind,
            rank: r as u8,
            len,
            cards,
        };
        self.n_chains += 1;
    }

    /// Rates the chains chosen plus the rest as trios (with kickers), pairs and solos.
    fn leaf(&mut self) {
        self.leaves += 1;
        let mut plan = self.fixed;
        // Kicker candidates, lowest first: solos and pairs up to the ace.
        let mut solos = [0u8; 15];
        let mut pairs = [0u8; 15];
        let (mut n_solos, mut n_pairs) = (0, 0);
        for r in 0..=ACE {
            match self.counts[r] {
                1 => {
                    solos[n_solos] = r as u8;
                    n_solos += 1;
                }
                2 => {
                    pairs[n_pairs] = r as u8;
                    n_pairs += 1;
                }
                _ => {}
            }
        }
        let (mut si, mut pi) = (0, 0);
        for c in &self.chains[..self.n_chains] {
            let mut g = *c;
            if g.kind == Kind::TrioChain {
                let n = g.len as usize;
                if n_solos - si >= n {
                    for &k in &solos[si..si + n] {
                        g.cards = g.cards.plus(counts_of(k as usize, 1));
                    }
                    si += n;
                    g.kind = Kind::PlaneSolo;
                } else if n_pairs - pi >= n {
                    for &k in &pairs[pi..pi + n] {
                        g.cards = g.cards.plus(counts_of(k as usize, 2));
                    }
                    pi += n;
                    g.kind = Kind::PlanePair;
                }
            }
            plan.push(g);
        }
        for r in 0..13 {
            if self.counts[r] != 3 {
                continue;
            }
            let mut g = simple(Kind::Trio, r, 3);
            let solo = (si < n_solos).then(|| solos[si]);
            let pair = (pi < n_pairs).then(|| pairs[pi]);
            match (solo, pair) {
                (Some(s), p) if p.is_none_or(|p| s <= p) => {
                    g.cards = g.cards.plus(counts_of(s as usize, 1));
                    g.kind = Kind::TrioSolo;
                    si += 1;
                }
                (_, Some(p)) => {
                    g.cards = g.cards.plus(counts_of(p as usize, 2));
                    g.kind = Kind::TrioPair;
                    pi += 1;
                }
                _ => {}
            }
            plan.push(g);
        }
        for &p in &pairs[pi..n_pairs] {
            plan.push(simple(Kind::Pair, p as usize, 2));
        }
        for &s in &solos[si..n_solos] {
            plan.push(simple(Kind::Solo, s as usize, 1));
        }
        for r in ACE + 1..15 {
            match self.counts[r] {
                1 => plan.push(simple(Kind::Solo, r, 1)),
                2 => plan.push(simple(Kind::Pair, r, 2)),
                _ => {}
            }
        }
        plan.rate();
        if plan.score > self.best.score {
            self.best = plan;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Deck;
    use proptest::prelude::*;

    fn hand(s: &str) -> RankCounts {
        s.parse().expect("rank notation")
    }

    fn kinds(plan: &Plan) -> Vec<Kind> {
        let mut k: Vec<Kind> = plan.groups().iter().map(|g| g.kind).collect();
        k.sort();
        k
    }

    proptest! {
        /// The groups are the hand, exactly, and each is a play of the kind the plan says.
        #[test]
        fn plan_groups_are_plays_that_make_up_the_hand(deal in any::<u64>(), n in 1usize..=20) {
            let mut ranks: Vec<Rank> = Deck::WITH_JOKERS.cards().iter().map(|c| c.rank()).collect();
            game::deal::shuffle(&mut ranks, &mut game::Seed::from_u64(deal).rng());
            let h = RankCounts::from_ranks(ranks[..n].iter().copied());
            let plan = Decomposer::default().plan(h);
            let total = plan.groups().iter().fold(RankCounts::EMPTY, |a, g| a.plus(g.cards));
            prop_assert_eq!(total, h);
            for g in plan.groups() {
                let p = Play::classify(g.cards);
                prop_assert_eq!(p.map(|p| p.kind()), Some(g.kind), "{}", g.cards);
                prop_assert_eq!(p.map(|p| p.rank().index() as u8), Some(g.rank), "{}", g.cards);
            }
        }
    }

    #[test]
    fn a_chain_joins_single_cards_into_one_move() {
        let plan = Decomposer::default().plan(hand("3 4 5 6 7 9 J"));
        assert_eq!(kinds(&plan), [Kind::Solo, Kind::Solo, Kind::SoloChain]);
    }

    #[test]
    fn bombs_and_the_rocket_stay_whole() {
        let plan = Decomposer::default().plan(hand("5 5 5 5 6 7 8 9 10 BJ RJ Q"));
        assert_eq!(
            kinds(&plan),
            [Kind::Solo, Kind::SoloChain, Kind::Bomb, Kind::Rocket]
        );
    }

    #[test]
    fn trios_and_planes_take_the_lowest_kickers() {
        let plan = Decomposer::default().plan(hand("3 4 8 8 8 9 9 9 Q Q Q K 2"));
        let groups = plan.groups();
        let plane = groups
            .iter()
            .find(|g| g.kind == Kind::PlaneSolo)
            .expect("a plane");
        assert_eq!(plane.cards, hand("3 4 8 8 8 9 9 9"));
        let trio = groups
            .iter()
            .find(|g| g.kind == Kind::TrioSolo)
            .expect("a trio");
        assert_eq!(trio.cards, hand("Q Q Q K"));
        assert_eq!(plan.moves(), 3);
    }

    #[test]
    fn a_hand_that_is_one_play_is_one_move() {
        let plan = Decomposer::default().plan(hand("3 3 3 3 5 6"));
        assert_eq!(kinds(&plan), [Kind::FourTwoSolo]);
        assert!(plan.score() > Decomposer::default().score(hand("3 3 3 3 5 7 9")));
    }

    #[test]
    fn fewer_weak_groups_score_higher() {
        let mut d = Decomposer::default();
        assert!(d.score(hand("3 4 5 6 7")) > d.score(hand("3 4 5 6 8")));
        assert!(d.score(hand("A 2")) > d.score(hand("3 4")));
    }
}
