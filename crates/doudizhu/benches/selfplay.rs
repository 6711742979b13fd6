//! Random self-play: whole games from the deal to the score, bidding included, with
//! uniformly random legal actions — the load bots put on the engine when they search by
//! playing games out. Reference on this machine (issue 2): OpenSpiel 2.0.2 ~3,960 games/s,
//! RLCard 1.2.0 ~150–180 games/s; `bench/openspiel/measure.py` measures OpenSpiel again.
//!
//! Run: `cargo bench -p doudizhu --bench selfplay` (pin with `taskset -c 0` for one core).

use doudizhu::{Config, DouDizhu};
use game::{deal, sim, Bot, GameSpec, Rules, Seed, ToAct};

fn main() {
    divan::main();
}

/// One random game, with the generation buffers reused as a searching bot would.
fn random_game(
    config: &Config,
    seed: &Seed,
    legal: &mut Vec<doudizhu::Action>,
    events: &mut Vec<doudizhu::Event>,
) -> i64 {
    let mut rng = seed.derive(1).rng();
    let Ok(mut state) = DouDizhu::start(config, 3, seed) else {
        return 0;
    };
    while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
        legal.clear();
        DouDizhu::legal_into(&state, seat, legal);
        let action = legal[deal::below(&mut rng, legal.len())];
        events.clear();
        if DouDizhu::apply(&mut state, seat, action, events).is_err() {
            return 0;
        }
    }
    DouDizhu::outcome(&state).map_or(0, |o| o.scores[0])
}

/// Games per second: divan reports time per game; 1 / that is the rate.
#[divan::bench(sample_count = 30, sample_size = 200)]
fn random_game_deal_to_score(bencher: divan::Bencher) {
    let mut i = 0u64;
    let mut legal = Vec::with_capacity(512);
    let mut events = Vec::with_capacity(8);
    let base = Seed::from_u64(2026);
    let config = Config::default();
    bencher.bench_local(|| {
        i += 1;
        random_game(&config, &base.derive(i), &mut legal, &mut events)
    });
}

/// The same with 超级加倍 and 明牌 on: four more decisions a game, and the price of the
/// options' phases beside the default game's.
#[divan::bench(sample_count = 30, sample_size = 200)]
fn random_game_with_doubling_and_showing(bencher: divan::Bencher) {
    let mut i = 0u64;
    let mut legal = Vec::with_capacity(512);
    let mut events = Vec::with_capacity(8);
    let base = Seed::from_u64(2026);
    let config = Config {
        doubling: doudizhu::Doubling::Super,
        show_cards: true,
        ..Config::default()
    };
    bencher.bench_local(|| {
        i += 1;
        random_game(&config, &base.derive(i), &mut legal, &mut events)
    });
}

/// A whole game between three `heuristic` bots, bidding included: what a bot's decisions
/// cost over a game (about 55 decisions).
#[divan::bench(sample_count = 20, sample_size = 20)]
fn heuristic_game_deal_to_score(bencher: divan::Bencher) {
    let mut i = 0u64;
    let base = Seed::from_u64(7);
    bencher.bench_local(|| {
        i += 1;
        let seed = base.derive(i);
        let mut bots: Vec<Box<dyn Bot<DouDizhu>>> = (0..3)
            .filter_map(|s| DouDizhu::bot("heuristic", &seed.derive(s)))
            .collect();
        sim::play_out::<DouDizhu>(&Config::default(), &seed, &mut bots).map_or(0, |r| r.2)
    });
}
