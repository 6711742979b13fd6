//! Helpers shared by the integration tests: stacked decks and short-hand play.

use cards::{parse_cards, Card, Deck};
use tenhalf::{Action, Config, Event, State};

/// A full deck with `top` first (in that order), then every other card in ascending order.
pub fn stacked(top: &str) -> Vec<Card> {
    let mut deck = parse_cards(top).expect("test deck parses");
    for c in Deck::WITH_JOKERS.cards() {
        if !deck.contains(&c) {
            deck.push(c);
        }
    }
    deck
}

/// A game of `players` with the dealer at `dealer`, dealt from `stacked(top)`.
pub fn game(players: usize, dealer: usize, top: &str) -> State {
    State::from_deck(&Config { dealer }, players, &stacked(top)).expect("valid test game")
}

/// Applies an action that the test expects to be legal; returns its events.
pub fn act(state: &mut State, seat: usize, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    state
        .apply(seat, action, &mut events)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"));
    events
}

/// The showdown among `events`, if any.
pub fn showdown(events: &[Event]) -> Option<&tenhalf::Showdown> {
    events.iter().find_map(|e| match e {
        Event::Showdown(s) => Some(s),
        _ => None,
    })
}

/// The judge's answer to one request line.
pub fn judge(line: &str) -> serde_json::Value {
    use game::GameSpec;
    let request: serde_json::Value = serde_json::from_str(line).expect("test request is JSON");
    tenhalf::TenHalf::judge(&request)
}
