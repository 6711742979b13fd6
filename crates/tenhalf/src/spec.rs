//! What Ten and a half offers around its rules: bots, the judge, the text face, and the
//! match between games (the dealer moves one seat on).

use crate::bots::{CountingBot, SeedBot};
use crate::state::{Action, Config, Event, State};
use crate::view::View;
use crate::{judge, text, TenHalf};
use game::{Bot, Clock, GameSpec, Outcome, RandomBot, Seat, Seed, Viewer};

impl GameSpec for TenHalf {
    const PRESENTATION: game::Presentation = game::Presentation {
        name_zh: "十点半",
        name_en: "Ten and a half",
        blurb_zh: "二至八人：要牌凑近十点半，别爆。",
        blurb_en: "2–8 players: draw close to ten and a half without going bust.",
        icon: "½",
        screen: "tenhalf",
    };

    type ParseError = text::NotAMove;

    fn bot_names() -> &'static [&'static str] {
        &["random", "seed", "counting"]
    }

    fn quick_bot() -> &'static str {
        "counting"
    }

    /// Easy draws at random, normal stands at 9 as the original rules' players do, strong
    /// counts the cards seen.
    fn levels() -> Vec<(&'static str, &'static str)> {
        vec![
            ("easy", "random"),
            ("normal", "seed"),
            ("strong", "counting"),
        ]
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

    fn parse_action(_view: &View, text: &str) -> Result<Action, text::NotAMove> {
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

    /// 20 seconds to hit or stand.
    fn clock(_: &State) -> Clock {
        Clock {
            phase: "turn",
            seconds: 20,
        }
    }

    fn public_action_text(_: &View, action: &Action) -> String {
        text::action_text(*action).to_string()
    }

    fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
        text::event_text(event, viewer)
    }

    /// Ten and a half is scored in penalty points, lower better: the line says how many
    /// the viewer took and who took the fewest, not "you win, -6".
    fn outcome_text(outcome: &Outcome, viewer: Viewer) -> String {
        text::outcome_text(outcome, viewer)
    }

    /// The dealer plays last and, at a full table, may find the deck empty before a
    /// turn: the person's left-hand neighbour deals first, so the person plays first.
    fn against_computer(mut config: Config, person: Seat, seats: usize) -> Config {
        let seats = seats.max(1);
        config.dealer = (person + seats - 1) % seats;
        config
    }

    fn next_game(config: &Config, seats: usize, _finished: &State) -> Config {
        config.next_game(seats)
    }
}
