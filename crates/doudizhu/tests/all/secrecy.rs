//! No secret leaves a table: whatever one seat (or a spectator) receives during play — views,
//! public actions, events — is the same in two worlds that differ only in the other seats'
//! hidden cards.
//!
//! World A is a random deal played out by random bots. World B swaps cards that neither
//! owner ever plays between the two seats the observer cannot see, and replays A's actions
//! (still legal: every card played is still in its player's hand). The two streams must be
//! equal until the last action, after which the hands are shown.

use cards::{Deck, Rank, RankCounts};
use doudizhu::{Action, Config, CustomDeal, DouDizhu};
use game::registry::{entry, observe, play_with_bots};
use game::{deal, Seat, Seed, TableSetup, Viewer};
use proptest::prelude::*;
use serde_json::Value;

/// A shuffled deal, written out as a custom deal so a twin can change it.
pub(crate) fn random_deal(seed: u64) -> CustomDeal {
    let mut cards = Deck::WITH_JOKERS.cards();
    deal::shuffle(&mut cards, &mut Seed::from_u64(seed).rng());
    let hand = |i: usize| RankCounts::from_cards(&cards[i * 17..(i + 1) * 17]);
    CustomDeal {
        hands: [hand(0), hand(1), hand(2)],
        kitty: RankCounts::from_cards(&cards[51..]),
    }
}

fn config(deal: &CustomDeal, first_bidder: Seat) -> Value {
    serde_json::to_value(Config {
        deal: Some(deal.clone()),
        first_bidder: Some(first_bidder),
        ..Config::default()
    })
    .unwrap()
}

/// The cards each seat played in a script of actions.
fn played(actions: &[(Seat, Value)]) -> [RankCounts; 3] {
    let mut out = [RankCounts::EMPTY; 3];
    for (seat, a) in actions {
        if let Ok(Action::Play(p)) = serde_json::from_value::<Action>(a.clone()) {
            out[*seat] = out[*seat].plus(p.cards());
        }
    }
    out
}

/// The cards of `a` that are not in `b`, rank by rank.
fn without(a: RankCounts, b: RankCounts) -> RankCounts {
    RankCounts::from_ranks(
        a.iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r, n.saturating_sub(b.count(r)) as usize)),
    )
}

/// Up to `n` cards of `from` (a multiset), picked by `pick`.
fn take(from: RankCounts, n: usize, pick: &mut impl FnMut(usize) -> usize) -> RankCounts {
    let mut left: Vec<Rank> = from
        .iter()
        .flat_map(|(r, n)| std::iter::repeat_n(r, n as usize))
        .collect();
    let mut out = Vec::new();
    for _ in 0..n.min(left.len()) {
        let i = pick(left.len());
        out.push(left.swap_remove(i));
    }
    RankCounts::from_ranks(out)
}

/// World B: `x` and `y` trade up to `n` cards that they still hold at the end of world A
/// and that came from their dealt hands (the kitty is public and stays where it is).
pub(crate) fn twin(
    deal: &CustomDeal,
    actions: &[(Seat, Value)],
    x: Seat,
    y: Seat,
    n: usize,
    swap_seed: u64,
) -> CustomDeal {
    let played = played(actions);
    let mut rng = Seed::from_u64(swap_seed).rng();
    let mut pick = |len: usize| deal::below(&mut rng, len);
    // Cards of the dealt hand that are never played (counting kitty cards as played first
    // would only shrink this set; taking the dealt hand minus everything played is safe).
    let unplayed = |s: Seat| without(deal.hands[s], played[s]);
    let (ux, uy) = (unplayed(x), unplayed(y));
    // Cards of ranks the other does not hold, so that the trade really changes the hands.
    let a = take(without(ux, uy), n, &mut pick);
    let b = take(without(uy, ux), a.len() as usize, &mut pick);
    let a = take(a, b.len() as usize, &mut pick);
    let mut hands = deal.hands;
    hands[x] = hands[x].minus(a).plus(b);
    hands[y] = hands[y].minus(b).plus(a);
    CustomDeal {
        hands,
        kitty: deal.kitty,
    }
}

pub(crate) fn stream(cfg: &Value, viewer: Viewer, actions: &[(Seat, Value)]) -> Vec<Value> {
    let game = entry::<DouDizhu>();
    let mut table = game
        .new_table(&TableSetup::new("g", cfg.clone(), 3, Seed::from_u64(1)))
        .unwrap();
    let last = actions.len().saturating_sub(1);
    let mut i = 0;
    observe(table.as_mut(), viewer, actions, |_, _| {
        i += 1;
        i > last
    })
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn nothing_a_seat_sees_changes_when_the_others_hidden_cards_are_swapped(
        seed in any::<u64>(),
        first in 0usize..3,
        observer in 0usize..4,
        n in 1usize..10,
        swap_seed in any::<u64>(),
    ) {
        let deal = random_deal(seed);
        let a_cfg = config(&deal, first);
        let game = entry::<DouDizhu>();
        let mut table = game
            .new_table(&TableSetup::new("g", a_cfg.clone(), 3, Seed::from_u64(1)))
            .unwrap();
        let actions = play_with_bots(table.as_mut(), "random", &Seed::from_u64(seed)).unwrap();
        // A redeal after three passes deals from the seed, the same in both worlds; the
        // swap concerns the first deal only, so keep to games that were not redealt.
        let redealt = actions.iter().take(3).all(|(_, a)| *a == serde_json::json!({"bid": 0}));
        prop_assume!(!redealt);
        let (viewer, others) = match observer {
            3 => (Viewer::Spectator, (0, 1)),
            o => (Viewer::Seat(o), ((o + 1) % 3, (o + 2) % 3)),
        };
        let b_deal = twin(&deal, &actions, others.0, others.1, n, swap_seed);
        prop_assume!(b_deal != deal, "nothing to trade");
        let b_cfg = config(&b_deal, first);
        prop_assert_eq!(stream(&a_cfg, viewer, &actions), stream(&b_cfg, viewer, &actions));
    }
}

/// The test can fail: a view that showed another seat's hand would differ between the
/// worlds. Seat 0 sees its own hand, so swapping cards between seats 0 and 1 is seen.
#[test]
fn the_comparison_sees_a_swap_the_observer_is_part_of() {
    let mut compared = 0;
    for seed in 0..40 {
        let deal = random_deal(seed);
        let cfg = config(&deal, 0);
        let game = entry::<DouDizhu>();
        let mut table = game
            .new_table(&TableSetup::new("g", cfg.clone(), 3, Seed::from_u64(1)))
            .unwrap();
        let actions = play_with_bots(table.as_mut(), "random", &Seed::from_u64(seed)).unwrap();
        let b = twin(&deal, &actions, 0, 1, 3, seed);
        if b == deal {
            continue;
        }
        compared += 1;
        assert_ne!(
            stream(&cfg, Viewer::Seat(0), &actions),
            stream(&config(&b, 0), Viewer::Seat(0), &actions)
        );
    }
    assert!(compared >= 8, "only {compared} twins differed");
}
