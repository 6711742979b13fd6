//! The one place that knows which games exist.
//!
//! Every other part of qipai reaches the games through the [`Registry`] this crate fills:
//! the `qipai` binary (play, judge, sim, serve, the load generator), the server's tests and
//! the crash tests, and the browser page, which asks the server for the list
//! (`/api/games`) and draws each game with the screen its
//! [`Presentation`](game::Presentation) names. Adding a game is its crate and one line
//! here (docs/new-game.md); a test of this crate fails when some other file lists the
//! games by hand.
//!
//! ```
//! let registry = games::registry();
//! assert!(registry.get("doudizhu").is_ok());
//! assert_eq!(registry.ids().len(), registry.games().count());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod views;

pub use views::view_schemas;

use game::registry::entry;
use game::Registry;

/// Every game qipai offers, in the order the lobby shows them.
pub fn registry() -> Registry {
    Registry::new()
        .with(entry::<doudizhu::DouDizhu>())
        .with(entry::<doudizhu5::DouDizhu5>())
        .with(entry::<bigtwo::BigTwo>())
        .with(entry::<tenhalf::TenHalf>())
        .with(entry::<gomoku::Gomoku>())
}
