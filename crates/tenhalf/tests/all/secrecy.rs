//! No secret leaves a table: whatever one seat (or a spectator) receives is the same in two
//! worlds that differ only in cards it has not seen — face-down base cards of others, and
//! the order of the deck still to come.
//!
//! World B swaps two cards of equal value in world A's deck, so every hit, stand and bust
//! stays legal and happens alike; the streams must be equal until one of the two cards
//! shows in either stream (dealt to the observer, hit face up, shown in a bust or the
//! showdown).

use cards::{Card, Deck};
use game::registry::{first_difference, observe_state};
use game::{deal, Bot, Decision, RandomBot, Rules, Seat, Seed, ToAct, Viewer};
use proptest::prelude::*;
use serde_json::Value;
use tenhalf::hand::halves;
use tenhalf::{Action, Config, State, TenHalf};

/// World A: a shuffled deck and the actions random bots take on it.
fn world_a(seed: u64, seats: usize) -> (Vec<Card>, Vec<(Seat, Action)>) {
    let seed = Seed::from_u64(seed);
    let mut deck = Deck::WITH_JOKERS.cards();
    deal::shuffle(&mut deck, &mut seed.rng());
    let config = Config { dealer: 0 };
    let mut state = State::from_deck(&config, seats, &deck).unwrap();
    let mut bot = RandomBot::new(&seed.derive(1));
    let mut actions = Vec::new();
    while let ToAct::Seat(seat) = TenHalf::to_act(&state) {
        let legal = TenHalf::legal(&state, seat);
        let action = Bot::<TenHalf>::act(&mut bot, &Decision::from_state(&state, seat, &legal));
        TenHalf::apply(&mut state, seat, action, &mut Vec::new()).unwrap();
        actions.push((seat, action));
    }
    (deck, actions)
}

fn stream(deck: &[Card], seats: usize, viewer: Viewer, actions: &[(Seat, Action)]) -> Vec<Value> {
    let state = State::from_deck(&Config { dealer: 0 }, seats, deck).unwrap();
    observe_state::<TenHalf>(state, viewer, actions, |_, _| false).unwrap()
}

/// The steps before either card first shows in a stream.
fn before_shown(stream: &[Value], cards: [Card; 2]) -> usize {
    let names = cards.map(|c| format!("\"{c}\""));
    stream
        .iter()
        .position(|step| {
            let text = step.to_string();
            names.iter().any(|n| text.contains(n.as_str()))
        })
        .unwrap_or(stream.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn nothing_a_seat_sees_changes_when_unseen_cards_of_equal_value_are_swapped(
        seed in any::<u64>(),
        seats in 2usize..=8,
        observer in 0usize..9,
        pick in any::<u64>(),
    ) {
        let (deck, actions) = world_a(seed, seats);
        let viewer = if observer >= seats { Viewer::Spectator } else { Viewer::Seat(observer) };
        let mut rng = Seed::from_u64(pick).rng();
        let p = deal::below(&mut rng, deck.len());
        let same: Vec<usize> = (0..deck.len())
            .filter(|&q| q != p && halves(deck[q]) == halves(deck[p]))
            .collect();
        let q = same[deal::below(&mut rng, same.len())];
        let mut twin = deck.clone();
        twin.swap(p, q);
        let a = stream(&deck, seats, viewer, &actions);
        let b = stream(&twin, seats, viewer, &actions);
        let cards = [deck[p], deck[q]];
        let n = before_shown(&a, cards).min(before_shown(&b, cards));
        let diff = first_difference(&a[..n], &b[..n]);
        prop_assert!(diff.is_none(), "{} and {} swapped: {:?}", cards[0], cards[1], diff);
    }
}

/// The comparison can fail: a base card of the observer's own, swapped with one of equal
/// value, changes the observer's first view.
#[test]
fn the_comparison_sees_the_observers_own_base_card() {
    let (deck, actions) = world_a(3, 4);
    // Seat 1 (the dealer's left) is dealt the deck's first card, face down.
    let q = (4..deck.len())
        .find(|&q| halves(deck[q]) == halves(deck[0]) && deck[q] != deck[0])
        .expect("a card of equal value");
    let mut twin = deck.clone();
    twin.swap(0, q);
    let a = stream(&deck, 4, Viewer::Seat(1), &actions);
    let b = stream(&twin, 4, Viewer::Seat(1), &actions);
    assert!(first_difference(&a[..1], &b[..1]).is_some());
    assert_eq!(before_shown(&a, [deck[0], deck[q]]), 0);
}
