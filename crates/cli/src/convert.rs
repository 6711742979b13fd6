//! `qipai export` and `qipai import`: game records to and from other programs' formats
//! (Gomoku's SGF and Piskvork's PSQ), through the games' own readers and writers, so the
//! binary knows no format by name.

use anyhow::{bail, Context, Result};
use game::{Registry, Seed};
use std::io::Read;

/// Export options.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// qipai records (one JSON record, or one per line, as `qipai play --record` and the
    /// server's `/api/games/{id}` give them); `-` for stdin.
    record: String,
    /// The format to write (Gomoku: `sgf`, `psq`).
    #[arg(long)]
    format: String,
}

/// Import options.
#[derive(clap::Args)]
pub struct ImportArgs {
    /// The file to read; `-` for stdin.
    file: String,
    /// The game it is a record of.
    #[arg(long, default_value = "gomoku")]
    game: String,
    /// Its format; by default the file's extension (`.sgf`, `.psq`).
    #[arg(long)]
    format: Option<String>,
    /// What the format does not say, as `KEY=VALUE` of the game's options (PSQ has no
    /// rule: `--set rule=renju`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

/// The text of a file, or of stdin for `-`.
pub fn read_input(path: &str) -> Result<String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))
    }
}

/// Writes each finished record in the format asked for, one after another.
pub fn export(registry: &Registry, args: ExportArgs) -> Result<()> {
    for record in crate::verify::read_records(&args.record)? {
        let game = registry.get(&record.game)?;
        if !game.export_formats().contains(&args.format.as_str()) {
            bail!(
                "{} records cannot be written as {} (formats: {})",
                game.id(),
                args.format,
                list(game.export_formats())
            );
        }
        match game.export(&record, &args.format)? {
            Some(text) => out!("{text}"),
            None => bail!("game {} cannot be written as {}", record.id, args.format),
        }
    }
    Ok(())
}

/// Reads another program's record, replays it by the rules and prints it as a qipai
/// record (one JSON line), which `verify`, `export` and replays take.
pub fn import(registry: &Registry, args: ImportArgs) -> Result<()> {
    let game = registry.get(&args.game)?;
    let format = match &args.format {
        Some(f) => f.to_ascii_lowercase(),
        None => std::path::Path::new(&args.file)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .with_context(|| format!("say which format {} is in (--format)", args.file))?,
    };
    let mut config = serde_json::Value::Null;
    for option in &args.set {
        crate::options::set_option(&mut config, option).context("--set")?;
    }
    let text = read_input(&args.file)?;
    // The id names the content, so importing the same file twice gives the same record.
    let seed = Seed::from_u64(fnv(text.as_bytes()));
    let id = format!("{}-import-{}", game.id(), &seed.to_hex()[..12]);
    match game.import(&format, &text, &config, &id, seed)? {
        Some(record) => {
            outln!("{}", serde_json::to_string(&record)?);
            Ok(())
        }
        None => bail!(
            "{} records cannot be read from {format} (formats: {})",
            game.id(),
            list(game.import_formats())
        ),
    }
}

/// Formats for a message.
fn list(formats: &[&str]) -> String {
    if formats.is_empty() {
        "none".into()
    } else {
        formats.join(", ")
    }
}

/// FNV-1a: a stable short digest of the imported text, for its id.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
