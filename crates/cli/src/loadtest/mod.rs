//! `qipai loadtest`: many WebSocket clients play whole games on a running server, and the
//! figures that say whether it holds: connections, tables playing, games and actions per
//! second, the latency from sending an action to receiving its broadcast, errors, lost
//! actions (checked against the stored records) and the server's memory.
//!
//! * [`client`]: one simulated person — plays a seat, watches, or idles — and its way
//!   back to another node when its connection drops;
//! * [`player`]: a seat's player, and what it saw of each game;
//! * [`stats`]: live counters and each client's tally;
//! * [`probe`]: HTTP reads of records and `/metrics`, memory from `/proc`;
//! * [`report`]: the figures, for people and as JSON;
//! * [`hostile`]: attackers that run beside the players, for the abuse soak.

mod client;
mod hostile;
mod player;
mod probe;
mod report;
mod stats;

use anyhow::{bail, Context, Result};
use client::{Ctx, Pace, Role, SeatPlan, Step};
use game::Registry;
use stats::{Live, Outage, Tally};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify, Semaphore};

/// How fast people move.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum PaceArg {
    /// A person's think time before each move and before each next game.
    Think,
    /// No think time: every move as soon as it is one's turn.
    Flat,
}

/// Which bot chooses the clients' moves (and plays the computer seats).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BotArg {
    /// Random legal moves.
    Random,
    /// The game's strongest quick bot (`heuristic`; `classic` in Gomoku, `counting` in Ten
    /// and a half).
    Heuristic,
}

/// Load test options.
#[derive(clap::Args)]
pub struct Args {
    /// The server: `host:port`, `http://…` or `ws://…`; for a hall of several nodes,
    /// each node's, comma-separated (each client connects to one at random, and to
    /// another when its connection drops).
    #[arg(long, default_value = "127.0.0.1:7878")]
    url: String,
    /// WebSocket connections to hold; those beyond the seated players watch or idle.
    #[arg(long, default_value_t = 100)]
    clients: usize,
    /// Tables to play at, the games taken in turn.
    #[arg(long, default_value_t = 20)]
    tables: usize,
    /// The games played, comma-separated (every game this build has, by default).
    #[arg(long, value_delimiter = ',')]
    games: Vec<String>,
    /// Seconds measured, after every client has connected and sat down.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Most seconds to let the games in hand finish after the window.
    #[arg(long, default_value_t = 120)]
    drain: u64,
    /// How fast people move.
    #[arg(long, value_enum, default_value = "think")]
    pace: PaceArg,
    /// Think time range in milliseconds for `--pace think`.
    #[arg(long, default_value = "300-3000")]
    think_ms: String,
    /// The bot that chooses moves.
    #[arg(long, value_enum, default_value = "heuristic")]
    bot: BotArg,
    /// Computer seats at each table (always leaving one person).
    #[arg(long, default_value_t = 1)]
    computer_seats: usize,
    /// Share (0–1) of the clients beyond the seated ones that watch a table; the rest hold
    /// idle connections.
    #[arg(long, default_value_t = 0.5)]
    spectators: f64,
    /// The server's process id, to read its memory from /proc.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Check at most this many finished games against the stored records (default: all).
    #[arg(long)]
    check: Option<usize>,
    /// Connections opened at once while setting up.
    #[arg(long, default_value_t = 200)]
    connect_parallel: usize,
    /// Connect the players from this many local addresses (127.0.1.1, 127.0.1.2, …), so
    /// that a server with its usual limits per address takes them all; 0 connects every
    /// client from the system's choice (the server then needs `--connections-per-address 0
    /// --new-accounts-per-hour 0`).
    #[arg(long, default_value_t = 0)]
    addresses: usize,
    /// Hostile clients that attack the server while the players play (see
    /// [`hostile`]), from `--hostile-addresses` addresses of their own (127.1.0.1, …).
    #[arg(long, default_value_t = 0)]
    hostile: usize,
    /// Addresses the hostile clients come from.
    #[arg(long, default_value_t = 4)]
    hostile_addresses: usize,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
}

/// The bot for `kind` in `game`: random, or the game's quick bot (a millisecond a move,
/// where a search would take a second).
fn bot_for(registry: &Registry, game: &str, kind: BotArg) -> Result<String> {
    let game = registry.get(game)?;
    Ok(match kind {
        BotArg::Random => "random",
        BotArg::Heuristic => game.quick_bot(),
    }
    .to_string())
}

fn think_range(text: &str) -> Result<(u64, u64)> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u64 = lo
        .trim()
        .parse()
        .context("--think-ms is MIN-MAX in milliseconds")?;
    let hi: u64 = hi
        .trim()
        .parse()
        .context("--think-ms is MIN-MAX in milliseconds")?;
    if hi < lo {
        bail!("--think-ms: {hi} is less than {lo}");
    }
    Ok((lo, hi))
}

/// Who does what: one role per client.
fn roles(registry: &Registry, args: &Args) -> Result<(Vec<Role>, report::Plan)> {
    if args.games.is_empty() || args.tables == 0 {
        bail!("nothing to play: give --tables");
    }
    let mut roles = Vec::new();
    let mut tables = Vec::new();
    let mut plan = report::Plan::default();
    for t in 0..args.tables {
        let game = &args.games[t % args.games.len()];
        let erased = registry.get(game)?;
        let seats = *erased.seats(&erased.default_config())?.start();
        let bot = bot_for(registry, game, args.bot)?;
        let computers = args.computer_seats.min(seats - 1);
        let (table, _) = watch::channel(None);
        let outage = Arc::new(Outage::default());
        for seat in 0..seats - computers {
            roles.push(Role::Player(SeatPlan {
                game: game.clone(),
                seats,
                seat,
                bot: bot.clone(),
                computers: if seat == 0 {
                    (seats - computers..seats)
                        .map(|s| (s, bot.clone()))
                        .collect()
                } else {
                    Vec::new()
                },
                table: table.clone(),
                host: seat == 0,
                outage: outage.clone(),
            }));
        }
        plan.people_seats += seats - computers;
        plan.computer_seats += computers;
        tables.push(table);
    }
    if args.clients < roles.len() {
        bail!(
            "{} tables need {} people; --clients {} is too few",
            args.tables,
            roles.len(),
            args.clients
        );
    }
    let extra = args.clients - roles.len();
    plan.spectators = (extra as f64 * args.spectators.clamp(0.0, 1.0)).round() as usize;
    plan.idle = extra - plan.spectators;
    for i in 0..plan.spectators {
        roles.push(Role::Spectator(tables[i % tables.len()].subscribe()));
    }
    roles.extend((0..plan.idle).map(|_| Role::Idle));
    Ok((roles, plan))
}

/// The nodes of `--url`, comma-separated.
fn nodes(url: &str) -> Result<Vec<String>> {
    let urls: Vec<String> = url
        .split(',')
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(str::to_string)
        .collect();
    if urls.is_empty() {
        bail!("--url names no server");
    }
    Ok(urls)
}

/// Runs the load test and prints the report.
pub fn run(registry: Registry, mut args: Args) -> Result<()> {
    if args.games.is_empty() {
        args.games = registry.ids().iter().map(|id| id.to_string()).collect();
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the runtime")?;
    let report = runtime.block_on(drive(registry, &args))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", report.text());
    }
    Ok(())
}

async fn drive(registry: Registry, args: &Args) -> Result<report::Report> {
    let registry = Arc::new(registry);
    let (roles, plan) = roles(&registry, args)?;
    let urls = nodes(&args.url)?;
    let hosts: Vec<String> = urls.iter().map(|u| crate::http::host_port(u)).collect();
    let live = Arc::new(Live::default());
    let (step_tx, step) = watch::channel(Step::Setup);
    let ctx = Arc::new(Ctx {
        urls: urls.clone(),
        registry,
        live: live.clone(),
        pace: Pace {
            think_ms: match args.pace {
                PaceArg::Think => think_range(&args.think_ms)?,
                PaceArg::Flat => (0, 0),
            },
        },
        connecting: Semaphore::new(args.connect_parallel.max(1)),
        step,
        arrived: Default::default(),
        arrival: Notify::new(),
        addresses: args.addresses,
    });
    let clients = roles.len();
    let setup_started = Instant::now();
    let tasks: Vec<_> = roles
        .into_iter()
        .enumerate()
        .map(|(i, role)| tokio::spawn(client::run(ctx.clone(), role, i as u64)))
        .collect();
    let mut said = Instant::now();
    while ctx.arrived.load(Ordering::Acquire) < clients {
        let _ = tokio::time::timeout(Duration::from_secs(1), ctx.arrival.notified()).await;
        if !args.quiet && said.elapsed() >= Duration::from_secs(1) {
            said = Instant::now();
            eprintln!(
                "setting up: {}/{clients} clients ready, {} connections",
                ctx.arrived.load(Ordering::Acquire),
                live.connections.load(Ordering::Relaxed)
            );
        }
    }
    let setup = setup_started.elapsed();
    let before = probe::scrape_all(&hosts).await;
    let pid = args.server_pid.map(|p| p.to_string());
    let mut server_rss = Vec::new();
    let mut samples = report::Samples::default();
    let (stop_siege, siege_stop) = watch::channel(false);
    let siege = if args.hostile > 0 {
        Some(hostile::start(&urls[0], args.hostile, args.hostile_addresses, siege_stop).await?)
    } else {
        None
    };
    live.measuring.store(true, Ordering::Release);
    let started = Instant::now();
    step_tx.send_replace(Step::Go);
    let window = Duration::from_secs(args.duration);
    let mut last = (0u64, Instant::now());
    let mut ticks = 0u64;
    while started.elapsed() < window {
        ticks += 1;
        tokio::time::sleep(Duration::from_secs(1).min(window.saturating_sub(started.elapsed())))
            .await;
        samples
            .connections
            .push(live.connections.load(Ordering::Relaxed));
        samples.playing.push(live.playing.load(Ordering::Relaxed));
        if let Some(rss) = pid.as_deref().and_then(probe::rss_mib) {
            server_rss.push(rss);
        }
        let actions = live.actions.load(Ordering::Relaxed);
        if !args.quiet && ticks.is_multiple_of(5) {
            eprintln!(
                "{:>4}s: {} connections, {} tables playing, {:.0} actions/s, {} errors",
                started.elapsed().as_secs(),
                live.connections.load(Ordering::Relaxed),
                live.playing.load(Ordering::Relaxed),
                (actions - last.0) as f64 / last.1.elapsed().as_secs_f64(),
                live.errors().values().sum::<u64>()
            );
            last = (actions, Instant::now());
        }
    }
    live.measuring.store(false, Ordering::Release);
    let measured = started.elapsed();
    stop_siege.send_replace(true);
    let siege = match siege {
        Some(task) => Some(task.await.context("the hostile clients failed")?),
        None => None,
    };
    let after = probe::scrape_all(&hosts).await;
    step_tx.send_replace(Step::Stop);
    let drain_started = Instant::now();
    let drain = Duration::from_secs(args.drain);
    let mut tallies: Vec<Tally> = Vec::with_capacity(clients);
    let abort = tokio::spawn(async move {
        tokio::time::sleep(drain).await;
        step_tx.send_replace(Step::Abort);
        step_tx
    });
    for t in tasks {
        tallies.push(t.await.context("a client task failed")?);
    }
    abort.abort();
    let drained = drain_started.elapsed();
    let mut games = report::merge_games(&mut tallies);
    if let Some(n) = args.check {
        games.truncate(n);
    }
    let checked = probe::check_records(&hosts, &games, 8).await?;
    let (before, after) = probe::both(before, after);
    Ok(report::Report::new(report::Inputs {
        args,
        plan,
        live: &live,
        tallies: &tallies,
        samples,
        setup,
        measured,
        drained,
        before: &before,
        after: &after,
        checked,
        server_rss,
        siege,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heuristic_choice_is_each_games_quick_bot_never_a_search() {
        let registry = games::registry();
        for game in registry.ids() {
            let chosen = bot_for(&registry, game, BotArg::Heuristic).expect("a game");
            let erased = registry.get(game).expect("a game");
            assert!(
                erased.bot_names().contains(&chosen.as_str()),
                "{game}: {chosen}"
            );
            assert!(
                !chosen.starts_with("search") && !chosen.starts_with("engine"),
                "{game}: {chosen} searches"
            );
            assert_eq!(
                bot_for(&registry, game, BotArg::Random).expect("a game"),
                "random"
            );
        }
    }
}
