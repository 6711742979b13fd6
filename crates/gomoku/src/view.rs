//! What every seat and spectator sees of a game.

use crate::board::{Board, Color, Point, Rule};
use crate::config::{color_at, UndoPolicy};
use crate::opening::Swap2Step;
use crate::rules::GameEnd;
use game::Seat;
use serde::{Deserialize, Serialize};

/// The public picture of a game: Gomoku hides nothing, so every seat and every spectator
/// sees the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Board side.
    pub size: u8,
    /// The rule variant.
    pub rule: Rule,
    /// How undo requests are settled.
    pub undo: UndoPolicy,
    /// The stones played, in order, black first.
    pub moves: Vec<Point>,
    /// The colour to place the next stone (`None` once the game is over).
    pub to_move: Option<Color>,
    /// The colour that asked to undo and awaits an answer.
    pub pending_undo: Option<Color>,
    /// Undo requests each colour may still have granted, black then white.
    pub undo_left: [u8; 2],
    /// Whether each colour's last undo request (black, white) was refused with the board
    /// as it is: asking again before another stone costs one undo at once.
    #[serde(default)]
    pub undo_refused: [bool; 2],
    /// The seat that plays black: [`Config::black`](crate::Config::black), or, under swap2, as the opening's
    /// choice settled it (until then the first player, tentatively).
    #[serde(default)]
    pub black: u8,
    /// The swap2 opening's step while it lasts: who acts (the first player, black until
    /// the choice, at `lay_three` and `choose_again`) and what they may do; `None` in a
    /// free opening and once the colours are chosen.
    #[serde(default)]
    pub swap2: Option<Swap2Step>,
    /// The end of the game, once over.
    pub end: Option<GameEnd>,
    /// The winning five, once made.
    pub win_line: Vec<Point>,
    /// Points black may not play now (renju, black to move).
    pub forbidden: Vec<Point>,
}

impl View {
    /// The colour `seat` plays, `None` for a seat that is not at the board.
    pub fn color_of(&self, seat: Seat) -> Option<Color> {
        color_at(self.black, seat)
    }

    /// The board the moves make.
    pub fn board(&self) -> Board {
        let mut b = Board::new(self.size);
        for (i, &p) in self.moves.iter().enumerate() {
            b.set(p, Some(Color::of_ply(i)));
        }
        b
    }
}
