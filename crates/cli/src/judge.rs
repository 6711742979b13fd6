//! `qipai judge GAME`: JSON lines in, one answer per line out.

use crate::lines;
use anyhow::Result;
use game::judge::JudgeError;
use game::Registry;

/// Reads requests until end of input. Never exits on bad input: every non-blank line gets
/// exactly one answer line, in order.
pub fn run(registry: &Registry, game: &str) -> Result<()> {
    let game = registry.get(game)?;
    lines::answer_each(|line| match line {
        Err(skipped) => JudgeError::Unread(skipped).answer(),
        Ok(line) => match serde_json::from_str::<serde_json::Value>(line) {
            Ok(request) => game.judge(&request),
            Err(e) => JudgeError::NotJson(e.to_string()).answer(),
        },
    })?;
    Ok(())
}
