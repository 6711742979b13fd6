//! External engines: another program playing seats in `qipai sim` and `qipai play`.
//!
//! A bot author's program plays against qipai's bots, or against a person, without being
//! linked into qipai. Two protocols:
//!
//! * [`jsonl`], qipai's own, for every game: the seat's view and its legal actions as one
//!   JSON line, the action as one line back. One process serves a whole run.
//! * [`pbrain`], the Gomocup (Piskvork) protocol that Gomoku engines already speak. A
//!   brain keeps the game's state, so each game gets a fresh one.
//!
//! Either way the engine is a [`JsonBot`]: it sees what the seat sees and nothing else, and
//! the table checks its action like anyone's. [`process`] is what both share: the child
//! process, its lines, deadlines and reaping.

mod jsonl;
mod pbrain;
mod process;

use anyhow::{bail, Result};
use game::{ErasedGame, JsonBot, Registry};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How an engine is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// qipai's JSON lines, for every game.
    Json,
    /// Gomocup (Piskvork) brains, for Gomoku.
    Gomocup,
}

impl Protocol {
    /// The protocol asked for, or else the game's own engine protocol (Gomocup for
    /// Gomoku), or else qipai's JSON lines. A protocol the game does not speak is refused.
    pub fn choose(game: &dyn ErasedGame, asked: Option<Protocol>) -> Result<Protocol> {
        let own = match game.engine_protocol() {
            Some("gomocup") => Some(Protocol::Gomocup),
            _ => None,
        };
        match asked {
            Some(Protocol::Gomocup) if own != Some(Protocol::Gomocup) => bail!(
                "{} has no Gomocup brains; its engines speak json (--engine-protocol json)",
                game.id()
            ),
            Some(p) => Ok(p),
            None => Ok(own.unwrap_or(Protocol::Json)),
        }
    }
}

/// The options that name an engine, the same in `sim`, `play` and `connect`.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// Your own program in a seat (docs/engines.md): a command speaking qipai's JSON-lines
    /// engine protocol, or a Gomocup brain for Gomoku (e.g. `./pbrain-embryo`). In `sim`
    /// it plays the seats of the bot named `external`.
    #[arg(long)]
    engine: Option<String>,
    /// The engine's time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    engine_ms: u64,
    /// How the engine is spoken to: `json` (qipai's JSON lines, every game) or `gomocup`
    /// (Gomoku brains); by default the game's own protocol (at a hall, where the game is
    /// not known yet, `json`).
    #[arg(long, value_enum)]
    engine_protocol: Option<Protocol>,
    /// Tell a JSON engine how each game it played ended: one line it does not answer
    /// (docs/engines.md), for engines that learn from their games.
    #[arg(long)]
    engine_results: bool,
}

impl EngineArgs {
    /// The engine named, started for `game` (its protocol by [`Protocol::choose`]), or
    /// `None` if none was named; with the command that started it.
    pub fn start_for(
        &self,
        registry: &Registry,
        game: &dyn ErasedGame,
    ) -> Result<Option<(String, Engine)>> {
        self.start(registry, |asked| Protocol::choose(game, asked))
    }

    /// The engine named, for whatever games come at a hall (JSON lines unless asked
    /// otherwise).
    pub fn start_for_any(&self, registry: &Registry) -> Result<Option<(String, Engine)>> {
        self.start(registry, |asked| Ok(asked.unwrap_or(Protocol::Json)))
    }

    fn start(
        &self,
        registry: &Registry,
        protocol: impl FnOnce(Option<Protocol>) -> Result<Protocol>,
    ) -> Result<Option<(String, Engine)>> {
        let Some(command) = &self.engine else {
            return Ok(None);
        };
        let turn = Duration::from_millis(self.engine_ms);
        let protocol = protocol(self.engine_protocol)?;
        if self.engine_results && protocol == Protocol::Gomocup {
            bail!("--engine-results is for engines of qipai's JSON lines, not Gomocup brains");
        }
        let engine = Engine::start(protocol, command, turn, self.engine_results, registry)?;
        Ok(Some((command.clone(), engine)))
    }
}

/// An engine for a run: how to start it, and for JSON lines the one running process.
pub struct Engine {
    command: String,
    turn: Duration,
    shared: Option<Arc<Mutex<jsonl::JsonEngine>>>,
    /// Whether the engine asked to be told each game's result (`--engine-results`).
    results: bool,
}

impl Engine {
    /// Starts `command` as an engine speaking `protocol`, with `turn` a move, and for
    /// JSON lines told each game's result if `results` (and the `registry`'s games to read
    /// its answers typed as text). A JSON engine starts at once (so a wrong command fails
    /// before any game); a Gomocup brain starts with each game.
    pub fn start(
        protocol: Protocol,
        command: &str,
        turn: Duration,
        results: bool,
        registry: &Registry,
    ) -> Result<Engine> {
        let shared = match protocol {
            Protocol::Json => Some(Arc::new(Mutex::new(jsonl::JsonEngine::spawn(
                command,
                turn,
                results,
                registry.clone(),
            )?))),
            Protocol::Gomocup => None,
        };
        Ok(Engine {
            command: command.to_string(),
            turn,
            shared,
            results,
        })
    }

    /// Whether the engine asked to be told how each of its games ended: where games end
    /// out of sight of a [`JsonBot`] (at a hall), the result is worked out only then.
    pub fn tells_results(&self) -> bool {
        self.results
    }

    /// Whether a seat's player keeps the game's state (a Gomocup brain), so that it must
    /// play that game's turns to its end, and no other game's.
    pub fn keeps_state(&self) -> bool {
        self.shared.is_none()
    }

    /// A player for one seat of a new game of `game`.
    pub fn seat(&self, game: &dyn ErasedGame) -> Result<Box<dyn JsonBot>> {
        Ok(match &self.shared {
            Some(engine) => Box::new(jsonl::JsonSeat {
                engine: Arc::clone(engine),
                game: game.id(),
            }),
            None => Box::new(pbrain::ExternalBrain::spawn(&self.command, self.turn)?),
        })
    }
}
