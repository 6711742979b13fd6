//! `qipai sim GAME`: self-play figures.

use anyhow::{bail, Context, Result};
use game::sim::{SimOptions, SimReport};
use game::stats::Summary;
use game::Registry;

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
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The run's seed: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print the report as one JSON object on the last line.
    #[arg(long)]
    json: bool,
    /// Dou Dizhu: a fixed landlord seat and no bidding.
    #[arg(long)]
    landlord: Option<usize>,
    /// The table configuration as JSON (the game's options).
    #[arg(long)]
    config: Option<String>,
    /// Keep each bot in its seat instead of rotating bots over seats from game to game.
    #[arg(long)]
    no_rotate: bool,
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
            bail!("--players {p} but {} bots named", bots.len());
        }
    }
    let mut config = match &args.config {
        Some(c) => serde_json::from_str(c).context("--config is not JSON")?,
        None => serde_json::Value::Null,
    };
    if let Some(l) = args.landlord {
        if config.is_null() {
            config = serde_json::json!({});
        }
        config["landlord"] = serde_json::json!(l);
    }
    let opts = SimOptions {
        config,
        bots,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        rotate: !args.no_rotate,
    };
    let report = game.sim(&opts)?;
    print_report(&report)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    }
    Ok(())
}

fn row(bot: &str, role: &str, s: &Summary) -> Result<()> {
    outln!(
        "{bot:<14}{role:<10}{:>8}  {:>6.2}% [{:.2}, {:.2}]   {:>+8.3} [{:+.3}, {:+.3}]",
        s.games,
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
        "{:<14}{:<10}{:>8}  {:<22}   {}",
        "bot",
        "role",
        "games",
        "win % [95% CI]",
        "avg score [95% CI]"
    );
    for b in &r.bots {
        row(&b.bot, "all", &b.overall)?;
        for (role, s) in &b.roles {
            row("", role, s)?;
        }
    }
    Ok(())
}
