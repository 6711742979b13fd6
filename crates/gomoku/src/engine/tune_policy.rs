//! Fitting a move policy to self-play choices: an experiment tool, run by hand as an
//! ignored test.
//!
//! The search orders its candidate points by what a stone there would make for each side
//! (`Position::score`: the worth of its four line patterns and their threat class, the
//! opponent's counted four fifths). A policy fitted to the moves a deeper search chose
//! can order them better, and a search that orders better can look at fewer moves. The
//! model is small enough to be a table lookup in the search: the logit of a point is a
//! worth of the multiset of its four line patterns for the side to move, plus one for the
//! opponent's, plus one for the pair of threat classes, plus one for how near it is to
//! the last two stones; a softmax over the candidate points is fitted to the move played
//! (cross-entropy, Adam), or to the move a deeper search chose there (`tune_label`).
//!
//! What it found (docs/bots.md, "Gomoku: the gap to Rapfi"): the
//! fitted order puts a 60,000-node search's move among the first 14 candidates in 86.6%
//! of held-out positions where today's order does in 83.3%, and first in 33.3% against
//! 31.0%; ordering by it played no better against Rapfi, and pruning by it played worse,
//! so the search does not use it. The tool stays for the next attempt at a policy.

use super::pattern::C_FIVE;
use super::position::{Position, Sq};
use super::search::{defending, static_order};
use super::tune::{game_lines, multiset, var, Adam};
use crate::board::Rule;
use std::io::Write;

/// Keys per role's table: 11^4 sorted pattern numbers.
const SETS: usize = 14_641;
/// Pairs of threat classes.
const PAIRS: usize = 49;
/// Distances (1, 2, 3 or more, or no such stone) to the opponent's last stone and to ours.
const NEAR: usize = 16;
const PARAMS: usize = 2 * SETS + PAIRS + NEAR;

/// One candidate point: its four table keys and today's ordering score.
#[derive(Clone, Copy)]
struct Candidate {
    keys: [u32; 4],
    today: i32,
}

/// A position's candidates and which of them was played.
struct Choice {
    candidates: Vec<Candidate>,
    played: usize,
}

/// How near the square is to the opponent's last stone and to the side to move's: each
/// 1, 2, 3, or farther (or no such stone), as one number 0 to 15.
fn nearness(pos: &Position, sq: Sq) -> usize {
    let h = pos.history();
    let size = pos.size();
    let d = |back: usize| -> usize {
        let Some(&q) = h.len().checked_sub(back).and_then(|i| h.get(i)) else {
            return 3;
        };
        let far = (q % size)
            .abs_diff(sq % size)
            .max((q / size).abs_diff(sq / size));
        far.clamp(1, 4) - 1
    };
    d(1) * 4 + d(2)
}

/// The candidates `Searcher::gen_moves` would look at, with their keys.
fn candidates(pos: &Position) -> Vec<(Sq, Candidate)> {
    let me = pos.side();
    let op = 1 - me;
    let defending = defending(pos);
    let mut out = Vec::new();
    for sq in 0..pos.cells() {
        let Some(today) = static_order(pos, sq, defending) else {
            continue;
        };
        let keys = [
            multiset(pos.patterns(sq, me)) as u32,
            (SETS + multiset(pos.patterns(sq, op))) as u32,
            (2 * SETS + usize::from(pos.combo(sq, me)) * 7 + usize::from(pos.combo(sq, op))) as u32,
            (2 * SETS + PAIRS + nearness(pos, sq)) as u32,
        ];
        out.push((sq, Candidate { keys, today }));
    }
    out
}

/// Labels every position `choices` uses with the move of a deeper search (level 10's
/// limits with `TUNE_NODES` nodes, 60,000 by default), on two threads, and writes
/// "game label move move …" lines (the moves before the position) to `TUNE_LABELS_OUT`.
#[test]
#[ignore = "an experiment tool: labels TUNE_IN's positions with a deeper search's moves"]
fn tune_label() {
    let lines = game_lines();
    let nodes = var("TUNE_NODES", 60_000);
    let out = std::env::var("TUNE_LABELS_OUT").unwrap_or_else(|_| "/tmp/tune-labels.txt".into());
    let file = std::sync::Mutex::new(std::fs::File::create(&out).expect("create"));
    let limits = super::Limits {
        max_nodes: nodes,
        ..super::Level::MAX.limits()
    };
    std::thread::scope(|scope| {
        for t in 0..2usize {
            let (lines, file, limits) = (&lines, &file, &limits);
            scope.spawn(move || {
                let mut searcher =
                    super::search::Searcher::new(Position::new(15, Rule::Freestyle), 20);
                for (game, line) in lines.iter().enumerate().filter(|(g, _)| g % 2 == t) {
                    let moves = game_moves(line);
                    let mut text = String::new();
                    let mut pos = Position::new(15, Rule::Freestyle);
                    for (i, &sq) in moves.iter().enumerate() {
                        if asks_a_choice(&pos, i) {
                            searcher.set_position(pos.clone());
                            if let Some(best) = searcher.think(limits).best {
                                let before: Vec<String> =
                                    moves[..i].iter().map(|m| m.to_string()).collect();
                                text += &format!("{game} {best} {}\n", before.join(" "));
                            }
                        }
                        pos.play(sq);
                    }
                    file.lock()
                        .expect("one writer")
                        .write_all(text.as_bytes())
                        .expect("write");
                }
            });
        }
    });
}

/// A game line's moves, up to the first that is off the board or taken.
fn game_moves(line: &str) -> Vec<Sq> {
    let mut seen = std::collections::HashSet::new();
    line.split_whitespace()
        .skip(1)
        .map(|m| m.parse::<usize>().expect("square"))
        .take_while(|&sq| sq < 225 && seen.insert(sq))
        .collect()
}

/// The positions of `TUNE_LABELS` ("game label move move …" lines), when it is set.
fn labelled() -> Option<(Vec<Choice>, Vec<Choice>)> {
    let path = std::env::var("TUNE_LABELS").ok()?;
    let text = std::fs::read_to_string(path).expect("read TUNE_LABELS");
    let mut sets = Sets::default();
    for line in text.lines() {
        let nums: Vec<usize> = line
            .split_whitespace()
            .map(|x| x.parse().expect("number"))
            .collect();
        let mut pos = Position::new(15, Rule::Freestyle);
        for &sq in &nums[2..] {
            pos.play(sq);
        }
        sets.add(nums[0], &pos, nums[1]);
    }
    Some((sets.fit, sets.test))
}

/// Every position of `TUNE_IN`'s games from the fourth stone on where neither side has a
/// five to make (those moves are forced), split one game in five to the test set.
fn choices() -> (Vec<Choice>, Vec<Choice>) {
    let mut sets = Sets::default();
    for (game, line) in game_lines().iter().enumerate() {
        let moves = game_moves(line);
        let mut pos = Position::new(15, Rule::Freestyle);
        for (i, &sq) in moves.iter().enumerate() {
            if asks_a_choice(&pos, i) {
                sets.add(game, &pos, sq);
            }
            pos.play(sq);
        }
    }
    (sets.fit, sets.test)
}

/// Whether the position before move `i` is one the policy is fitted on: from the fourth
/// stone on, and no five to make or to stop (those moves are forced).
fn asks_a_choice(pos: &Position, i: usize) -> bool {
    let me = pos.side();
    i >= 3 && pos.count_at_least(me, C_FIVE) == 0 && pos.count_at_least(1 - me, C_FIVE) == 0
}

/// Choices to fit and to test: one game in five is held out.
#[derive(Default)]
struct Sets {
    fit: Vec<Choice>,
    test: Vec<Choice>,
}

impl Sets {
    /// Adds the position with the move chosen in it (left out if the move is not one of
    /// the candidates).
    fn add(&mut self, game: usize, pos: &Position, chosen: Sq) {
        let all = candidates(pos);
        let Some(played) = all.iter().position(|&(q, _)| q == chosen) else {
            return;
        };
        let choice = Choice {
            candidates: all.into_iter().map(|(_, c)| c).collect(),
            played,
        };
        if game % 5 == 4 {
            self.test.push(choice);
        } else {
            self.fit.push(choice);
        }
    }
}

fn logit(t: &[f64], c: &Candidate) -> f64 {
    c.keys.iter().map(|&k| t[k as usize]).sum()
}

/// Cross-entropy of the softmax of `score` over a choice's candidates.
fn cross_entropy(choice: &Choice, score: impl Fn(&Candidate) -> f64) -> f64 {
    let s: Vec<f64> = choice.candidates.iter().map(score).collect();
    let max = s.iter().copied().fold(f64::MIN, f64::max);
    let z: f64 = s.iter().map(|x| (x - max).exp()).sum();
    -(s[choice.played] - max - z.ln())
}

/// How many candidates score above the played one (0: it is first).
fn rank(choice: &Choice, score: impl Fn(&Candidate) -> f64) -> usize {
    let mine = score(&choice.candidates[choice.played]);
    choice.candidates.iter().filter(|c| score(c) > mine).count()
}

/// The share of choices whose played move is among the first 1, 3, 5, 8 and 14.
fn coverage(set: &[Choice], score: impl Fn(&Candidate) -> f64) -> String {
    let ranks: Vec<usize> = set.iter().map(|c| rank(c, &score)).collect();
    [1, 3, 5, 8, 14]
        .iter()
        .map(|&k| {
            let n = ranks.iter().filter(|&&r| r < k).count();
            format!("top{k} {:.1}%", 100.0 * n as f64 / set.len() as f64)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fits the policy on four in five of `TUNE_IN`'s games, prints how often today's order
/// and the policy put the played move first (and among the first few) on the fifth, and
/// writes the table to `TUNE_POLICY_OUT` as "key logit" lines (keys below 14,641 the side
/// to move's multisets, then the opponent's, then the 49 pairs of classes).
#[test]
#[ignore = "an experiment tool: fits a move policy to TUNE_IN's games"]
fn tune_policy() {
    let (fit, test) = labelled().unwrap_or_else(choices);
    let today = |c: &Candidate| f64::from(c.today);
    // Today's order as a softmax at its best temperature, for a fair cross-entropy.
    let mut temp = 30.0;
    for _ in 0..40 {
        let ce = |t: f64| {
            test.iter()
                .map(|c| cross_entropy(c, |x| today(x) / t))
                .sum::<f64>()
        };
        temp *= if ce(temp * 0.9) < ce(temp * 1.1) {
            0.95
        } else {
            1.05
        };
    }
    let mean_ce = |set: &[Choice], f: &dyn Fn(&Candidate) -> f64| {
        set.iter().map(|c| cross_entropy(c, f)).sum::<f64>() / set.len() as f64
    };
    println!(
        "{} positions to fit, {} to test; today's order (temperature {temp:.0}): loss {:.4}, {}",
        fit.len(),
        test.len(),
        mean_ce(&test, &|c| today(c) / temp),
        coverage(&test, today)
    );
    let mut t = vec![0.0f64; PARAMS];
    let mut seen = vec![0u32; PARAMS];
    for choice in &fit {
        for c in &choice.candidates {
            for &k in &c.keys {
                seen[k as usize] += 1;
            }
        }
    }
    let steps = var("TUNE_STEPS", 200);
    let rate = var("TUNE_RATE_PERMILLE", 50) as f64 / 1000.0;
    let pull = var("TUNE_PULL_PPM", 100) as f64 / 1e6;
    let mut adam = Adam::new(PARAMS);
    for step in 1..=steps {
        let mut grad = vec![0.0; PARAMS];
        for choice in &fit {
            let s: Vec<f64> = choice.candidates.iter().map(|c| logit(&t, c)).collect();
            let max = s.iter().copied().fold(f64::MIN, f64::max);
            let z: f64 = s.iter().map(|x| (x - max).exp()).sum();
            for (i, c) in choice.candidates.iter().enumerate() {
                let p = (s[i] - max).exp() / z;
                let g = p - if i == choice.played { 1.0 } else { 0.0 };
                for &k in &c.keys {
                    grad[k as usize] += g;
                }
            }
        }
        for (i, g) in grad.iter_mut().enumerate() {
            *g = *g / fit.len() as f64 + pull * t[i];
        }
        adam.step(&mut t, &grad, |i| seen[i] > 0, |_| rate);
        if step % 50 == 0 {
            println!(
                "step {step}: loss {:.4} (test {:.4}), test {}",
                mean_ce(&fit, &|c| logit(&t, c)),
                mean_ce(&test, &|c| logit(&t, c)),
                coverage(&test, |c| logit(&t, c))
            );
        }
    }
    let out = std::env::var("TUNE_POLICY_OUT").unwrap_or_else(|_| "/tmp/tune-policy.txt".into());
    let mut file = std::fs::File::create(&out).expect("create TUNE_POLICY_OUT");
    for i in (0..PARAMS).filter(|&i| seen[i] > 0) {
        writeln!(file, "{i} {:.4}", t[i]).expect("write");
    }
    println!(
        "{} keys written to {out}",
        seen.iter().filter(|&&s| s > 0).count()
    );
}
