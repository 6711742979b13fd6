//! No secret leaves a table: whatever one seat (or a spectator) receives during play is the
//! same in two worlds that differ only in what it may not know — the other seats' hidden
//! cards, and whether the landlord's mark is a partner call or a hidden solo.

use crate::common::any_copies;
use cards::{Card, Rank, RankCounts};
use doudizhu5::{Action, Config, CustomDeal, DouDizhu5, DECK, HAND, KITTY, SEATS};
use game::registry::{entry, first_difference, observe, play_with_bots};
use game::{deal, Seat, Seed, TableSetup, Viewer};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value};

/// A shuffled deal with its face-up card, written out so that a twin can change it.
fn random_deal(seed: u64) -> CustomDeal {
    let mut rng = Seed::from_u64(seed).rng();
    let mut cards = DECK.cards();
    deal::shuffle(&mut cards, &mut rng);
    let dealt = SEATS * HAND;
    let pick = deal::below(&mut rng, dealt);
    CustomDeal {
        hands: cards[..dealt].chunks(HAND).map(<[Card]>::to_vec).collect(),
        kitty: cards[dealt..dealt + KITTY].to_vec(),
        face_up: (cards[pick], pick / HAND),
    }
}

fn config(deal: &CustomDeal) -> Value {
    serde_json::to_value(Config {
        deal: Some(deal.clone()),
        ..Config::default()
    })
    .unwrap()
}

fn table(cfg: &Value) -> Box<dyn game::Table> {
    entry::<DouDizhu5>()
        .new_table(&TableSetup::new("g", cfg.clone(), SEATS, Seed::from_u64(1)))
        .unwrap()
}

/// Everything `viewer` receives while `actions` are replayed, up to (not including) the
/// first action for which `stop` holds.
fn stream(
    cfg: &Value,
    viewer: Viewer,
    actions: &[(Seat, Value)],
    stop: impl FnMut(Seat, &Value) -> bool,
) -> Vec<Value> {
    observe(table(cfg).as_mut(), viewer, actions, stop).unwrap()
}

/// Cards that decide who may grab: jokers and the face-up card's rank. Who is still
/// grabbing is public (each seat's grab box), so twins keep these where they are.
fn grab_card(card: Card, face_up: Card) -> bool {
    card.is_joker() || card.rank() == face_up.rank()
}

/// Moves one copy of `card` out of `from` and puts `instead` in its place.
fn replace(hand: &mut [Card], card: Card, instead: Card) -> bool {
    match hand.iter().position(|&c| c == card) {
        Some(i) => {
            hand[i] = instead;
            true
        }
        None => false,
    }
}

/// The deal with its three 3♦ moved so that `landlord` holds two and `partner` one, each
/// traded for a card of the receiver that does not decide grabs. `None` if a receiver has
/// nothing to give.
fn arrange_threes(mut deal: CustomDeal, landlord: Seat, partner: Seat) -> Option<CustomDeal> {
    let three = Card::suited(Rank::Three, cards::Suit::Diamonds);
    let needed = |s: Seat| match s {
        s if s == landlord => 2,
        s if s == partner => 1,
        _ => 0,
    };
    let count = |deal: &CustomDeal, s: Seat| deal.hands[s].iter().filter(|&&c| c == three).count();
    for target in [landlord, landlord, partner] {
        if count(&deal, target) >= needed(target) {
            continue;
        }
        let give = deal.hands[target]
            .iter()
            .copied()
            .find(|&c| c != three && !grab_card(c, deal.face_up.0))?;
        match deal.kitty.iter().position(|&c| c == three) {
            Some(k) => deal.kitty[k] = give,
            None => {
                let surplus = (0..SEATS).find(|&s| count(&deal, s) > needed(s))?;
                replace(&mut deal.hands[surplus], three, give);
            }
        }
        replace(&mut deal.hands[target], give, three);
    }
    Some(deal)
}

/// World A played out by random bots.
struct WorldA {
    /// The actions, in their private forms.
    actions: Vec<(Seat, Value)>,
    /// Per seat, the cards still in hand at the end.
    left: Vec<Vec<Card>>,
    landlord: Seat,
    /// The marked card of a partner call or hidden solo.
    marked: Option<Card>,
}

/// `ranked` replayed after `before` at a new table of `cfg`, about half of its plays put
/// down with copies drawn from the player's hand, the others left by rank (typed so, or
/// timed out): the actions as applied, and the table after them. The random bots choose
/// by rank; people (and the other bots) play suited cards.
fn suited(
    cfg: &Value,
    before: &[(Seat, Value)],
    ranked: Vec<(Seat, Value)>,
    seed: u64,
) -> (Vec<(Seat, Value)>, Box<dyn game::Table>) {
    let mut t = table(cfg);
    for (s, a) in before {
        t.apply(*s, a).unwrap();
    }
    let mut rng = Seed::from_u64(seed).derive(1).rng();
    let mut actions = Vec::new();
    for (s, mut a) in ranked {
        let ranks = a["play"]
            .as_str()
            .and_then(|p| p.parse::<RankCounts>().ok());
        if let Some(ranks) = ranks.filter(|_| deal::below(&mut rng, 2) == 0) {
            let hand: Vec<Card> =
                serde_json::from_value(t.view(Viewer::Seat(s)).unwrap()["hand"].clone()).unwrap();
            a = serde_json::to_value(Action::PlaySuited(any_copies(&hand, ranks, &mut rng)))
                .unwrap();
        }
        t.apply(s, &a).unwrap();
        actions.push((s, a));
    }
    (actions, t)
}

fn world_a(deal: &CustomDeal, seed: u64) -> WorldA {
    let mut t = table(&config(deal));
    let ranked = play_with_bots(t.as_mut(), "random", &Seed::from_u64(seed)).unwrap();
    let (actions, t) = suited(&config(deal), &[], ranked, seed);
    let left = (0..SEATS)
        .map(|s| {
            let view = t.view(Viewer::Seat(s)).unwrap();
            serde_json::from_value(view["hand"].clone()).unwrap()
        })
        .collect();
    let view = t.view(Viewer::Spectator).unwrap();
    let landlord = view["landlord"].as_u64().unwrap() as Seat;
    let marked = serde_json::from_value(view["declaration"]["marked"].clone()).unwrap_or(None);
    WorldA {
        actions,
        left,
        landlord,
        marked,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Two seats the observer cannot see (and that are not the landlord, whose hand decides
    /// the public mark) trade cards neither of them ever plays. Cards of the marked card's
    /// rank stay put: which copy a player holds decides, by the rules, when the mark shows.
    #[test]
    fn nothing_a_seat_sees_changes_when_the_others_hidden_cards_are_swapped(
        seed in any::<u64>(),
        observer in 0usize..=SEATS,
        pick in any::<u64>(),
        n in 1usize..8,
    ) {
        let deal = random_deal(seed);
        let WorldA { actions, left, landlord, marked } = world_a(&deal, seed);
        let viewer = if observer == SEATS { Viewer::Spectator } else { Viewer::Seat(observer) };
        let hidden: Vec<Seat> =
            (0..SEATS).filter(|&s| s != observer && s != landlord).collect();
        let mut rng = Seed::from_u64(pick).rng();
        let x = hidden[deal::below(&mut rng, hidden.len())];
        let rest: Vec<Seat> = hidden.iter().copied().filter(|&s| s != x).collect();
        let y = rest[deal::below(&mut rng, rest.len())];
        let tradable = |s: Seat, other: Seat| -> Vec<Card> {
            left[s]
                .iter()
                .copied()
                .filter(|&c| !grab_card(c, deal.face_up.0) && !left[other].contains(&c))
                .filter(|&c| marked.is_none_or(|m: Card| m.rank() != c.rank()))
                .collect()
        };
        let (mut from_x, mut from_y) = (tradable(x, y), tradable(y, x));
        let mut twin = deal.clone();
        let mut traded = 0;
        while traded < n && !from_x.is_empty() && !from_y.is_empty() {
            let a = from_x.swap_remove(deal::below(&mut rng, from_x.len()));
            let b = from_y.swap_remove(deal::below(&mut rng, from_y.len()));
            prop_assert!(replace(&mut twin.hands[x], a, b) && replace(&mut twin.hands[y], b, a));
            traded += 1;
        }
        prop_assume!(traded > 0, "nothing to trade");
        let last = actions.len() - 1;
        let (mut i, mut j) = (0, 0);
        let sa = stream(&config(&deal), viewer, &actions, |_, _| { i += 1; i > last });
        let sb = stream(&config(&twin), viewer, &actions, |_, _| { j += 1; j > last });
        let diff = first_difference(&sa, &sb);
        prop_assert!(diff.is_none(), "seats {} and {} traded: {:?}", x, y, diff);
    }

    /// A partner call and a hidden solo that mark the same card look alike to every seat
    /// but the landlord's (and, for the partner call, the partner's), until a 3 is played
    /// by either of them.
    #[test]
    fn a_hidden_solo_looks_exactly_like_a_partner_call(seed in any::<u64>(), pick in any::<u64>()) {
        hidden_solo_and_partner_call_look_alike(seed, pick)?;
    }
}

/// The body of `a_hidden_solo_looks_exactly_like_a_partner_call`, for one deal and pick.
fn hidden_solo_and_partner_call_look_alike(seed: u64, pick: u64) -> Result<(), TestCaseError> {
    let three = Card::suited(Rank::Three, cards::Suit::Diamonds);
    let deal = random_deal(seed);
    prop_assume!(deal.face_up.0.rank() != Rank::Three && !deal.face_up.0.is_joker());
    let landlord = deal.face_up.1;
    let mut rng = Seed::from_u64(pick).rng();
    let partner = (landlord + 1 + deal::below(&mut rng, SEATS - 1)) % SEATS;
    // World A: the landlord holds two 3♦ and the partner the third; 3♦ is the lowest
    // card there is, so the partner call marks it.
    let Some(deal) = arrange_threes(deal, landlord, partner) else {
        return Ok(());
    };
    // Nobody grabs: the face-up card's holder is the landlord.
    let mut t = table(&config(&deal));
    let mut script = Vec::new();
    while let game::ToAct::Seats(set) = t.to_act() {
        let s = set.iter().next().unwrap();
        t.apply(s, &json!("decline")).unwrap();
        script.push((s, json!("decline")));
    }
    prop_assume!(t.to_act() == game::ToAct::Seat(landlord), "an instant win");
    // World B: the partner's 3♦ goes to the landlord for a card the landlord never
    // plays, so the landlord holds three and may play the hidden solo.
    t.apply(landlord, &json!({"declare": "partner"})).unwrap();
    let ranked = play_with_bots(t.as_mut(), "random", &Seed::from_u64(seed)).unwrap();
    let mut declared = script.clone();
    declared.push((landlord, json!({"declare": "partner"})));
    let (rest, t) = suited(&config(&deal), &declared, ranked, seed);
    let left: Vec<Card> =
        serde_json::from_value(t.view(Viewer::Seat(landlord)).unwrap()["hand"].clone()).unwrap();
    let give = left
        .iter()
        .copied()
        .find(|&c| c != three && !grab_card(c, deal.face_up.0) && !deal.kitty.contains(&c));
    let Some(give) = give else { return Ok(()) };
    let mut twin = deal.clone();
    prop_assert!(replace(&mut twin.hands[partner], three, give));
    prop_assert!(replace(&mut twin.hands[landlord], give, three));
    // The trade may break the landlord's only bomb, which is an instant win (public, and
    // no declaration is made): such a twin tests nothing.
    let mut tt = table(&config(&twin));
    for (s, a) in &script {
        tt.apply(*s, a).unwrap();
    }
    prop_assume!(
        tt.to_act() == game::ToAct::Seat(landlord),
        "an instant win in the twin"
    );
    let declare = |mode: &str| {
        let mut s = script.clone();
        s.push((landlord, json!({"declare": mode})));
        s.extend(rest.iter().cloned());
        s
    };
    let (a, b) = (declare("partner"), declare("hidden_solo"));
    // Up to the first 3 played by the landlord or the partner, by rank or suited (then the
    // mark shows), and short of the last action (then the game is scored, a solo
    // differently).
    let last = a.len() - 1;
    let until_a_three = || {
        let mut i = 0;
        move |seat: Seat, action: &Value| {
            i += 1;
            i > last
                || (seat == landlord || seat == partner)
                    && action["play"]
                        .as_str()
                        .is_some_and(|p| p.split(' ').any(|c| c.starts_with('3')))
        }
    };
    for observer in (0..=SEATS).filter(|&o| o != landlord && o != partner) {
        let viewer = if observer == SEATS {
            Viewer::Spectator
        } else {
            Viewer::Seat(observer)
        };
        let sa = stream(&config(&deal), viewer, &a, until_a_three());
        let sb = stream(&config(&twin), viewer, &b, until_a_three());
        prop_assert!(sa.len() > script.len() + 1, "the declaration is compared");
        let diff = first_difference(&sa, &sb);
        prop_assert!(diff.is_none(), "{:?}", diff);
    }
    // The landlord, who knows, sees the difference.
    prop_assert_ne!(
        stream(&config(&deal), Viewer::Seat(landlord), &a, until_a_three()),
        stream(&config(&twin), Viewer::Seat(landlord), &b, until_a_three())
    );
    Ok(())
}

/// Found by a random proptest seed: the twin's trade broke the landlord's only bomb, an
/// instant win in the twin alone, which is public and no leak. Such a twin is skipped.
#[test]
fn a_twin_whose_trade_ends_the_deal_at_once_is_skipped() {
    let r = hidden_solo_and_partner_call_look_alike(6218361088591583365, 13908101106989916539);
    assert!(matches!(r, Ok(()) | Err(TestCaseError::Reject(_))), "{r:?}");
}
