//! The hot paths of Dou Dizhu: move generation (leading and following), classification, the
//! hints a table sends with every turn, and the endgame solver the search bot calls in its
//! worlds.
//!
//! One iteration runs all 64 seeded inputs (hands, or plays to classify), so that branch
//! predictors cannot learn one hand and divan's throughput column reads directly in hands
//! (or plays) per second. Run with `CARGO_TARGET_DIR=... cargo bench -p doudizhu`.

use cards::{Card, RankCounts};
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use doudizhu::endgame::{Open, Solver};
use doudizhu::movegen::{all_plays, legal_plays};
use doudizhu::{Config, DouDizhu, Play};
use game::deal::{below, shuffle, GameRng};
use game::{GameSpec, Rules, Seed, ToAct, Viewer};

fn main() {
    divan::main();
}

const INPUTS: usize = 64;

fn hand(rng: &mut GameRng, size: usize) -> RankCounts {
    let mut deck: Vec<Card> = Card::all().collect();
    shuffle(&mut deck, rng);
    RankCounts::from_cards(&deck[..size])
}

fn hands(seed: u64, size: usize) -> Vec<RankCounts> {
    let mut rng = Seed::from_u64(seed).rng();
    (0..INPUTS).map(|_| hand(&mut rng, size)).collect()
}

/// Lists every play of each hand in turn, reusing one buffer as bots do.
fn lead(bencher: Bencher, hands: &[RankCounts]) {
    let mut out = Vec::with_capacity(4096);
    bencher.counter(ItemsCount::new(INPUTS)).bench_local(|| {
        let mut plays = 0;
        for &hand in hands {
            out.clear();
            legal_plays(black_box(hand), None, &mut out);
            plays += out.len();
        }
        plays
    });
}

/// The landlord's opening hand (20 cards).
#[divan::bench]
fn legal_leader_20(bencher: Bencher) {
    lead(bencher, &hands(20, 20));
}

/// The hints for the landlord's first lead (20 cards: every play of the hand, the
/// heuristic's first and plays that break a bomb last), as a table orders the legal
/// actions it sends with each turn.
#[divan::bench]
fn hints_landlord_first_lead(bencher: Bencher) {
    let config = Config {
        landlord: Some(0),
        ..Default::default()
    };
    let turns: Vec<_> = (0..INPUTS as u64)
        .map(|i| {
            let state = DouDizhu::start(&config, 3, &Seed::from_u64(i)).expect("deals");
            (
                DouDizhu::view(&state, Viewer::Seat(0)),
                DouDizhu::legal(&state, 0),
            )
        })
        .collect();
    bencher.counter(ItemsCount::new(INPUTS)).bench_local(|| {
        turns
            .iter()
            .map(|(view, legal)| DouDizhu::hints(black_box(view), black_box(legal)).len())
            .sum::<usize>()
    });
}

/// A table's legal actions for the landlord's first lead, as the server sends them with
/// each turn: in hint order, as JSON.
#[divan::bench]
fn table_legal_landlord_first_lead(bencher: Bencher) {
    let entry = game::registry::entry::<DouDizhu>();
    let tables: Vec<_> = (0..INPUTS as u64)
        .map(|i| {
            let setup = game::TableSetup::new(
                "bench",
                serde_json::json!({"landlord": 0}),
                3,
                Seed::from_u64(i),
            );
            entry.new_table(&setup).expect("a table")
        })
        .collect();
    bencher.counter(ItemsCount::new(INPUTS)).bench_local(|| {
        tables
            .iter()
            .map(|t| t.legal(0).map_or(0, |l| l.len()))
            .sum::<usize>()
    });
}

/// A peasant's opening hand (17 cards).
#[divan::bench]
fn legal_leader_17(bencher: Bencher) {
    lead(bencher, &hands(17, 17));
}

/// A 17-card hand answering a play another 20-card hand could lead: the plays that occur
/// in games, rather than a uniform draw from the space (mostly planes no hand can answer).
#[divan::bench]
fn legal_follower(bencher: Bencher) {
    let mut rng = Seed::from_u64(3).rng();
    let mut plays = Vec::new();
    let cases: Vec<(RankCounts, Play)> = (0..INPUTS)
        .map(|_| {
            plays.clear();
            legal_plays(hand(&mut rng, 20), None, &mut plays);
            let last = plays[below(&mut rng, plays.len())];
            (hand(&mut rng, 17), last)
        })
        .collect();
    let mut out = Vec::with_capacity(4096);
    bencher.counter(ItemsCount::new(INPUTS)).bench_local(|| {
        let mut plays = 0;
        for &(hand, last) in &cases {
            out.clear();
            legal_plays(black_box(hand), black_box(Some(last)), &mut out);
            plays += out.len();
        }
        plays
    });
}

/// Classifying plays drawn from the whole space, as the judge and `parse_action` do.
#[divan::bench]
fn classify(bencher: Bencher) {
    let space = all_plays();
    let mut rng = Seed::from_u64(4).rng();
    let cards: Vec<RankCounts> = (0..INPUTS)
        .map(|_| space[below(&mut rng, space.len())].cards())
        .collect();
    bencher.counter(ItemsCount::new(INPUTS)).bench_local(|| {
        cards
            .iter()
            .filter_map(|&c| Play::classify(black_box(c)))
            .count()
    });
}

/// Solving endgames with every hand open, as the search bot does in its worlds: 64
/// positions of random self-play with 24 cards or fewer left, each solved within the bot's
/// limit of 500 positions (most need a few dozen; the ones that reach the limit give up).
#[divan::bench]
fn endgame_solve(bencher: Bencher) {
    let mut positions = Vec::with_capacity(INPUTS);
    let mut game = 0;
    while positions.len() < INPUTS {
        let seed = Seed::from_u64(5).derive(game);
        game += 1;
        let mut rng = seed.derive(1).rng();
        let Ok(mut state) = DouDizhu::start(&Config::default(), 3, &seed) else {
            continue;
        };
        while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
            if let Some(open) = Open::of(&state).filter(|o| o.cards_left() <= 24) {
                positions.push(open);
                break;
            }
            let legal = DouDizhu::legal(&state, seat);
            let action = legal[below(&mut rng, legal.len())];
            if DouDizhu::apply(&mut state, seat, action, &mut Vec::new()).is_err() {
                break;
            }
        }
    }
    positions.truncate(INPUTS);
    let mut solver = Solver::default();
    bencher.counter(ItemsCount::new(INPUTS)).bench_local(|| {
        positions
            .iter()
            .filter_map(|p| solver.landlord_wins(black_box(p), 500))
            .filter(|&won| won)
            .count()
    });
}
