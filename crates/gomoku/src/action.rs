//! What players do, and what everyone sees happen.

use crate::board::{Color, Point};
use serde::{Deserialize, Serialize};

/// One move by one seat. JSON: `{"place":[7,7]}`, `"request_undo"`, `{"answer_undo":true}`,
/// `"resign"`, and in the swap2 opening `"take_black"` and `"place_two"`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Put a stone of the mover's colour on an empty point.
    Place(Point),
    /// Ask to take back one's last move (and the reply to it, if any).
    RequestUndo,
    /// The opponent's answer to a pending undo request: `true` grants it.
    AnswerUndo(bool),
    /// Give up the game.
    Resign,
    /// Swap2, at a choice: take Black, so that the opponent plays White and places White's
    /// next stone. (Playing White instead is placing that stone: [`Action::Place`].)
    TakeBlack,
    /// Swap2, the second player's first choice: lay two more stones (White's, then
    /// Black's) and hand the choice of colour back to the first player.
    PlaceTwo,
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Five in a row.
    Five,
    /// The loser resigned (or ran out of time).
    Resignation,
    /// The board filled up with no five: a draw.
    FullBoard,
}

/// The end of a game: who won (nobody in a draw) and how.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameEnd {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub reason: EndReason,
}

/// A public happening at the table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A stone was played.
    Placed {
        /// Its colour.
        color: Color,
        /// Where.
        point: Point,
    },
    /// A player asked to take back their last move; the opponent must answer.
    UndoRequested {
        /// Who asked.
        color: Color,
    },
    /// The opponent refused the request; play goes on.
    UndoRefused {
        /// Who had asked.
        color: Color,
    },
    /// Stones were lifted from the board, last played first.
    TakenBack {
        /// The points cleared.
        points: Vec<Point>,
    },
    /// A five was made.
    Won {
        /// The winner.
        color: Color,
        /// The stones of the winning line.
        line: Vec<Point>,
    },
    /// A player resigned.
    Resigned {
        /// Who resigned.
        color: Color,
    },
    /// The board is full with no five.
    Draw,
    /// Swap2: a player chose a colour, which settles both (the opening is over).
    Chose {
        /// The seat that chose.
        seat: u8,
        /// The colour it takes.
        color: Color,
    },
}
