//! The text notation of cards: parsing and printing (see the crate docs).

use crate::{Card, Rank, Suit};

/// Why a piece of card text could not be read, or names cards the game does not have.
///
/// The messages are written for the person who typed the text: they quote the token and say
/// what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A token that is no card in the notation, e.g. `Xz`.
    #[error("unknown card '{0}'")]
    UnknownCard(String),
    /// A suit was given where the game writes ranks only, or left out where it needs one.
    #[error("'{token}': {reason}")]
    WrongForm {
        /// The token as typed.
        token: String,
        /// What form was expected.
        reason: &'static str,
    },
    /// More copies of a card than the game's decks hold, e.g. three RJ in a one-deck game.
    #[error("{count} {card} in a {decks} game")]
    TooMany {
        /// How many copies were named, as a word ("three").
        count: String,
        /// The card or rank, in the notation.
        card: String,
        /// The deck, as words ("one-deck").
        decks: String,
    },
    /// A joker named in a game played without jokers.
    #[error("{0} in a game without jokers")]
    NoJokers(String),
}

/// Spells small counts as words, so that errors read "three RJ", not "3 RJ".
pub(crate) fn count_word(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

fn parse_rank_symbol(s: &str) -> Option<Rank> {
    Some(match s {
        "2" => Rank::Two,
        "3" => Rank::Three,
        "4" => Rank::Four,
        "5" => Rank::Five,
        "6" => Rank::Six,
        "7" => Rank::Seven,
        "8" => Rank::Eight,
        "9" => Rank::Nine,
        "T" | "t" | "10" => Rank::Ten,
        "J" | "j" => Rank::Jack,
        "Q" | "q" => Rank::Queen,
        "K" | "k" => Rank::King,
        "A" | "a" => Rank::Ace,
        "BJ" | "bj" | "Bj" => Rank::BlackJoker,
        "RJ" | "rj" | "Rj" => Rank::RedJoker,
        _ => return None,
    })
}

fn parse_suit_symbol(s: &str) -> Option<Suit> {
    Some(match s {
        "s" | "S" | "♠" | "♤" => Suit::Spades,
        "h" | "H" | "♥" | "♡" => Suit::Hearts,
        "c" | "C" | "♣" | "♧" => Suit::Clubs,
        "d" | "D" | "♦" | "♢" => Suit::Diamonds,
        _ => return None,
    })
}

impl std::str::FromStr for Card {
    type Err = ParseError;

    /// Reads one suited card (`3d`, `10h`, `T♥`) or joker (`BJ`, `RJ`).
    fn from_str(token: &str) -> Result<Card, ParseError> {
        let unknown = || ParseError::UnknownCard(token.to_string());
        match parse_rank_symbol(token) {
            Some(Rank::BlackJoker) => return Ok(Card::BLACK_JOKER),
            Some(Rank::RedJoker) => return Ok(Card::RED_JOKER),
            Some(_) => {
                return Err(ParseError::WrongForm {
                    token: token.to_string(),
                    reason: "a card needs a suit here (s h c d), e.g. 3d",
                })
            }
            None => {}
        }
        // The suit is the last character; the rank is everything before it.
        let (split, _) = token.char_indices().last().ok_or_else(unknown)?;
        let rank = parse_rank_symbol(&token[..split]).ok_or_else(unknown)?;
        let suit = parse_suit_symbol(&token[split..]).ok_or_else(unknown)?;
        if rank.is_joker() {
            return Err(unknown());
        }
        Ok(Card::suited(rank, suit))
    }
}

impl std::str::FromStr for Rank {
    type Err = ParseError;

    /// Reads one rank (`3`, `10`, `T`, `A`, `BJ`).
    fn from_str(token: &str) -> Result<Rank, ParseError> {
        parse_rank_symbol(token).ok_or_else(|| ParseError::UnknownCard(token.to_string()))
    }
}

/// Reads a list of suited cards and jokers separated by spaces or commas: `"3d Ts BJ"`.
///
/// Duplicates are kept (multi-deck games have them); whether the game's decks hold that many
/// copies is [`Deck::check_cards`](crate::Deck::check_cards)'s question.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, ParseError> {
    tokens(text).map(str::parse).collect()
}

/// Reads a list of ranks, the notation of games where suits do not matter: `"3 3 3 4"`.
///
/// For people typing at a terminal a token may also run ranks together (`"33344"`,
/// `"10JQKA"`, `"BJRJ"`), read left to right.
pub fn parse_ranks(text: &str) -> Result<Vec<Rank>, ParseError> {
    let mut out = Vec::new();
    for token in tokens(text) {
        if let Some(r) = parse_rank_symbol(token) {
            out.push(r);
            continue;
        }
        if token.parse::<Card>().is_ok_and(|c| !c.is_joker()) {
            return Err(ParseError::WrongForm {
                token: token.to_string(),
                reason: "this game writes ranks only, without suits, e.g. 3 3 4",
            });
        }
        let mut rest = token;
        while !rest.is_empty() {
            let joker = rest
                .get(..2)
                .and_then(parse_rank_symbol)
                .is_some_and(Rank::is_joker);
            let take = if joker || rest.starts_with("10") {
                2
            } else {
                rest.chars().next().map_or(1, char::len_utf8)
            };
            let (head, tail) = rest.split_at(take);
            match parse_rank_symbol(head) {
                Some(r) => out.push(r),
                None => return Err(ParseError::UnknownCard(token.to_string())),
            }
            rest = tail;
        }
    }
    Ok(out)
}

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

/// Writes cards in the notation, in the order given, separated by single spaces.
pub fn format_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> String {
    join(cards.into_iter().map(|c| c.to_string()))
}

/// Writes ranks in the rank-only notation, in the order given, separated by single spaces.
pub fn format_ranks<'a>(ranks: impl IntoIterator<Item = &'a Rank>) -> String {
    join(ranks.into_iter().map(|r| r.symbol().to_string()))
}

fn join(parts: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for p in parts {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suited_cards_round_trip() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
        }
        assert_eq!("10h".parse::<Card>(), "Th".parse::<Card>());
        assert_eq!("A♠".parse::<Card>().unwrap().to_string(), "As");
    }

    #[test]
    fn unknown_cards_are_named() {
        assert_eq!(
            "Xz".parse::<Card>().unwrap_err().to_string(),
            "unknown card 'Xz'"
        );
        assert_eq!(
            parse_cards("3d Xz").unwrap_err().to_string(),
            "unknown card 'Xz'"
        );
        assert_eq!(
            parse_ranks("3 1").unwrap_err().to_string(),
            "unknown card '1'"
        );
        assert!("BJs".parse::<Card>().is_err());
        assert!("3".parse::<Card>().is_err());
    }

    #[test]
    fn ranks_may_run_together_for_typing() {
        use Rank::*;
        assert_eq!(
            parse_ranks("3 3 3 4").unwrap(),
            vec![Three, Three, Three, Four]
        );
        assert_eq!(
            parse_ranks("33344").unwrap(),
            vec![Three, Three, Three, Four, Four]
        );
        assert_eq!(
            parse_ranks("10JQKA").unwrap(),
            vec![Ten, Jack, Queen, King, Ace]
        );
        assert_eq!(parse_ranks("BJRJ").unwrap(), vec![BlackJoker, RedJoker]);
        assert_eq!(parse_ranks("  ").unwrap(), vec![]);
        assert!(parse_ranks("3d").is_err());
    }
}
