//! No secret leaves a table: whatever one seat (or a spectator) receives during play is the
//! same in two worlds that differ only in the other seats' hidden cards.
//!
//! World A is a random deal played out by random bots. World B trades cards that neither
//! owner ever plays between two seats the observer cannot see, and replays A's actions
//! (still legal: every card played is still in its player's hand). The streams must be
//! equal until the last action, after which the hands are scored.

use bigtwo::{Action, BigTwo, Opening, State};
use cards::CardSet;
use game::registry::observe_state;
use game::{deal, Bot, Decision, RandomBot, Rules, Seat, Seed, ToAct, Viewer};
use proptest::prelude::*;
use serde_json::Value;

/// A random deal played out by random bots: its hands and the actions taken.
fn world_a(seed: u64) -> ([CardSet; 4], Vec<(Seat, Action)>) {
    let seed = Seed::from_u64(seed);
    let mut state = BigTwo::start(&bigtwo::Config::default(), 4, &seed).unwrap();
    let hands = [0, 1, 2, 3].map(|s| state.hand(s));
    let mut bot = RandomBot::new(&seed.derive(1));
    let mut actions = Vec::new();
    while let ToAct::Seat(seat) = BigTwo::to_act(&state) {
        let legal = BigTwo::legal(&state, seat);
        let action = Bot::<BigTwo>::act(&mut bot, &Decision::from_state(&state, seat, &legal));
        BigTwo::apply(&mut state, seat, action.clone(), &mut Vec::new()).unwrap();
        actions.push((seat, action));
    }
    (hands, actions)
}

/// Up to `n` cards of `from`, picked from `rng`.
fn take(from: CardSet, n: usize, rng: &mut game::GameRng) -> CardSet {
    let mut left: Vec<_> = from.iter().collect();
    let mut out = CardSet::EMPTY;
    for _ in 0..n.min(left.len()) {
        out.insert(left.swap_remove(deal::below(rng, left.len())));
    }
    out
}

/// World B's hands: `x` and `y` trade up to `n` cards neither of them ever plays.
fn twin(
    hands: &[CardSet; 4],
    actions: &[(Seat, Action)],
    x: Seat,
    y: Seat,
    n: usize,
    swap_seed: u64,
) -> [CardSet; 4] {
    let mut played = [CardSet::EMPTY; 4];
    for (seat, a) in actions {
        if let Action::Play(cards) = a {
            played[*seat] = played[*seat].union(*cards);
        }
    }
    let mut rng = Seed::from_u64(swap_seed).rng();
    let a = take(hands[x].minus(played[x]), n, &mut rng);
    let b = take(hands[y].minus(played[y]), a.len() as usize, &mut rng);
    let a = take(a, b.len() as usize, &mut rng);
    let mut out = *hands;
    out[x] = out[x].minus(a).union(b);
    out[y] = out[y].minus(b).union(a);
    out
}

fn stream(hands: [CardSet; 4], viewer: Viewer, actions: &[(Seat, Action)]) -> Vec<Value> {
    let state = State::from_hands(hands, Opening::ThreeOfDiamonds).unwrap();
    let last = actions.len().saturating_sub(1);
    let mut i = 0;
    observe_state::<BigTwo>(state, viewer, actions, |_, _| {
        i += 1;
        i > last
    })
    .unwrap()
}

/// The two seats an observer cannot see, picked by `pick`.
fn others(observer: Option<Seat>, pick: usize) -> (Seat, Seat) {
    let hidden: Vec<Seat> = (0..4).filter(|&s| Some(s) != observer).collect();
    let x = hidden[pick % hidden.len()];
    let rest: Vec<Seat> = hidden.into_iter().filter(|&s| s != x).collect();
    (x, rest[(pick / 4) % rest.len()])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn nothing_a_seat_sees_changes_when_the_others_hidden_cards_are_swapped(
        seed in any::<u64>(),
        observer in 0usize..5,
        pick in 0usize..12,
        n in 1usize..8,
        swap_seed in any::<u64>(),
    ) {
        let (hands, actions) = world_a(seed);
        let (viewer, seat) = match observer {
            4 => (Viewer::Spectator, None),
            o => (Viewer::Seat(o), Some(o)),
        };
        let (x, y) = others(seat, pick);
        let b = twin(&hands, &actions, x, y, n, swap_seed);
        prop_assume!(b != hands, "nothing to trade");
        prop_assert_eq!(stream(hands, viewer, &actions), stream(b, viewer, &actions));
    }
}

/// The comparison can fail: a trade involving the observer's own hand is seen.
#[test]
fn the_comparison_sees_a_swap_the_observer_is_part_of() {
    let mut compared = 0;
    for seed in 0..30 {
        let (hands, actions) = world_a(seed);
        let b = twin(&hands, &actions, 0, 1, 3, seed);
        if b == hands {
            continue;
        }
        compared += 1;
        assert_ne!(
            stream(hands, Viewer::Seat(0), &actions),
            stream(b, Viewer::Seat(0), &actions)
        );
    }
    assert!(compared >= 10, "only {compared} twins differed");
}
