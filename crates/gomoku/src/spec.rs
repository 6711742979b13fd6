//! What people and tools need around the rules: bots, the judge, and the terminal face
//! (the board with coordinates, points named `h8` as the board prints them in moves,
//! hints and messages, `undo`, `resign`).

use crate::board::{Color, Point};
use crate::engine::classic;
use crate::notation::{format_point, parse_point, PointError};
use crate::opening::Swap2Step;
use crate::rules::{Action, Config, EndReason, Event, Gomoku, State, UndoPolicy, View};
use crate::{bots, judge};
use game::text::count;
use game::{Bot, Clock, GameSpec, Seat, Seed, Viewer};

impl GameSpec for Gomoku {
    const PRESENTATION: game::Presentation = game::Presentation {
        name_zh: "五子棋",
        name_en: "Gomoku",
        blurb_zh: "十五路棋盘，先连五子者胜。",
        blurb_en: "A 15×15 board: five in a row wins.",
        icon: "●",
        screen: "board",
    };

    /// Words other than a move (`undo`, `yes`…) are few and known, so what fails to read
    /// is always meant as a point.
    type ParseError = PointError;

    /// Against the computer an undo is always granted and takes back two plies, as the
    /// original program did.
    fn against_computer(config: Config, _person: Seat, _seats: usize) -> Config {
        Config {
            undo: UndoPolicy::Granted,
            ..config
        }
    }

    /// The colours swap from game to game: black's first move is a large edge, above all
    /// in freestyle, so the seat that was white opens the next game.
    fn next_game(config: &Config, _seats: usize, _finished: &State) -> Config {
        config.swapped()
    }

    fn engine_protocol() -> Option<&'static str> {
        Some("gomocup")
    }

    fn brain() -> Option<Box<dyn game::Brain>> {
        Some(Box::new(crate::gomocup::Brain::new()))
    }

    /// Only a random opening ([`Config::opening`]) is drawn from the seed; from the empty
    /// board nothing is, and a terminal offers no "replay this deal".
    fn uses_seed(config: &Config) -> bool {
        config.opening > 0
    }

    /// A minute a move, on a chess clock of 15 minutes a player.
    fn clock(_: &State) -> Clock {
        Clock {
            phase: "move",
            seconds: 60,
        }
    }

    fn game_clock() -> Option<u32> {
        Some(15 * 60)
    }

    fn export_formats() -> &'static [&'static str] {
        &["sgf", "psq"]
    }

    /// SGF (`GM[4]`, with the rule and the result) or Piskvork's PSQ.
    fn export(format: &str, finished: &State) -> Option<String> {
        let record = crate::records::GameRecord {
            size: finished.config().size,
            rule: finished.config().rule,
            moves: finished.moves().to_vec(),
        };
        match format {
            "sgf" => Some(crate::records::to_sgf(&record, finished.end())),
            "psq" => Some(crate::records::to_psq(&record)),
            _ => None,
        }
    }

    fn import_formats() -> &'static [&'static str] {
        &["sgf", "psq"]
    }

    /// SGF gives the board size and rule; PSQ gives the size, and the rule comes from
    /// `config`. The moves become placements; [`ErasedGame::import`] replays them.
    ///
    /// [`ErasedGame::import`]: game::ErasedGame::import
    fn import(format: &str, text: &str, config: &Config) -> Result<(Config, Vec<Action>), String> {
        let record = match format {
            "sgf" => crate::records::from_sgf(text),
            "psq" => crate::records::from_psq(text, config.rule),
            _ => return Err(format!("Gomoku reads no {format} records")),
        }
        .map_err(|e| e.to_string())?;
        let config = Config {
            size: record.size,
            rule: record.rule,
            ..config.clone()
        };
        Ok((
            config,
            record.moves.into_iter().map(Action::Place).collect(),
        ))
    }

    fn bot_names() -> &'static [&'static str] {
        bots::BOT_NAMES
    }

    fn quick_bot() -> &'static str {
        "classic"
    }

    /// The engine's ten levels, `L1` (weakest) to `L10`: `engine:L1`…`engine:L9`, and
    /// for `L10` the default bot `engine`, which is that level, so that tables where
    /// nobody chose count at it.
    fn levels() -> Vec<(&'static str, &'static str)> {
        bots::BOT_NAMES
            .iter()
            .filter_map(|b| match b.strip_prefix("engine:")? {
                "L10" => Some(("L10", "engine")),
                level => Some((level, *b)),
            })
            .collect()
    }

    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>> {
        bots::make(name, seed)
    }

    fn judge(request: &serde_json::Value) -> serde_json::Value {
        judge::judge(request)
    }

    /// The board from `viewer`'s side: a player is told which colour they play.
    fn render(view: &View, viewer: Viewer) -> String {
        render_board(view, viewer)
    }

    /// A point as `x,y`, since without the table the board's size — and so the row
    /// number of `h8` — is unknown; `parse_action` reads it back. Tables name points as
    /// the board prints them, through [`GameSpec::action_text_at`]. `undo`, `yes`/`no`
    /// for answers, `resign`.
    fn action_text(action: &Action) -> String {
        text(action, |p| format!("{},{}", p.x, p.y))
    }

    /// A point as the board prints it (`h8`); the other actions as typed.
    fn action_text_at(view: &View, action: &Action) -> String {
        text(action, |p| format_point(p, view.size))
    }

    /// Every Gomoku action is public: it reads as the player's own does.
    fn public_action_text(view: &View, action: &Action) -> String {
        Self::action_text_at(view, action)
    }

    /// Lines for what the moves alone do not say: undo requests and their answers,
    /// resignation, a full board. A stone placed (and a five made) needs none: the move
    /// itself is shown, in the board's notation, and the board tells the five.
    fn event_text(event: &Event, _viewer: Viewer) -> Option<String> {
        Some(match event {
            Event::Placed { .. } | Event::Won { .. } => return None,
            Event::UndoRequested { color } => format!(
                "{} asks to take back their last move; {} answers yes or no.",
                Named(*color),
                color.other().name()
            ),
            Event::UndoRefused { color } => format!(
                "{} refuses to let {} take back: the move stands.",
                Named(color.other()),
                color.name()
            ),
            Event::TakenBack { points } => {
                format!("Undo granted: {} taken back.", count(points.len(), "stone"))
            }
            Event::Resigned { color } => format!("{} resigns.", Named(*color)),
            Event::Draw => "The board is full with no five: a draw.".into(),
            Event::Chose { seat, color } => format!(
                "Swap2: seat {} chooses {}; the colours are settled.",
                seat + 1,
                named(*color)
            ),
        })
    }

    fn parse_action(view: &View, text: &str) -> Result<Action, PointError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "undo" | "u" | "悔棋" => Ok(Action::RequestUndo),
            "resign" | "认输" => Ok(Action::Resign),
            "yes" | "y" | "accept" => Ok(Action::AnswerUndo(true)),
            "no" | "n" | "refuse" => Ok(Action::AnswerUndo(false)),
            "black" | "swap" | "执黑" => Ok(Action::TakeBlack),
            "two" | "place two" | "再下两子" => Ok(Action::PlaceTwo),
            t => parse_point(t, view.size).map(Action::Place),
        }
    }

    /// The classic evaluator's ranking of the legal points: a quick, reasonable hint.
    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        let Some(me) = view.to_move else {
            return Vec::new();
        };
        let allowed: Vec<Point> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Place(p) => Some(*p),
                _ => None,
            })
            .collect();
        let mut g: Vec<(Point, i64)> = classic::grades(&view.board(), me)
            .into_iter()
            .filter(|(p, _, _)| allowed.contains(p))
            .map(|(p, a, d)| (p, a.max(d)))
            .collect();
        g.sort_by_key(|&(p, s)| (std::cmp::Reverse(s), p));
        g.into_iter()
            .take(5)
            .map(|(p, _)| Action::Place(p))
            .collect()
    }

    fn help() -> &'static str {
        "Type a point to place your stone: its column letter and row number as printed \
         around the board (h8 is the centre of 15×15). 'undo' asks to take back your last \
         move (against the computer it is always granted and takes back two plies); answer \
         an undo request with 'yes' or 'no'. 'resign' gives up. X is black (moves first), \
         O is white, the last stone is shown in brackets, the winning five is marked #; in \
         renju, * marks points black may not play. In a swap2 opening, lay the stones asked \
         for by typing points; at a choice, a point plays White with that stone, 'black' \
         takes Black, and 'two' lays two more stones and hands the choice back."
    }
}

/// An action as typed, its point (if a stone) written by `point`.
fn text(action: &Action, point: impl Fn(Point) -> String) -> String {
    match action {
        Action::Place(p) => point(*p),
        Action::RequestUndo => "undo".into(),
        Action::AnswerUndo(true) => "yes".into(),
        Action::AnswerUndo(false) => "no".into(),
        Action::Resign => "resign".into(),
        Action::TakeBlack => "black".into(),
        Action::PlaceTwo => "two".into(),
    }
}

/// The mark of a colour's stones.
fn stone(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// The board as text: columns a… and rows numbered from the bottom, X black, O white, the
/// last stone bracketed, the winning five as `#`, black's forbidden points as `*`, and
/// status lines (whose turn, which colour the viewer plays, how the game ended).
pub fn render_board(view: &View, viewer: Viewer) -> String {
    let n = view.size;
    let board = view.board();
    let last = view.moves.last().copied();
    let letters: String = (0..n)
        .map(|x| format!(" {}", char::from(b'a' + x)))
        .collect();
    let mut s = format!("   {letters}\n");
    for y in 0..n {
        let row = u32::from(n) - u32::from(y);
        s.push_str(&format!("{row:>2} "));
        for x in 0..n {
            let p = Point::new(x, y);
            let c = match board.get(p) {
                Some(_) if view.win_line.contains(&p) => '#',
                Some(color) => stone(color),
                None if view.forbidden.contains(&p) => '*',
                None => '.',
            };
            let prev_last = x > 0 && last == Some(Point::new(x - 1, y));
            s.push(if Some(p) == last {
                '['
            } else if prev_last {
                ']'
            } else {
                ' '
            });
            s.push(c);
        }
        s.push(if last == Some(Point::new(n - 1, y)) {
            ']'
        } else {
            ' '
        });
        s.push_str(&format!("{row:>2}\n"));
    }
    s.push_str(&format!("   {letters}\n"));
    s.push_str(&status(view, viewer));
    s.push('\n');
    s
}

/// A colour as a player reads it: `black (X)`.
fn named(c: Color) -> String {
    format!("{} ({})", c.name(), stone(c))
}

/// A colour opening a sentence: `Black (X)`.
struct Named(Color);

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.0.name();
        let mut chars = name.chars();
        if let Some(first) = chars.next() {
            write!(f, "{}", first.to_ascii_uppercase())?;
        }
        write!(f, "{} ({})", chars.as_str(), stone(self.0))
    }
}

fn status(view: &View, viewer: Viewer) -> String {
    let me = viewer.seat().and_then(|seat| view.color_of(seat));
    let mut s = format!("{} rule, {}×{}", view.rule.name(), view.size, view.size);
    if let Some(c) = me {
        s.push_str(&format!("; you play {}", named(c)));
    }
    s.push_str(".\n");
    if let Some(p) = view.moves.last() {
        s.push_str(&format!(
            "Move {}: {} at {}. ",
            view.moves.len(),
            named(Color::of_ply(view.moves.len() - 1)),
            format_point(*p, view.size)
        ));
    }
    // The outcome as the viewer takes it, when the viewer plays.
    let verdict = |winner: Color| match me {
        Some(c) if c == winner => " You win.",
        Some(_) => " You lose.",
        None => "",
    };
    if let Some(end) = view.end {
        s.push_str(&match (end.winner, end.reason) {
            (Some(c), EndReason::Five) => {
                // The five's ends, leftmost (or lowest) first, as a person reads a line.
                let reading = |p: &&Point| (p.x, view.size - p.y);
                let first = view.win_line.iter().min_by_key(reading);
                let last = view.win_line.iter().max_by_key(reading);
                let ends = match (first, last) {
                    (Some(&a), Some(&b)) => format!(
                        ", {}–{} (marked #)",
                        format_point(a, view.size),
                        format_point(b, view.size)
                    ),
                    _ => String::new(),
                };
                format!("{} wins with five in a row{ends}.{}", Named(c), verdict(c))
            }
            (Some(c), _) => format!(
                "{} wins: {} resigned.{}",
                Named(c),
                named(c.other()),
                verdict(c)
            ),
            (None, _) => "Draw: the board is full.".into(),
        });
    } else if let Some(asker) = view.pending_undo {
        if me == Some(asker.other()) {
            s.push_str(&format!("{} asks to undo: answer yes or no.", Named(asker)));
        } else {
            s.push_str(&format!(
                "{} asks to undo; {} answers yes or no.",
                Named(asker),
                named(asker.other())
            ));
        }
    } else if let (Some(step), Some(c)) = (view.swap2, view.to_move) {
        s.push_str(&swap2_status(view, step, c, viewer));
    } else if let Some(c) = view.to_move {
        if me == Some(c) {
            s.push_str("Your move.");
        } else {
            s.push_str(&format!("{} to move.", Named(c)));
        }
    }
    s
}

/// What the swap2 opening asks now, of the viewer if it is theirs to do.
fn swap2_status(view: &View, step: Swap2Step, stone: Color, viewer: Viewer) -> String {
    // While the opening lasts, the first player is black (tentatively).
    let first = usize::from(view.black);
    let actor = if step.is_first_players() {
        first
    } else {
        1 - first.min(1)
    };
    let who = if viewer.seat() == Some(actor) {
        "your turn".to_string()
    } else {
        format!("seat {}'s turn", actor + 1)
    };
    let n = view.moves.len();
    match step {
        Swap2Step::LayThree => format!(
            "Swap2 opening, {who}: lay stone {} of 3 (black, white, black), now {}.",
            n + 1,
            named(stone)
        ),
        Swap2Step::LayTwo => format!(
            "Swap2 opening, {who}: lay two more stones (white, black), now {}.",
            named(stone)
        ),
        Swap2Step::Choose => format!(
            "Swap2 opening, {who}: choose. A point plays White with that stone, 'black' \
             takes Black, 'two' lays two more stones."
        ),
        Swap2Step::ChooseAgain => format!(
            "Swap2 opening, {who}: choose. A point plays White with that stone, 'black' \
             takes Black."
        ),
    }
}
