//! What 五人斗地主 offers around its rules: bots, the judge and the text face.

use crate::{bots, text, Action, Config, DouDizhu5, Event, Phase, PublicAction, State, View};
use game::{Bot, Clock, GameSpec, Seed, Viewer};

impl GameSpec for DouDizhu5 {
    const PRESENTATION: game::Presentation = game::Presentation {
        name_zh: "五人斗地主",
        name_en: "Five-player Dou Dizhu",
        blurb_zh: "五人三副牌，如东三打二：抢明牌，暗叫或明叫找帮手。",
        blurb_en: "Five players, three decks: grab the face-up card, call a partner or go solo.",
        icon: "🃏",
        screen: "cards",
    };

    type ParseError = text::ParseActionError;

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

    fn public_action_text(_: &View, action: &PublicAction) -> String {
        text::public_action_text(action)
    }

    fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
        text::event_text(event, viewer)
    }

    fn parse_action(view: &View, typed: &str) -> Result<Action, text::ParseActionError> {
        text::parse_action(view, typed)
    }

    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        text::hints(view, legal)
    }

    fn help() -> &'static str {
        text::HELP
    }

    /// The grab and the declaration have the table's own times (10 s by the original
    /// rules); 30 seconds a play.
    fn clock(state: &State) -> Clock {
        match state.phase() {
            Phase::Grab => Clock {
                phase: "grab",
                seconds: state.config.grab_seconds,
            },
            Phase::Declare => Clock {
                phase: "declare",
                seconds: state.config.declare_seconds,
            },
            _ => Clock {
                phase: "play",
                seconds: 30,
            },
        }
    }

    fn custom_setup(config: &Config) -> Option<String> {
        config
            .deal
            .as_ref()
            .map(|_| "the hands were chosen (config.deal), not dealt from the seed".into())
    }
}
