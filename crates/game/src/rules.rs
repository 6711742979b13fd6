//! The Rules trait (pure game rules) and GameSpec (what tools need around them).

use crate::{Bot, Seat, Seed, ToAct, Viewer};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::Debug;
use std::ops::RangeInclusive;

/// Why an action or a configuration was refused. The state is always left as it was.
///
/// Messages are for the player who tried: "not your turn", "you do not hold 3 3", "a pair
/// cannot follow a single". Programs (a server, a client) act on [`RuleError::code`]
/// instead of parsing the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RuleError {
    /// The seat may not act now. The message does not name the seat: the one who tried
    /// knows it, and people number seats from 1 where programs index them from 0.
    #[error("not your turn")]
    NotYourTurn(Seat),
    /// The game has ended; nothing more can be played.
    #[error("the game is over")]
    GameOver,
    /// The action does not exist in this phase (a bid during play, a play during bidding).
    #[error("{0}")]
    WrongPhase(String),
    /// The action breaks a rule; the message says which.
    #[error("{0}")]
    Illegal(String),
    /// The table's configuration cannot be played (wrong number of seats, bad option).
    #[error("{0}")]
    BadConfig(String),
}

impl RuleError {
    /// A stable machine-readable code, one per variant: `not_your_turn`, `game_over`,
    /// `wrong_phase`, `illegal`, `bad_config`. Clients switch on it; the message beside it is
    /// for people and may be reworded.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::NotYourTurn(_) => "not_your_turn",
            RuleError::GameOver => "game_over",
            RuleError::WrongPhase(_) => "wrong_phase",
            RuleError::Illegal(_) => "illegal",
            RuleError::BadConfig(_) => "bad_config",
        }
    }
}

/// How long a seat may think, for a table's turn timer: the phase's name (so a table's
/// options can change one phase's time, `{"bid": 15}`) and its default in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Clock {
    /// The phase, in the game's words: `bid`, `play`, `grab`, `declare`, `move`.
    pub phase: &'static str,
    /// What a person finds fair for it, in seconds.
    pub seconds: u32,
}

/// How a finished game ended, per seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Each seat's score change (penalty points count negative).
    pub scores: Vec<i64>,
    /// Each seat: whether it is on the winning side. All false in a draw (in Ten and a
    /// half, the seats with the fewest penalty points win; all false when they tie).
    pub won: Vec<bool>,
    /// Each seat's role in this game in the game's vocabulary ("landlord", "peasant",
    /// "black", "dealer"): self-play reports results per bot and role.
    pub roles: Vec<String>,
}

/// The rules of one game: a pure, deterministic state machine.
///
/// A game is `start(config, seats, seed)` followed by `apply` of each action; nothing else
/// changes a state, and nothing but [`Rules::view`] lets information out of it. Every method
/// is a function of its arguments, so a [`Record`](crate::Record) of the actions replays
/// exactly.
pub trait Rules: Sized + 'static {
    /// The game's id in the registry, records and commands: `doudizhu`, `gomoku`, ….
    const ID: &'static str;
    /// The game's name for people: `斗地主 Dou Dizhu`.
    const NAME: &'static str;

    /// Table options (variants, scoring options). `Default` is the standard game.
    type Config: Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync + 'static;
    /// Everything about a game in progress, hidden cards included. Never shown to a player.
    type State: Clone + Send + Sync + 'static;
    /// One move by one seat; its JSON form is what clients send.
    type Action: Serialize + DeserializeOwned + Clone + Eq + Debug + Send + Sync + 'static;
    /// What the other seats may learn of an action: in most games the action itself, but a
    /// private choice (五人斗地主's hidden solo, which must look exactly like a partner
    /// call) has a public form that hides it. Records keep the private form sealed until
    /// the game is over.
    type PublicAction: Serialize + DeserializeOwned + Clone + Eq + Debug + Send + Sync + 'static;
    /// What one seat (or a spectator) may know; the only way information leaves a state.
    /// Deserializable too, so a remote terminal client can draw the view a server sent.
    type View: Serialize + DeserializeOwned + Clone + Send + Sync + 'static;
    /// A public happening, for the table log and animations.
    /// Deserializable too, so a remote client can describe what a server sent.
    type Event: Serialize + DeserializeOwned + Clone + Debug + Send + 'static;

    /// How many seats the game can be played with.
    fn seats(config: &Self::Config) -> RangeInclusive<usize>;

    /// Deals a new game. All randomness of the game must come from `seed`.
    fn start(config: &Self::Config, seats: usize, seed: &Seed) -> Result<Self::State, RuleError>;

    /// Who must act next.
    fn to_act(state: &Self::State) -> ToAct;

    /// Appends every legal action of `seat` to `out` (nothing if the seat may not act).
    /// Hot path of self-play: no allocation beyond `out`'s own growth.
    fn legal_into(state: &Self::State, seat: Seat, out: &mut Vec<Self::Action>);

    /// Every legal action of `seat`.
    fn legal(state: &Self::State, seat: Seat) -> Vec<Self::Action> {
        let mut out = Vec::new();
        Self::legal_into(state, seat, &mut out);
        out
    }

    /// The action of the legal list that `action` is a form of. A game may accept forms
    /// its list leaves out, since listing them all would cost too much — 五人斗地主 lists
    /// plays by rank and accepts them with the suits the player chose — and a bot or an
    /// engine answering in such a form is checked against the list through this. The
    /// default is the action itself.
    fn listed(action: &Self::Action) -> Self::Action {
        action.clone()
    }

    /// Applies `action` by `seat`, appending what happened to `events`. On `Err` neither the
    /// state nor `events` has changed.
    fn apply(
        state: &mut Self::State,
        seat: Seat,
        action: Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), RuleError>;

    /// What a seat does when its time runs out (pass, decline, the cheapest legal play).
    /// Always legal when the seat is to act.
    fn default_action(state: &Self::State, seat: Seat) -> Self::Action;

    /// What `viewer` may know of the game.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// The result, once [`Rules::to_act`] says `Finished`.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// The public form of `action`: what every seat but the actor may learn of it. Two
    /// actions that the others must not be able to tell apart have the same public form.
    fn public_action(action: &Self::Action) -> Self::PublicAction;
}

/// Everything a game offers beyond its rules: bots, the judge, and a text face for terminals.
///
/// The registry, the `qipai` binary and the server use only this trait and [`Rules`].
pub trait GameSpec: Rules {
    /// How a hall shows the game to people: names, a line about it, an icon, a screen.
    const PRESENTATION: crate::Presentation;

    /// Why typed text is not an action ([`GameSpec::parse_action`]), in the game's words:
    /// a bid that is no bid, cards that are no play, a point off the board. Each game
    /// names its own mistakes; the registry passes the message on as
    /// [`GameError::BadAction`](crate::GameError::BadAction) (code `bad_action`).
    type ParseError: std::error::Error + Send + Sync + 'static;

    /// The default configuration as a hall offers it to people setting up a table: the
    /// default's JSON, with every option a person may set written out — also those the
    /// configuration's JSON leaves out at their default so that older records read as
    /// they did — so that a page finds each option there. The default is the JSON of
    /// `Config::default()`.
    fn offered_config() -> serde_json::Value {
        serde_json::to_value(Self::Config::default()).unwrap_or(serde_json::Value::Null)
    }

    /// Names of the bots this game offers, strongest last; `"random"` is always one.
    fn bot_names() -> &'static [&'static str];

    /// The bot that fills a seat when nobody picks one: the strongest that answers quickly
    /// enough for people at a table. The last of [`GameSpec::bot_names`] unless a game
    /// offers something stronger but slower after it (the card games' `search:strong`,
    /// about a second a move).
    fn default_bot() -> &'static str {
        Self::bot_names().last().copied().unwrap_or("random")
    }

    /// The strongest bot that answers in about a millisecond, with no search: what load
    /// runs and test halls seat, where a second a move would only make them slow. One of
    /// [`GameSpec::bot_names`].
    fn quick_bot() -> &'static str;

    /// The computers' strengths a table offers people, weakest first: each a level's
    /// name and the bot that plays it. The names are words a page translates — `easy`,
    /// `normal`, `strong` — or a game's own numbered levels (Gomoku's `L1`…`L10`). By
    /// default easy is the quick bot, normal the default bot and strong the last bot
    /// named, a bot offered once under its weakest name.
    fn levels() -> Vec<(&'static str, &'static str)> {
        let mut levels: Vec<(&'static str, &'static str)> = Vec::new();
        let strongest = Self::bot_names().last().copied().unwrap_or("random");
        for (name, bot) in [
            ("easy", Self::quick_bot()),
            ("normal", Self::default_bot()),
            ("strong", strongest),
        ] {
            if !levels.iter().any(|(_, b)| *b == bot) {
                levels.push((name, bot));
            }
        }
        levels
    }

    /// A new bot by name, its randomness drawn from `seed`. `None` for an unknown name.
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>>;

    /// Answers one judge request (a JSON object with an `"op"`), never panicking: malformed
    /// requests answer `{"ok":false,"error":…}`.
    fn judge(request: &serde_json::Value) -> serde_json::Value;

    /// The table as text for a terminal, from `viewer`'s side.
    fn render(view: &Self::View, viewer: Viewer) -> String;

    /// An action in the text a player types (`3 3 3 4`, `pass`, `h8`).
    fn action_text(action: &Self::Action) -> String;

    /// An action as a player at this table reads it. Some text needs the table: a Gomoku
    /// point is named as the board prints it (`h8`), and its row number depends on the
    /// board's size. Tables (the move log, hints) use this; the default is
    /// [`GameSpec::action_text`].
    fn action_text_at(view: &Self::View, action: &Self::Action) -> String {
        let _ = view;
        Self::action_text(action)
    }

    /// Reads an action typed by a player. The view gives context (a hand to check against,
    /// the current phase); the rules still decide legality when the action is applied.
    /// The error's message is what the player reads: it says what to type instead.
    fn parse_action(view: &Self::View, text: &str) -> Result<Self::Action, Self::ParseError>;

    /// The actions a `hint` command cycles through, best suggestions first. The default is
    /// the legal actions in generation order.
    fn hints(view: &Self::View, legal: &[Self::Action]) -> Vec<Self::Action> {
        let _ = view;
        legal.to_vec()
    }

    /// A one-paragraph help text for the terminal: what to type.
    fn help() -> &'static str;

    /// A public action in the text a player reads in the table's log, at the table `view`
    /// shows. The default is its JSON; every game overrides it.
    fn public_action_text(view: &Self::View, action: &Self::PublicAction) -> String {
        let _ = view;
        serde_json::to_string(action).unwrap_or_else(|e| format!("<{e}>"))
    }

    /// One line for the table's log telling `viewer` what happened ("seat 2 plays 3 3 3 4,
    /// a trio with a solo"), or `None` for events that need no line of their own.
    fn event_text(event: &Self::Event, viewer: Viewer) -> Option<String> {
        let _ = (event, viewer);
        None
    }

    /// The end of a game in one plain line for `viewer`: "you win, +6" rather than a list
    /// of scores. The default speaks of winning sides and score changes; games scored
    /// otherwise (penalty points) override it.
    fn outcome_text(outcome: &Outcome, viewer: Viewer) -> String {
        crate::text::outcome_line(outcome, viewer)
    }

    /// The configuration of a table where a person at `person` plays against computers in
    /// every other seat. Rules made for people playing each other may relax against a
    /// machine (a Gomoku undo is granted at once), and a game may seat the rotation so the
    /// person gets to act in the first game (Ten and a half's dealer acts last and may
    /// never get a turn). The default changes nothing.
    fn against_computer(config: Self::Config, person: Seat, seats: usize) -> Self::Config {
        let _ = (person, seats);
        config
    }

    /// Why a configuration does not make a random game: it fixes what the seed would have
    /// decided (hand-picked hands, a fixed landlord). `None` for a fair configuration.
    /// Tables for people refuse such configurations, and `qipai verify` accepts their
    /// records only when asked to, saying "custom deal, not a random one".
    fn custom_setup(config: &Self::Config) -> Option<String> {
        let _ = config;
        None
    }

    /// The configuration of a match's next game after `finished`, the final state of the
    /// last one: where the rotation moves (Dou Dizhu's first bidder, Big Two's opening
    /// lead, Ten and a half's dealer). The default plays the same configuration again.
    fn next_game(config: &Self::Config, seats: usize, finished: &Self::State) -> Self::Config {
        let _ = (seats, finished);
        config.clone()
    }

    /// The turn timer for the seat(s) to act now. The default is 30 seconds for any turn.
    fn clock(state: &Self::State) -> Clock {
        let _ = state;
        Clock {
            phase: "turn",
            seconds: 30,
        }
    }

    /// Each seat's thinking time for the whole game, in seconds, for games played on a
    /// chess clock (Gomoku); `None` when only the turn timer applies.
    fn game_clock() -> Option<u32> {
        None
    }

    /// The file formats a finished game can be exported to (`sgf`, `psq`).
    fn export_formats() -> &'static [&'static str] {
        &[]
    }

    /// A finished game in one of [`GameSpec::export_formats`]; `None` for another format.
    fn export(format: &str, finished: &Self::State) -> Option<String> {
        let _ = (format, finished);
        None
    }

    /// The formats of other programs' game records this game reads (Gomoku: `sgf`,
    /// `psq`), so records from elsewhere can be replayed, checked and exported again.
    fn import_formats() -> &'static [&'static str] {
        &[]
    }

    /// A game written in one of [`GameSpec::import_formats`]: the configuration it was
    /// played under (`config` supplies what the format does not say, such as PSQ's rule)
    /// and its actions in order. `Err(why)` for a text that is not such a game.
    fn import(
        format: &str,
        text: &str,
        config: &Self::Config,
    ) -> Result<(Self::Config, Vec<Self::Action>), String> {
        let _ = (text, config);
        Err(format!("{} reads no {format} records", Self::NAME))
    }

    /// Whether chance plays a part at a table of `config`: `false` where there is nothing
    /// to deal (Gomoku from the empty board), whose seed decides nothing — a terminal does
    /// not offer to "replay this deal" then.
    fn uses_seed(config: &Self::Config) -> bool {
        let _ = config;
        true
    }

    /// The name of an external engine protocol this game speaks (`"gomocup"`), so the
    /// binary can offer `--engine` without knowing games by name. `None` for none.
    fn engine_protocol() -> Option<&'static str> {
        None
    }

    /// This game's own player of its [`GameSpec::engine_protocol`] (a Gomocup brain for
    /// Gomoku), for `qipai gomocup`; `None` for a game without one.
    fn brain() -> Option<Box<dyn crate::Brain>> {
        None
    }
}
