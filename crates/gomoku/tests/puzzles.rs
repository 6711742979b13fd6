//! The VCF puzzle set (`puzzles/vcf.txt`; sources in `puzzles/README.md`): every position
//! is solved by the threat solver within a node limit, and every stored solution line is a
//! real win by the rules.

use gomoku::engine::position::Position;
use gomoku::engine::threat::ThreatSolver;
use gomoku::notation::parse_point;
use gomoku::{Config, Point, Rule, State};
use std::time::{Duration, Instant};

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
    include_str!("../puzzles/vcf.txt")
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
    let mut slowest = Duration::ZERO;
    let mut total = Duration::ZERO;
    for p in puzzles() {
        let mut pos = Position::from_moves(15, p.rule, &p.moves).unwrap();
        let mut solver = ThreatSolver::new(300_000);
        let t = Instant::now();
        let found = solver.vcf(&mut pos, 40);
        let el = t.elapsed();
        total += el;
        slowest = slowest.max(el);
        assert!(
            found.is_some(),
            "{} not solved ({} nodes)",
            p.id,
            solver.nodes
        );
        eprintln!("{}: {} nodes, {:?}", p.id, solver.nodes, el);
    }
    eprintln!("vcf set: total {total:?}, slowest {slowest:?}");
}
