//! How a hall shows a game to people: its name and one line about it in each of the hall's
//! languages, an icon, and the table screen that draws it. The game's crate says this, as
//! it says its rules, so a new game appears in the lobby without any list elsewhere naming
//! it.

use serde::Serialize;

/// What the hall's lobby and tables show of a game before any of its views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Presentation {
    /// The game's name in Chinese (`斗地主`).
    pub name_zh: &'static str,
    /// Its name in English (`Dou Dizhu`).
    pub name_en: &'static str,
    /// One line that tells a newcomer what the game is, in Chinese.
    pub blurb_zh: &'static str,
    /// The same line in English.
    pub blurb_en: &'static str,
    /// A character or two for the lobby's card (`🂡`, `●`).
    pub icon: &'static str,
    /// Which of the page's table screens draws the game: `cards` (seats around a felt,
    /// a hand to pick plays from), `tenhalf` (hands drawn one card at a time against a
    /// count) or `board` (a board of points). A game with a screen of its own names it
    /// here and adds the renderer to the page.
    pub screen: &'static str,
}
