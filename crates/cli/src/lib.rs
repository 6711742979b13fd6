//! The commands of `qipai`, the command-line face of the qipai game hall: play, judge,
//! sim, serve, connect, verify, and the rest.
//!
//! Every command reaches the games through the one [`game::Registry`] it is given
//! ([`main`]), so this crate knows no game: the `qipai` binary (crates/qipai) is one line
//! that hands it the `games` crate's list. A change to a game rebuilds that line, not the
//! commands.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// `println!` that returns the write error instead of panicking (a closed pipe, as in
/// `qipai sim … | head`, must not crash the program).
macro_rules! outln {
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut std::io::stdout().lock(), format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` that flushes and returns the write error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        let mut stdout = std::io::stdout().lock();
        std::io::Write::write_fmt(&mut stdout, format_args!($($arg)*))?;
        std::io::Write::flush(&mut stdout)?;
    }};
}

mod bot;
mod connect;
mod convert;
mod engine;
mod gomocup;
mod http;
mod judge;
mod lines;
mod loadtest;
mod options;
mod play;
mod prompt;
mod serve;
mod sim;
mod verify;

use anyhow::Result;
use clap::{Parser, Subcommand};
use game::Registry;

/// qipai (棋牌): Chinese card games and Gomoku — play, judge, self-play, verify.
#[derive(Parser)]
#[command(name = "qipai", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal against computer players.
    Play(play::Args),
    /// Answer rules questions as JSON lines on stdin/stdout (one answer per request line).
    Judge {
        /// The game: see `qipai games`.
        game: String,
    },
    /// Self-play: bots against bots over many seeded games.
    Sim(sim::Args),
    /// Be a Gomocup (Piskvork) brain on stdin/stdout, for Gomoku tournament managers.
    Gomocup,
    /// Be an engine of qipai's JSON-lines protocol on stdin/stdout, played by one of the
    /// game's bots: for other harnesses, and the model of your own (docs/engines.md).
    Bot(bot::Args),
    /// Check finished game records: the seed against the commitment, the deal, the replay.
    Verify(verify::Args),
    /// Run the game hall: accounts, lobby, tables, computers, over WebSocket (one machine,
    /// embedded SQLite, or PostgreSQL with `--database`).
    Serve(serve::Args),
    /// Copy a stopped hall's SQLite data into an empty PostgreSQL database, all or nothing:
    /// every account, table, game, replay and rating.
    CopyData(serve::CopyArgs),
    /// Play on a hall (`qipai serve`) from the terminal: log in or play as a guest, find or
    /// open tables, play any game against people and computers.
    Connect(connect::Args),
    /// Write finished qipai records in another program's format (Gomoku: SGF, PSQ).
    Export(convert::ExportArgs),
    /// Read another program's game record (Gomoku: SGF, PSQ), check every move by the
    /// rules, and print it as a qipai record.
    Import(convert::ImportArgs),
    /// Load a running server with many WebSocket clients playing whole games, and report
    /// connections, games and actions per second, latency, errors and lost actions.
    Loadtest(loadtest::Args),
    /// List the games and their bots.
    Games,
}

/// Runs the command the process was started with, on the games of `registry`; the exit
/// code says whether it went well (an error is printed on one line first).
pub fn main(registry: Registry) -> std::process::ExitCode {
    match run(registry) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // Whoever read our output stopped reading: nothing is wrong, nothing to say.
        Err(e) if is_broken_pipe(&e) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qipai: {}", one_line(&e));
            std::process::ExitCode::FAILURE
        }
    }
}

/// An error and its causes on one line, each said once. Many errors already end with
/// their cause's words (a store's error says the database's) and also keep the cause as
/// their source, for programs; printing every link would repeat them.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let words = cause.to_string();
        if line.contains(&words) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&words);
    }
    line
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(registry: Registry) -> Result<()> {
    if gomocup::called_as_brain() {
        return gomocup::run(&registry);
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Play(args) => play::run(&registry, args),
        Command::Judge { game } => judge::run(&registry, &game),
        Command::Sim(args) => sim::run(&registry, args),
        Command::Verify(args) => verify::run(&registry, args),
        Command::Serve(args) => serve::run(registry, args),
        Command::CopyData(args) => serve::copy_data(args),
        Command::Connect(args) => connect::run(&registry, args),
        Command::Export(args) => convert::export(&registry, args),
        Command::Import(args) => convert::import(&registry, args),
        Command::Loadtest(args) => loadtest::run(registry, args),
        Command::Gomocup => gomocup::run(&registry),
        Command::Bot(args) => bot::run(&registry, args),
        Command::Games => {
            for g in registry.games() {
                outln!(
                    "{:<10} {}  (bots: {})",
                    g.id(),
                    g.name(),
                    g.bot_names().join(", ")
                );
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn an_error_says_each_cause_once() {
        let io = std::io::Error::other("disk full");
        let e = anyhow::Error::new(io).context("cannot save the record: disk full");
        assert_eq!(one_line(&e), "cannot save the record: disk full");
        let e = anyhow::anyhow!("disk full").context("cannot save the record");
        assert_eq!(one_line(&e), "cannot save the record: disk full");
    }
}
