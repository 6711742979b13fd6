//! Fitting the evaluation's weights to game results (Texel's method): an experiment tool,
//! run by hand as ignored tests.
//!
//! [`Position::evaluate`] is linear in what the empty points offer each side: per colour,
//! how many line patterns of each kind (over the four lines of every empty point) and how
//! many points of each threat combination. So the chance that the side to move wins can be
//! modelled as the logistic of the evaluation over a scale `K`, and the weights fitted to
//! the results of many self-play games by logistic regression. The scale is fitted first
//! with today's weights and then held, so fitted weights come out in the same units as
//! today's (an open three about 70).
//!
//! What it found (docs/bots.md, "Gomoku: the gap to Rapfi"): fitted
//! weights predict the winner far better than today's, yet play no better against Rapfi,
//! so they were not kept. The tool stays for the next attempt at the evaluation.

use super::pattern::{C_B4F3, C_FIVE};
use super::position::{Position, COMBO_BONUS, VALUE};
use crate::board::Rule;
use crate::rules::{Config, Gomoku};
use game::{Decision, Rules, Seed, ToAct, Viewer};
use std::io::Write;

/// Line patterns (11 kinds) then combinations (7 kinds), for the side to move and then for
/// the other side.
const PATTERNS: usize = 11;
const COMBOS: usize = 7;
const PER_SIDE: usize = PATTERNS + COMBOS;
const FEATURES: usize = 2 * PER_SIDE;

/// What the position's empty points offer each side, from the side to move.
fn features(pos: &Position) -> [f64; FEATURES] {
    let me = pos.side();
    let mut f = [0.0; FEATURES];
    for sq in 0..pos.cells() {
        if !pos.is_empty(sq) {
            continue;
        }
        for (role, c) in [(0, me), (1, 1 - me)] {
            let base = role * PER_SIDE;
            for p in pos.patterns(sq, c) {
                f[base + usize::from(p)] += 1.0;
            }
            f[base + PATTERNS + usize::from(pos.combo(sq, c))] += 1.0;
        }
    }
    f
}

/// Today's weights in the features' order ([`VALUE`], [`COMBO_BONUS`] and
/// [`Position::evaluate`]): the side to move's worth counts five fourths.
fn todays_weights() -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    for (role, sign) in [(0, 1.25), (1, -1.0)] {
        for p in 0..PATTERNS {
            w[role * PER_SIDE + p] = sign * f64::from(VALUE[p]);
        }
        for c in 0..COMBOS {
            w[role * PER_SIDE + PATTERNS + c] = sign * f64::from(COMBO_BONUS[c]);
        }
    }
    w
}

fn dot(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

pub(super) fn var(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Plays `TUNE_GAMES` games (200) of `engine:L<TUNE_LEVEL>` (6) against itself from random
/// three-stone openings, freestyle, on two threads, and appends each to `TUNE_OUT` as one
/// line as soon as it ends: the result for black (1, 0.5, 0) and the moves as squares.
/// Games are node-bounded, so a run replays exactly; a stopped run keeps what it wrote.
#[test]
#[ignore = "an experiment tool: writes self-play games for the fit"]
fn tune_generate() {
    let games = var("TUNE_GAMES", 200);
    let level = var("TUNE_LEVEL", 6);
    let seed = var("TUNE_SEED", 1);
    let out = std::env::var("TUNE_OUT").unwrap_or_else(|_| "/tmp/tune-games.txt".into());
    let name = format!("engine:L{level}");
    let file = std::sync::Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&out)
            .expect("open TUNE_OUT"),
    );
    std::thread::scope(|scope| {
        for t in 0..2u64 {
            let (name, file) = (&name, &file);
            scope.spawn(move || {
                for g in (0..games).filter(|g| g % 2 == t) {
                    let line = self_play(name, &Seed::from_u64(seed).derive(g));
                    let mut file = file.lock().expect("one writer at a time");
                    writeln!(file, "{line}").expect("write");
                }
            });
        }
    });
    println!("{games} games appended to {out}");
}

/// One self-play game: "result move move …" (squares of a 15-line board).
fn self_play(name: &str, seed: &Seed) -> String {
    let config = Config {
        opening: 3,
        ..Config::default()
    };
    let mut state = Gomoku::start(&config, 2, seed).expect("start");
    let mut bots = [
        crate::bots::make(name, &seed.derive(1)).expect("bot"),
        crate::bots::make(name, &seed.derive(2)).expect("bot"),
    ];
    let mut events = Vec::new();
    while let ToAct::Seat(s) = Gomoku::to_act(&state) {
        let view = Gomoku::view(&state, Viewer::Seat(s));
        let legal = Gomoku::legal(&state, s);
        let action = bots[s].act(&Decision::from_view(&view, s, &legal));
        Gomoku::apply(&mut state, s, action, &mut events).expect("legal");
    }
    let view = Gomoku::view(&state, Viewer::Spectator);
    let result = match view.end.and_then(|e| e.winner) {
        Some(crate::Color::Black) => "1",
        Some(crate::Color::White) => "0",
        None => "0.5",
    };
    let moves: Vec<String> = view
        .moves
        .iter()
        .map(|p| (usize::from(p.y) * 15 + usize::from(p.x)).to_string())
        .collect();
    format!("{result} {}", moves.join(" "))
}

/// Calls `each` with every position of the games in `TUNE_IN` (one or more files, comma
/// separated; lines sorted, so the order they were written in does not matter) where the
/// evaluation decides: from the seventh stone on, no five to make or to stop and no
/// four-three for the side to move. `each` gets the position and the result for the side
/// to move.
fn quiet_positions(mut each: impl FnMut(&Position, f64, usize)) {
    for (game, line) in game_lines().iter().enumerate() {
        let mut parts = line.split_whitespace();
        let black: f64 = parts.next().and_then(|r| r.parse().ok()).expect("result");
        let mut pos = Position::new(15, Rule::Freestyle);
        for (i, sq) in parts
            .map(|m| m.parse::<usize>().expect("square"))
            .enumerate()
        {
            let me = pos.side();
            let quiet = pos.count_at_least(me, C_FIVE) == 0
                && pos.count_at_least(1 - me, C_FIVE) == 0
                && pos.count_at_least(me, C_B4F3) == 0;
            if i >= 6 && quiet {
                each(&pos, if me == 0 { black } else { 1.0 - black }, game);
            }
            if sq >= pos.cells() || !pos.is_empty(sq) {
                break;
            }
            pos.play(sq);
        }
    }
}

/// The game lines of `TUNE_IN` (one or more files, comma separated), sorted, so the order
/// they were written in does not matter.
pub(super) fn game_lines() -> Vec<String> {
    let paths = std::env::var("TUNE_IN").unwrap_or_else(|_| "/tmp/tune-games.txt".into());
    let mut lines = Vec::new();
    for path in paths.split(',') {
        let text = std::fs::read_to_string(path).expect("read TUNE_IN");
        lines.extend(text.lines().map(str::to_owned));
    }
    lines.sort();
    lines
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The log loss of predicting a win with chance `sigmoid(eval / k)` for result `y`.
fn log_loss(eval: f64, k: f64, y: f64) -> f64 {
    let p = sigmoid(eval / k).clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Adam's moments, per parameter.
pub(super) struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    pub(super) fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
        }
    }

    /// One step on the parameters `which` picks: parameter `i` moves by about `size(i)`
    /// at most, against its gradient.
    pub(super) fn step(
        &mut self,
        theta: &mut [f64],
        grad: &[f64],
        which: impl Fn(usize) -> bool,
        size: impl Fn(usize) -> f64,
    ) {
        self.steps += 1;
        let (b1, b2) = (
            1.0 - 0.9f64.powi(self.steps),
            1.0 - 0.999f64.powi(self.steps),
        );
        for i in (0..theta.len()).filter(|&i| which(i)) {
            self.m[i] = 0.9 * self.m[i] + 0.1 * grad[i];
            self.v[i] = 0.999 * self.v[i] + 0.001 * grad[i] * grad[i];
            theta[i] -= size(i) * (self.m[i] / b1) / ((self.v[i] / b2).sqrt() + 1e-12);
        }
    }
}

/// Fits the scale to today's weights, then every weight (Adam on the log loss, a small
/// pull towards today's), on four in five of the games, and prints the loss on the fifth
/// before and after, and the fitted weights.
#[test]
#[ignore = "an experiment tool: fits the evaluation to TUNE_IN's games"]
fn tune_fit() {
    let (mut data, mut test) = (Vec::new(), Vec::new());
    quiet_positions(|pos, y, game| {
        let set = if game % 5 == 4 { &mut test } else { &mut data };
        set.push((features(pos), y));
    });
    let today = todays_weights();
    let mut theta = today;
    let loss = |set: &[([f64; FEATURES], f64)], t: &[f64; FEATURES], k: f64| -> f64 {
        set.iter()
            .map(|(f, y)| log_loss(dot(t, f), k, *y))
            .sum::<f64>()
            / set.len() as f64
    };
    let mut k = 100.0;
    for _ in 0..60 {
        let (a, b) = (loss(&data, &theta, k * 0.9), loss(&data, &theta, k * 1.1));
        k *= if a < b { 0.95 } else { 1.05 };
    }
    println!(
        "{} positions to fit, {} to test; scale {k:.1}; today's loss {:.5} (test {:.5})",
        data.len(),
        test.len(),
        loss(&data, &theta, k),
        loss(&test, &theta, k)
    );
    let fixed = |i: usize| {
        let j = i % PER_SIDE;
        j == 0 || j == 10 || j == PATTERNS
    };
    // Each weight moves by at most about `rate` times its scale a step: today's size, or
    // 10 for weights today at 0.
    let scale = |i: usize| {
        if today[i] == 0.0 {
            10.0
        } else {
            today[i].abs()
        }
    };
    let steps = var("TUNE_STEPS", 400);
    let rate = var("TUNE_RATE_PERMILLE", 20) as f64 / 1000.0;
    let pull = var("TUNE_PULL_PPM", 1) as f64 / 1e6;
    let mut adam = Adam::new(FEATURES);
    for step in 1..=steps {
        let mut grad = [0.0; FEATURES];
        for (f, y) in &data {
            let g = (sigmoid(dot(&theta, f) / k) - y) / k;
            for i in 0..FEATURES {
                grad[i] += g * f[i];
            }
        }
        for (i, g) in grad.iter_mut().enumerate() {
            *g = *g / data.len() as f64 + pull * (theta[i] - today[i]);
        }
        adam.step(&mut theta, &grad, |i| !fixed(i), |i| rate * scale(i));
        if step % 100 == 0 {
            println!(
                "step {step}: loss {:.5} (test {:.5})",
                loss(&data, &theta, k),
                loss(&test, &theta, k)
            );
        }
    }
    let weights: Vec<String> = theta.iter().map(|x| format!("{}", x.round())).collect();
    println!("TUNE_WEIGHTS={}", weights.join(","));
}

/// Today's weights read from the positions' features add up to the evaluation.
#[test]
fn features_add_up_to_the_evaluation() {
    let mut pos = Position::new(15, Rule::Freestyle);
    for sq in [112, 113, 97, 128, 98, 127, 126, 82] {
        pos.play(sq);
        let want = f64::from(pos.evaluate());
        let got = dot(&todays_weights(), &features(&pos));
        assert!(
            (want - got).abs() <= 1.0,
            "features {got} against evaluate {want}"
        );
    }
}

/// The index of a point's four line patterns in any order: their sorted base-11 number.
pub(super) fn multiset(mut p: [u8; 4]) -> usize {
    p.sort_unstable();
    p.iter().fold(0, |i, &x| i * 11 + usize::from(x))
}

/// Per position, how many empty points hold each multiset of patterns, per role
/// (`role * 14_641 + multiset`), and the result for the side to move.
type Sparse = (Vec<(u32, f32)>, f64);

fn sparse_positions() -> (Vec<Sparse>, Vec<Sparse>) {
    let (mut data, mut test) = (Vec::new(), Vec::new());
    quiet_positions(|pos, result, game| {
        let me = pos.side();
        let mut counts = std::collections::BTreeMap::new();
        for q in (0..pos.cells()).filter(|&q| pos.is_empty(q)) {
            for (role, c) in [(0u32, me), (1, 1 - me)] {
                let key = role * 14_641 + multiset(pos.patterns(q, c)) as u32;
                *counts.entry(key).or_insert(0.0f32) += 1.0;
            }
        }
        let set = if game % 5 == 4 { &mut test } else { &mut data };
        set.push((counts.into_iter().collect(), result));
    });
    (data, test)
}

/// Fits a worth per multiset of a point's four patterns and role, starting from the
/// additive weights in `TUNE_WEIGHTS` (36 numbers, as `tune_fit` prints them; today's when
/// unset) at the scale `TUNE_SCALE` (as `tune_fit` prints it) and pulled towards them
/// (`TUNE_PULL_PPM`), then writes every multiset seen as
/// "role multiset worth" lines to `TUNE_TABLE_OUT`.
#[test]
#[ignore = "an experiment tool: fits a worth per pattern multiset to TUNE_IN's games"]
fn tune_fit_points() {
    let (data, test) = sparse_positions();
    let w = match std::env::var("TUNE_WEIGHTS") {
        Ok(t) => {
            let v: Vec<f64> = t
                .split(',')
                .map(|x| x.trim().parse().expect("weight"))
                .collect();
            let mut w = [0.0; FEATURES];
            w.copy_from_slice(&v);
            w
        }
        Err(_) => todays_weights(),
    };
    // The additive worth of each multiset, signed as the evaluation counts it.
    let mut base = vec![0.0f64; 2 * 14_641];
    for (key, b) in base.iter_mut().enumerate() {
        let (role, mut i) = (key / 14_641, key % 14_641);
        let mut p = [0u8; 4];
        for slot in p.iter_mut().rev() {
            *slot = (i % 11) as u8;
            i /= 11;
        }
        let r = role * PER_SIDE;
        *b = p.iter().map(|&x| w[r + usize::from(x)]).sum::<f64>()
            + w[r + PATTERNS + usize::from(super::pattern::combo(p))];
    }
    let k = var("TUNE_SCALE", 1252) as f64;
    let eval = |x: &[(u32, f32)], t: &[f64]| -> f64 {
        x.iter()
            .map(|&(key, n)| f64::from(n) * t[key as usize])
            .sum()
    };
    let loss_of = |set: &[Sparse], t: &[f64]| -> f64 {
        set.iter()
            .map(|(x, y)| log_loss(eval(x, t), k, *y))
            .sum::<f64>()
            / set.len() as f64
    };
    println!(
        "{} positions to fit, {} to test; additive loss {:.5} (test {:.5})",
        data.len(),
        test.len(),
        loss_of(&data, &base),
        loss_of(&test, &base)
    );
    let mut t = base.clone();
    let steps = var("TUNE_STEPS", 300);
    let rate = var("TUNE_RATE_TENTHS", 20) as f64 / 10.0;
    let pull = var("TUNE_PULL_PPM", 10) as f64 / 1e6;
    let mut adam = Adam::new(t.len());
    let mut seen = vec![false; t.len()];
    for (x, _) in &data {
        for &(key, _) in x {
            seen[key as usize] = true;
        }
    }
    for step in 1..=steps {
        let mut grad = vec![0.0; t.len()];
        for (x, y) in &data {
            let g = (sigmoid(eval(x, &t) / k) - y) / k;
            for &(key, n) in x {
                grad[key as usize] += g * f64::from(n);
            }
        }
        for (i, g) in grad.iter_mut().enumerate() {
            *g = *g / data.len() as f64 + pull * (t[i] - base[i]);
        }
        adam.step(&mut t, &grad, |i| seen[i], |_| rate);
        if step % 50 == 0 {
            println!(
                "step {step}: loss {:.5} (test {:.5})",
                loss_of(&data, &t),
                loss_of(&test, &t)
            );
        }
    }
    let out = std::env::var("TUNE_TABLE_OUT").unwrap_or_else(|_| "/tmp/tune-table.txt".into());
    let mut file = std::fs::File::create(&out).expect("create TUNE_TABLE_OUT");
    for i in (0..t.len()).filter(|&i| seen[i]) {
        writeln!(file, "{} {} {:.1}", i / 14_641, i % 14_641, t[i]).expect("write");
    }
    println!(
        "{} multisets written to {out}",
        seen.iter().filter(|&&s| s).count()
    );
}
