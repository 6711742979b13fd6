//! Lines from another program, each read whole or refused whole when it is too long.
//!
//! The judge, `qipai bot` and the external engines all read one JSON document a line from a
//! program we do not control. A line with no end could make us hold gigabytes, so a line
//! longer than [`MAX_LINE`] is skipped to its end and reported as [`Line::TooLong`].

use serde_json::Value;
use std::io::{self, BufRead, BufWriter, Read, Write};

/// The longest line read.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
pub enum Line {
    /// The input ended.
    End,
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
    /// A line, without its end of line, invalid UTF-8 replaced.
    Text(String),
}

/// Reads the next line of `input`, using `buf` as room.
pub fn next(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Line> {
    buf.clear();
    let n = (&mut *input)
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
        let mut rest = Vec::new();
        input.read_until(b'\n', &mut rest)?;
        return Ok(Line::TooLong);
    }
    let text = String::from_utf8_lossy(buf);
    Ok(Line::Text(text.trim_end_matches(['\n', '\r']).to_string()))
}

/// Answers stdin on stdout, a JSON line for each line read, in order, until the input
/// ends: `answer` gets each non-blank line, or why it was skipped (too long). Blank lines
/// get no answer.
pub fn answer_each(mut answer: impl FnMut(Result<&str, String>) -> Value) -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    loop {
        let reply = match next(&mut input, &mut buf)? {
            Line::End => return Ok(()),
            Line::TooLong => answer(Err(format!("request line longer than {MAX_LINE} bytes"))),
            Line::Text(line) if line.trim().is_empty() => continue,
            Line::Text(line) => answer(Ok(line.trim())),
        };
        serde_json::to_writer(&mut out, &reply)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_too_long_is_skipped_whole_and_the_next_is_read() {
        let mut input = Vec::new();
        input.extend_from_slice(b"first\r\n");
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend_from_slice(b"\nlast");
        let mut input = io::Cursor::new(input);
        let mut buf = Vec::new();
        let mut seen = Vec::new();
        loop {
            match next(&mut input, &mut buf).expect("a cursor reads") {
                Line::End => break,
                Line::TooLong => seen.push("too long".to_string()),
                Line::Text(t) => seen.push(t),
            }
        }
        assert_eq!(seen, ["first", "too long", "last"]);
    }
}
