//! Hot paths: play generation for a 13-card hand, classifying plays, the heuristic bot's hand
//! plan, the hints a table sends with every turn, and whole self-play deals.
//!
//! `CARGO_TARGET_DIR=/work/target-bigtwo cargo bench -p bigtwo`

use bigtwo::bots::plan::{best_plan, Unseen};
use bigtwo::movegen::legal_plays;
use bigtwo::{bots, BigTwo, Combo, DECK};
use cards::CardSet;
use divan::{black_box, Bencher};
use game::{sim::play_out, Bot, GameSpec, Rules, Seed, Viewer};

fn main() {
    divan::main();
}

/// Hands of 13 cards from seeded deals, so every run measures the same work.
fn hands() -> Vec<CardSet> {
    (0..64)
        .map(|i| {
            let state = <BigTwo as game::Rules>::start(&Default::default(), 4, &Seed::from_u64(i))
                .expect("deals");
            state.hand((i % 4) as usize)
        })
        .collect()
}

fn combo(text: &str) -> Combo {
    Combo::classify(text.parse().expect("valid cards")).expect("a play")
}

/// Every play of a 13-card hand when leading (all sizes), per hand.
#[divan::bench]
fn legal_lead_13_cards(b: Bencher) {
    let hands = hands();
    let mut out = Vec::with_capacity(256);
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 1) % hands.len();
        out.clear();
        legal_plays(black_box(hands[i]), None, None, &mut out);
        out.len()
    });
}

/// The hints for a free lead with 13 cards (every play of the hand, the heuristic's first):
/// the heaviest case of the order a table's legal actions are sent in, once a turn.
#[divan::bench]
fn hints_free_lead_13_cards(b: Bencher) {
    let turns: Vec<_> = (0..64u64)
        .map(|i| {
            let config = bigtwo::Config {
                opening: bigtwo::Opening::Seat(0),
            };
            let state = BigTwo::start(&config, 4, &Seed::from_u64(i)).expect("deals");
            (
                BigTwo::view(&state, Viewer::Seat(0)),
                BigTwo::legal(&state, 0),
            )
        })
        .collect();
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 1) % turns.len();
        let (view, legal) = &turns[i];
        BigTwo::hints(black_box(view), black_box(legal)).len()
    });
}

/// Lists, for hand after hand, the plays that beat `last`.
fn follow(b: Bencher, last: &str) {
    let hands = hands();
    let last = combo(last);
    let mut out = Vec::with_capacity(64);
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 1) % hands.len();
        out.clear();
        legal_plays(black_box(hands[i]), Some(&last), None, &mut out);
        out.len()
    });
}

/// The plays of a 13-card hand that beat a single 9♥.
#[divan::bench]
fn legal_follow_single_13_cards(b: Bencher) {
    follow(b, "9h");
}

/// The plays of a 13-card hand that beat a straight: the five-card generator alone.
#[divan::bench]
fn legal_follow_straight_13_cards(b: Bencher) {
    follow(b, "5c 6d 7h 8s 9d");
}

/// Reading five cards as a play.
#[divan::bench]
fn classify_five(b: Bencher) {
    let sets: Vec<CardSet> = [
        "3d 4c 5h 6s 7d",
        "9d 9c 9s 5h 5s",
        "2h 7h 8h Jh Kh",
        "3d 4c 5h 6s 8d",
    ]
    .iter()
    .map(|t| t.parse().expect("valid cards"))
    .collect();
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 1) % sets.len();
        Combo::classify(black_box(sets[i]))
    });
}

/// The heuristic bot's plan of a 13-card hand (it plans once per candidate play).
#[divan::bench]
fn plan_13_cards(b: Bencher) {
    let hands = hands();
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 1) % hands.len();
        let unseen = Unseen::new(DECK.minus(hands[i]));
        best_plan(black_box(hands[i]), &unseen).cost
    });
}

fn deal_with(b: Bencher, name: &str) {
    let mut i = 0u64;
    b.bench_local(|| {
        i += 1;
        let seed = Seed::from_u64(i);
        let mut players: Vec<Box<dyn Bot<BigTwo>>> = (0..4)
            .map(|s| bots::by_name(name, &seed.derive(s)).expect("known bot"))
            .collect();
        play_out::<BigTwo>(&Default::default(), &seed, &mut players).map(|r| r.2)
    });
}

/// One whole deal of four `random` bots (games per second = 1 / time).
#[divan::bench(sample_count = 200)]
fn deal_random_self_play(b: Bencher) {
    deal_with(b, "random");
}

/// One whole deal of four `heuristic` bots.
#[divan::bench(sample_count = 100)]
fn deal_heuristic_self_play(b: Bencher) {
    deal_with(b, "heuristic");
}
