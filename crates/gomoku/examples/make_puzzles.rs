//! Generates the VCF puzzle set in `puzzles/vcf.txt` from self-play: positions where the
//! side to move has a victory by continuous fours of at least `MIN_FOURS` fours, and
//! neither side has a four on the board yet. Each line: id|rule|moves|solution|source.
//!
//! Run: `cargo run --release -p gomoku --example make_puzzles > crates/gomoku/puzzles/vcf.txt`

use game::{Bot, Decision, Rules, Seed, ToAct};
use gomoku::engine::position::Position;
use gomoku::engine::threat::ThreatSolver;
use gomoku::notation::format_point;
use gomoku::{bots, Config, Gomoku, Point, Rule, State};

const MIN_FOURS: usize = 3;
const WANT: [(Rule, usize); 2] = [(Rule::Freestyle, 50), (Rule::Renju, 12)];

fn text(points: &[Point]) -> String {
    points
        .iter()
        .map(|&p| format_point(p, 15))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    println!("# VCF puzzles: id|rule|moves (black first)|a winning line (attacker first)|source");
    let mut id = 0;
    for (rule, want) in WANT {
        let mut found = 0;
        let mut game_no = 0u64;
        while found < want && game_no < 2000 {
            game_no += 1;
            let seed = Seed::from_u64(game_no);
            let names = if game_no.is_multiple_of(2) {
                ["engine:L3", "classic"]
            } else {
                ["classic", "engine:L3"]
            };
            let mut players: Vec<Box<dyn Bot<Gomoku>>> = names
                .iter()
                .enumerate()
                .map(|(i, n)| bots::make(n, &seed.derive(i as u64)).expect("bot"))
                .collect();
            let config = Config {
                rule,
                ..Config::default()
            };
            let mut state: State = Gomoku::start(&config, 2, &seed).expect("start");
            let mut solver = ThreatSolver::new(0);
            let mut events = Vec::new();
            while let ToAct::Seat(seat) = Gomoku::to_act(&state) {
                let mut pos = Position::from_moves(15, rule, state.moves()).expect("replay");
                let me = pos.side();
                if pos.five_points(me).1 == 0
                    && pos.five_points(1 - me).1 == 0
                    && state.moves().len() >= 8
                {
                    solver.reset(300_000);
                    if let Some(line) = solver.vcf_line(&mut pos, 30) {
                        let attacker_moves = line.len().div_ceil(2);
                        let pts: Vec<Point> = line.iter().map(|&sq| pos.point(sq)).collect();
                        if attacker_moves > MIN_FOURS && line.len() % 2 == 1 {
                            id += 1;
                            found += 1;
                            println!(
                                "vcf{id:02}|{}|{}|{}|self-play {} (black) vs {} (white), seed {game_no}, before move {}",
                                rule.name(),
                                text(state.moves()),
                                text(&pts),
                                names[0],
                                names[1],
                                state.moves().len() + 1
                            );
                            break;
                        }
                    }
                }
                let legal = Gomoku::legal(&state, seat);
                let action = players[seat].act(&Decision::from_state(&state, seat, &legal));
                events.clear();
                Gomoku::apply(&mut state, seat, action, &mut events).expect("legal");
            }
        }
    }
}
