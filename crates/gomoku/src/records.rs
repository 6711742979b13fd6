//! Game records in the formats other Gomoku programs read: SGF (`GM[4]`, the Gomoku game
//! number of the Smart Game Format) and Piskvork's PSQ.
//!
//! Both hold the board size and the moves in order (black first); SGF also holds the rule
//! (`RU[freestyle|standard|renju]`, our names) and the result. Import checks every move by
//! the rules, so an imported record is a game that could have been played.

use crate::board::{Color, Point, Rule, MAX_SIZE};
use crate::rules::{Config, EndReason, GameEnd, State};

/// A game as a record: size, rule and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Board side.
    pub size: u8,
    /// The rule variant.
    pub rule: Rule,
    /// The stones, in the order played, black first.
    pub moves: Vec<Point>,
}

/// Why a record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text is not in the format.
    #[error("not a valid {format} record: {reason}")]
    Format {
        /// SGF or PSQ.
        format: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A move breaks the rules where it stands.
    #[error("move {index}: {reason}")]
    Illegal {
        /// 1-based move number.
        index: usize,
        /// The rules' objection.
        reason: String,
    },
}

impl GameRecord {
    /// Replays the moves by the rules, returning the final state.
    pub fn replay(&self) -> Result<State, RecordError> {
        let config = Config {
            size: self.size,
            rule: self.rule,
            ..Config::default()
        };
        let mut state = State::new(&config).map_err(|e| RecordError::Illegal {
            index: 0,
            reason: e.to_string(),
        })?;
        for (i, &p) in self.moves.iter().enumerate() {
            state.play(p).map_err(|e| RecordError::Illegal {
                index: i + 1,
                reason: e.to_string(),
            })?;
        }
        Ok(state)
    }
}

fn sgf_coord(v: u8) -> char {
    char::from(b'a' + v)
}

/// The record as SGF: `(;GM[4]FF[4]SZ[15]RU[renju]RE[B+];B[hh];W[ii]…)`.
pub fn to_sgf(record: &GameRecord, end: Option<GameEnd>) -> String {
    let mut s = format!(
        "(;GM[4]FF[4]CA[UTF-8]AP[qipai]SZ[{}]RU[{}]",
        record.size,
        record.rule.name()
    );
    if let Some(end) = end {
        let re = match (end.winner, end.reason) {
            (None, _) => "0".to_string(),
            (Some(c), EndReason::Resignation) => format!("{}+R", sgf_colour(c)),
            (Some(c), _) => format!("{}+", sgf_colour(c)),
        };
        s.push_str(&format!("RE[{re}]"));
    }
    for (i, p) in record.moves.iter().enumerate() {
        let who = sgf_colour(Color::of_ply(i));
        s.push_str(&format!(";{who}[{}{}]", sgf_coord(p.x), sgf_coord(p.y)));
    }
    s.push_str(")\n");
    s
}

fn sgf_colour(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// The (identifier, value) properties of an SGF text, in order.
fn sgf_properties(text: &str) -> Result<Vec<(String, String)>, RecordError> {
    let bad = |reason: &str| RecordError::Format {
        format: "SGF",
        reason: reason.into(),
    };
    let t = text.trim();
    if !t.starts_with('(') {
        return Err(bad("an SGF record starts with '('"));
    }
    let mut props = Vec::new();
    let mut ident = String::new();
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        match c {
            'A'..='Z' => ident.push(c),
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next() {
                        None => return Err(bad("a property value is not closed with ']'")),
                        Some('\\') => {
                            if let Some(e) = chars.next() {
                                value.push(e);
                            }
                        }
                        Some(']') => break,
                        Some(v) => value.push(v),
                    }
                }
                if ident.is_empty() {
                    // A further value of the previous property (a list): keep its name.
                    let last = props.last().map(|(k, _): &(String, String)| k.clone());
                    match last {
                        Some(k) => props.push((k, value)),
                        None => return Err(bad("a value without a property name")),
                    }
                } else {
                    props.push((std::mem::take(&mut ident), value));
                }
            }
            c if c.is_ascii_lowercase() => {}
            _ => ident.clear(),
        }
    }
    Ok(props)
}

/// Reads an SGF record (`GM[4]`; `SZ` defaults to 15, `RU` to freestyle).
pub fn from_sgf(text: &str) -> Result<GameRecord, RecordError> {
    let bad = |reason: String| RecordError::Format {
        format: "SGF",
        reason,
    };
    let props = sgf_properties(text)?;
    let mut size = 15u8;
    let mut rule = Rule::Freestyle;
    let mut moves = Vec::new();
    for (k, v) in props {
        match k.as_str() {
            "GM" if v.trim() != "4" => return Err(bad(format!("GM[{v}] is not Gomoku (GM[4])"))),
            "SZ" => {
                size = v
                    .trim()
                    .parse()
                    .ok()
                    .filter(|s| (5..=MAX_SIZE as u8).contains(s))
                    .ok_or_else(|| {
                        bad(format!("SZ[{v}] is not a board size from 5 to {MAX_SIZE}"))
                    })?;
            }
            "RU" => {
                rule = Rule::parse(v.trim().to_ascii_lowercase().as_str()).ok_or_else(|| {
                    bad(format!("RU[{v}]: rules are freestyle, standard or renju"))
                })?;
            }
            "B" | "W" => {
                let colour = if k == "B" { Color::Black } else { Color::White };
                if colour != Color::of_ply(moves.len()) {
                    return Err(bad(format!(
                        "move {} is not {}'s turn",
                        moves.len() + 1,
                        colour.name()
                    )));
                }
                let b = v.as_bytes();
                if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
                    return Err(bad(format!("{k}[{v}] is not a point")));
                }
                moves.push(Point::new(b[0] - b'a', b[1] - b'a'));
            }
            _ => {}
        }
    }
    let record = GameRecord { size, rule, moves };
    record.replay()?;
    Ok(record)
}

/// The record as Piskvork PSQ: a header, then `x,y,time` per move (1-based), then `-1`.
pub fn to_psq(record: &GameRecord) -> String {
    let mut s = format!("Piskvorky {0}x{0}, 11:11, 0\n", record.size);
    for p in &record.moves {
        s.push_str(&format!(
            "{},{},0\n",
            u32::from(p.x) + 1,
            u32::from(p.y) + 1
        ));
    }
    s.push_str("-1\n");
    s
}

/// Reads a PSQ record (freestyle unless told otherwise by the caller).
pub fn from_psq(text: &str, rule: Rule) -> Result<GameRecord, RecordError> {
    let bad = |reason: String| RecordError::Format {
        format: "PSQ",
        reason,
    };
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines
        .next()
        .ok_or_else(|| bad("the file is empty".into()))?;
    let dims = header
        .strip_prefix("Piskvorky")
        .and_then(|r| r.trim().split(',').next())
        .ok_or_else(|| bad(format!("'{header}' is not a Piskvorky header")))?;
    let (w, h) = dims
        .split_once('x')
        .ok_or_else(|| bad(format!("'{dims}' is not a board size like 15x15")))?;
    let w: u8 = w
        .trim()
        .parse()
        .map_err(|_| bad(format!("bad width '{w}'")))?;
    let h: u8 = h
        .trim()
        .parse()
        .map_err(|_| bad(format!("bad height '{h}'")))?;
    if w != h || !(5..=MAX_SIZE as u8).contains(&w) {
        return Err(bad(format!(
            "{w}x{h}: only square boards from 5 to {MAX_SIZE} are played"
        )));
    }
    let mut moves = Vec::new();
    for line in lines {
        let nums: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed: Option<Vec<u32>> = nums.iter().map(|n| n.parse().ok()).collect();
        match parsed {
            Some(v) if v.len() == 3 && v[0] >= 1 && v[1] >= 1 => {
                if v[0] > u32::from(w) || v[1] > u32::from(w) {
                    return Err(bad(format!("move '{line}' is off the board")));
                }
                moves.push(Point::new((v[0] - 1) as u8, (v[1] - 1) as u8));
            }
            _ => break,
        }
    }
    let record = GameRecord {
        size: w,
        rule,
        moves,
    };
    record.replay()?;
    Ok(record)
}
