//! Playing cards, as every qipai card game sees them.
//!
//! The crate knows cards, not games: a [`Card`] is a rank and a suit or a joker, a [`Deck`]
//! says how many copies of each card exist (one to three decks, with or without jokers), and
//! [`RankCounts`] packs "how many of each rank" into one `u64` so that move generators in the
//! game crates can add, subtract and compare hands in a few instructions.
//!
//! # Notation
//!
//! Every crate, log, test and the judge write cards the same way:
//!
//! * a suited card is its rank then its suit: `3d`, `Ts`, `Ah` (`10` is accepted for `T`, and
//!   the symbols `♠ ♥ ♣ ♦` for `s h c d`);
//! * the jokers are `BJ` (black, small, 小王) and `RJ` (red, big, 大王);
//! * where suits do not matter (Dou Dizhu) a card is just its rank: `3 3 3 4`.
//!
//! ```
//! use cards::{Card, Rank, Suit};
//! let c: Card = "Th".parse().unwrap();
//! assert_eq!(c, Card::suited(Rank::Ten, Suit::Hearts));
//! assert_eq!(c.to_string(), "Th");
//! assert_eq!("RJ".parse::<Card>().unwrap(), Card::RED_JOKER);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// Implements serde's `Serialize` and `Deserialize` for a type through its text form:
/// `Display` to write, `FromStr` to read (its error's message becomes serde's).
///
/// Everything qipai writes in JSON that has a card notation — cards, hands, plays — is
/// written in that notation, so that records, the judge and people read the same text.
/// The crate using the macro must depend on `serde`.
#[macro_export]
macro_rules! serde_as_text {
    ($type:ty) => {
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

mod card;
mod counts;
mod deck;
mod notation;
mod set;

pub use card::{Card, Rank, Suit};
pub use counts::RankCounts;
pub use deck::Deck;
pub use notation::{format_cards, format_ranks, parse_cards, parse_ranks, ParseError};
pub use set::CardSet;
