//! Hot paths: counting and listing the plays of 31- and 38-card hands, following a play,
//! classifying, and whole self-play games.

use cards::RankCounts;
use doudizhu5::movegen::{count, plays};
use doudizhu5::{DouDizhu5, Play, SEATS};
use game::{deal, sim, Bot, RandomBot, Seed};

fn main() {
    divan::main();
}

/// A dealt hand of `n` cards from three shuffled decks.
fn dealt(n: usize, seed: u64) -> RankCounts {
    let mut cards = doudizhu5::DECK.cards();
    deal::shuffle(&mut cards, &mut Seed::from_u64(seed).rng());
    RankCounts::from_cards(&cards[..n])
}

/// A 38-card hand built for many plays: long runs of trios and pairs, bombs and jokers.
fn rich38() -> RankCounts {
    "3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 T T T J J Q Q K K A A 2 2 BJ BJ RJ RJ"
        .parse()
        .unwrap()
}

fn hands() -> [(&'static str, RankCounts); 3] {
    [
        ("dealt31", dealt(31, 1)),
        ("dealt38", dealt(38, 2)),
        ("rich38", rich38()),
    ]
}

#[divan::bench(args = [0, 1, 2])]
fn count_lead(bencher: divan::Bencher, i: usize) {
    let (_, hand) = hands()[i];
    bencher.bench(|| count(divan::black_box(hand), None));
}

#[divan::bench(args = [0, 1, 2])]
fn legal_lead(bencher: divan::Bencher, i: usize) {
    let (_, hand) = hands()[i];
    bencher.bench(|| plays(divan::black_box(hand), None));
}

#[divan::bench(args = [0, 1, 2])]
fn legal_follow_pair(bencher: divan::Bencher, i: usize) {
    let (_, hand) = hands()[i];
    let last = Play::classify("5 5".parse().unwrap());
    bencher.bench(|| plays(divan::black_box(hand), last.as_ref()));
}

#[divan::bench]
fn classify_plane(bencher: divan::Bencher) {
    let cards: RankCounts = "J J J Q Q Q K K K A A 2 2 3 3".parse().unwrap();
    bencher.bench(|| Play::classify(divan::black_box(cards)));
}

fn game_with(names: &[&str], bencher: divan::Bencher) {
    let mut i = 0u64;
    bencher.bench_local(|| {
        i += 1;
        let seed = Seed::from_u64(i);
        let mut bots: Vec<Box<dyn Bot<DouDizhu5>>> = (0..SEATS)
            .map(|s| match names[s] {
                "random" => {
                    Box::new(RandomBot::new(&seed.derive(s as u64))) as Box<dyn Bot<DouDizhu5>>
                }
                n => <DouDizhu5 as game::GameSpec>::bot(n, &seed)
                    .unwrap_or_else(|| Box::new(RandomBot::new(&seed))),
            })
            .collect();
        sim::play_out::<DouDizhu5>(&Default::default(), &seed, &mut bots).map(|(_, o, _)| o)
    });
}

#[divan::bench]
fn random_game(bencher: divan::Bencher) {
    game_with(&["random"; 5], bencher);
}

#[divan::bench]
fn heuristic_game(bencher: divan::Bencher) {
    game_with(&["heuristic"; 5], bencher);
}
