//! The `search` bot: stronger than the heuristic it plays worlds out with, in short
//! deterministic series (the same deals for both, seat 0 the fixed landlord); worlds that
//! agree with the view; decisions from the view alone that reproduce; cooperation kept;
//! won endgames kept where the heuristic lets them go.
//! The long measurements are ignored tests (run with `--ignored`) and docs/bots.md.

use cards::RankCounts;
use doudizhu::endgame::{Open, Solver};
use doudizhu::{Action, Config, CustomDeal, DouDizhu, Play, State};
use game::search::Determinize;
use game::sim::{run, SimOptions};
use game::{Decision, GameSpec, Rules, Seat, Seed, Viewer};
use serde_json::json;

/// Seat 0's (the landlord's) win rate over `games` deals with the bots in seat order.
fn landlord_rate(bots: [&str; 3], games: u64, seed: u64) -> f64 {
    let opts = SimOptions::seated(json!({"landlord": 0}), &bots, games, seed);
    let report = run::<DouDizhu>(&opts).expect("self-play runs");
    report
        .bots
        .iter()
        .find_map(|b| b.roles.get("landlord"))
        .expect("a landlord")
        .win_rate
}

#[test]
fn search_landlord_beats_heuristic_peasants_more_often_than_the_heuristic_does() {
    let heuristic = landlord_rate(["heuristic", "heuristic", "heuristic"], 200, 7);
    let search = landlord_rate(["search:fast", "heuristic", "heuristic"], 200, 7);
    // Measured: 0.545 and 0.62 on these deals. A bot playing at random wins almost none.
    assert!(
        search >= heuristic + 0.05 && search >= 0.58,
        "search landlord {search}, heuristic landlord {heuristic} on the same deals"
    );
}

#[test]
fn search_peasants_beat_a_heuristic_landlord_more_often_than_the_heuristic_does() {
    let heuristic = landlord_rate(["heuristic", "heuristic", "heuristic"], 200, 8);
    let search = landlord_rate(["heuristic", "search:fast", "search:fast"], 200, 8);
    // Measured: 0.47 and 0.335 on these deals (0.41 before the peasants drew inferences
    // from the landlord's plays and passes).
    assert!(
        search <= heuristic - 0.08 && search <= 0.40,
        "heuristic landlord {search} against search peasants, {heuristic} against heuristic ones"
    );
}

#[test]
fn search_landlord_beats_random_peasants() {
    // Measured: 0.98 (the heuristic: 0.94 over 2,000 deals; a random landlord about half).
    let rate = landlord_rate(["search:fast", "random", "random"], 100, 9);
    assert!(
        rate >= 0.94,
        "search landlord won {rate} against random peasants"
    );
}

/// Positions of heuristic self-play with at most 24 cards left where the seat to act can
/// win against any defence (every hand open) but the heuristic's own choice lets the win
/// go: how often `search:fast`, from the seat's view alone, keeps the win. Returns the
/// share and the number of such positions.
fn won_endgames_kept(games: u64) -> (f64, usize) {
    let mut solver = Solver::default();
    let (mut kept, mut positions) = (0, 0);
    let wins_for = |solver: &mut Solver, state: &State, seat: Seat| {
        Open::of(state).map_or(
            DouDizhu::outcome(state).is_some_and(|o| o.won[seat]),
            |open| solver.landlord_wins(&open, u64::MAX) == Some(open.landlord == seat),
        )
    };
    for g in 0..games {
        let seed = Seed::from_u64(500).derive(g);
        let mut state = DouDizhu::start(&Config::default(), 3, &seed).expect("a deal");
        let mut heuristic = DouDizhu::bot("heuristic", &seed).expect("heuristic");
        while let game::ToAct::Seat(seat) = DouDizhu::to_act(&state) {
            let legal = DouDizhu::legal(&state, seat);
            let choice = heuristic.act(&Decision::from_state(&state, seat, &legal));
            let after = |a: Action| {
                let mut s = state.clone();
                DouDizhu::apply(&mut s, seat, a, &mut Vec::new()).expect("legal");
                s
            };
            let small = Open::of(&state).is_some_and(|o| o.cards_left() <= 24);
            if small
                && wins_for(&mut solver, &state, seat)
                && !wins_for(&mut solver, &after(choice), seat)
            {
                positions += 1;
                let searched = search_choice(&state, "search:fast");
                if wins_for(&mut solver, &after(searched), seat) {
                    kept += 1;
                }
            }
            DouDizhu::apply(&mut state, seat, choice, &mut Vec::new()).expect("legal");
        }
    }
    (f64::from(kept) / positions.max(1) as f64, positions)
}

#[test]
fn search_keeps_won_endgames_that_the_heuristic_lets_go() {
    // Measured: 128 positions in 1,000 games; search:fast keeps 75% of the wins (96),
    // 63% (81) when its worlds are only played out, never solved. The heuristic keeps none
    // by construction.
    let (kept, positions) = won_endgames_kept(1_000);
    assert!(positions >= 100, "{positions} positions");
    assert!(
        kept >= 0.70,
        "search kept {kept} of {positions} won endgames the heuristic let go"
    );
}

#[test]
#[ignore = "2,000 deals a side at the default setting: minutes; run with --release --ignored"]
fn search_reaches_the_issue_target_at_the_default_setting() {
    let landlord = landlord_rate(["search", "heuristic", "heuristic"], 2_000, 11);
    let peasants = 1.0 - landlord_rate(["heuristic", "search", "search"], 2_000, 12);
    let mean = (landlord + peasants) / 2.0;
    assert!(mean >= 0.65, "landlord {landlord}, peasants {peasants}");
}

#[test]
#[ignore = "4,000 deals at the default setting: about 20 minutes on one core; run with --release --ignored"]
fn search_wins_99_percent_as_landlord_against_random_peasants() {
    // The deals of `qipai sim doudizhu --bots search,random,random --set landlord=0
    // --no-rotate` with seeds 22 (1,000 deals) and 23 (3,000); the run of docs/bots.md
    // ("Dou Dizhu against `random`") covers these deals and 6,000 more.
    let won = landlord_rate(["search", "random", "random"], 1_000, 22) * 1_000.0
        + landlord_rate(["search", "random", "random"], 3_000, 23) * 3_000.0;
    assert!(won >= 3_960.0, "won {won} of 4,000 deals");
}

fn cards(s: &str) -> RankCounts {
    s.parse().expect("rank notation")
}

/// A game with hand-picked hands, seat 0 the landlord, after `actions`.
fn position(hands: [&str; 3], actions: &[(Seat, Action)]) -> State {
    let config = Config {
        landlord: Some(0),
        deal: Some(CustomDeal {
            hands: hands.map(cards),
            kitty: RankCounts::EMPTY,
        }),
        ..Config::default()
    };
    let mut state = DouDizhu::start(&config, 3, &Seed::from_u64(1)).expect("a deal");
    for (seat, a) in actions {
        DouDizhu::apply(&mut state, *seat, *a, &mut Vec::new()).expect("a legal action");
    }
    state
}

fn play(s: &str) -> Action {
    Action::Play(s.parse::<Play>().expect("a play"))
}

/// The search bot's choice for the seat to act, from its view only.
fn search_choice(state: &State, name: &str) -> Action {
    let seat = match DouDizhu::to_act(state) {
        game::ToAct::Seat(s) => s,
        other => panic!("no single seat to act: {other:?}"),
    };
    let legal = DouDizhu::legal(state, seat);
    let view = DouDizhu::view(state, Viewer::Seat(seat));
    let mut bot = DouDizhu::bot(name, &Seed::from_u64(3)).expect("a search bot");
    bot.act(&Decision::from_view(&view, seat, &legal))
}

#[test]
fn a_peasant_stops_a_landlord_with_one_card() {
    // The landlord leads a 5 with one card left; seat 1 holds a 7 among low cards.
    let state = position(
        ["5 9", "3 4 6 7 8 T J", "3 4 6 8 9 T J Q"],
        &[(0, play("5"))],
    );
    let choice = search_choice(&state, "search:fast");
    assert!(matches!(choice, Action::Play(_)), "passed: {choice:?}");
}

#[test]
fn a_peasant_lets_its_partners_play_stand_once_the_landlord_passed() {
    // Seat 2 wins a round, leads a pair, the landlord passes: seat 1 could beat it with
    // 9 9 but lets it stand.
    let state = position(
        ["3 6 8 J Q K A 2 2", "6 7 9 9 Q K", "4 4 5 7 8 T"],
        &[
            (0, play("3")),
            (1, Action::Pass),
            (2, play("5")),
            (0, Action::Pass),
            (1, Action::Pass),
            (2, play("4 4")),
            (0, Action::Pass),
        ],
    );
    assert_eq!(search_choice(&state, "search:fast"), Action::Pass);
}

#[test]
fn the_same_view_gives_the_same_move_and_the_state_is_never_needed() {
    let mut seen = 0;
    for i in 0..20u64 {
        let seed = Seed::from_u64(100).derive(i);
        let mut state = DouDizhu::start(&Config::default(), 3, &seed).expect("a deal");
        let mut heuristic = DouDizhu::bot("heuristic", &seed).expect("heuristic");
        for step in 0..(i as usize % 17 + 4) {
            let game::ToAct::Seat(seat) = DouDizhu::to_act(&state) else {
                break;
            };
            let legal = DouDizhu::legal(&state, seat);
            if step >= 3 {
                let view = DouDizhu::view(&state, Viewer::Seat(seat));
                let mut a = DouDizhu::bot("search:6", &seed).expect("search");
                let mut b = DouDizhu::bot("search:6", &seed).expect("search");
                let from_state = a.act(&Decision::from_state(&state, seat, &legal));
                let from_view = b.act(&Decision::from_view(&view, seat, &legal));
                assert_eq!(from_state, from_view, "deal {i}, step {step}");
                seen += 1;
            }
            let action = heuristic.act(&Decision::from_state(&state, seat, &legal));
            DouDizhu::apply(&mut state, seat, action, &mut Vec::new()).expect("legal");
        }
    }
    assert!(seen >= 20);
}

#[test]
fn worlds_agree_with_the_view() {
    for i in 0..40u64 {
        let seed = Seed::from_u64(200).derive(i);
        let mut state = DouDizhu::start(&Config::default(), 3, &seed).expect("a deal");
        let mut heuristic = DouDizhu::bot("heuristic", &seed).expect("heuristic");
        let mut rng = seed.rng();
        for _ in 0..(i as usize % 30) {
            let game::ToAct::Seat(seat) = DouDizhu::to_act(&state) else {
                break;
            };
            let view = DouDizhu::view(&state, Viewer::Seat(seat));
            let world = DouDizhu::determinize(&view, seat, &mut rng).expect("a world");
            let seen_from_world = DouDizhu::view(&world, Viewer::Seat(seat));
            assert_eq!(seen_from_world.hand, view.hand);
            assert_eq!(seen_from_world.hand_sizes, view.hand_sizes);
            assert_eq!(seen_from_world.history, view.history);
            assert_eq!(seen_from_world.kitty, view.kitty);
            assert_eq!(DouDizhu::legal(&world, seat), DouDizhu::legal(&state, seat));
            if let Some(l) = view.landlord.filter(|&l| l != seat) {
                let kitty = view.kitty.expect("the kitty is shown");
                let held_or_played = world.hand(l).plus(view.played_by(l));
                assert!(held_or_played.contains(kitty), "the landlord's kitty");
            }
            let legal = DouDizhu::legal(&state, seat);
            let action = heuristic.act(&Decision::from_state(&state, seat, &legal));
            DouDizhu::apply(&mut state, seat, action, &mut Vec::new()).expect("legal");
        }
    }
}
