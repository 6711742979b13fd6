//! Hot paths of Ten and a half: whole self-play games, the bots' decisions, the state
//! machine's steps, views and the judge.

use divan::{black_box, Bencher};
use game::{sim, Bot, GameSpec, Rules, Seed, Viewer};
use tenhalf::bots::{CountingBot, SeedBot};
use tenhalf::{Action, Config, State, TenHalf, View};

fn main() {
    divan::main();
}

fn bots(names: &[&str], seed: &Seed) -> Vec<Box<dyn Bot<TenHalf>>> {
    names
        .iter()
        .enumerate()
        .map(|(s, n)| TenHalf::bot(n, &seed.derive(s as u64)).expect("known bot"))
        .collect()
}

/// One whole game (a shuffle played out over its rounds) per iteration.
#[divan::bench(args = [
    "seed,seed,seed,seed",
    "counting,seed,seed,seed",
    "counting,counting,counting,counting",
    "random,random,random,random",
])]
fn self_play_game(bencher: Bencher, table: &str) {
    let names: Vec<&str> = table.split(',').collect();
    let mut i = 0u64;
    bencher.bench_local(|| {
        i += 1;
        let seed = Seed::from_u64(i);
        let mut bots = bots(&names, &seed);
        black_box(sim::play_out::<TenHalf>(&Config::default(), &seed, &mut bots).is_ok())
    });
}

/// Views at decision points where the player may choose (7½ to 10), from many games.
fn choice_views() -> Vec<View> {
    let mut views = Vec::new();
    for n in 0..200 {
        let mut s = State::new(&Config::default(), 4, &Seed::from_u64(n)).expect("game");
        let mut events = Vec::new();
        while let Some(seat) = s.turn().filter(|_| !s.is_finished()) {
            let hand = *s.hand(seat).expect("seat");
            if !hand.must_hit() {
                views.push(View::of(&s, Viewer::Seat(seat)));
            }
            s.apply(seat, SeedBot::choose(&hand), &mut events)
                .expect("legal");
            events.clear();
        }
    }
    views
}

/// The counting bot's whole decision: unseen cards, rivals, the stand and play-on tables.
#[divan::bench]
fn counting_decision(bencher: Bencher) {
    let views = choice_views();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % views.len();
        black_box(CountingBot::choose(&views[i]))
    });
}

/// The seed policy's decision from a view, for scale.
#[divan::bench]
fn seed_decision(bencher: Bencher) {
    let views = choice_views();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % views.len();
        let hand = tenhalf::Hand::of(&views[i].my_cards()).unwrap_or_default();
        black_box(SeedBot::choose(&hand))
    });
}

/// One hit applied to a fresh game (the clone of the state included).
#[divan::bench]
fn apply_hit(bencher: Bencher) {
    let s = State::new(&Config::default(), 4, &Seed::from_u64(1)).expect("game");
    let seat = s.turn().expect("a seat to act");
    let mut events = Vec::with_capacity(8);
    bencher.bench_local(|| {
        let mut state = s.clone();
        events.clear();
        black_box(TenHalf::apply(&mut state, seat, Action::Hit, &mut events).is_ok())
    });
}

/// A seat's view of a game in progress.
#[divan::bench]
fn view(bencher: Bencher) {
    let s = State::new(&Config::default(), 8, &Seed::from_u64(2)).expect("game");
    bencher.bench_local(|| black_box(View::of(&s, Viewer::Seat(3))));
}

/// The judge's `value` op, parsing included.
#[divan::bench]
fn judge_value(bencher: Bencher) {
    let request = serde_json::json!({"op": "value", "cards": "Ah Ks BJ 3d"});
    bencher.bench_local(|| black_box(TenHalf::judge(&request)));
}

/// 1,000 games through `game::sim::run` on one thread, as `qipai sim` plays them: games/s is
/// 1,000 over the time shown.
#[divan::bench(args = ["seed", "counting", "random"], sample_count = 10)]
fn sim_run_1000_games(bencher: Bencher, bot: &str) {
    let opts = sim::SimOptions {
        config: serde_json::Value::Null,
        bots: vec![bot.to_string(); 4],
        games: 1_000,
        first: 0,
        seed: 1,
        threads: 1,
        rotate: true,
        duplicate: false,
    };
    bencher.bench_local(|| black_box(sim::run::<TenHalf>(&opts).map(|r| r.games)));
}
