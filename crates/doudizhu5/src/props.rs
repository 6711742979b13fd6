//! Property: a view depends only on what its viewer may know. Moving hidden cards between
//! two other seats — the marked card included, which moves the secret partner with it —
//! must leave the view unchanged until the partner is revealed.

use crate::action::Phase;
use crate::declare::Mode;
use crate::rules::{DouDizhu5, State, SEATS};
use cards::Card;
use game::{Bot, Decision, RandomBot, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;

/// Plays `steps` random actions (or until the end).
fn advance(seed: &Seed, steps: usize) -> State {
    let mut state = DouDizhu5::start(&Default::default(), SEATS, seed).unwrap();
    let mut bot = RandomBot::new(&seed.derive(7));
    for _ in 0..steps {
        let seat = match DouDizhu5::to_act(&state) {
            ToAct::Finished => break,
            ToAct::Seat(s) => s,
            ToAct::Seats(set) => set.iter().next().unwrap(),
        };
        let legal = DouDizhu5::legal(&state, seat);
        let a = Bot::<DouDizhu5>::act(&mut bot, &Decision::from_state(&state, seat, &legal));
        DouDizhu5::apply(&mut state, seat, a, &mut Vec::new()).unwrap();
    }
    state
}

/// Swaps one card of seat `a` with one of seat `b`, keeping the partner the holder of the
/// marked card. Returns false for a swap that would make an unreachable state.
fn swap(state: &mut State, a: usize, b: usize, i: usize, j: usize) -> bool {
    let (ca, cb) = (state.hands[a].cards(), state.hands[b].cards());
    if ca.is_empty() || cb.is_empty() || state.phase == Phase::Finished {
        return false;
    }
    let (x, y): (Card, Card) = (ca[i % ca.len()], cb[j % cb.len()]);
    // The landlord's copies of the marked card are fixed by the declaration (exactly two
    // for a partner call, three for a hidden solo): moving one in or out of the landlord's
    // hand makes a state the rules can never reach.
    let landlord_swaps = state.landlord.is_some_and(|l| l == a || l == b);
    if landlord_swaps && state.marked.is_some_and(|m| x == m || y == m) {
        return false;
    }
    let mut ha: Vec<Card> = ca;
    let mut hb: Vec<Card> = cb;
    let (pi, pj) = (
        ha.iter().position(|&c| c == x).unwrap(),
        hb.iter().position(|&c| c == y).unwrap(),
    );
    ha[pi] = y;
    hb[pj] = x;
    state.hands[a] = crate::hand::Hand::of(&ha);
    state.hands[b] = crate::hand::Hand::of(&hb);
    if let (Some(Mode::Partner), Some(m), false) = (state.mode, state.marked, state.revealed) {
        state.partner =
            (0..SEATS).find(|&s| Some(s) != state.landlord && state.hands[s].copies(m) > 0);
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn views_hide_other_hands_and_the_secret_partner(
        seed in any::<u64>(), steps in 0usize..120, viewer in 0usize..SEATS,
        pair in 0usize..(SEATS - 1) * (SEATS - 2), i in any::<usize>(), j in any::<usize>(),
    ) {
        // Two distinct seats other than the viewer's: `pair` numbers the ordered pairs.
        let others: Vec<usize> = (0..SEATS).filter(|&s| s != viewer).collect();
        let a = others[pair / (SEATS - 2)];
        let rest: Vec<usize> = others.iter().copied().filter(|&s| s != a).collect();
        let b = rest[pair % (SEATS - 2)];
        let state = advance(&Seed::from_u64(seed), steps);
        // The marked card's holder knows it is the partner: keep it out of the swap.
        let holds_mark = |s: usize| state.marked.is_some_and(|m| state.hands[s].copies(m) > 0 && !state.revealed);
        let mut other = state.clone();
        prop_assume!(!(holds_mark(a) && holds_mark(b)));
        prop_assume!(swap(&mut other, a, b, i, j));
        for who in [Viewer::Seat(viewer), Viewer::Spectator] {
            let before = serde_json::to_value(DouDizhu5::view(&state, who)).unwrap();
            let after = serde_json::to_value(DouDizhu5::view(&other, who)).unwrap();
            prop_assert_eq!(before, after);
        }
    }
}
