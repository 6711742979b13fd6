//! [`TenHalf`] as a [`Rules`] state machine: the game's contract with the rest of qipai.

use crate::state::{Action, Config, Event, State, MAX_PLAYERS, MIN_PLAYERS};
use crate::view::View;
use crate::TenHalf;
use game::{Outcome, RuleError, Rules, Seat, Seed, ToAct, Viewer};
use std::ops::RangeInclusive;

impl Rules for TenHalf {
    const ID: &'static str = "tenhalf";
    const NAME: &'static str = "十点半 Ten and a half";

    type Config = Config;
    type State = State;
    type Action = Action;
    type PublicAction = Action;
    type View = View;
    type Event = Event;

    fn seats(_config: &Config) -> RangeInclusive<usize> {
        MIN_PLAYERS..=MAX_PLAYERS
    }

    fn start(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        State::new(config, seats, seed)
    }

    fn public_action(action: &Action) -> Action {
        // Hits and stands are seen by everyone (the card drawn is in the events).
        *action
    }

    fn to_act(state: &State) -> ToAct {
        match state.turn() {
            Some(seat) if !state.is_finished() => ToAct::Seat(seat),
            _ => ToAct::Finished,
        }
    }

    fn legal_into(state: &State, seat: Seat, out: &mut Vec<Action>) {
        state.legal_into(seat, out);
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        state.apply(seat, action, events)
    }

    /// On a timeout a player stands if the rules allow it, and hits otherwise: the cautious
    /// choice that never risks a bust.
    fn default_action(state: &State, seat: Seat) -> Action {
        let mut legal = Vec::with_capacity(2);
        state.legal_into(seat, &mut legal);
        if legal.contains(&Action::Stand) {
            Action::Stand
        } else {
            Action::Hit
        }
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View::of(state, viewer)
    }

    /// Scores are minus the penalty points. A seat "won" when it took the fewest penalty
    /// points at the table (ties share it); when every seat took the same, nobody won.
    /// Roles are "dealer" and "player".
    fn outcome(state: &State) -> Option<Outcome> {
        if !state.is_finished() {
            return None;
        }
        let penalties = state.penalties();
        let fewest = penalties.iter().copied().min().unwrap_or(0);
        let all_equal = penalties.iter().all(|&p| p == fewest);
        Some(Outcome {
            scores: penalties.iter().map(|&p| -i64::from(p)).collect(),
            won: penalties
                .iter()
                .map(|&p| p == fewest && !all_equal)
                .collect(),
            roles: (0..state.seats())
                .map(|s| {
                    if s == state.dealer() {
                        "dealer".to_string()
                    } else {
                        "player".to_string()
                    }
                })
                .collect(),
        })
    }
}
