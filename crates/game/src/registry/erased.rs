//! One game behind JSON: [`ErasedGame`], and [`entry`], which builds it for any
//! [`GameSpec`].

use super::table::TypedTable;
use super::{to_json, GameError, Table};
use crate::fair::{self, Nonce};
use crate::record::{Verdict, VerifyOptions};
use crate::sim::{GameResult, SimOptions, SimReport};
use crate::{GameSpec, Outcome, Record, RuleError, Seat, Seed, Viewer};
use serde_json::Value;
use std::marker::PhantomData;
use std::ops::RangeInclusive;

/// What a new table needs: its game's id, configuration and seats, the committed server
/// seed and the nonces the seats sent (see [`crate::fair`]).
#[derive(Debug, Clone)]
pub struct TableSetup {
    /// This game's id, unique at its server; the commitment covers it.
    pub id: String,
    /// The configuration in the game's JSON form (`null` for the default).
    pub config: Value,
    /// Number of seats.
    pub seats: usize,
    /// The secret server seed.
    pub seed: Seed,
    /// Each seat's nonce (`None` where none was sent); empty when no seat was asked.
    pub nonces: Vec<Option<Nonce>>,
}

impl TableSetup {
    /// A table with no nonces: a game at a terminal, a test, self-play.
    pub fn new(id: &str, config: Value, seats: usize, seed: Seed) -> TableSetup {
        TableSetup {
            id: id.into(),
            config,
            seats,
            seed,
            nonces: Vec::new(),
        }
    }
}

/// A finished game after some of its actions, as a replay shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReplayStep {
    /// Actions applied so far.
    pub step: usize,
    /// Actions in the whole game.
    pub of: usize,
    /// The last action applied, if any.
    pub action: Option<crate::RecordedAction>,
    /// Every seat's view, in seat order.
    pub seats: Vec<Value>,
    /// The spectator's view.
    pub spectator: Value,
}

/// One game as the registry sees it.
pub trait ErasedGame: Send + Sync {
    /// The game's id (`doudizhu`).
    fn id(&self) -> &'static str;
    /// The game's name for people.
    fn name(&self) -> &'static str;
    /// How a hall shows the game ([`GameSpec::PRESENTATION`]).
    fn presentation(&self) -> crate::Presentation;
    /// The default configuration, as JSON, every option a person may set written out
    /// ([`GameSpec::offered_config`]).
    fn default_config(&self) -> Value;
    /// The configuration read and written back in the game's own form: every option
    /// spelled out, unknown options refused. What a table stores and commits to.
    fn normalize_config(&self, config: &Value) -> Result<Value, GameError>;
    /// The numbers of seats the configuration allows.
    fn seats(&self, config: &Value) -> Result<RangeInclusive<usize>, GameError>;
    /// The bots the game offers.
    fn bot_names(&self) -> &'static [&'static str];
    /// The bot that fills a seat when nobody picks one ([`GameSpec::default_bot`]).
    fn default_bot(&self) -> &'static str;
    /// The quick bot of load runs and test halls ([`GameSpec::quick_bot`]).
    fn quick_bot(&self) -> &'static str;
    /// The computers' strengths offered people, weakest first: (level, bot)
    /// ([`GameSpec::levels`]).
    fn levels(&self) -> Vec<(&'static str, &'static str)>;
    /// The configuration for a person at `person` against computer players (see
    /// [`GameSpec::against_computer`]).
    fn against_computer(
        &self,
        config: &Value,
        person: Seat,
        seats: usize,
    ) -> Result<Value, GameError>;
    /// Why the configuration is not a random game (see [`GameSpec::custom_setup`]).
    fn custom_setup(&self, config: &Value) -> Result<Option<String>, GameError>;
    /// The external engine protocol the game speaks, if any (see
    /// [`GameSpec::engine_protocol`]).
    fn engine_protocol(&self) -> Option<&'static str>;
    /// The game's own player of that protocol ([`GameSpec::brain`]).
    fn brain(&self) -> Option<Box<dyn crate::Brain>>;
    /// Whether the seed decides anything at a table of this configuration (see
    /// [`GameSpec::uses_seed`]); `false` for a configuration the game cannot read.
    fn uses_seed(&self, config: &Value) -> bool;
    /// Each seat's thinking time for a whole game, if the game is played on a chess clock.
    fn game_clock(&self) -> Option<u32>;
    /// The formats [`ErasedGame::export`] writes.
    fn export_formats(&self) -> &'static [&'static str];
    /// A finished record in another file format (Gomoku's SGF and PSQ); `Ok(None)` for a
    /// format the game does not write.
    fn export(&self, record: &Record, format: &str) -> Result<Option<String>, GameError>;
    /// The formats of other programs' records this game reads.
    fn import_formats(&self) -> &'static [&'static str];
    /// Reads a game written by another program and replays it by the rules into a
    /// [`Record`] with the id `id` (its seed is `seed`; such a game was not dealt by us, so
    /// its record proves only that every move was legal). `config` supplies what the format
    /// does not say. `Ok(None)` for a format the game does not read.
    fn import(
        &self,
        format: &str,
        text: &str,
        config: &Value,
        id: &str,
        seed: Seed,
    ) -> Result<Option<Record>, GameError>;
    /// A finished game after its first `step` actions, every seat's view shown: what a
    /// replay steps through once nothing is secret any more.
    fn replay_step(&self, record: &Record, step: usize) -> Result<ReplayStep, GameError>;
    /// What the bot `bot` plays for `seat` given only the seat's view and legal actions
    /// (JSON): a remote client's computer player, the judge's `act` op.
    fn bot_act(
        &self,
        bot: &str,
        seed: &Seed,
        seat: Seat,
        view: &Value,
        legal: &[Value],
    ) -> Result<Value, GameError>;
    /// What to type at a terminal.
    fn help(&self) -> &'static str;
    /// A seat's view (as a table sent it) as text for a terminal: what a remote terminal
    /// client shows, the same screen as local play.
    fn render_view(&self, view: &Value, viewer: Viewer) -> Result<String, GameError>;
    /// Reads an action typed at a terminal, in the context of the seat's view; returns
    /// its JSON form. The rules still decide legality when it is applied.
    fn parse_action(&self, view: &Value, text: &str) -> Result<Value, GameError>;
    /// The hints for a seat, from its view and legal actions, as typed text.
    fn hints(&self, view: &Value, legal: &[Value]) -> Result<Vec<String>, GameError>;
    /// An action (private form) as the text a player reads, at the table `view` shows.
    fn action_text(&self, view: &Value, action: &Value) -> String;
    /// A public action as text for the table's log, at the table `view` shows.
    fn public_action_text(&self, view: &Value, action: &Value) -> String;
    /// An event as one line of the table's log for `viewer`, if it needs one.
    fn event_text(&self, event: &Value, viewer: Viewer) -> Option<String>;
    /// The end of a game in one line for `viewer`.
    fn outcome_text(&self, outcome: &Outcome, viewer: Viewer) -> String;
    /// Starts a table.
    fn new_table(&self, setup: &TableSetup) -> Result<Box<dyn Table>, GameError>;
    /// Rebuilds a table from its journal (the record with its sealed actions, see
    /// [`Table::journal`]) and the secret seed: a server resuming after a crash. A seed
    /// that does not give the record's commitment is refused.
    fn resume(&self, journal: &Record, seed: Seed) -> Result<Box<dyn Table>, GameError>;
    /// Checks a finished record (see [`Record::verify`]).
    fn verify(&self, record: &Record, opts: &VerifyOptions) -> Result<Verdict, GameError>;
    /// Answers one judge request.
    fn judge(&self, request: &Value) -> Value;
    /// Runs self-play, handing each game to `each` (if any) as it ends (see
    /// [`crate::sim::run_each`]).
    fn sim(
        &self,
        opts: &SimOptions,
        each: Option<&(dyn Fn(&GameResult) + Sync)>,
    ) -> Result<SimReport, GameError>;
}

/// The registry entry of a [`GameSpec`]: see [`entry`].
pub struct Entry<R>(PhantomData<fn() -> R>);

/// The type-erased interface of a game, for a [`Registry`](super::Registry).
pub fn entry<R: GameSpec>() -> Box<dyn ErasedGame> {
    Box::new(Entry::<R>(PhantomData))
}

/// A game value from the JSON a table sent (a view, an event, an action).
fn from_json<T: serde::de::DeserializeOwned>(value: &Value, what: &str) -> Result<T, GameError> {
    serde_json::from_value(value.clone())
        .map_err(|e| GameError::BadAction(format!("not a {what}: {e}")))
}

/// The game's configuration from JSON (`null` is the default).
pub(super) fn parse_config<R: GameSpec>(config: &Value) -> Result<R::Config, GameError> {
    if config.is_null() {
        Ok(R::Config::default())
    } else {
        serde_json::from_value(config.clone()).map_err(|e| GameError::BadConfig(e.to_string()))
    }
}

impl<R: GameSpec> ErasedGame for Entry<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn presentation(&self) -> crate::Presentation {
        R::PRESENTATION
    }

    fn default_config(&self) -> Value {
        R::offered_config()
    }

    fn normalize_config(&self, config: &Value) -> Result<Value, GameError> {
        to_json(&parse_config::<R>(config)?)
    }

    fn seats(&self, config: &Value) -> Result<RangeInclusive<usize>, GameError> {
        Ok(R::seats(&parse_config::<R>(config)?))
    }

    fn bot_names(&self) -> &'static [&'static str] {
        R::bot_names()
    }

    fn default_bot(&self) -> &'static str {
        R::default_bot()
    }

    fn quick_bot(&self) -> &'static str {
        R::quick_bot()
    }

    fn levels(&self) -> Vec<(&'static str, &'static str)> {
        R::levels()
    }

    fn against_computer(
        &self,
        config: &Value,
        person: Seat,
        seats: usize,
    ) -> Result<Value, GameError> {
        to_json(&R::against_computer(
            parse_config::<R>(config)?,
            person,
            seats,
        ))
    }

    fn custom_setup(&self, config: &Value) -> Result<Option<String>, GameError> {
        Ok(R::custom_setup(&parse_config::<R>(config)?))
    }

    fn engine_protocol(&self) -> Option<&'static str> {
        R::engine_protocol()
    }

    fn brain(&self) -> Option<Box<dyn crate::Brain>> {
        R::brain()
    }

    fn uses_seed(&self, config: &Value) -> bool {
        parse_config::<R>(config).is_ok_and(|c| R::uses_seed(&c))
    }

    fn game_clock(&self) -> Option<u32> {
        R::game_clock()
    }

    fn export_formats(&self) -> &'static [&'static str] {
        R::export_formats()
    }

    fn export(&self, record: &Record, format: &str) -> Result<Option<String>, GameError> {
        if !R::export_formats().contains(&format) {
            return Ok(None);
        }
        Ok(R::export(format, &record.replay::<R>()?))
    }

    fn import_formats(&self) -> &'static [&'static str] {
        R::import_formats()
    }

    fn import(
        &self,
        format: &str,
        text: &str,
        config: &Value,
        id: &str,
        seed: Seed,
    ) -> Result<Option<Record>, GameError> {
        if !R::import_formats().contains(&format) {
            return Ok(None);
        }
        let (config, actions) =
            R::import(format, text, &parse_config::<R>(config)?).map_err(GameError::BadImport)?;
        let seats = *R::seats(&config).start();
        let mut table = self.new_table(&TableSetup::new(id, to_json(&config)?, seats, seed))?;
        for (n, action) in actions.iter().enumerate() {
            let seat = table.to_act().seats().iter().next().ok_or_else(|| {
                GameError::BadImport(format!("the game is over before move {}", n + 1))
            })?;
            table.apply(seat, &to_json(action)?).map_err(|e| {
                GameError::BadImport(format!("move {} cannot be played: {e}", n + 1))
            })?;
        }
        Ok(Some(table.record()))
    }

    fn replay_step(&self, record: &Record, step: usize) -> Result<ReplayStep, GameError> {
        let mut cut = record.clone();
        cut.actions.truncate(step);
        let state = cut.replay::<R>()?;
        Ok(ReplayStep {
            step: cut.actions.len(),
            of: record.actions.len(),
            action: cut.actions.last().cloned(),
            seats: (0..record.seats)
                .map(|s| to_json(&R::view(&state, Viewer::Seat(s))))
                .collect::<Result<_, _>>()?,
            spectator: to_json(&R::view(&state, Viewer::Spectator))?,
        })
    }

    fn bot_act(
        &self,
        bot: &str,
        seed: &Seed,
        seat: Seat,
        view: &Value,
        legal: &[Value],
    ) -> Result<Value, GameError> {
        let mut player = R::bot(bot, seed).ok_or_else(|| GameError::UnknownBot {
            game: R::ID.into(),
            bot: bot.into(),
            known: R::bot_names().join(", "),
        })?;
        let view = from_json::<R::View>(view, "view")?;
        let legal = legal
            .iter()
            .map(|a| from_json::<R::Action>(a, "action"))
            .collect::<Result<Vec<_>, _>>()?;
        if legal.is_empty() {
            return Err(RuleError::NotYourTurn(seat).into());
        }
        // The answer is one of `legal`, as its asker expects: a form the list leaves
        // out (a suited play) is given as the listed one.
        to_json(&R::listed(
            &player.act(&crate::Decision::from_view(&view, seat, &legal)),
        ))
    }

    fn help(&self) -> &'static str {
        R::help()
    }

    fn render_view(&self, view: &Value, viewer: Viewer) -> Result<String, GameError> {
        Ok(R::render(&from_json::<R::View>(view, "view")?, viewer))
    }

    fn parse_action(&self, view: &Value, text: &str) -> Result<Value, GameError> {
        let view = from_json::<R::View>(view, "view")?;
        to_json(&R::parse_action(&view, text).map_err(|e| GameError::BadAction(e.to_string()))?)
    }

    fn hints(&self, view: &Value, legal: &[Value]) -> Result<Vec<String>, GameError> {
        let view = from_json::<R::View>(view, "view")?;
        let legal = legal
            .iter()
            .map(|a| from_json::<R::Action>(a, "action"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(R::hints(&view, &legal)
            .iter()
            .map(|a| R::action_text_at(&view, a))
            .collect())
    }

    fn action_text(&self, view: &Value, action: &Value) -> String {
        match (
            from_json::<R::View>(view, "view"),
            from_json::<R::Action>(action, "action"),
        ) {
            (Ok(v), Ok(a)) => R::action_text_at(&v, &a),
            (Err(_), Ok(a)) => R::action_text(&a),
            _ => action.to_string(),
        }
    }

    fn public_action_text(&self, view: &Value, action: &Value) -> String {
        match (
            from_json::<R::View>(view, "view"),
            from_json::<R::PublicAction>(action, "action"),
        ) {
            (Ok(v), Ok(a)) => R::public_action_text(&v, &a),
            _ => action.to_string(),
        }
    }

    fn event_text(&self, event: &Value, viewer: Viewer) -> Option<String> {
        R::event_text(&from_json::<R::Event>(event, "event").ok()?, viewer)
    }

    fn outcome_text(&self, outcome: &Outcome, viewer: Viewer) -> String {
        R::outcome_text(outcome, viewer)
    }

    fn new_table(&self, setup: &TableSetup) -> Result<Box<dyn Table>, GameError> {
        let cfg = parse_config::<R>(&setup.config)?;
        if !setup.nonces.is_empty() && setup.nonces.len() != setup.seats {
            return Err(GameError::BadConfig(format!(
                "{} nonces for {} seats",
                setup.nonces.len(),
                setup.seats
            )));
        }
        let state = R::start(
            &cfg,
            setup.seats,
            &fair::game_seed(&setup.seed, &setup.nonces),
        )
        .map_err(GameError::config)?;
        let config = to_json(&cfg)?;
        let record = Record {
            game: R::ID.into(),
            commitment: fair::commitment(R::ID, &setup.id, setup.seats, &config, &setup.seed),
            id: setup.id.clone(),
            config,
            seats: setup.seats,
            nonces: setup.nonces.clone(),
            seed: None,
            actions: Vec::new(),
            outcome: None,
        };
        Ok(Box::new(TypedTable::<R>::new(state, setup.seed, record)))
    }

    fn resume(&self, journal: &Record, seed: Seed) -> Result<Box<dyn Table>, GameError> {
        journal.check_seed(&seed, None)?;
        let state = journal.replay_with_seed::<R>(&seed)?;
        let mut record = journal.clone();
        record.seed = None;
        record.outcome = None;
        Ok(Box::new(TypedTable::<R>::new(state, seed, record)))
    }

    fn verify(&self, record: &Record, opts: &VerifyOptions) -> Result<Verdict, GameError> {
        Ok(record.verify::<R>(opts)?)
    }

    fn judge(&self, request: &Value) -> Value {
        R::judge(request)
    }

    fn sim(
        &self,
        opts: &SimOptions,
        each: Option<&(dyn Fn(&GameResult) + Sync)>,
    ) -> Result<SimReport, GameError> {
        crate::sim::run_each::<R>(opts, each)
    }
}
