//! What Dou Dizhu offers around its rules: bots, the judge, the text face, and the match
//! between games (the first bidder moves one seat on).

use crate::rules::{Action, Config, DouDizhu, Event, Phase, State};
use crate::{bots, text, View};
use game::{Bot, Clock, GameSpec, Seed, Viewer};

impl GameSpec for DouDizhu {
    const PRESENTATION: game::Presentation = game::Presentation {
        name_zh: "斗地主",
        name_en: "Dou Dizhu",
        blurb_zh: "三人，一副牌：叫分抢地主，两个农民联手。",
        blurb_en: "Three players, one deck: bid to be landlord; two farmers team up.",
        icon: "🂡",
        screen: "cards",
    };

    type ParseError = text::ParseActionError;

    /// The default, with the stakes options written out although their JSON leaves them
    /// out when off: `"doubling": "off"` and `"show_cards": false`, for a page to offer.
    fn offered_config() -> serde_json::Value {
        let mut config = serde_json::to_value(Config::default()).unwrap_or_default();
        if let Some(map) = config.as_object_mut() {
            map.insert("doubling".into(), "off".into());
            map.insert("show_cards".into(), false.into());
        }
        config
    }

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

    fn parse_action(view: &View, typed: &str) -> Result<Action, text::ParseActionError> {
        text::parse_action(view, typed)
    }

    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        text::hints(view, legal)
    }

    fn help() -> &'static str {
        text::help()
    }

    /// 20 seconds to bid, 15 to choose a doubling (加倍) or whether to show (明牌), 30 to
    /// play.
    fn clock(state: &State) -> Clock {
        match state.phase() {
            Phase::Bidding => Clock {
                phase: "bid",
                seconds: 20,
            },
            Phase::Doubling => Clock {
                phase: "double",
                seconds: 15,
            },
            Phase::Showing => Clock {
                phase: "show",
                seconds: 15,
            },
            _ => Clock {
                phase: "play",
                seconds: 30,
            },
        }
    }

    fn custom_setup(config: &Config) -> Option<String> {
        match (&config.deal, config.landlord) {
            (Some(_), _) => {
                Some("the hands were chosen (config.deal), not dealt from the seed".into())
            }
            (None, Some(seat)) => Some(format!(
                "seat {seat} was made landlord (config.landlord) without bidding"
            )),
            (None, None) => None,
        }
    }

    fn next_game(config: &Config, seats: usize, finished: &State) -> Config {
        Config {
            first_bidder: Some((finished.first_bidder + 1) % seats.max(1)),
            ..config.clone()
        }
    }
}
