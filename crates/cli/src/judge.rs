//! `qipai judge GAME`: JSON lines in, one answer per line out.

use anyhow::Result;
use game::Registry;
use std::io::{BufRead, BufWriter, Read, Write};

/// The longest request line read; longer lines are answered with an error and skipped, so
/// a runaway client cannot make the judge hold gigabytes.
pub const MAX_LINE: usize = 1 << 20;

/// Reads requests until end of input. Never exits on bad input: every non-blank line gets
/// exactly one answer line, in order.
pub fn run(registry: &Registry, game: &str) -> Result<()> {
    let game = registry.get(game)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            break;
        }
        let answer = if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
            // Skip the rest of the oversize line.
            let mut rest = Vec::new();
            input.read_until(b'\n', &mut rest)?;
            game::judge::error(format!("request line longer than {MAX_LINE} bytes"))
        } else {
            let line = String::from_utf8_lossy(&buf);
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            match serde_json::from_str::<serde_json::Value>(line) {
                Ok(request) => game.judge(&request),
                Err(e) => game::judge::error(format!("not JSON: {e}")),
            }
        };
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}
