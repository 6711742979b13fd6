//! What 五人斗地主 offers around its rules: bots, the judge and the text face.

use crate::{bots, text, Action, Config, DouDizhu5, Event, PublicAction, View};
use game::{Bot, GameSpec, Seed, Viewer};

impl GameSpec for DouDizhu5 {
    fn bot_names() -> &'static [&'static str] {
        bots::NAMES
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

    fn parse_action(view: &View, typed: &str) -> Result<Action, String> {
        text::parse_action(view, typed)
    }

    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        text::hints(view, legal)
    }

    fn help() -> &'static str {
        text::HELP
    }

    fn custom_setup(config: &Config) -> Option<String> {
        config
            .deal
            .as_ref()
            .map(|_| "the hands were chosen (config.deal), not dealt from the seed".into())
    }
}
