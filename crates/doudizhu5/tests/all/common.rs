//! Shared test helpers: fixed deals and driving a game by hand.

use cards::{parse_cards, Card, RankCounts};
use doudizhu5::{
    Action, Config, CustomDeal, DouDizhu5, Event, State, SuitedCards, DECK, HAND, KITTY, SEATS,
};
use game::{deal, GameRng, Rules, Seed, ToAct};

/// A deal with the given cards in each hand (the rest dealt round-robin from the sorted
/// remainder), the given kitty (filled up likewise), and the face-up card.
pub fn deal(fixed: [&str; 5], kitty: &str, face_up: (&str, usize)) -> Config {
    let mut hands: Vec<Vec<Card>> = fixed.iter().map(|h| parse_cards(h).unwrap()).collect();
    let mut kitty = parse_cards(kitty).unwrap();
    let mut rest = DECK.cards();
    for c in hands.iter().flatten().chain(&kitty) {
        let i = rest.iter().position(|x| x == c).expect("card available");
        rest.remove(i);
    }
    let mut seat = 0;
    for c in rest {
        if hands.iter().all(|h| h.len() == HAND) {
            kitty.push(c);
            continue;
        }
        while hands[seat].len() == HAND {
            seat = (seat + 1) % SEATS;
        }
        hands[seat].push(c);
        seat = (seat + 1) % SEATS;
    }
    assert_eq!(kitty.len(), KITTY);
    Config {
        deal: Some(CustomDeal {
            hands,
            kitty,
            face_up: (face_up.0.parse().unwrap(), face_up.1),
        }),
        ..Config::default()
    }
}

/// A landlord (seat 0, face-up holder) with a bomb, exactly two 3d, three 4h; the third 3d
/// with seat 3, who holds no other 3.
pub fn partner_deal() -> Config {
    deal(
        [
            "3d 3d 4h 4h 4h 5c 5d 5h 5s 5s As 2s",
            "3c 3h 3s",
            "3c 3h 3s",
            "3d 4c 5c 6c 7c",
            "3c 3h 3s",
        ],
        "",
        ("5s", 0),
    )
}

pub fn start(config: &Config) -> State {
    DouDizhu5::start(config, SEATS, &Seed::from_u64(0)).unwrap()
}

pub fn act(state: &mut State, seat: usize, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    DouDizhu5::apply(state, seat, action, &mut events)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"));
    events
}

/// Everybody still grabbing declines.
pub fn decline_all(state: &mut State) -> Vec<Event> {
    let mut events = Vec::new();
    while let ToAct::Seats(set) = DouDizhu5::to_act(state) {
        let s = set.iter().next().unwrap();
        events.extend(act(state, s, Action::Decline));
    }
    events
}

/// The copies of `ranks` a player might put down: any of the hand's, drawn at random.
pub fn any_copies(hand: &[Card], ranks: RankCounts, rng: &mut GameRng) -> SuitedCards {
    let mut out = SuitedCards::EMPTY;
    for (rank, n) in ranks.iter() {
        let mut copies: Vec<Card> = hand.iter().copied().filter(|c| c.rank() == rank).collect();
        deal::shuffle(&mut copies, rng);
        for &c in &copies[..n as usize] {
            assert!(out.add(c));
        }
    }
    out
}
