//! The Gomocup (Piskvork) brain protocol as pure state machines: [`Brain`] is the engine's
//! side (`qipai gomocup` pipes stdin lines into [`Brain::handle_line`] and prints what it
//! returns), and [`client`] encodes commands and reads replies for driving another brain.
//!
//! Supported commands: `START`, `RECTSTART` (square boards only), `BEGIN`, `TURN`,
//! `BOARD` … `DONE`, `SWAP2BOARD` … `DONE` (the Swap2 opening, [`crate::swap2`]), `INFO` (`timeout_turn`, `timeout_match`, `time_left`, `max_memory`,
//! `rule`; others are accepted and ignored), `TAKEBACK`, `RESTART`, `ABOUT`, `END`.
//! Anything else answers `UNKNOWN`; a malformed or impossible command answers `ERROR`.
//! The `rule` bitmask maps 1 (exactly five) to standard, 4 to renju, and 0 and 2
//! (continuous game) to freestyle. Caro (8: a five blocked at both ends does not win) is a
//! rule this brain does not play: `INFO rule` with that bit answers `ERROR` so that the
//! manager and its operator see it, and the brain plays the other bits' rule.
//!
//! `BOARD` is one command spread over lines, so it gets one answer, after `DONE`: the
//! brain's move, or `ERROR <why>` if any line was bad. Each line must be `x,y,field` with
//! the point on the board and not given twice, and `field` 1 (own stone) or 2 (the
//! opponent's); 3, which the protocol uses only in continuous games (stones of a finished
//! five), is refused since this brain does not play them. A bad board is discarded whole:
//! the `ERROR` names the first bad line, no move is made, and the brain is left with an
//! empty board, as after `RESTART`, ready for the next command. A line that starts with a
//! letter other than `DONE` is a command, not a stone: the unfinished board is discarded
//! the same way (`ERROR`), and then the command is handled.
//!
//! `INFO timeout_turn 0` means "play as fast as possible": the brain then gives itself
//! [`FAST_TURN_MS`] for the move.

use crate::board::{Point, Rule, MAX_SIZE};
use crate::engine::{Engine, Limits};
use std::time::Duration;

/// The turn time the brain gives itself when told `timeout_turn 0` ("play as fast as
/// possible"): short enough to feel instant, long enough for the threat solvers and a
/// few plies of search, which is what keeps the brain from blundering into a four.
pub const FAST_TURN_MS: u64 = 100;

/// The brain's transposition table, 2^22 entries (64 MiB), when the manager sets no
/// memory limit; a limit can only make it smaller.
pub const TT_BITS: u32 = 22;

/// How long the brain thinks when it has `turn_ms` for a move: a safety margin for the
/// round trip is kept back (a tenth, plus 30 ms; at least 10 ms is left). The search stops
/// hard at this time, so the answer arrives within the manager's limit.
pub fn think_time(turn_ms: u64) -> Duration {
    Duration::from_millis(turn_ms.saturating_sub(turn_ms / 10 + 30).max(10))
}

/// Match settings from `INFO`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    /// Milliseconds per move (0: as fast as possible).
    timeout_turn: u64,
    /// Milliseconds per match (0: unlimited).
    timeout_match: u64,
    /// Milliseconds left in the match.
    time_left: u64,
    /// Memory limit in bytes (0: none).
    max_memory: u64,
}

impl Default for Info {
    fn default() -> Self {
        Info {
            timeout_turn: 5_000,
            timeout_match: 0,
            time_left: u64::MAX,
            max_memory: 0,
        }
    }
}

/// The engine behind the Gomocup protocol.
pub struct Brain {
    size: u8,
    rule: Rule,
    /// Own stones and the opponent's in the order received.
    stones: Vec<(Point, bool)>,
    info: Info,
    engine: Option<Engine>,
    board_buffer: Option<BoardLines>,
    finished: bool,
}

/// A `BOARD` command being read: the stones so far, and the first bad line if any.
#[derive(Default)]
struct BoardLines {
    /// `SWAP2BOARD`: stones in the order laid, `x,y` each, no field.
    swap2: bool,
    stones: Vec<(Point, u8)>,
    lines: usize,
    bad: Option<String>,
}

impl Default for Brain {
    fn default() -> Self {
        Brain::new()
    }
}

fn parse_xy(s: &str) -> Option<Point> {
    let mut it = s.split(',').map(str::trim);
    let x: u8 = it.next()?.parse().ok()?;
    let y: u8 = it.next()?.parse().ok()?;
    it.next().is_none().then_some(Point::new(x, y))
}

impl game::Brain for Brain {
    fn handle_line(&mut self, line: &str) -> Vec<String> {
        Brain::handle_line(self, line)
    }

    fn finished(&self) -> bool {
        Brain::finished(self)
    }
}

impl Brain {
    /// A brain waiting for `START`.
    pub fn new() -> Brain {
        Brain {
            size: 0,
            rule: Rule::Freestyle,
            stones: Vec::new(),
            info: Info::default(),
            engine: None,
            board_buffer: None,
            finished: false,
        }
    }

    /// Whether `END` was received: the caller should exit.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Handles one input line; returns the lines to print, in order.
    pub fn handle_line(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        if self.board_buffer.is_some() {
            if line.eq_ignore_ascii_case("DONE") {
                return self.finish_board();
            }
            if !line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                self.board_line(line);
                return Vec::new();
            }
            // A command before DONE: the board was never finished.
            self.board_buffer = None;
            self.stones.clear();
            let mut out = vec!["ERROR BOARD ended without DONE; the board is discarded".into()];
            out.extend(self.handle_line(line));
            return out;
        }
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd.to_ascii_uppercase().as_str() {
            "START" => match rest.parse::<u8>() {
                Ok(n) => self.start(n),
                Err(_) => vec![format!("ERROR START needs a board size, not '{rest}'")],
            },
            "RECTSTART" => match parse_xy(rest) {
                Some(p) if p.x == p.y => self.start(p.x),
                Some(_) => vec!["ERROR rectangular boards are not supported".into()],
                None => vec![format!("ERROR RECTSTART needs width,height, not '{rest}'")],
            },
            "RESTART" => {
                self.stones.clear();
                if self.size == 0 {
                    vec!["ERROR no START yet".into()]
                } else {
                    vec!["OK".into()]
                }
            }
            "BEGIN" => {
                if self.size == 0 {
                    return vec!["ERROR no START yet".into()];
                }
                self.stones.clear();
                self.reply()
            }
            "TURN" => match parse_xy(rest) {
                Some(p) => match self.add(p, false) {
                    Ok(()) => self.reply(),
                    Err(e) => vec![format!("ERROR {e}")],
                },
                None => vec![format!("ERROR TURN needs x,y, not '{rest}'")],
            },
            "BOARD" => {
                if self.size == 0 {
                    return vec!["ERROR no START yet".into()];
                }
                self.board_buffer = Some(BoardLines::default());
                Vec::new()
            }
            "SWAP2BOARD" => {
                if self.size == 0 {
                    return vec!["ERROR no START yet".into()];
                }
                self.board_buffer = Some(BoardLines {
                    swap2: true,
                    ..BoardLines::default()
                });
                Vec::new()
            }
            "TAKEBACK" => match parse_xy(rest) {
                Some(p) => match self.stones.iter().rposition(|&(q, _)| q == p) {
                    Some(i) => {
                        self.stones.remove(i);
                        vec!["OK".into()]
                    }
                    None => vec![format!("ERROR no stone at {p}")],
                },
                None => vec![format!("ERROR TAKEBACK needs x,y, not '{rest}'")],
            },
            "INFO" => self.info(rest),
            "ABOUT" => vec![
                "name=\"qipai\", version=\"0.1\", author=\"qipai project\", country=\"-\"".into(),
            ],
            "END" => {
                self.finished = true;
                Vec::new()
            }
            _ => vec![format!("UNKNOWN command '{cmd}'")],
        }
    }

    fn start(&mut self, n: u8) -> Vec<String> {
        if !(5..=MAX_SIZE as u8).contains(&n) {
            return vec![format!(
                "ERROR unsupported board size {n} (5 to {MAX_SIZE})"
            )];
        }
        self.size = n;
        self.stones.clear();
        self.engine = None;
        vec!["OK".into()]
    }

    fn info(&mut self, rest: &str) -> Vec<String> {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let num = value.trim().parse::<i64>().ok();
        match (key.to_ascii_lowercase().as_str(), num) {
            ("timeout_turn", Some(v)) => self.info.timeout_turn = v.max(0) as u64,
            ("timeout_match", Some(v)) => self.info.timeout_match = v.max(0) as u64,
            ("time_left", Some(v)) => self.info.time_left = v.max(0) as u64,
            ("max_memory", Some(v)) => self.info.max_memory = v.max(0) as u64,
            ("rule", Some(v)) => {
                let rule = if v & 4 != 0 {
                    Rule::Renju
                } else if v & 1 != 0 {
                    Rule::Standard
                } else {
                    Rule::Freestyle
                };
                if rule != self.rule {
                    self.rule = rule;
                    self.engine = None;
                }
                if v & 8 != 0 {
                    return vec![format!(
                        "ERROR the caro rule (8) is not supported: this brain plays {}",
                        rule.name()
                    )];
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn add(&mut self, p: Point, own: bool) -> Result<(), String> {
        if self.size == 0 {
            return Err("no START yet".into());
        }
        if p.x >= self.size || p.y >= self.size {
            return Err(format!("{p} is off the board"));
        }
        if self.stones.iter().any(|&(q, _)| q == p) {
            return Err(format!("{p} is occupied"));
        }
        self.stones.push((p, own));
        Ok(())
    }

    /// Reads one stone line of a `BOARD` command; the first bad one is remembered.
    fn board_line(&mut self, line: &str) {
        let size = self.size;
        let Some(buffer) = &mut self.board_buffer else {
            return;
        };
        buffer.lines += 1;
        if buffer.bad.is_some() {
            return;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match fields.as_slice() {
            [x, y, f] if !buffer.swap2 => {
                match (x.parse::<u8>(), y.parse::<u8>(), f.parse::<u8>()) {
                    (Ok(x), Ok(y), Ok(f)) => Ok((Point::new(x, y), f)),
                    _ => Err("x, y and field must be small whole numbers".to_string()),
                }
            }
            // Swap2 stones alternate black and white in the order given.
            [x, y] if buffer.swap2 => match (x.parse::<u8>(), y.parse::<u8>()) {
                (Ok(x), Ok(y)) => Ok((Point::new(x, y), 1)),
                _ => Err("x and y must be small whole numbers".to_string()),
            },
            _ if buffer.swap2 => Err("a SWAP2BOARD line is x,y".to_string()),
            _ => Err("a stone line is x,y,field".to_string()),
        };
        let checked = parsed.and_then(|(p, f)| {
            if p.x >= size || p.y >= size {
                Err(format!("{p} is off the {size}×{size} board"))
            } else if buffer.stones.iter().any(|&(q, _)| q == p) {
                Err(format!("{p} is given twice"))
            } else if f == 3 {
                Err("field 3 marks continuous-game stones, which this brain does not play".into())
            } else if f != 1 && f != 2 {
                Err(format!("field {f} is not 1 (own stone) or 2 (opponent's)"))
            } else {
                Ok((p, f))
            }
        });
        match checked {
            Ok(stone) => buffer.stones.push(stone),
            Err(why) => {
                buffer.bad = Some(format!("BOARD line {} '{line}': {why}", buffer.lines));
            }
        }
    }

    /// `DONE`: plays on the new board, or discards it if a line was bad.
    fn finish_board(&mut self) -> Vec<String> {
        let Some(buffer) = self.board_buffer.take() else {
            return Vec::new();
        };
        self.stones.clear();
        if let Some(bad) = buffer.bad {
            return vec![format!("ERROR {bad}; the board is discarded")];
        }
        if buffer.swap2 {
            return self.swap2(&buffer.stones.iter().map(|s| s.0).collect::<Vec<_>>());
        }
        for (p, field) in buffer.stones {
            if let Err(e) = self.add(p, field == 1) {
                self.stones.clear();
                return vec![format!("ERROR {e}; the board is discarded")];
            }
        }
        self.reply()
    }

    /// `SWAP2BOARD` … `DONE`: the opening choice (see [`crate::swap2`]). The manager sends
    /// the position agreed on with `BOARD` afterwards, so the brain keeps no stones.
    fn swap2(&mut self, stones: &[Point]) -> Vec<String> {
        let (size, rule, bits, budget) = (self.size, self.rule, self.tt_bits(), self.turn_budget());
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(size, rule, bits));
        match crate::swap2::decide(engine, size, rule, stones, budget) {
            Ok(answer) => vec![answer.to_string()],
            Err(e) => vec![format!("ERROR {e}")],
        }
    }

    /// The stones as a game the engine can replay: black first, alternating. The brain is
    /// to move, so it is black when both have as many stones, white when it has one fewer.
    fn game_moves(&self) -> Result<Vec<Point>, String> {
        let own: Vec<Point> = self.stones.iter().filter(|s| s.1).map(|s| s.0).collect();
        let opp: Vec<Point> = self.stones.iter().filter(|s| !s.1).map(|s| s.0).collect();
        let (black, white) = if own.len() == opp.len() {
            (own, opp)
        } else if own.len() + 1 == opp.len() {
            (opp, own)
        } else {
            return Err(format!(
                "cannot play: {} own stones against {}",
                own.len(),
                opp.len()
            ));
        };
        let mut moves = Vec::with_capacity(black.len() + white.len());
        for (i, &b) in black.iter().enumerate() {
            moves.push(b);
            if let Some(&w) = white.get(i) {
                moves.push(w);
            }
        }
        Ok(moves)
    }

    /// How long the brain will think about its next move: the turn limit (for 0, "as fast
    /// as possible", [`FAST_TURN_MS`]), or a tenth of the match time left if that is less,
    /// less [`think_time`]'s margin for the round trip. The search starts no new iteration
    /// after 70% of it.
    pub fn turn_budget(&self) -> Duration {
        let mut ms = if self.info.timeout_turn == 0 {
            FAST_TURN_MS
        } else {
            self.info.timeout_turn
        };
        if self.info.timeout_match > 0 && self.info.time_left != u64::MAX {
            ms = ms.min(self.info.time_left / 10);
        }
        think_time(ms)
    }

    fn tt_bits(&self) -> u32 {
        if self.info.max_memory == 0 {
            return TT_BITS;
        }
        let entries = (self.info.max_memory / 2 / 16).max(1 << 10);
        (63 - entries.leading_zeros()).min(TT_BITS)
    }

    fn reply(&mut self) -> Vec<String> {
        let moves = match self.game_moves() {
            Ok(m) => m,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        let (size, rule, bits, hard) = (self.size, self.rule, self.tt_bits(), self.turn_budget());
        let engine = match &mut self.engine {
            Some(e) => e,
            None => self.engine.insert(Engine::new(size, rule, bits)),
        };
        if let Err(e) = engine.set_moves(size, rule, &moves) {
            return vec![format!("ERROR {e}")];
        }
        let limits = Limits::timed(hard);
        let t = engine.think(&limits);
        let Some(p) = t.best else {
            return vec!["ERROR the board is full".into()];
        };
        self.stones.push((p, true));
        vec![
            format!(
                "MESSAGE depth {} eval {} nodes {}{}",
                t.depth,
                t.eval,
                t.nodes,
                t.win_in.map(|k| format!(" win in {k}")).unwrap_or_default()
            ),
            format!("{},{}", p.x, p.y),
        ]
    }
}

/// The manager's side of the protocol: commands to send to a brain and its replies read
/// back. The loop that drives a brain (the `qipai` binary's `engine::pbrain` module) sends
/// `START size`, the `INFO` lines, then per brain move `BEGIN`, `TURN x,y` or
/// `BOARD … DONE`, reading lines with [`parse_reply`](client::parse_reply) until a
/// [`Reply::Move`](client::Reply::Move); `END` at the end.
pub mod client {
    use super::parse_xy;
    use crate::board::Point;

    /// A command to a brain.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Command {
        /// `START size`.
        Start(u8),
        /// `INFO key value`.
        Info(String, String),
        /// `BEGIN`: the brain plays first.
        Begin,
        /// `TURN x,y`: the opponent played here; the brain replies with its move.
        Turn(Point),
        /// `BOARD` … `DONE`: a whole position, each stone with 1 (the brain's) or 2.
        Board(Vec<(Point, u8)>),
        /// `TAKEBACK x,y`.
        Takeback(Point),
        /// `RESTART`.
        Restart,
        /// `ABOUT`.
        About,
        /// `END`.
        End,
    }

    impl Command {
        /// The lines to send.
        pub fn encode(&self) -> Vec<String> {
            match self {
                Command::Start(n) => vec![format!("START {n}")],
                Command::Info(k, v) => vec![format!("INFO {k} {v}")],
                Command::Begin => vec!["BEGIN".into()],
                Command::Turn(p) => vec![format!("TURN {},{}", p.x, p.y)],
                Command::Board(stones) => {
                    let mut v = vec!["BOARD".to_string()];
                    v.extend(stones.iter().map(|(p, f)| format!("{},{},{f}", p.x, p.y)));
                    v.push("DONE".into());
                    v
                }
                Command::Takeback(p) => vec![format!("TAKEBACK {},{}", p.x, p.y)],
                Command::Restart => vec!["RESTART".into()],
                Command::About => vec!["ABOUT".into()],
                Command::End => vec!["END".into()],
            }
        }
    }

    /// A line from a brain.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Reply {
        /// `OK`.
        Ok,
        /// A move `x,y`.
        Move(Point),
        /// `MESSAGE …`, for the user.
        Message(String),
        /// `DEBUG …`.
        Debug(String),
        /// `ERROR …`.
        Error(String),
        /// `UNKNOWN …`.
        Unknown(String),
        /// Anything else (an `ABOUT` answer, for instance).
        Other(String),
    }

    /// Reads one line from a brain.
    pub fn parse_reply(line: &str) -> Reply {
        let line = line.trim();
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim().to_string();
        match head.to_ascii_uppercase().as_str() {
            "OK" if rest.is_empty() => Reply::Ok,
            "MESSAGE" => Reply::Message(rest),
            "DEBUG" => Reply::Debug(rest),
            "ERROR" => Reply::Error(rest),
            "UNKNOWN" => Reply::Unknown(rest),
            _ => match parse_xy(line) {
                Some(p) => Reply::Move(p),
                None => Reply::Other(line.to_string()),
            },
        }
    }
}
