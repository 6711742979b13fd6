//! `qipai sim GAME`: self-play figures.

use crate::engine::{Engine, EngineArgs};
use anyhow::{bail, Context, Result};
use game::sim::{BotReport, GameResult, SimOptions, SimReport};
use game::stats::{Summary, Tally};
use game::{ErasedGame, Registry, TableSetup, ToAct};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// The bot name that stands for the external engine of `--engine`.
const EXTERNAL: &str = "external";

/// A series with an external engine: the engine is a process, not one of the game's bots,
/// so the games run through tables, one at a time. Rotation, `--duplicate` and the report
/// are as in the game's own self-play. The deals are a table's: game `i`'s seed goes
/// through the deal's fairness hash (`fair::game_seed`), so they are not the deals of a
/// run without an engine on the same seed, but every run with an engine on that seed gets
/// the same ones, whoever the engine is.
fn with_engine(
    game: &dyn ErasedGame,
    opts: &SimOptions,
    engine: &Engine,
    each: &(dyn Fn(&GameResult) + Sync),
) -> Result<SimReport> {
    let seats = opts.bots.len();
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut actions = 0u64;
    let started = Instant::now();
    for i in opts.indices()? {
        let seed = opts.game_seed(i, seats);
        let shift = if opts.rotate { i as usize % seats } else { 0 };
        let names: Vec<&str> = (0..seats)
            .map(|s| opts.bots[(s + shift) % seats].as_str())
            .collect();
        let setup = TableSetup::new(&format!("sim-{i}"), opts.config.clone(), seats, seed);
        let mut table = game.new_table(&setup)?;
        for (s, name) in names.iter().enumerate() {
            if *name == EXTERNAL {
                table.set_json_bot(s, engine.seat(game)?)?;
            } else {
                table.set_bot(s, name, &seed.derive(1_000 + s as u64))?;
            }
        }
        let mut table_actions = 0;
        while let Some(seat) = table.to_act().seats().iter().next() {
            table
                .bot_move(seat)
                .with_context(|| format!("game {i}, seat {seat} ({})", names[seat]))?;
            table_actions += 1;
        }
        actions += table_actions;
        debug_assert_eq!(table.to_act(), ToAct::Finished);
        let outcome = table.outcome().context("a finished game has an outcome")?;
        let seated = names.iter().map(|n| n.to_string()).collect();
        each(&GameResult::new(opts, i, seated, &outcome, table_actions));
        let drawn = !outcome.won.iter().any(|&w| w);
        for (s, name) in names.iter().enumerate() {
            for role in ["all", outcome.roles[s].as_str()] {
                tallies
                    .entry((name.to_string(), role.to_string()))
                    .or_default()
                    .add(outcome.won[s], drawn, outcome.scores[s]);
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut order: Vec<String> = Vec::new();
    for b in &opts.bots {
        if !order.contains(b) {
            order.push(b.clone());
        }
    }
    let bots = order
        .into_iter()
        .map(|bot| BotReport {
            overall: tallies
                .get(&(bot.clone(), "all".to_string()))
                .copied()
                .unwrap_or_default()
                .summary(),
            roles: tallies
                .iter()
                .filter(|((b, role), _)| *b == bot && role != "all")
                .map(|((_, role), t)| (role.clone(), t.summary()))
                .collect(),
            bot,
        })
        .collect();
    Ok(SimReport {
        game: game.id().into(),
        games: opts.games,
        actions,
        seconds,
        games_per_s: if seconds > 0.0 {
            opts.games as f64 / seconds
        } else {
            0.0
        },
        threads: 1,
        bots,
        think: Vec::new(),
    })
}

/// Self-play options (the same for every game).
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    game: String,
    /// Bots, one per seat, comma-separated (e.g. `heuristic,random,random`).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// Two-player shorthand: the first bot (`--a engine:L10 --b classic`).
    #[arg(long)]
    a: Option<String>,
    /// Two-player shorthand: the second bot.
    #[arg(long)]
    b: Option<String>,
    /// Number of players, when a game takes several; must match the bots named.
    #[arg(long)]
    players: Option<usize>,
    /// Number of games (at least 1).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The run's seed: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (at most one per core, and one per game, are used).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print the report as one JSON object on the last line.
    #[arg(long)]
    json: bool,
    /// The table configuration as JSON (the game's options).
    #[arg(long)]
    config: Option<String>,
    /// One option of the configuration, `KEY=VALUE` (repeatable; the value is read as JSON,
    /// or taken as a string): `--set landlord=0` fixes the Dou Dizhu landlord.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Keep each bot in its seat instead of rotating bots over seats from game to game.
    #[arg(long)]
    no_rotate: bool,
    /// Deal each deal once per seat with the bots rotated over it, so that every bot plays
    /// the same cards (or Gomoku opening) from every seat: game `i` is dealt from deal
    /// `i / seats`.
    #[arg(long, conflicts_with = "no_rotate")]
    duplicate: bool,
    /// The external engine, if a seat is `external`.
    #[command(flatten)]
    external: EngineArgs,
    /// The index of the first game: `--first 1782 --games 718` plays games 1782 to 2499
    /// of the run with this seed exactly as the whole run would, to finish a stopped run.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Write each game to this file as one JSON line as soon as it ends (its index, deal,
    /// and each seat's bot, role, result and score): two runs on the same deals can then be
    /// compared deal by deal, and a long run that is stopped keeps the games it finished.
    #[arg(long, value_name = "FILE")]
    per_game: Option<PathBuf>,
}

/// The `--per-game` file: one line per game, written and flushed as each game ends, from
/// whichever thread played it. The first write error is kept for the end of the run, so
/// one failing disk does not stop the games.
struct PerGame {
    path: PathBuf,
    out: Mutex<(BufWriter<File>, Option<std::io::Error>)>,
}

impl PerGame {
    fn create(path: &Path) -> Result<Self> {
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(PerGame {
            path: path.to_path_buf(),
            out: Mutex::new((BufWriter::new(file), None)),
        })
    }

    fn write(&self, game: &GameResult) {
        let Ok(mut out) = self.out.lock() else {
            return;
        };
        let (file, error) = &mut *out;
        if error.is_some() {
            return;
        }
        let line = serde_json::to_string(game).map_err(std::io::Error::from);
        let written = line.and_then(|l| writeln!(file, "{l}").and_then(|()| file.flush()));
        if let Err(e) = written {
            *error = Some(e);
        }
    }

    fn finish(self) -> Result<()> {
        let (_, error) = self
            .out
            .into_inner()
            .map_err(|_| anyhow::anyhow!("a self-play thread panicked while writing"))?;
        match error {
            Some(e) => Err(e).with_context(|| format!("writing {}", self.path.display())),
            None => Ok(()),
        }
    }
}

/// Runs the series and prints the report.
pub fn run(registry: &Registry, args: Args) -> Result<()> {
    let game = registry.get(&args.game)?;
    let mut bots = args.bots.clone();
    bots.extend(args.a.iter().cloned());
    bots.extend(args.b.iter().cloned());
    if bots.is_empty() {
        bail!(
            "name the bots, one per seat, e.g. --bots {} (bots: {})",
            ["random"; 3].join(","),
            game.bot_names().join(", ")
        );
    }
    if let Some(p) = args.players {
        if p != bots.len() {
            bail!(
                "--players {p}, but {} named",
                game::text::count(bots.len(), "bot")
            );
        }
    }
    let mut config = match &args.config {
        Some(c) => serde_json::from_str(c).context("--config is not JSON")?,
        None => serde_json::Value::Null,
    };
    for option in &args.set {
        crate::options::set_option(&mut config, option).context("--set")?;
    }
    let opts = SimOptions {
        config,
        bots,
        games: args.games,
        first: args.first,
        seed: args.seed,
        threads: args.threads,
        rotate: !args.no_rotate,
        duplicate: args.duplicate,
    };
    let per_game = args.per_game.as_deref().map(PerGame::create).transpose()?;
    let each = |g: &GameResult| {
        if let Some(p) = &per_game {
            p.write(g);
        }
    };
    let report = if opts.bots.iter().any(|b| b == EXTERNAL) {
        let (_, engine) = args
            .external
            .start_for(registry, game)?
            .context("the bot `external` needs --engine COMMAND")?;
        with_engine(game, &opts, &engine, &each)?
    } else {
        game.sim(&opts, per_game.is_some().then_some(&each))?
    };
    print_report(&report)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    }
    // The report stands whatever happened to the file; a failed write is the run's error.
    match per_game {
        Some(p) => p.finish(),
        None => Ok(()),
    }
}

fn row(bot: &str, role: &str, s: &Summary) -> Result<()> {
    outln!(
        "{bot:<14}{role:<10}{:>8}  {:>20}  {:>6.2}% [{:.2}, {:.2}]   {:>+8.3} [{:+.3}, {:+.3}]",
        s.games,
        format!("{}/{}/{}", s.wins, s.draws, s.losses),
        100.0 * s.win_rate,
        100.0 * s.win_rate_ci95[0],
        100.0 * s.win_rate_ci95[1],
        s.avg_score,
        s.avg_score_ci95[0],
        s.avg_score_ci95[1],
    );
    Ok(())
}

fn print_report(r: &SimReport) -> Result<()> {
    outln!(
        "{}: {} games in {:.2} s — {:.0} games/s on {} thread{}, {} actions",
        r.game,
        r.games,
        r.seconds,
        r.games_per_s,
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.actions
    );
    outln!(
        "{:<14}{:<10}{:>8}  {:>20}  {:<22}   {}",
        "bot",
        "role",
        "games",
        "won/drawn/lost",
        "win % [95% CI]",
        "avg score [95% CI]"
    );
    for b in &r.bots {
        row(&b.bot, "all", &b.overall)?;
        for (role, s) in &b.roles {
            row("", role, s)?;
        }
    }
    for b in r.think.iter().filter(|b| b.choices > 0) {
        outln!(
            "{}: {:.3} ms a move over {} moves with a choice",
            b.bot,
            b.ms_per_choice,
            b.choices
        );
    }
    Ok(())
}
