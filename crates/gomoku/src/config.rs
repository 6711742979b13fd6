//! A table's options: the board, the rule, undo, the opening and who plays black.

use crate::board::{Color, Rule};
use crate::opening::OpeningRule;
use game::Seat;
use serde::{Deserialize, Serialize};

/// How undo requests are settled at a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UndoPolicy {
    /// Between people: the opponent accepts or refuses, and each player may have
    /// [`Config::undo_limit`] requests granted per game.
    #[default]
    Ask,
    /// Against the computer (as in the seed): always granted at once, without limit.
    Granted,
}

/// Table options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Board side: 15 (default), 19 or 20; anything from 5 to 20 is accepted.
    pub size: u8,
    /// The rule variant.
    pub rule: Rule,
    /// How undo requests are settled.
    pub undo: UndoPolicy,
    /// Undos each player may have granted per game under [`UndoPolicy::Ask`]. A refused
    /// request costs nothing, so a player is not punished for asking; asking again before
    /// another stone has been played costs one at once, so the same question cannot be put
    /// over and over for free. No request costs more than it did when every request cost
    /// one, so the records of those games still replay.
    pub undo_limit: u8,
    /// Stones laid at random before play, black first and alternating, within three points
    /// of the centre (0 to [`MAX_OPENING`]). The deal's seed draws them, so the record
    /// replays them. Engines from the empty board play the same game every time, and black
    /// wins it; varied openings, each played once with either colour, compare engines
    /// rather than colours. They are not taken back by an undo. Left out of the JSON when
    /// 0, so configurations without one read as they always did.
    #[serde(skip_serializing_if = "no_opening")]
    pub opening: u8,
    /// The seat that plays black (0 or 1). Black moves first and, in freestyle, has a
    /// large edge, so a table swaps the colours from game to game ([`GameSpec::next_game`]);
    /// the record's configuration says who had which. Left out of the JSON when 0, so
    /// configurations from before it read as they always did.
    ///
    /// [`GameSpec::next_game`]: game::GameSpec::next_game
    #[serde(skip_serializing_if = "seat_zero")]
    pub black: u8,
    /// How the game opens: `free` (black's first stone anywhere, the default) or `swap2`
    /// (the tournament opening: [`OpeningRule`]). Under swap2, [`Config::black`] names the
    /// tentative first player, who lays the first three stones. Left out of the JSON when
    /// free, so configurations from before it read as they always did.
    #[serde(skip_serializing_if = "OpeningRule::is_free")]
    pub opening_rule: OpeningRule,
}

/// The stream of the deal's seed that draws the opening (no other stream of Gomoku's is
/// drawn).
pub(crate) const OPENING_STREAM: u64 = 1;

/// The most stones an opening lays: four of each colour, too few for a five or a
/// forbidden point to matter.
pub const MAX_OPENING: u8 = 8;

fn no_opening(stones: &u8) -> bool {
    *stones == 0
}

fn seat_zero(seat: &u8) -> bool {
    *seat == 0
}

/// The colour `seat` plays when black is seat `black`; `None` for any other seat, or a
/// `black` that names no seat (a view read from a judge request may say anything).
pub(crate) fn color_at(black: u8, seat: Seat) -> Option<Color> {
    match (black, seat) {
        (0, 0) | (1, 1) => Some(Color::Black),
        (0, 1) | (1, 0) => Some(Color::White),
        _ => None,
    }
}

/// The seat that plays `color` when black is seat `black`.
pub(crate) fn seat_at(black: u8, color: Color) -> Seat {
    match color {
        Color::Black => usize::from(black),
        Color::White => usize::from(black == 0),
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            size: 15,
            rule: Rule::Freestyle,
            undo: UndoPolicy::Ask,
            undo_limit: 3,
            opening: 0,
            black: 0,
            opening_rule: OpeningRule::Free,
        }
    }
}

impl Config {
    /// The colour `seat` plays, `None` for a seat that is not at the board.
    pub fn color_of(&self, seat: Seat) -> Option<Color> {
        color_at(self.black, seat)
    }

    /// The seat that plays `color`.
    pub fn seat_of(&self, color: Color) -> Seat {
        seat_at(self.black, color)
    }

    /// The configuration of the next game at a table: the colours swapped, so that the
    /// seat that was white opens.
    pub fn swapped(&self) -> Config {
        Config {
            black: 1 - self.black.min(1),
            ..self.clone()
        }
    }
}
