//! What people and tools need around the rules: bots, the judge, and the terminal face
//! (the board with coordinates, moves typed as `h8` or `7,7`, `undo`, `resign`).

use crate::board::{Color, Point};
use crate::engine::classic;
use crate::game::{Action, Config, EndReason, Gomoku, UndoPolicy, View};
use crate::notation::{format_point, parse_point};
use crate::{bots, judge};
use game::{Bot, GameSpec, Seat, Seed, Viewer};

impl GameSpec for Gomoku {
    /// Against the computer an undo is always granted and takes back two plies, as the
    /// original program did.
    fn against_computer(config: Config, _person: Seat, _seats: usize) -> Config {
        Config {
            undo: UndoPolicy::Granted,
            ..config
        }
    }

    fn engine_protocol() -> Option<&'static str> {
        Some("gomocup")
    }

    /// Nothing is dealt: the seed decides nothing.
    fn uses_seed() -> bool {
        false
    }

    fn bot_names() -> &'static [&'static str] {
        bots::BOT_NAMES
    }

    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>> {
        bots::make(name, seed)
    }

    fn judge(request: &serde_json::Value) -> serde_json::Value {
        judge::judge(request)
    }

    fn render(view: &View, _viewer: Viewer) -> String {
        render_board(view)
    }

    /// `7,7` for a stone (the board size is not known here; `h8` is typed the same),
    /// `undo`, `yes`/`no` for answers, `resign`.
    fn action_text(action: &Action) -> String {
        match action {
            Action::Place(p) => format!("{},{}", p.x, p.y),
            Action::RequestUndo => "undo".into(),
            Action::AnswerUndo(true) => "yes".into(),
            Action::AnswerUndo(false) => "no".into(),
            Action::Resign => "resign".into(),
        }
    }

    fn parse_action(view: &View, text: &str) -> Result<Action, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "undo" | "u" | "悔棋" => Ok(Action::RequestUndo),
            "resign" | "认输" => Ok(Action::Resign),
            "yes" | "y" | "accept" => Ok(Action::AnswerUndo(true)),
            "no" | "n" | "refuse" => Ok(Action::AnswerUndo(false)),
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
        "Type a point to place your stone: a column letter and a row number as printed \
         around the board (h8 is the centre of 15×15), or x,y counted from the top left \
         (7,7). 'undo' asks to take back your last move (against the computer it is always \
         granted and takes back two plies); answer an undo request with 'yes' or 'no'. \
         'resign' gives up. X is black (moves first), O is white, the last stone is shown \
         in brackets; in renju, * marks points black may not play."
    }
}

/// The board as text: columns a… and rows numbered from the bottom, X black, O white, the
/// last stone bracketed, black's forbidden points as `*`, and a status line.
pub fn render_board(view: &View) -> String {
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
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
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
    s.push_str(&status(view));
    s.push('\n');
    s
}

fn status(view: &View) -> String {
    let mut s = format!("{} rule, {}×{}", view.rule.name(), view.size, view.size);
    if let Some(p) = view.moves.last() {
        s.push_str(&format!(
            ", move {} at {}",
            view.moves.len(),
            format_point(*p, view.size)
        ));
    }
    s.push_str(". ");
    if let Some(end) = view.end {
        s.push_str(&match (end.winner, end.reason) {
            (Some(c), EndReason::Five) => format!("{} wins with five in a row.", c.name()),
            (Some(c), _) => format!("{} wins: {} resigned.", c.name(), c.other().name()),
            (None, _) => "Draw: the board is full.".into(),
        });
    } else if let Some(asker) = view.pending_undo {
        s.push_str(&format!(
            "{} asks to undo; {} answers yes or no.",
            asker.name(),
            asker.other().name()
        ));
    } else if let Some(c) = view.to_move {
        let stone = if c == Color::Black { 'X' } else { 'O' };
        s.push_str(&format!("{} ({stone}) to move.", c.name()));
    }
    s
}
