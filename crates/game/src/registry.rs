//! The type-erased registry: every game behind one JSON-in, JSON-out interface.
//!
//! The server and the `qipai` binary never name a game's types. They look a game up by id in
//! a [`Registry`] and talk to it through [`ErasedGame`] (judge, self-play, new tables,
//! replay) and [`Table`] (one game in progress). [`entry`] builds that interface for any
//! [`GameSpec`], so adding a game is one line where the registry is filled.

use crate::record::{RecordedAction, ReplayError};
use crate::sim::{SimOptions, SimReport};
use crate::{Bot, Decision, GameSpec, Outcome, Record, RuleError, Seat, Seed, ToAct, Viewer};
use serde_json::Value;
use std::marker::PhantomData;
use std::ops::RangeInclusive;

/// Anything that can go wrong between a caller and a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No game has this id.
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    /// The rules refused; the state is unchanged.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The action is not in the game's JSON or text form.
    #[error("cannot read the action: {0}")]
    BadAction(String),
    /// The configuration does not parse or cannot be played.
    #[error("bad configuration: {0}")]
    BadConfig(String),
    /// No bot of that name in that game.
    #[error("{game} has no bot '{bot}' (bots: {known})")]
    UnknownBot {
        /// The game.
        game: String,
        /// The name asked for.
        bot: String,
        /// The names it has.
        known: String,
    },
    /// The seat has no bot to move for it.
    #[error("seat {0} has no bot")]
    NoBot(Seat),
    /// A record would not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A game made no progress (a bug, reported rather than hung on).
    #[error("game stuck: {0}")]
    Stuck(String),
    /// A bot outside the game's crate (an external engine, a remote client) failed or
    /// answered with something that is not a legal action.
    #[error("the bot of seat {seat} failed: {message}")]
    BotFailed {
        /// The seat it plays.
        seat: Seat,
        /// What went wrong.
        message: String,
    },
}

/// A computer player that lives outside the game's crate and speaks JSON: an external
/// engine behind a protocol, or (later) a remote client. It sees exactly what a seat may
/// see — the seat's view and the legal actions, in the game's JSON forms — and answers one
/// action in the same form.
pub trait JsonBot: Send {
    /// The chosen action, or why none could be chosen (the engine crashed, timed out…).
    fn act(&mut self, seat: Seat, view: &Value, legal: &[Value]) -> Result<Value, String>;
}

/// One game as the registry sees it.
pub trait ErasedGame: Send + Sync {
    /// The game's id (`doudizhu`).
    fn id(&self) -> &'static str;
    /// The game's name for people.
    fn name(&self) -> &'static str;
    /// The default configuration, as JSON.
    fn default_config(&self) -> Value;
    /// The numbers of seats the configuration allows.
    fn seats(&self, config: &Value) -> Result<RangeInclusive<usize>, GameError>;
    /// The bots the game offers.
    fn bot_names(&self) -> &'static [&'static str];
    /// The configuration for a table against computer players (see
    /// [`GameSpec::against_computer`]).
    fn against_computer(&self, config: &Value) -> Result<Value, GameError>;
    /// What to type at a terminal.
    fn help(&self) -> &'static str;
    /// Starts a table. `config` `null` means the default.
    fn new_table(
        &self,
        id: &str,
        config: &Value,
        seats: usize,
        seed: Seed,
    ) -> Result<Box<dyn Table>, GameError>;
    /// Rebuilds a table from its record and secret seed (a server resuming after a crash).
    fn resume(&self, record: &Record, seed: Seed) -> Result<Box<dyn Table>, GameError>;
    /// Checks a finished record (see [`Record::verify`]).
    fn verify(&self, record: &Record) -> Result<Outcome, GameError>;
    /// Answers one judge request.
    fn judge(&self, request: &Value) -> Value;
    /// Runs self-play.
    fn sim(&self, opts: &SimOptions) -> Result<SimReport, GameError>;
}

/// One game in progress behind JSON: what a server table task or a terminal session holds.
///
/// Every accepted action is appended to the record before `apply` returns, so the record is
/// always the exact history of the state.
pub trait Table: Send {
    /// The game's id.
    fn game(&self) -> &'static str;
    /// Who must act.
    fn to_act(&self) -> ToAct;
    /// The legal actions of `seat`, as JSON.
    fn legal(&self, seat: Seat) -> Vec<Value>;
    /// Applies a JSON action; returns the events as JSON.
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Vec<Value>, GameError>;
    /// Applies an action typed as text (`3 3 4`, `pass`); returns the events.
    fn apply_text(&mut self, seat: Seat, text: &str) -> Result<Vec<Value>, GameError>;
    /// Applies the seat's timeout action.
    fn apply_default(&mut self, seat: Seat) -> Result<Vec<Value>, GameError>;
    /// Lets a bot play `seat` from now on (an empty seat, or a player who dropped).
    fn set_bot(&mut self, seat: Seat, name: &str, seed: &Seed) -> Result<(), GameError>;
    /// Lets a [`JsonBot`] play `seat` from now on.
    fn set_json_bot(&mut self, seat: Seat, bot: Box<dyn JsonBot>) -> Result<(), GameError>;
    /// Gives the seat back to a person.
    fn clear_bot(&mut self, seat: Seat);
    /// Whether a bot plays `seat`.
    fn has_bot(&self, seat: Seat) -> bool;
    /// Lets the seat's bot choose and applies its choice; returns the action and the events.
    fn bot_move(&mut self, seat: Seat) -> Result<(Value, Vec<Value>), GameError>;
    /// What `viewer` may see, as JSON.
    fn view(&self, viewer: Viewer) -> Value;
    /// What `viewer` may see, as text for a terminal.
    fn render(&self, viewer: Viewer) -> String;
    /// The suggestions a `hint` command cycles through for `seat`, as typed text.
    fn hints(&self, seat: Seat) -> Vec<String>;
    /// An action as the text a player types.
    fn action_text(&self, action: &Value) -> String;
    /// The result once finished.
    fn outcome(&self) -> Option<Outcome>;
    /// The record so far; it carries the seed only once the game is over.
    fn record(&self) -> Record;
}

/// The registry entry of a [`GameSpec`]: see [`entry`].
pub struct Entry<R>(PhantomData<fn() -> R>);

/// The type-erased interface of a game, for a [`Registry`].
pub fn entry<R: GameSpec>() -> Box<dyn ErasedGame> {
    Box::new(Entry::<R>(PhantomData))
}

fn parse_config<R: GameSpec>(config: &Value) -> Result<R::Config, GameError> {
    if config.is_null() {
        Ok(R::Config::default())
    } else {
        serde_json::from_value(config.clone()).map_err(|e| GameError::BadConfig(e.to_string()))
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    // Serializing our own plain data types cannot fail; a null keeps callers going if a
    // future type ever could.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl<R: GameSpec> ErasedGame for Entry<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn default_config(&self) -> Value {
        to_json(&R::Config::default())
    }

    fn seats(&self, config: &Value) -> Result<RangeInclusive<usize>, GameError> {
        Ok(R::seats(&parse_config::<R>(config)?))
    }

    fn bot_names(&self) -> &'static [&'static str] {
        R::bot_names()
    }

    fn against_computer(&self, config: &Value) -> Result<Value, GameError> {
        Ok(to_json(&R::against_computer(parse_config::<R>(config)?)))
    }

    fn help(&self) -> &'static str {
        R::help()
    }

    fn new_table(
        &self,
        id: &str,
        config: &Value,
        seats: usize,
        seed: Seed,
    ) -> Result<Box<dyn Table>, GameError> {
        let cfg = parse_config::<R>(config)?;
        let state = R::start(&cfg, seats, &seed)?;
        Ok(Box::new(TypedTable::<R> {
            state,
            seed,
            record: Record {
                game: R::ID.into(),
                id: id.into(),
                config: to_json(&cfg),
                seats,
                commitment: seed.commitment(),
                seed: None,
                actions: Vec::new(),
                outcome: None,
            },
            bots: (0..seats).map(|_| None).collect(),
        }))
    }

    fn resume(&self, record: &Record, seed: Seed) -> Result<Box<dyn Table>, GameError> {
        let state = record.replay_with_seed::<R>(&seed)?;
        let mut record = record.clone();
        record.seed = None;
        record.outcome = None;
        Ok(Box::new(TypedTable::<R> {
            state,
            seed,
            bots: (0..record.seats).map(|_| None).collect(),
            record,
        }))
    }

    fn verify(&self, record: &Record) -> Result<Outcome, GameError> {
        Ok(record.verify::<R>()?)
    }

    fn judge(&self, request: &Value) -> Value {
        R::judge(request)
    }

    fn sim(&self, opts: &SimOptions) -> Result<SimReport, GameError> {
        crate::sim::run::<R>(opts)
    }
}

/// Who plays a seat for the table: one of the game's own bots, or a JSON bot.
enum SeatBot<R: GameSpec> {
    Native(Box<dyn Bot<R>>),
    Json(Box<dyn JsonBot>),
}

struct TypedTable<R: GameSpec> {
    state: R::State,
    seed: Seed,
    record: Record,
    bots: Vec<Option<SeatBot<R>>>,
}

impl<R: GameSpec> TypedTable<R> {
    fn apply_typed(&mut self, seat: Seat, action: R::Action) -> Result<Vec<Value>, GameError> {
        let mut events = Vec::new();
        R::apply(&mut self.state, seat, action.clone(), &mut events)?;
        self.record.actions.push(RecordedAction {
            seat,
            action: to_json(&action),
        });
        Ok(events.iter().map(to_json).collect())
    }
}

impl<R: GameSpec> Table for TypedTable<R> {
    fn game(&self) -> &'static str {
        R::ID
    }

    fn to_act(&self) -> ToAct {
        R::to_act(&self.state)
    }

    fn legal(&self, seat: Seat) -> Vec<Value> {
        R::legal(&self.state, seat).iter().map(to_json).collect()
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Vec<Value>, GameError> {
        let action: R::Action = serde_json::from_value(action.clone())
            .map_err(|e| GameError::BadAction(e.to_string()))?;
        self.apply_typed(seat, action)
    }

    fn apply_text(&mut self, seat: Seat, text: &str) -> Result<Vec<Value>, GameError> {
        let view = R::view(&self.state, Viewer::Seat(seat));
        let action = R::parse_action(&view, text).map_err(GameError::BadAction)?;
        self.apply_typed(seat, action)
    }

    fn apply_default(&mut self, seat: Seat) -> Result<Vec<Value>, GameError> {
        if !R::to_act(&self.state).includes(seat) {
            return Err(RuleError::NotYourTurn(seat).into());
        }
        let action = R::default_action(&self.state, seat);
        self.apply_typed(seat, action)
    }

    fn set_bot(&mut self, seat: Seat, name: &str, seed: &Seed) -> Result<(), GameError> {
        let bot = R::bot(name, seed).ok_or_else(|| GameError::UnknownBot {
            game: R::ID.into(),
            bot: name.into(),
            known: R::bot_names().join(", "),
        })?;
        let slot = self
            .bots
            .get_mut(seat)
            .ok_or_else(|| GameError::BadConfig(format!("no seat {seat}")))?;
        *slot = Some(SeatBot::Native(bot));
        Ok(())
    }

    fn set_json_bot(&mut self, seat: Seat, bot: Box<dyn JsonBot>) -> Result<(), GameError> {
        let slot = self
            .bots
            .get_mut(seat)
            .ok_or_else(|| GameError::BadConfig(format!("no seat {seat}")))?;
        *slot = Some(SeatBot::Json(bot));
        Ok(())
    }

    fn clear_bot(&mut self, seat: Seat) {
        if let Some(slot) = self.bots.get_mut(seat) {
            *slot = None;
        }
    }

    fn has_bot(&self, seat: Seat) -> bool {
        self.bots.get(seat).is_some_and(Option::is_some)
    }

    fn bot_move(&mut self, seat: Seat) -> Result<(Value, Vec<Value>), GameError> {
        if !R::to_act(&self.state).includes(seat) {
            return Err(RuleError::NotYourTurn(seat).into());
        }
        let legal = R::legal(&self.state, seat);
        let bot = self
            .bots
            .get_mut(seat)
            .and_then(Option::as_mut)
            .ok_or(GameError::NoBot(seat))?;
        let action = match bot {
            SeatBot::Native(bot) => bot.act(&Decision::from_state(&self.state, seat, &legal)),
            SeatBot::Json(bot) => {
                let failed = |message: String| GameError::BotFailed { seat, message };
                let view = to_json(&R::view(&self.state, Viewer::Seat(seat)));
                let legal_json: Vec<Value> = legal.iter().map(to_json).collect();
                let answer = bot.act(seat, &view, &legal_json).map_err(failed)?;
                let action: R::Action = serde_json::from_value(answer.clone())
                    .map_err(|e| failed(format!("answered {answer}: {e}")))?;
                if !legal.contains(&action) {
                    return Err(failed(format!(
                        "answered {answer}, which is not legal here"
                    )));
                }
                action
            }
        };
        let json = to_json(&action);
        let events = self.apply_typed(seat, action)?;
        Ok((json, events))
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&R::view(&self.state, viewer))
    }

    fn render(&self, viewer: Viewer) -> String {
        R::render(&R::view(&self.state, viewer), viewer)
    }

    fn hints(&self, seat: Seat) -> Vec<String> {
        let legal = R::legal(&self.state, seat);
        let view = R::view(&self.state, Viewer::Seat(seat));
        R::hints(&view, &legal)
            .iter()
            .map(|a| R::action_text_at(&view, a))
            .collect()
    }

    fn action_text(&self, action: &Value) -> String {
        match serde_json::from_value::<R::Action>(action.clone()) {
            Ok(a) => R::action_text_at(&R::view(&self.state, Viewer::Spectator), &a),
            Err(_) => action.to_string(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        R::outcome(&self.state)
    }

    fn record(&self) -> Record {
        let mut record = self.record.clone();
        if let Some(outcome) = R::outcome(&self.state) {
            record.seed = Some(self.seed);
            record.outcome = Some(outcome);
        }
        record
    }
}

/// All games, by id.
#[derive(Default)]
pub struct Registry {
    games: Vec<Box<dyn ErasedGame>>,
}

impl Registry {
    /// An empty registry; fill it with [`Registry::with`].
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a game.
    pub fn with(mut self, game: Box<dyn ErasedGame>) -> Self {
        self.games.push(game);
        self
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Result<&dyn ErasedGame, GameError> {
        self.games
            .iter()
            .find(|g| g.id() == id)
            .map(|g| g.as_ref())
            .ok_or_else(|| GameError::UnknownGame(id.into()))
    }

    /// Every game, in registration order.
    pub fn games(&self) -> impl Iterator<Item = &dyn ErasedGame> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// The ids, for help texts.
    pub fn ids(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.id()).collect()
    }
}
