//! Opening rules: how a game starts. `free` (black's first stone anywhere, the original
//! game's) or `swap2`, the opening of Gomoku tournaments since 2009 (the world
//! championships, Gomocup): the tentative first player lays three stones, two black and one
//! white; the other player then plays White (placing White's fourth stone), takes Black
//! (the first player then places White's fourth stone), or lays two more stones, one of
//! each, and hands the choice back; the first player then plays White (placing the sixth
//! stone) or takes Black.
//!
//! The stones alternate in the order laid — black, white, black, then white, black — so
//! the record is an ordinary move list and a board never depends on who laid a stone; only
//! the seats' colours do, and the choices settle them.

use serde::{Deserialize, Serialize};

/// How a game opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningRule {
    /// Black places the first stone anywhere (the default).
    #[default]
    Free,
    /// The swap2 opening (module docs).
    Swap2,
}

impl OpeningRule {
    /// Whether this is the default, free opening.
    pub fn is_free(&self) -> bool {
        *self == OpeningRule::Free
    }
}

/// Where a swap2 opening stands. JSON: `"lay_three"`, `"choose"`, `"lay_two"`,
/// `"choose_again"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Swap2Step {
    /// The first player lays the first three stones: black, white, black.
    LayThree,
    /// The second player chooses: play White (place White's fourth stone), take Black, or
    /// place two more stones.
    Choose,
    /// The second player lays the fourth (white) and fifth (black) stones.
    LayTwo,
    /// The first player chooses: play White (place White's sixth stone) or take Black.
    ChooseAgain,
}

impl Swap2Step {
    /// Whether the first player (tentatively black) acts at this step.
    pub fn is_first_players(self) -> bool {
        matches!(self, Swap2Step::LayThree | Swap2Step::ChooseAgain)
    }

    /// Whether this step is a choice of colour (rather than laying stones).
    pub fn is_choice(self) -> bool {
        matches!(self, Swap2Step::Choose | Swap2Step::ChooseAgain)
    }

    /// The step after a stone is laid at this one, `stones` now on the board.
    pub fn after_stone(self, stones: usize) -> Option<Swap2Step> {
        match (self, stones) {
            (Swap2Step::LayThree, 3) => Some(Swap2Step::Choose),
            (Swap2Step::LayTwo, 5) => Some(Swap2Step::ChooseAgain),
            (Swap2Step::LayThree | Swap2Step::LayTwo, _) => Some(self),
            // A stone placed at a choice plays White: the opening is over.
            (Swap2Step::Choose | Swap2Step::ChooseAgain, _) => None,
        }
    }
}
