//! [`TenHalf`] as a [`Rules`] and a [`GameSpec`]: the rest of qipai's view of the game.

use crate::bots::{CountingBot, SeedBot};
use crate::state::{Action, Config, Event, State, MAX_PLAYERS, MIN_PLAYERS};
use crate::view::View;
use crate::{judge, text, TenHalf};
use game::{Bot, GameSpec, Outcome, RandomBot, RuleError, Rules, Seat, Seed, ToAct, Viewer};
use std::ops::RangeInclusive;

impl Rules for TenHalf {
    const ID: &'static str = "tenhalf";
    const NAME: &'static str = "十点半 Ten and a half";

    type Config = Config;
    type State = State;
    type Action = Action;
    type View = View;
    type Event = Event;

    fn seats(_config: &Config) -> RangeInclusive<usize> {
        MIN_PLAYERS..=MAX_PLAYERS
    }

    fn start(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        State::new(config, seats, seed)
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

impl GameSpec for TenHalf {
    fn bot_names() -> &'static [&'static str] {
        &["random", "seed", "counting"]
    }

    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "random" => Some(Box::new(RandomBot::new(seed))),
            "seed" => Some(Box::new(SeedBot)),
            "counting" => Some(Box::new(CountingBot)),
            _ => None,
        }
    }

    fn judge(request: &serde_json::Value) -> serde_json::Value {
        judge::answer(request)
    }

    fn render(view: &View, viewer: Viewer) -> String {
        text::render(view, viewer)
    }

    fn action_text(action: &Action) -> String {
        text::action_text(*action).to_string()
    }

    fn parse_action(_view: &View, text: &str) -> Result<Action, String> {
        text::parse_action(text)
    }

    /// The counting bot's choice first.
    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        let best = CountingBot::choose(view);
        let mut out: Vec<Action> = legal.iter().copied().filter(|&a| a == best).collect();
        out.extend(legal.iter().copied().filter(|&a| a != best));
        out
    }

    fn help() -> &'static str {
        text::HELP
    }
}
