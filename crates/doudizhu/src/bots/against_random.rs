//! What a landlord can win against random peasants, and how far the `search` bot's
//! choices are from it: the measures behind the target "`search` wins 99% as landlord
//! against `random`". Both are `#[ignore]`d measurements of minutes (docs/bots.md,
//! "Dou Dizhu against `random`" and "Regret: measuring decisions instead of deals").
//!
//! The reference is a landlord that sees every card and knows the peasants play at random:
//! it plays each candidate out many times from the true state, itself by the heuristic
//! and the peasants at random, and the most wins is its choice. No real player can do
//! better than this, so its losses are deals that the peasants' luck decides.

use super::search::plays_worth_trying;
use super::HeuristicBot;
use crate::rules::{Action, DouDizhu, Phase, State};
use game::search::{Budget, SearchBot};
use game::sim::play_to_end;
use game::{Bot, Decision, RandomBot, Rules, Seed, ToAct, Viewer};

/// A number from the environment variable `key`, or `default`.
fn number(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The deals of `qipai sim doudizhu --seed <run> --set landlord=0`: deal `deal` of run
/// `run`, the landlord in seat 0.
fn deal_of(run: u64, deal: u64) -> State {
    let config = crate::Config {
        landlord: Some(0),
        ..Default::default()
    };
    match DouDizhu::start(&config, 3, &Seed::from_u64(run).derive(deal)) {
        Ok(state) => state,
        Err(e) => panic!("deal {deal} of run {run} starts: {e}"),
    }
}

/// A peasant of the bot named `name` (any name [`super::by_name`] knows).
fn peasant(name: &str, seed: &Seed) -> Box<dyn Bot<DouDizhu>> {
    super::by_name(name, seed).unwrap_or_else(|| panic!("no bot named {name}"))
}

/// The chance that the landlord (seat 0) wins after playing `candidate` in `state`, over
/// `samples` play-outs, itself by the heuristic and the peasants by the bot named
/// `peasants`. Play-out `k` draws from `seed.derive(k)` whatever the candidate, so
/// candidates are compared on the same luck.
fn oracle(state: &State, candidate: Action, samples: u64, seed: &Seed, peasants: &str) -> f64 {
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let wins = (0..samples)
        .filter(|&k| {
            let luck = seed.derive(k);
            let mut players: Vec<Box<dyn Bot<DouDizhu>>> = vec![
                Box::new(HeuristicBot::new(&luck)),
                peasant(peasants, &luck.derive(1)),
                peasant(peasants, &luck.derive(2)),
            ];
            let mut world = state.clone();
            DouDizhu::apply(&mut world, 0, candidate, &mut events).is_ok()
                && play_to_end(&mut world, &mut players, &mut legal, &mut events).is_ok()
                && world.result.map(|r| r.winner) == Some(0)
        })
        .count();
    wins as f64 / samples as f64
}

/// The all-seeing landlord (the module docs) playing whole deals: each candidate (the
/// search's own, up to 24) is played out `samples` times from the true state. The deals
/// are those of `qipai sim doudizhu --seed 22 --set landlord=0 --no-rotate`
/// (`CEILING_SEED` picks another run's seed), the peasants seeded as that run seeds them.
/// `CEILING_DEALS` and `CEILING_SAMPLES` set the size (1,000 and 200 by default: about
/// four minutes on one core); it prints the deals lost.
#[test]
#[ignore = "a measurement of several minutes: see docs/bots.md, Dou Dizhu against random"]
fn a_landlord_that_sees_every_card_still_loses_some_deals_to_random_peasants() {
    let deals = number("CEILING_DEALS", 1_000);
    let samples = number("CEILING_SAMPLES", 200);
    let run = number("CEILING_SEED", 22);
    let mut lost = Vec::new();
    let mut events = Vec::new();
    let mut legal_then = Vec::new();
    for deal in 0..deals {
        let seed = Seed::from_u64(run).derive(deal);
        let mut state = deal_of(run, deal);
        let mut peasants: [Box<dyn Bot<DouDizhu>>; 2] = [
            Box::new(RandomBot::new(&seed.derive(1_001))),
            Box::new(RandomBot::new(&seed.derive(1_002))),
        ];
        let mut players: Vec<Box<dyn Bot<DouDizhu>>> = vec![
            Box::new(HeuristicBot::new(&seed.derive(7))),
            Box::new(RandomBot::new(&seed.derive(8))),
            Box::new(RandomBot::new(&seed.derive(9))),
        ];
        while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
            let view = DouDizhu::view(&state, Viewer::Seat(seat));
            let legal = DouDizhu::legal(&state, seat);
            let action = if seat != 0 {
                peasants[seat - 1].act(&Decision::from_view(&view, seat, &legal))
            } else {
                let mut best = (0, legal[0]);
                for candidate in plays_worth_trying(&view, 0, &legal, 24) {
                    let wins = (0..samples)
                        .filter(|_| {
                            let mut world = state.clone();
                            DouDizhu::apply(&mut world, 0, candidate, &mut events).is_ok()
                                && play_to_end(
                                    &mut world,
                                    &mut players,
                                    &mut legal_then,
                                    &mut events,
                                )
                                .is_ok()
                                && world.result.map(|r| r.winner) == Some(0)
                        })
                        .count();
                    if wins > best.0 {
                        best = (wins, candidate);
                    }
                }
                best.1
            };
            assert!(DouDizhu::apply(&mut state, seat, action, &mut events).is_ok());
        }
        if state.result.map(|r| r.winner) != Some(0) {
            lost.push(deal);
        }
    }
    println!(
        "the all-seeing landlord lost {} of {deals} deals: {lost:?}",
        lost.len()
    );
    // The heuristic landlord, which sees only its own cards, wins 97% of such deals; a
    // landlord that sees them all and still loses more has a fault in its search.
    assert!(
        lost.len() as u64 * 100 <= deals * 2,
        "it lost more than 2% of the deals"
    );
}

/// How much the `search` landlord gives away at its decisions against random peasants,
/// judged by the all-seeing landlord: at every decision of heuristic landlords against
/// random peasants (deals of run `REGRET_SEED`, 41 by default; `REGRET_DEALS` of them,
/// 200 by default), each candidate's chance of winning is estimated from the true state
/// over `REGRET_SAMPLES` play-outs (1,000 by default), and a bot's regret is the best
/// candidate's chance less the chance of the one it chose.
///
/// Summed over a deal's decisions, regret stands for the deals a bot loses that the
/// all-seeing one would win, with far less noise than counting lost deals: every version
/// of the bot meets the same positions and, at each, the same luck. The positions come
/// from the heuristic's games, so they do not change with the bot measured; run it on two
/// builds to compare two versions of `search`, and with another `REGRET_BOT` (the search's
/// seed, 5 by default) to see how much a figure moves by chance. The best chance is the
/// highest of noisy estimates, so every bot's regret carries the same upward bias: only
/// differences mean something. Prints the heuristic's regret and the search's per 1,000
/// deals, the search's by hand size and by leading or following, and its `REGRET_SHOW`
/// worst decisions. `REGRET_PEASANTS=heuristic` measures the same against heuristic
/// peasants instead (their play-outs hardly vary: 50 samples do), which shows what a
/// change tuned against random peasants costs against careful ones.
#[test]
#[ignore = "a measurement of minutes: see docs/bots.md, Regret"]
fn regret_of_the_search_landlord_against_random_peasants() {
    let deals = number("REGRET_DEALS", 200);
    let samples = number("REGRET_SAMPLES", 1_000);
    let run = number("REGRET_SEED", 41);
    let bot = number("REGRET_BOT", 5);
    let peasants = std::env::var("REGRET_PEASANTS").unwrap_or_else(|_| "random".into());
    let mut events = Vec::new();
    let (mut heuristic_regret, mut decisions, mut differ) = (0.0, 0, 0);
    // The search's regret by the landlord's cards (1–5, 6–10, 11–15, 16–20), leading or
    // following.
    let mut search_regret = [[0.0; 2]; 4];
    let mut worst = Vec::new();
    for deal in 0..deals {
        let seed = Seed::from_u64(run).derive(deal);
        let mut state = deal_of(run, deal);
        let mut players: Vec<Box<dyn Bot<DouDizhu>>> = vec![
            Box::new(HeuristicBot::new(&seed.derive(7))),
            peasant(&peasants, &seed.derive(1_001)),
            peasant(&peasants, &seed.derive(1_002)),
        ];
        let mut search = SearchBot::<DouDizhu>::new(Budget::DEFAULT, &seed.derive(bot), 3);
        let mut turn = 0;
        while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
            let view = DouDizhu::view(&state, Viewer::Seat(seat));
            let legal = DouDizhu::legal(&state, seat);
            let decision = Decision::from_view(&view, seat, &legal);
            let action = players[seat].act(&decision);
            let candidates = plays_worth_trying(&view, 0, &legal, 24);
            if seat == 0 && view.phase == Phase::Playing && candidates.len() >= 2 {
                turn += 1;
                let luck = seed.derive(1_000 + turn);
                let chances: Vec<f64> = candidates
                    .iter()
                    .map(|&c| oracle(&state, c, samples, &luck, &peasants))
                    .collect();
                let best = chances.iter().copied().fold(0.0, f64::max);
                let chance_of = |chosen: Action| match candidates.iter().position(|&c| c == chosen)
                {
                    Some(i) => chances[i],
                    None => oracle(&state, chosen, samples, &luck, &peasants),
                };
                let searched = search.act(&decision);
                heuristic_regret += best - chance_of(action);
                let given = best - chance_of(searched);
                let cards = state.hands[0].len().saturating_sub(1) as usize / 5;
                search_regret[cards.min(3)][usize::from(view.last.is_some())] += given;
                decisions += 1;
                differ += usize::from(searched != action);
                let options: Vec<String> = candidates
                    .iter()
                    .zip(&chances)
                    .map(|(c, p)| format!("{c:?} {p:.3}"))
                    .collect();
                worst.push((
                    given,
                    format!(
                        "deal {deal}: landlord {:?}, peasants {:?} {:?}, last {:?}: \
                         search {searched:?}, {given:.3} below the best of {options:?}",
                        state.hands[0], state.hands[1], state.hands[2], view.last
                    ),
                ));
            }
            assert!(DouDizhu::apply(&mut state, seat, action, &mut events).is_ok());
        }
    }
    let per_thousand = |r: f64| (r * 1_000.0 / deals as f64 * 10.0).round() / 10.0;
    let total: f64 = search_regret.iter().flatten().sum();
    println!(
        "{peasants} peasants, {deals} deals of run {run}, {decisions} decisions ({differ} where search and \
         heuristic differ), {samples} play-outs a candidate: regret per 1,000 deals: \
         heuristic {}, search {}; the search's by the landlord's cards \
         (1-5, 6-10, 11-15, 16-20) as [leading, following]: {:?}",
        per_thousand(heuristic_regret),
        per_thousand(total),
        search_regret.map(|r| r.map(per_thousand)),
    );
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, line) in worst.iter().take(number("REGRET_SHOW", 0) as usize) {
        println!("{line}");
    }
    // The search plays the heuristic's plays out and should not give away more than it.
    assert!(
        total <= heuristic_regret,
        "the search gives away more than the heuristic"
    );
}
