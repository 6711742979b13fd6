//! `qipai play GAME`: a person against computer players in the terminal.

use crate::pbrain::ExternalBrain;
use anyhow::{bail, Context, Result};
use game::{Registry, Seat, Seed, Table, ToAct, Viewer};
use rand::TryRngCore;
use std::io::BufRead;

/// Terminal play options.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    game: String,
    /// Your seat (0-based).
    #[arg(long, default_value_t = 0)]
    seat: Seat,
    /// Number of players, for games that take several (Ten and a half: 2–8).
    #[arg(long)]
    players: Option<usize>,
    /// The bot for every other seat (see `qipai games`); the game's strongest by default.
    #[arg(long)]
    bot: Option<String>,
    /// Deal from this seed number instead of a fresh random seed (to replay a deal).
    #[arg(long)]
    seed: Option<u64>,
    /// The table configuration as JSON (the game's options).
    #[arg(long)]
    config: Option<String>,
    /// Write the finished game's record (JSON) here, for `qipai verify`.
    #[arg(long)]
    record: Option<String>,
    /// Gomoku: play against an external Gomocup brain instead of a bot (the command that
    /// starts it, e.g. `./pbrain-embryo`).
    #[arg(long)]
    engine: Option<String>,
    /// Gomoku: the external brain's time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    engine_ms: u64,
}

/// Commands of the terminal table besides the game's own actions.
const COMMANDS: &str =
    "Commands: `hint` suggests a move (again for the next one), `auto` lets the \
bot play your seat to the end (托管), `help`, `quit`.";

/// Plays one game: the person types at their turns, bots play the other seats.
pub fn run(registry: &Registry, args: Args) -> Result<()> {
    let game = registry.get(&args.game)?;
    // Unless told otherwise, the table is set up for playing against computers.
    let config = match &args.config {
        Some(c) => serde_json::from_str(c).context("--config is not JSON")?,
        None => game.against_computer(&serde_json::Value::Null)?,
    };
    let seats_allowed = game.seats(&config)?;
    let seats = args.players.unwrap_or(*seats_allowed.start());
    if !seats_allowed.contains(&seats) {
        bail!(
            "{} takes {} to {} players",
            game.id(),
            seats_allowed.start(),
            seats_allowed.end()
        );
    }
    if args.seat >= seats {
        bail!("there is no seat {} at a {seats}-player table", args.seat);
    }
    let seed = match args.seed {
        Some(n) => Seed::from_u64(n),
        None => {
            let mut bytes = [0u8; 32];
            rand::rngs::OsRng.try_fill_bytes(&mut bytes)?;
            Seed(bytes)
        }
    };
    let bot = args
        .bot
        .clone()
        .or_else(|| game.bot_names().last().map(|s| s.to_string()))
        .unwrap_or_else(|| "random".into());
    let id = format!("{}-{}", game.id(), &seed.commitment()[..12]);
    let mut table = game.new_table(&id, &config, seats, seed)?;
    let opponent = match &args.engine {
        Some(command) => {
            if game.id() != "gomoku" {
                bail!("--engine drives a Gomocup brain: it plays gomoku only");
            }
            let turn = std::time::Duration::from_millis(args.engine_ms);
            for s in (0..seats).filter(|&s| s != args.seat) {
                table.set_json_bot(s, Box::new(ExternalBrain::spawn(command, turn)?))?;
            }
            format!("the engine `{command}` plays")
        }
        None => {
            for s in (0..seats).filter(|&s| s != args.seat) {
                table.set_bot(s, &bot, &seed.derive(100 + s as u64))?;
            }
            format!("bots ({bot}) play")
        }
    };
    outln!(
        "{} — you are seat {}; {opponent} the others.",
        game.name(),
        args.seat
    );
    outln!(
        "deal commitment (sha256 of the seed): {}",
        seed.commitment()
    );
    outln!("{}\n{COMMANDS}\n", game.help());
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let me = args.seat;
    let mut hint_index = 0usize;
    // The table is drawn again only when something happened since it was last drawn.
    let mut drawn_at: Option<usize> = None;
    loop {
        let to_act = table.to_act();
        if to_act == ToAct::Finished {
            break;
        }
        // Bots in a simultaneous phase act first; the person answers last.
        let bot_seat = to_act.seats().iter().find(|&s| table.has_bot(s));
        if let Some(s) = bot_seat {
            let (action, _) = table.bot_move(s)?;
            outln!("seat {s}: {}", table.action_text(&action));
            continue;
        }
        if !to_act.includes(me) {
            bail!(
                "no one can act (seats {:?})",
                to_act.seats().iter().collect::<Vec<_>>()
            );
        }
        let actions = table.record().actions.len();
        if drawn_at != Some(actions) {
            outln!("\n{}", table.render(Viewer::Seat(me)));
            drawn_at = Some(actions);
        }
        out!("your move> ");
        let Some(line) = lines.next() else {
            outln!("\nbye");
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => continue,
            "quit" | "exit" => return Ok(()),
            "help" | "?" => outln!("{}\n{COMMANDS}", game.help()),
            "auto" | "托管" => {
                table.set_bot(me, &bot, &seed.derive(99))?;
                outln!("auto-play (托管): the {bot} bot plays your seat to the end.");
            }
            "hint" | "h" => {
                let hints = table.hints(me);
                if hints.is_empty() {
                    outln!("no play beats the table: pass");
                } else {
                    outln!("hint: {}", hints[hint_index % hints.len()]);
                    hint_index += 1;
                }
            }
            text => match table.apply_text(me, text) {
                Ok(_) => hint_index = 0,
                Err(e) => outln!("refused: {e}. Try again (or `hint`)."),
            },
        }
    }
    outln!("\n{}", table.render(Viewer::Seat(me)));
    finish(table.as_ref(), args.record.as_deref())
}

fn finish(table: &dyn Table, record_path: Option<&str>) -> Result<()> {
    if let Some(o) = table.outcome() {
        outln!("result: {:?} (roles {:?})", o.scores, o.roles);
    }
    let record = table.record();
    if let Some(path) = record_path {
        std::fs::write(path, serde_json::to_string_pretty(&record)?)
            .with_context(|| format!("cannot write {path}"))?;
        outln!("record written to {path}; check it with `qipai verify {path}`");
    }
    if let Some(seed) = record.seed {
        outln!("seed revealed: {seed} (sha256 = {})", seed.commitment());
    }
    Ok(())
}
