//! `qipai verify RECORD`: is this the deal that was promised, and does it replay?

use anyhow::{bail, Context, Result};
use game::record::CommitmentSource;
use game::text::{seat_name, seat_number, signed};
use game::{Nonce, Record, Registry, VerifyOptions};

/// What to check besides the record itself.
#[derive(clap::Args)]
pub struct Args {
    /// The record file: one JSON record, or one per line as `qipai play --record` writes
    /// them; `-` for stdin.
    record: String,
    /// The commitment you were shown before the deal. Without it only the record's own
    /// commitment field is checked, which proves the record consistent, not that it is the
    /// game you were promised.
    #[arg(long, value_name = "HEX")]
    commitment: Option<String>,
    /// The nonce you sent before the deal: it must be in the record.
    #[arg(long, value_name = "HEX")]
    nonce: Option<String>,
    /// Replay records whose configuration fixed what the seed should decide (hand-picked
    /// hands, a fixed landlord); the verdict then says so.
    #[arg(long)]
    allow_custom: bool,
}

/// Reads the records, checks each and prints a verdict per record. Fails (exit code 1)
/// when any record does not verify.
pub fn run(registry: &Registry, args: Args) -> Result<()> {
    let records = read_records(&args.record)?;
    let opts = VerifyOptions {
        commitment: args.commitment.clone(),
        nonce: match &args.nonce {
            Some(hex) => Some(Nonce::from_hex(hex)?),
            None => None,
        },
        allow_custom: args.allow_custom,
    };
    let mut failed = 0;
    for record in &records {
        if let Err(e) = verify_one(registry, record, &opts) {
            outln!("NOT OK: {} game {}: {e:#}", record.game, record.id);
            failed += 1;
        }
    }
    if failed > 0 {
        bail!(
            "{} of {} did not verify",
            game::text::count(failed, "record"),
            records.len()
        );
    }
    Ok(())
}

/// One record as a JSON document, or several as JSON lines.
/// The records in a file (`-` for stdin): one JSON record, or one per line.
pub fn read_records(path: &str) -> Result<Vec<Record>> {
    parse_records(&crate::convert::read_input(path)?)
}

fn parse_records(text: &str) -> Result<Vec<Record>> {
    if let Ok(record) = serde_json::from_str::<Record>(text) {
        return Ok(vec![record]);
    }
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        records.push(
            serde_json::from_str::<Record>(line)
                .with_context(|| format!("line {} is not a qipai record", i + 1))?,
        );
    }
    if records.is_empty() {
        bail!("no record found");
    }
    Ok(records)
}

fn verify_one(registry: &Registry, record: &Record, opts: &VerifyOptions) -> Result<()> {
    let game = registry.get(&record.game)?;
    let verdict = game.verify(record, opts)?;
    outln!("ok: {} game {}", record.game, record.id);
    match verdict.source {
        CommitmentSource::Given => outln!(
            "  seed: matches the commitment you gave, {}",
            record.commitment
        ),
        CommitmentSource::Record => outln!(
            "  seed: matches the record's own commitment {} (this proves the record \
consistent; pass --commitment with the one you were shown before the deal to prove it is \
that game)",
            record.commitment
        ),
    }
    let sent: Vec<String> = (0..record.nonces.len())
        .filter(|&s| record.nonces[s].is_some())
        .map(|s| seat_number(s).to_string())
        .collect();
    if sent.is_empty() {
        outln!("  randomness: the seed alone (no player sent a nonce)");
    } else {
        outln!(
            "  randomness: the seed and the nonces of seats {}",
            sent.join(", ")
        );
    }
    if let Some(seat) = verdict.nonce_seat {
        outln!("  your nonce: in the record, {}", seat_name(seat));
    }
    if let Some(why) = &verdict.custom {
        outln!("  custom deal, not a random one: {why}");
    }
    let scores: Vec<String> = verdict
        .outcome
        .scores
        .iter()
        .enumerate()
        .map(|(s, v)| format!("{} {}", seat_name(s), signed(*v)))
        .collect();
    outln!(
        "  play: {} replay to the recorded result: {}",
        game::text::count(record.actions.len(), "action"),
        scores.join(", ")
    );
    Ok(())
}
