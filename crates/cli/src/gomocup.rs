//! `qipai gomocup`: the Gomocup (Piskvork) brain protocol on stdin and stdout.
//!
//! The protocol itself is a pure state machine in the game's crate, reached through the
//! registry ([`game::ErasedGame::brain`] of the game whose engine protocol is Gomocup);
//! this loop only moves lines between it and the pipes. A Gomocup manager starts a brain with no
//! arguments, so the binary also becomes the brain when it is called by a name starting
//! with `pbrain-` (install: `ln -s "$(command -v qipai)" pbrain-qipai`).

use anyhow::{Context, Result};
use game::Registry;
use std::io::{BufRead, Write};

/// Whether the program was started as a Gomocup brain (`pbrain-qipai`).
pub fn called_as_brain() -> bool {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_stem()
                .map(|s| s.to_string_lossy().to_ascii_lowercase())
        })
        .is_some_and(|name| name.starts_with("pbrain-"))
}

/// Answers protocol lines until `END` or the end of input.
pub fn run(registry: &Registry) -> Result<()> {
    let mut brain = registry
        .games()
        .filter(|g| g.engine_protocol() == Some("gomocup"))
        .find_map(|g| g.brain())
        .context("no game of this build has a Gomocup brain")?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        for reply in brain.handle_line(&line) {
            writeln!(out, "{reply}")?;
        }
        out.flush()?;
        if brain.finished() {
            break;
        }
    }
    Ok(())
}
