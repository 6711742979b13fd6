//! `qipai verify RECORD`: is this the deal that was promised, and does it replay?

use anyhow::{Context, Result};
use game::{Record, Registry};

/// Reads a record, checks sha256(seed) against the commitment, replays every action and
/// compares the outcome. Prints the verdict; fails (exit code 1) when the record does not
/// verify.
pub fn run(registry: &Registry, path: &str) -> Result<()> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?
    };
    let record: Record = serde_json::from_str(&text).context("not a qipai record")?;
    let game = registry.get(&record.game)?;
    let outcome = game
        .verify(&record)
        .with_context(|| format!("record {} does not verify", record.id))?;
    outln!(
        "ok: {} game {} — seed matches commitment {}, {} actions replay; scores {:?}",
        record.game,
        record.id,
        record.commitment,
        record.actions.len(),
        outcome.scores
    );
    Ok(())
}
