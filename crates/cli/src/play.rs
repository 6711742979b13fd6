//! `qipai play GAME`: a person against computer players in the terminal, game after game.

use crate::engine::{Engine, EngineArgs};
use crate::prompt::Prompt;
use anyhow::{bail, Context, Result};
use game::text::{players, seat_from_number, seat_name, seat_number, signed};
use game::{
    Applied, ErasedGame, GameError, Registry, Seat, Seed, Table, TableSetup, ToAct, Viewer,
};
use rand::TryRngCore;
use serde_json::Value;
use std::io::Write;

/// Terminal play options.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    game: String,
    /// Your seat, numbered from 1 as the table numbers it.
    #[arg(long, default_value_t = 1)]
    seat: usize,
    /// Number of players, for games that take several (Ten and a half: 2–8).
    #[arg(long)]
    players: Option<usize>,
    /// The bot for every other seat (see `qipai games`); the game's strongest by default.
    #[arg(long)]
    bot: Option<String>,
    /// Deal from this seed: a number, or the 64 hex digits a finished game printed (to
    /// replay that deal).
    #[arg(long)]
    seed: Option<String>,
    /// The table configuration as JSON (the game's options).
    #[arg(long)]
    config: Option<String>,
    /// Write each finished game's record here, one JSON line per game, for `qipai verify`.
    #[arg(long)]
    record: Option<String>,
    /// An external engine in the other seats instead of a bot.
    #[command(flatten)]
    external: EngineArgs,
}

/// Commands of the terminal table besides the game's own actions.
const COMMANDS: &str =
    "Commands: `hint` suggests a move (again for the next one), `auto` lets the \
computer play your seat (托管) to the end of the game, `help`, `quit`.";

/// How a game at the table ended for the session.
enum Ending {
    /// The game was played to its end.
    Finished,
    /// The person left.
    Quit,
}

/// One terminal session: the person's seat, who plays the others, the prompt.
struct Session<'a> {
    game: &'a dyn ErasedGame,
    me: Seat,
    seats: usize,
    bot: String,
    /// The engine that plays the other seats, and the command that started it.
    engine: Option<(String, Engine)>,
    prompt: Prompt,
}

/// Plays a match: one game after another, with the game's rotation and running totals,
/// until the person quits.
pub fn run(registry: &Registry, args: Args) -> Result<()> {
    let game = registry.get(&args.game)?;
    let seats = match args.players {
        Some(n) => n,
        None => *game.seats(&Value::Null)?.start(),
    };
    let allowed = game.seats(&Value::Null)?;
    if !allowed.contains(&seats) {
        bail!("{} takes {}, not {seats}", game.id(), players(&allowed));
    }
    let Some(me) = seat_from_number(args.seat, seats) else {
        bail!(
            "there is no seat {} at a table of {seats} (seats 1 to {seats})",
            args.seat
        );
    };
    // Unless told otherwise, the table is set up for playing against computers.
    let mut config = match &args.config {
        Some(c) => serde_json::from_str(c).context("--config is not JSON")?,
        None => game.against_computer(&Value::Null, me, seats)?,
    };
    let bot = match &args.bot {
        Some(b) if game.bot_names().contains(&b.as_str()) => b.clone(),
        Some(b) => bail!(
            "{} has no bot '{b}' (bots: {})",
            game.id(),
            game.bot_names().join(", ")
        ),
        None => game.default_bot().to_string(),
    };
    let engine = args.external.start_for(registry, game)?;
    // The record file is opened before the deal, so a bad path costs no game.
    let mut record_file = match &args.record {
        Some(path) => {
            Some(std::fs::File::create(path).with_context(|| format!("cannot write {path}"))?)
        }
        None => None,
    };
    let first_seed = match &args.seed {
        Some(text) => Seed::from_text(text)?,
        None => {
            let mut bytes = [0u8; 32];
            rand::rngs::OsRng.try_fill_bytes(&mut bytes)?;
            Seed(bytes)
        }
    };
    let mut session = Session {
        game,
        me,
        seats,
        bot,
        engine,
        prompt: Prompt::new(),
    };
    outln!(
        "{} — you are {}. {}",
        game.name(),
        seat_name(me),
        session.opponents()
    );
    outln!("{}\n{COMMANDS}", game.help());
    let first_config = config.clone();
    let mut totals = vec![0i64; seats];
    for number in 0u64.. {
        let seed = if number == 0 {
            first_seed
        } else {
            first_seed.derive(number)
        };
        let id = format!("{}-{}", game.id(), &seed.derive(u64::MAX).to_hex()[..12]);
        let mut table = game.new_table(&TableSetup::new(&id, config.clone(), seats, seed))?;
        session.seat_computers(table.as_mut(), &seed)?;
        if number > 0 {
            outln!("\n——— game {} ———", number + 1);
        }
        if let Ending::Quit = session.play(table.as_mut(), &seed)? {
            outln!("bye");
            return Ok(());
        }
        let outcome = table.outcome().context("a finished game has an outcome")?;
        outln!("\n{}", table.render(Viewer::Seat(me)));
        outln!("{}", game.outcome_text(&outcome, Viewer::Seat(me)));
        for (total, score) in totals.iter_mut().zip(&outcome.scores) {
            *total = total.saturating_add(*score);
        }
        let others: Vec<String> = (0..seats)
            .filter(|&s| s != me)
            .map(|s| format!("{} {}", seat_name(s), signed(totals[s])))
            .collect();
        outln!(
            "Totals after {}: you {} ({}).",
            game::text::count(number as usize + 1, "game"),
            signed(totals[me]),
            others.join(", ")
        );
        let record = table.record();
        if let (Some(file), Some(path)) = (record_file.as_mut(), args.record.as_deref()) {
            writeln!(file, "{}", serde_json::to_string(&record)?)
                .with_context(|| format!("cannot write {path}"))?;
            outln!("Record added to {path}; check it with `qipai verify {path}`.");
        }
        if game.uses_seed(&config) {
            let again = if config == first_config && args.config.is_none() {
                String::new()
            } else {
                format!(" --config '{}'", config)
            };
            outln!(
                "Seed: {seed}. Replay this deal: qipai play {} --seed {seed}{again}",
                game.id()
            );
        }
        match session
            .prompt
            .read("Enter for the next game, `quit` to stop> ")?
        {
            Some(line) if !matches!(line.as_str(), "quit" | "exit" | "q") => {}
            _ => break,
        }
        config = table
            .next_game()
            .context("a finished game has a next configuration")??;
    }
    Ok(())
}

impl Session<'_> {
    /// Who plays the other seats, in words.
    fn opponents(&self) -> String {
        let others: Vec<String> = (0..self.seats)
            .filter(|&s| s != self.me)
            .map(|s| seat_number(s).to_string())
            .collect();
        let who = match &self.engine {
            Some((command, _)) => format!("the engine `{command}`"),
            None => format!("the computer ({})", self.bot),
        };
        if others.len() == 1 {
            format!("Your opponent is {who}, in seat {}.", others[0])
        } else {
            format!("{who} plays seats {}.", others.join(", ")).replacen("the", "The", 1)
        }
    }

    /// Puts a bot (or the engine) in every seat but the person's.
    fn seat_computers(&self, table: &mut dyn Table, seed: &Seed) -> Result<()> {
        for s in (0..self.seats).filter(|&s| s != self.me) {
            match &self.engine {
                Some((_, engine)) => table.set_json_bot(s, engine.seat(self.game)?)?,
                None => table.set_bot(s, &self.bot, &seed.derive(100 + s as u64))?,
            }
        }
        Ok(())
    }

    /// The log lines of an accepted action, as the person sees it at the table `view`
    /// shows.
    fn log(&self, applied: &Applied, view: &Value) -> Result<()> {
        let viewer = Viewer::Seat(self.me);
        let lines: Vec<String> = applied
            .events
            .iter()
            .filter_map(|e| self.game.event_text(e, viewer))
            .collect();
        if lines.is_empty() {
            let text = if applied.seat == self.me {
                format!("you: {}", self.game.action_text(view, &applied.action))
            } else {
                format!(
                    "{}: {}",
                    seat_name(applied.seat),
                    self.game.public_action_text(view, &applied.public)
                )
            };
            outln!("{text}");
        }
        for line in lines {
            outln!("{line}");
        }
        Ok(())
    }

    /// An engine that fails does not end the person's game: it is said why, and the
    /// computer takes the engine's seats for the rest of this game and the games after
    /// (an engine that failed once is not trusted with the next turn). The failed move
    /// changed nothing at the table, so play goes on from where it was.
    fn engine_failed(&mut self, table: &mut dyn Table, seed: &Seed, why: &GameError) -> Result<()> {
        if let Some((command, _)) = self.engine.take() {
            let why = match why {
                GameError::BotFailed { seat, message } => {
                    format!(" at {}: {message}", seat_name(*seat))
                }
                other => format!(": {other}"),
            };
            outln!(
                "The engine `{command}` failed{why}. The computer ({}) plays its seats from \
                 here on.",
                self.bot
            );
        }
        self.seat_computers(table, seed)
    }

    /// Plays one game, dealt from `seed`, to its end, or until the person quits.
    fn play(&mut self, table: &mut dyn Table, seed: &Seed) -> Result<Ending> {
        let me = self.me;
        let mut hint_index = 0usize;
        // The table is drawn again only when something happened since it was last drawn.
        let mut drawn_at: Option<usize> = None;
        loop {
            let to_act = table.to_act();
            if to_act == ToAct::Finished {
                return Ok(Ending::Finished);
            }
            if to_act.includes(me) && drawn_at != Some(table.actions()) {
                outln!("\n{}", table.render(Viewer::Seat(me)));
                drawn_at = Some(table.actions());
            }
            // Computers in a simultaneous phase act first; the person answers last.
            let bot_seat = to_act
                .seats()
                .iter()
                .find(|&s| table.has_bot(s) && (s != me || to_act.seats().len() == 1));
            if let Some(s) = bot_seat {
                match table.bot_move(s) {
                    Ok(applied) => self.log(&applied, &table.view(Viewer::Seat(me))?)?,
                    Err(e) if s != me && self.engine.is_some() => {
                        self.engine_failed(table, seed, &e)?
                    }
                    Err(e) => return Err(e.into()),
                }
                continue;
            }
            if !to_act.includes(me) {
                bail!(
                    "no one can act (seats {:?})",
                    to_act.seats().iter().collect::<Vec<_>>()
                );
            }
            let Some(line) = self.prompt.read("your move> ")? else {
                return Ok(Ending::Quit);
            };
            match line.as_str() {
                "" => {}
                "quit" | "exit" => return Ok(Ending::Quit),
                "help" | "?" => outln!("{}\n{COMMANDS}", self.game.help()),
                "auto" | "托管" => {
                    table.set_bot(me, &self.bot, &Seed::from_u64(99))?;
                    outln!(
                        "托管: the computer ({}) plays your seat to the end of this game.",
                        self.bot
                    );
                }
                "hint" | "h" => {
                    let hints = table.hints(me);
                    if hints.is_empty() {
                        outln!("no suggestion: nothing you can play beats the table, so pass");
                    } else {
                        outln!("hint: {}", hints[hint_index % hints.len()]);
                        hint_index += 1;
                    }
                }
                text => match table.apply_text(me, text) {
                    Ok(applied) => {
                        hint_index = 0;
                        self.log(&applied, &table.view(Viewer::Seat(me))?)?;
                    }
                    Err(GameError::BadAction(why)) => {
                        outln!("refused: {why}. Try again (or `hint`).")
                    }
                    Err(e) => outln!("refused: {e}. Try again (or `hint`)."),
                },
            }
        }
    }
}
