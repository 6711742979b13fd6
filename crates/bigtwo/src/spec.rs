//! What Big Two offers around its rules: bots, the judge, the text face, and the match
//! between deals (the last winner leads the next).

use crate::{bots, text, Action, BigTwo, Config, Event, State, View};
use game::{Bot, Clock, GameSpec, Rules, Seed, Viewer};

impl GameSpec for BigTwo {
    const PRESENTATION: game::Presentation = game::Presentation {
        name_zh: "锄大地",
        name_en: "Big Two",
        blurb_zh: "四人，先出完手牌者胜；方块三先出。",
        blurb_en: "Four players; first out wins. The 3♦ leads.",
        icon: "♦",
        screen: "cards",
    };

    /// A typed Big Two action is `pass` or cards, so what goes wrong is the cards'.
    type ParseError = cards::ParseError;

    fn bot_names() -> &'static [&'static str] {
        bots::NAMES
    }

    fn quick_bot() -> &'static str {
        "heuristic"
    }

    fn default_bot() -> &'static str {
        game::search::CARD_DEFAULT_BOT
    }

    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>> {
        bots::by_name(name, seed)
    }

    fn judge(request: &serde_json::Value) -> serde_json::Value {
        crate::judge::judge(request)
    }

    fn render(view: &View, viewer: Viewer) -> String {
        text::render(view, viewer)
    }

    fn action_text(action: &Action) -> String {
        text::action_text(action)
    }

    fn public_action_text(_: &View, action: &Action) -> String {
        text::action_text(action)
    }

    fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
        text::event_text(event, viewer)
    }

    fn outcome_text(outcome: &game::Outcome, viewer: Viewer) -> String {
        text::outcome_text(outcome, viewer)
    }

    fn parse_action(_: &View, typed: &str) -> Result<Action, cards::ParseError> {
        text::parse_action(typed)
    }

    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        text::hints(view, legal)
    }

    fn help() -> &'static str {
        text::HELP
    }

    /// 30 seconds a play.
    fn clock(_: &State) -> Clock {
        Clock {
            phase: "play",
            seconds: 30,
        }
    }

    fn next_game(config: &Config, _seats: usize, finished: &State) -> Config {
        BigTwo::outcome(finished)
            .and_then(|o| Config::next_deal(&o))
            .unwrap_or(*config)
    }
}
