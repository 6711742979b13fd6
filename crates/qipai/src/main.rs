//! `qipai`: the command-line face of the qipai game hall.
//!
//! The commands live in the `cli` crate and the list of games in the `games` crate; this
//! binary only hands the one to the other, so that a change to a game rebuilds this line
//! and not the commands (ripgrep's thin binary, for the same reason).

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    cli::main(games::registry())
}
