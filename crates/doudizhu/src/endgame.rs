//! Who wins a Dou Dizhu deal when every hand is open and every seat plays its best: an
//! exact solver for endgames.
//!
//! With the hands known, Dou Dizhu is a two-sided game of perfect information: the landlord
//! against the two peasants, who win together as soon as either goes out. So a position is
//! won or lost for the landlord, and an AND–OR search over the plays finds which — a
//! "double-dummy" solve, as bridge players say. The search bot uses it in its sampled
//! worlds near the end of a deal: a world where its side is sure to win counts as a win,
//! even if the fast play-out would have thrown it away. A proven loss says less (it assumes
//! the other side plays perfectly with open cards), so the bot plays those worlds out.
//!
//! The game tree grows fast with the cards in play, so a solve has a node limit and gives
//! up beyond it. A table of the positions already solved (the same hands reached by plays
//! in another order) keeps the count down; it is forgotten between solves, so the answer
//! and the nodes it takes depend only on the position and the limit.

use crate::movegen::legal_plays;
use crate::rules::{next, Phase, State};
use crate::Play;
use cards::RankCounts;
use game::Seat;

/// A play-phase position with every hand open: what decides who can still win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Open {
    /// Each seat's cards.
    pub hands: [RankCounts; 3],
    /// The landlord's seat.
    pub landlord: Seat,
    /// The seat to act.
    pub turn: Seat,
    /// The play to beat and who made it; `None` when the seat to act leads.
    pub last: Option<(Seat, Play)>,
}

impl Open {
    /// The open position of a state in its play phase, `None` before or after it.
    pub fn of(state: &State) -> Option<Open> {
        if state.phase != Phase::Playing {
            return None;
        }
        Some(Open {
            hands: state.hands,
            landlord: state.landlord?,
            turn: state.turn,
            last: state.last,
        })
    }

    /// Cards left in the three hands together: the measure of how hard a solve is.
    pub fn cards_left(&self) -> u32 {
        self.hands.iter().map(|h| h.len()).sum()
    }
}

/// The solve gave up: it needed more nodes than its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OutOfNodes;

/// Entries in the table of solved positions (a power of two). 2^16 entries of 48 bytes is
/// 3 MiB a solver, and endgames within the node limits used fill a small part of it.
const TABLE_BITS: u32 = 16;

/// One solved position. `generation` tells this solve's entries from older ones, so
/// starting a solve costs nothing however full the table is.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    hands: [u64; 3],
    last: u64,
    /// The seat to act, and who made the last play (3 for nobody), packed.
    seats: u8,
    generation: u32,
    landlord_wins: bool,
}

/// An exact endgame solver with its table; reuse one to avoid reallocating the table.
pub struct Solver {
    table: Vec<Entry>,
    generation: u32,
    nodes: u64,
    limit: u64,
    /// Move lists, one per ply, kept between solves to avoid allocation.
    lists: Vec<Vec<Play>>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            generation: 0,
            nodes: 0,
            limit: 0,
            lists: Vec::new(),
        }
    }
}

impl Solver {
    /// Whether the landlord wins `position` against any defence, and the peasants cannot
    /// stop it: `Some(true)` if it does, `Some(false)` if the peasants win against any
    /// landlord play, `None` if the search needed more than `node_limit` positions (or the
    /// position names a seat beyond the three). A hand already empty has won.
    pub fn landlord_wins(&mut self, position: &Open, node_limit: u64) -> Option<bool> {
        let by = position.last.map_or(0, |(by, _)| by);
        if position.turn >= 3 || position.landlord >= 3 || by >= 3 {
            return None;
        }
        if let Some(out) = (0..3).find(|&s| position.hands[s].is_empty()) {
            return Some(out == position.landlord);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill(Entry::default());
            self.generation = 1;
        }
        self.nodes = 0;
        self.limit = node_limit;
        self.solve(*position, 0).ok()
    }

    /// The positions the last solve visited.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn solve(&mut self, pos: Open, ply: usize) -> Result<bool, OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(OutOfNodes);
        }
        let seats = (pos.turn as u8) | (pos.last.map_or(3, |(by, _)| by as u8) << 2);
        let last_cards = pos.last.map_or(0, |(_, p)| p.cards().raw());
        let hands = pos.hands.map(RankCounts::raw);
        let slot = self.slot(&hands, last_cards, seats);
        let entry = self.table[slot];
        if entry.generation == self.generation
            && entry.hands == hands
            && entry.last == last_cards
            && entry.seats == seats
        {
            return Ok(entry.landlord_wins);
        }
        let landlord_wins = self.search(pos, ply)?;
        self.table[slot] = Entry {
            hands,
            last: last_cards,
            seats,
            generation: self.generation,
            landlord_wins,
        };
        Ok(landlord_wins)
    }

    /// The AND–OR step: the landlord needs one play that wins, the peasants one that
    /// beats every landlord reply.
    fn search(&mut self, pos: Open, ply: usize) -> Result<bool, OutOfNodes> {
        let seat = pos.turn;
        let hand = pos.hands[seat];
        let landlord_to_act = seat == pos.landlord;
        if self.lists.len() <= ply {
            self.lists.push(Vec::new());
        }
        let mut plays = std::mem::take(&mut self.lists[ply]);
        plays.clear();
        legal_plays(hand, pos.last.map(|(_, p)| p), &mut plays);
        let result = self.best_of(pos, &mut plays, ply);
        self.lists[ply] = plays;
        let wins_for_mover = result?;
        Ok(wins_for_mover == landlord_to_act)
    }

    /// Whether the seat to act has a move that wins for its side, trying `plays` (and a
    /// pass where allowed) in a promising order.
    fn best_of(&mut self, pos: Open, plays: &mut [Play], ply: usize) -> Result<bool, OutOfNodes> {
        let seat = pos.turn;
        let hand = pos.hands[seat];
        if plays.iter().any(|p| p.cards() == hand) {
            return Ok(true);
        }
        let partner_leads = pos
            .last
            .is_some_and(|(by, _)| by != seat && seat != pos.landlord && by != pos.landlord);
        match pos.last {
            // Leading: shed the most cards first.
            None => plays.sort_unstable_by_key(|p| std::cmp::Reverse(p.size())),
            // Following: the cheapest beat first, bombs last.
            Some(_) => plays.sort_by_key(|p| (p.is_bomb(), p.rank())),
        }
        if partner_leads && self.wins_after(pos, None, ply)? {
            return Ok(true);
        }
        for &play in plays.iter() {
            if self.wins_after(pos, Some(play), ply)? {
                return Ok(true);
            }
        }
        if pos.last.is_some() && !partner_leads {
            return self.wins_after(pos, None, ply);
        }
        Ok(false)
    }

    /// Whether the seat to act wins for its side by making `play` (`None`: passing).
    fn wins_after(
        &mut self,
        pos: Open,
        play: Option<Play>,
        ply: usize,
    ) -> Result<bool, OutOfNodes> {
        let seat = pos.turn;
        let next = next(seat);
        let mut child = Open { turn: next, ..pos };
        match play {
            Some(p) => {
                child.hands[seat] = pos.hands[seat].minus(p.cards());
                child.last = Some((seat, p));
            }
            None => {
                if pos.last.is_some_and(|(by, _)| by == next) {
                    child.last = None;
                }
            }
        }
        let landlord_wins = self.solve(child, ply + 1)?;
        Ok(landlord_wins == (seat == pos.landlord))
    }

    fn slot(&self, hands: &[u64; 3], last: u64, seats: u8) -> usize {
        let mut h = u64::from(seats).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for word in hands.iter().chain(std::iter::once(&last)) {
            h = (h ^ word).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 29;
        }
        (h >> (64 - TABLE_BITS)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::HeuristicBot;
    use crate::rules::DouDizhu;
    use game::{Bot, Decision, RandomBot, Rules, Seed, ToAct, Viewer};

    /// The play-phase positions of heuristic games with at most `max_cards` left in the
    /// three hands, one per turn.
    fn endgames(games: u64, max_cards: u32) -> Vec<(State, Open)> {
        let mut bot = HeuristicBot::new(&Seed::from_u64(0));
        let mut events = Vec::new();
        let mut out = Vec::new();
        for g in 0..games {
            let Ok(mut state) = DouDizhu::start(&Default::default(), 3, &Seed::from_u64(g)) else {
                panic!("a game starts");
            };
            while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
                if let Some(open) = Open::of(&state).filter(|o| o.cards_left() <= max_cards) {
                    out.push((state.clone(), open));
                }
                let view = DouDizhu::view(&state, Viewer::Seat(seat));
                let legal = DouDizhu::legal(&state, seat);
                let action = bot.act(&Decision::from_view(&view, seat, &legal));
                assert!(DouDizhu::apply(&mut state, seat, action, &mut events).is_ok());
            }
        }
        out
    }

    /// The plain minimax the solver must agree with: every move, no table, no order.
    fn brute_force(pos: Open) -> bool {
        let seat = pos.turn;
        let mut plays = Vec::new();
        legal_plays(pos.hands[seat], pos.last.map(|(_, p)| p), &mut plays);
        let mine = |landlord_wins: bool| landlord_wins == (seat == pos.landlord);
        let next = (seat + 1) % 3;
        for p in plays {
            let hand = pos.hands[seat].minus(p.cards());
            if hand.is_empty() {
                return seat == pos.landlord;
            }
            let mut child = Open {
                turn: next,
                last: Some((seat, p)),
                ..pos
            };
            child.hands[seat] = hand;
            if mine(brute_force(child)) {
                return seat == pos.landlord;
            }
        }
        if let Some((by, _)) = pos.last {
            let child = Open {
                turn: next,
                last: if by == next { None } else { pos.last },
                ..pos
            };
            return brute_force(child);
        }
        seat != pos.landlord
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        let mut solver = Solver::default();
        let positions = endgames(300, 14);
        assert!(positions.len() > 200, "{} positions", positions.len());
        let (mut won, mut lost) = (0, 0);
        for (_, open) in positions {
            let exact = brute_force(open);
            assert_eq!(
                solver.landlord_wins(&open, u64::MAX),
                Some(exact),
                "{open:?}"
            );
            if exact {
                won += 1;
            } else {
                lost += 1;
            }
        }
        assert!(won > 20 && lost > 20, "won {won}, lost {lost}");
    }

    #[test]
    fn a_proven_win_is_won_against_any_defence() {
        let mut solver = Solver::default();
        let mut events = Vec::new();
        let mut proven = 0;
        for (i, (mut state, open)) in endgames(100, 20).into_iter().enumerate() {
            if solver.landlord_wins(&open, 200_000) != Some(true) {
                continue;
            }
            proven += 1;
            let mut peasants = RandomBot::new(&Seed::from_u64(i as u64));
            while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
                let legal = DouDizhu::legal(&state, seat);
                let action = if seat == open.landlord {
                    // A winning move exists in a won position: find one by solving after each.
                    let winning = legal.iter().find(|&&a| {
                        let mut after = state.clone();
                        DouDizhu::apply(&mut after, seat, a, &mut Vec::new()).is_ok()
                            && Open::of(&after)
                                .is_none_or(|o| solver.landlord_wins(&o, u64::MAX) == Some(true))
                    });
                    match winning {
                        Some(&a) => a,
                        None => panic!("a won position has no winning move: {open:?}"),
                    }
                } else {
                    let view = DouDizhu::view(&state, Viewer::Seat(seat));
                    Bot::<DouDizhu>::act(&mut peasants, &Decision::from_view(&view, seat, &legal))
                };
                assert!(DouDizhu::apply(&mut state, seat, action, &mut events).is_ok());
            }
            let winner = state.result.map(|r| r.winner);
            assert_eq!(winner, Some(open.landlord), "{open:?}");
        }
        assert!(proven > 50, "{proven} proven wins");
    }

    proptest::proptest! {
        /// Random small endgames, any seat to lead: the solver and plain minimax agree.
        #[test]
        fn the_solver_agrees_with_plain_minimax_on_random_endgames(
            seed in proptest::prelude::any::<u64>(),
            sizes in proptest::prelude::prop::array::uniform3(1usize..6),
            turn in 0usize..3,
            landlord in 0usize..3,
        ) {
            let mut deck: Vec<cards::Card> = cards::Card::all().collect();
            game::deal::shuffle(&mut deck, &mut Seed::from_u64(seed).rng());
            let mut at = 0;
            let hands = sizes.map(|n| {
                at += n;
                RankCounts::from_cards(&deck[at - n..at])
            });
            let open = Open { hands, landlord, turn, last: None };
            let mut solver = Solver::default();
            proptest::prop_assert_eq!(
                solver.landlord_wins(&open, u64::MAX),
                Some(brute_force(open))
            );
        }
    }

    #[test]
    fn odd_positions_are_answered_without_a_panic() {
        let mut solver = Solver::default();
        let (_, open) = endgames(1, 54).swap_remove(0);
        let beyond = Open { turn: 3, ..open };
        assert_eq!(solver.landlord_wins(&beyond, 1_000), None);
        let mut out = open;
        out.hands[open.landlord] = RankCounts::EMPTY;
        assert_eq!(solver.landlord_wins(&out, 1_000), Some(true));
    }

    #[test]
    fn a_solve_gives_up_at_its_limit_and_says_so() {
        let mut solver = Solver::default();
        let (_, open) = endgames(1, 54).swap_remove(0);
        assert_eq!(open.cards_left(), 54);
        assert_eq!(solver.landlord_wins(&open, 1_000), None);
        assert_eq!(solver.nodes(), 1_001);
    }

    /// Nodes a solve takes by the cards left, for choosing where the search bot uses it:
    /// `cargo test --release -p doudizhu --lib endgame::tests::nodes -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: prints a table"]
    fn nodes_by_cards_left() {
        let mut solver = Solver::default();
        let mut by_size: std::collections::BTreeMap<u32, Vec<u64>> = Default::default();
        let start = std::time::Instant::now();
        let mut total = 0;
        for (_, open) in endgames(300, 30) {
            let solved = solver.landlord_wins(&open, 1_000_000).is_some();
            total += solver.nodes();
            by_size
                .entry(open.cards_left())
                .or_default()
                .push(if solved { solver.nodes() } else { u64::MAX });
        }
        println!("{total} nodes in {:?}", start.elapsed());
        for (size, mut nodes) in by_size {
            nodes.sort_unstable();
            let q = |f: f64| nodes[((nodes.len() - 1) as f64 * f) as usize];
            println!(
                "{size:>2} cards: {:>5} positions, median {:>8}, 90% {:>8}, max {:>8}",
                nodes.len(),
                q(0.5),
                q(0.9),
                q(1.0)
            );
        }
    }
}
