//! The `search` bot: its side wins more often than the heuristic's in the same seat, in a
//! short deterministic series (the same deals, four heuristic players around it), and its
//! moves come from the view alone and reproduce. The long measurement is an ignored test
//! and docs/bots.md.

use doudizhu5::DouDizhu5;
use game::sim::{run, SimOptions};
use game::{Decision, GameSpec, Rules, Seed, ToAct, Viewer};

/// Seat 0's team win rate, with `bot` there and the heuristic in the other four seats.
/// With the heuristic in every seat, all seats' rate is seat 0's by symmetry of the deal.
fn seat0_rate(bot: &str, games: u64, seed: u64) -> f64 {
    let bots = [bot, "heuristic", "heuristic", "heuristic", "heuristic"];
    let opts = SimOptions::seated(serde_json::Value::Null, &bots, games, seed);
    let report = run::<DouDizhu5>(&opts).expect("self-play runs");
    report.bots[0].overall.win_rate
}

#[test]
fn search_wins_more_often_than_the_heuristic_in_the_same_seat() {
    let heuristic = seat0_rate("heuristic", 300, 9);
    let search = seat0_rate("search:40", 300, 9);
    // Measured on these deals: 0.481 for the heuristic, 0.523 for search:40 (40 worlds a
    // candidate). The gain is modest (see docs/bots.md); a bot playing at random wins
    // 0.333.
    assert!(
        search >= heuristic + 0.025,
        "search {search}, heuristic {heuristic}"
    );
}

#[test]
#[ignore = "1,000 deals at the default setting: minutes; run with --release --ignored"]
fn search_wins_clearly_more_often_at_the_default_setting() {
    let heuristic = seat0_rate("heuristic", 1_000, 10);
    let search = seat0_rate("search", 1_000, 10);
    assert!(
        search >= heuristic + 0.05,
        "search {search}, heuristic {heuristic}"
    );
}

#[test]
fn the_same_view_gives_the_same_move_and_the_state_is_never_needed() {
    let mut asked = 0;
    for i in 0..6u64 {
        let seed = Seed::from_u64(90).derive(i);
        let mut state = DouDizhu5::start(&Default::default(), 5, &seed).expect("a deal");
        let mut heuristic = DouDizhu5::bot("heuristic", &seed).expect("heuristic");
        for step in 0..200 {
            let seat = match DouDizhu5::to_act(&state) {
                ToAct::Finished => break,
                ToAct::Seat(s) => s,
                ToAct::Seats(set) => set.iter().next().expect("a seat"),
            };
            let legal = DouDizhu5::legal(&state, seat);
            if step % 25 == 10 {
                let view = DouDizhu5::view(&state, Viewer::Seat(seat));
                let mut a = DouDizhu5::bot("search:3", &seed).expect("search");
                let mut b = DouDizhu5::bot("search:3", &seed).expect("search");
                let from_state = a.act(&Decision::from_state(&state, seat, &legal));
                let from_view = b.act(&Decision::from_view(&view, seat, &legal));
                assert_eq!(from_state, from_view, "deal {i}, step {step}");
                assert!(legal.contains(&DouDizhu5::listed(&from_view)));
                asked += 1;
            }
            let action = heuristic.act(&Decision::from_state(&state, seat, &legal));
            DouDizhu5::apply(&mut state, seat, action, &mut Vec::new()).expect("legal");
        }
    }
    assert!(asked >= 10, "asked {asked}");
}
