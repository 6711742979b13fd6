//! The VCF puzzle sets (sources in `puzzles/README.md`): `puzzles/vcf.txt` (self-play) and
//! `puzzles/vcf_published.txt` (published problems). Every position is solved by the threat
//! solver within a node limit, the solver's line is checked move by move by the rules, and
//! every stored solution line is a real win by the rules.

use gomoku::engine::position::Position;
use gomoku::engine::threat::ThreatSolver;
use gomoku::notation::parse_point;
use gomoku::{Config, Point, Rule, State};

struct Puzzle {
    id: String,
    rule: Rule,
    moves: Vec<Point>,
    solution: Vec<Point>,
}

fn points(s: &str) -> Vec<Point> {
    s.split_whitespace()
        .map(|t| parse_point(t, 15).unwrap())
        .collect()
}

fn puzzles() -> Vec<Puzzle> {
    include_str!("../../puzzles/vcf.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            assert_eq!(f.len(), 5, "{l}");
            assert!(!f[4].trim().is_empty(), "puzzle {} has no source", f[0]);
            Puzzle {
                id: f[0].into(),
                rule: Rule::parse(f[1]).unwrap(),
                moves: points(f[2]),
                solution: points(f[3]),
            }
        })
        .collect()
}

#[test]
fn vcf_set_has_at_least_50_positions() {
    assert!(puzzles().len() >= 50);
}

#[test]
fn vcf_solutions_win_by_the_rules() {
    for p in puzzles() {
        let mut s = State::new(&Config {
            rule: p.rule,
            ..Config::default()
        })
        .unwrap();
        for &m in &p.moves {
            s.play(m).unwrap();
        }
        let attacker = s.to_move();
        for (i, &m) in p.solution.iter().enumerate() {
            s.play(m)
                .unwrap_or_else(|e| panic!("{}: solution move {}: {e}", p.id, i + 1));
            let mover = if i % 2 == 0 {
                attacker
            } else {
                attacker.other()
            };
            if i % 2 == 0 && i + 1 < p.solution.len() {
                // Every attacking move but the last is a four: a five is one move away.
                let b = s.board();
                let fours = b
                    .points()
                    .any(|q| b.is_empty_at(q) && b.five_through(q, mover, p.rule).is_some());
                assert!(fours, "{}: move {} is not a four", p.id, i + 1);
            }
        }
        let end = s
            .end()
            .unwrap_or_else(|| panic!("{}: the line does not end the game", p.id));
        assert_eq!(end.winner, Some(attacker), "{}", p.id);
    }
}

#[test]
fn vcf_set_is_solved_each_within_the_node_limit() {
    for p in puzzles() {
        let mut pos = Position::from_moves(15, p.rule, &p.moves).unwrap();
        let mut solver = ThreatSolver::new(300_000);
        let found = solver.vcf(&mut pos, 40);
        assert!(
            found.is_some(),
            "{} not solved ({} nodes)",
            p.id,
            solver.nodes
        );
    }
}

// ---------------------------------------------------------------------------------------
// The published set (`puzzles/vcf_published.txt`; sources in `puzzles/README.md`).

/// Nodes the solver may spend on one published position.
const PUBLISHED_NODES: u64 = 300_000;
/// The longest VCF looked for, in attacking moves: deep enough for the longest published
/// line in the set ("shadows and fog", 73 fours), which the depth of 40 used for the
/// self-play set cannot reach.
const PUBLISHED_DEPTH: u32 = 100;

struct Published {
    id: String,
    rule: Rule,
    /// Whether the solver is expected to find the VCF within the limits (`vcf`), or is
    /// known not to (`unsolved`, with the reason in the README).
    solved: bool,
    moves: Vec<Point>,
    /// The source's own winning line, when it gives one.
    solution: Option<Vec<Point>>,
    source: String,
}

fn published() -> Vec<Published> {
    include_str!("../../puzzles/vcf_published.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            assert_eq!(f.len(), 6, "{l}");
            assert!(!f[5].trim().is_empty(), "puzzle {} has no source", f[0]);
            let solved = match f[2] {
                "vcf" => true,
                "unsolved" => false,
                other => panic!("{}: unknown expectation '{other}'", f[0]),
            };
            Published {
                id: f[0].into(),
                rule: Rule::parse(f[1]).unwrap(),
                solved,
                moves: points(f[3]),
                solution: (f[4].trim() != "-").then(|| points(f[4])),
                source: f[5].into(),
            }
        })
        .collect()
}

/// The game holding the stones of `moves` (black's and white's alternating), every stone
/// placed by the rules. A published diagram gives stones, not a game: an order within each
/// colour is searched for in which no stone is forbidden or completes a five when placed.
fn replay(id: &str, rule: Rule, moves: &[Point]) -> State {
    let s = State::new(&Config {
        rule,
        ..Config::default()
    })
    .unwrap();
    let mut left: [Vec<Point>; 2] = [
        moves.iter().step_by(2).copied().collect(),
        moves.iter().skip(1).step_by(2).copied().collect(),
    ];
    let mut budget = 100_000u32;
    place_all(s, &mut left, &mut budget)
        .unwrap_or_else(|| panic!("{id}: no legal order places these stones"))
}

/// Depth-first search for a legal order of the stones left (see [`replay`]).
fn place_all(s: State, left: &mut [Vec<Point>; 2], budget: &mut u32) -> Option<State> {
    let side = s.moves().len() % 2;
    if left[side].is_empty() {
        return left[1 - side].is_empty().then_some(s);
    }
    for i in 0..left[side].len() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut t = s.clone();
        if t.play(left[side][i]).is_err() || t.end().is_some() {
            continue;
        }
        let p = left[side].remove(i);
        if let Some(done) = place_all(t, left, budget) {
            return Some(done);
        }
        left[side].insert(i, p);
    }
    None
}

/// Whether `color` has a point that makes a five now.
fn has_four(s: &State, color: gomoku::Color, rule: Rule) -> bool {
    let b = s.board();
    b.points()
        .any(|q| b.is_empty_at(q) && b.five_through(q, color, rule).is_some())
}

/// Checks `line` (attacker first, alternating with the defender) by the rules: every
/// attacking move is legal and each but a final winning one makes a four; the line ends in
/// the attacker's five, or in a four the defender cannot stop — every legal reply leaves
/// the attacker a five (two fives, or a block forbidden to black).
fn check_vcf_line(id: &str, rule: Rule, moves: &[Point], line: &[Point]) {
    let mut s = replay(id, rule, moves);
    let attacker = s.to_move();
    for (i, &m) in line.iter().enumerate() {
        s.play(m)
            .unwrap_or_else(|e| panic!("{id}: line move {}: {e}", i + 1));
        if s.end().is_some() {
            assert_eq!(
                i + 1,
                line.len(),
                "{id}: the game ended before the line did"
            );
            break;
        }
        if i % 2 == 0 {
            assert!(
                has_four(&s, attacker, rule),
                "{id}: line move {} is not a four",
                i + 1
            );
        }
    }
    if let Some(end) = s.end() {
        assert_eq!(end.winner, Some(attacker), "{id}: the line ends in a loss");
        return;
    }
    assert_eq!(
        line.len() % 2,
        1,
        "{id}: the line ends on a defender's move"
    );
    let b = *s.board();
    let mut replies = 0;
    for d in b.points() {
        if s.check_place(d).is_err() {
            continue;
        }
        replies += 1;
        let mut after = s.clone();
        after.play(d).unwrap();
        assert!(
            after.end().is_none(),
            "{id}: the defender wins with {d} after the line"
        );
        assert!(
            has_four(&after, attacker, rule),
            "{id}: the defender stops every five with {d}"
        );
    }
    assert!(replies > 0, "{id}: the defender has no move");
}

/// The solver's VCF as a whole line of points: its fours and the forced blocks, to the
/// five or to a four whose every block is forbidden to black.
fn vcf_line(solver: &mut ThreatSolver, pos: &mut Position) -> Option<Vec<Point>> {
    let line = solver.vcf_line(pos, PUBLISHED_DEPTH)?;
    Some(line.iter().map(|&sq| pos.point(sq)).collect())
}

#[test]
fn published_vcf_set_has_at_least_50_positions_with_sources() {
    let set = published();
    assert!(set.len() >= 50, "{} published positions", set.len());
    assert!(set.iter().all(|p| !p.source.trim().is_empty()));
}

#[test]
fn published_vcf_solutions_given_by_the_sources_win_by_the_rules() {
    for p in published() {
        if let Some(line) = &p.solution {
            check_vcf_line(&p.id, p.rule, &p.moves, line);
        }
    }
}

/// Published positions solved within [`PUBLISHED_NODES`]; how long each takes on this
/// machine is reported by `cargo run --release -p gomoku --example vcf_times`, since a
/// test holds the solver to nodes, not to the clock.
#[test]
fn published_vcf_set_is_solved_each_within_the_node_limit() {
    for p in published() {
        let order = replay(&p.id, p.rule, &p.moves).moves().to_vec();
        let mut pos = Position::from_moves(15, p.rule, &order).unwrap();
        let mut solver = ThreatSolver::new(PUBLISHED_NODES);
        let line = vcf_line(&mut solver, &mut pos);
        match (&line, p.solved) {
            (Some(line), true) => check_vcf_line(&p.id, p.rule, &p.moves, line),
            (None, false) => {}
            (Some(_), false) => panic!(
                "{} is marked unsolved but is now solved: mark it `vcf` in the data file",
                p.id
            ),
            (None, true) => panic!("{} not solved ({} nodes)", p.id, solver.nodes),
        }
    }
}
