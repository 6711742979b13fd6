//! Words every game's terminal face shares, so the five games read alike: the result line,
//! signed scores, seat counts, and the table's small vocabulary.
//!
//! The vocabulary of a table, the same in every card game:
//!
//! * the seat to act is marked [`TURN_MARKER`] (`▶`) at the start of its row;
//! * a seat is `seat 2`, and the viewer's own `seat 2 (you)` ([`seat_label`]), numbered
//!   from 1 as people count and as the browser numbers them ([`seat_number`]);
//! * log lines speak of the viewer as `you` ([`does`]: "you pass", "seat 1 passes");
//! * cards a person reads carry suit symbols (`3♦ 3♠ BJ`, [`pretty_cards`]);
//! * the viewer's cards are one line `your hand: …` ([`hand_line`]);
//! * the play to beat is one line `to beat: 7 7 (a pair) from seat 1` ([`to_beat_line`]),
//!   and a new round says who leads ([`lead_line`]);
//! * a play in the log is its cards and, in brackets, its kind in words ([`play_text`]):
//!   `3 3 3 4 (a trio with a single)`.

use crate::{Outcome, Seat, Viewer};
use cards::Card;
use std::ops::RangeInclusive;

/// The mark in front of the row of the seat to act, in every game's table.
pub const TURN_MARKER: &str = "▶";

/// The mark for a seat's row: [`TURN_MARKER`] for the seat to act, a space otherwise, so
/// that rows stay aligned.
pub fn turn_mark(to_act: bool) -> &'static str {
    if to_act {
        TURN_MARKER
    } else {
        " "
    }
}

/// The number people read and type for `seat`: seats count from 1, as people count and as
/// the browser shows them, so a terminal's "seat 2" is the browser's "Seat 2". A [`Seat`]
/// is an index from 0, and stays one wherever a program reads it (JSON, records, the
/// judge, configurations, and `qipai sim`, whose `--bots` are listed by index); only words
/// for people go through here.
pub fn seat_number(seat: Seat) -> usize {
    seat + 1
}

/// The seat a person typed, by its number ([`seat_number`]): `None` for 0 or a number
/// past `seats`.
pub fn seat_from_number(number: usize, seats: usize) -> Option<Seat> {
    (1..=seats).contains(&number).then(|| number - 1)
}

/// `seat 2`: a seat in words, by its number.
pub fn seat_name(seat: Seat) -> String {
    format!("seat {}", seat_number(seat))
}

/// A seat as a table names it for `viewer`: `seat 2`, or `seat 2 (you)` for the viewer's
/// own seat, so a person finds themselves at a glance.
pub fn seat_label(seat: Seat, viewer: Viewer) -> String {
    if viewer.seat() == Some(seat) {
        format!("{} (you)", seat_name(seat))
    } else {
        seat_name(seat)
    }
}

/// The subject of a log line: `you` for the viewer's own seat, `seat 2` for another.
pub fn who(seat: Seat, viewer: Viewer) -> String {
    if viewer.seat() == Some(seat) {
        "you".to_string()
    } else {
        seat_name(seat)
    }
}

/// A log line's subject and verb, agreeing: `does(2, v, "plays", "play")` is `seat 3 plays`
/// for others and `you play` for the viewer in that seat — log lines read as plain
/// sentences.
pub fn does(seat: Seat, viewer: Viewer, third_person: &str, second_person: &str) -> String {
    if viewer.seat() == Some(seat) {
        format!("you {second_person}")
    } else {
        format!("{} {third_person}", seat_name(seat))
    }
}

/// Cards as a person reads them, with suit symbols and in the order given: `3♦ 3♠ BJ`.
/// The notation with letters (`3d`) is what people may type; what they read has symbols.
pub fn pretty_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> String {
    cards
        .into_iter()
        .map(|c| c.pretty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A play in the log: its cards, then its kind in words in brackets,
/// `3 3 3 4 (a trio with a single)`.
pub fn play_text(cards: &str, kind_in_words: &str) -> String {
    format!("{cards} ({kind_in_words})")
}

/// The viewer's cards as one line of the table: `your hand: 3 4 4 K`.
pub fn hand_line(cards: &str) -> String {
    format!("your hand: {cards}")
}

/// The play to beat as one line of the table: `to beat: 7 7 (a pair) from seat 1`.
pub fn to_beat_line(play: &str, by: Seat, viewer: Viewer) -> String {
    format!("to beat: {play} from {}", seat_label(by, viewer))
}

/// The line of a table where nothing is to beat: `you lead: play anything` for the viewer,
/// `seat 2 leads` for another seat.
pub fn lead_line(leader: Seat, viewer: Viewer) -> String {
    if viewer.seat() == Some(leader) {
        "you lead: play anything".to_string()
    } else {
        format!("{} leads", seat_name(leader))
    }
}

/// A score change with its sign: `+6`, `-3`, `0`.
pub fn signed(score: i64) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

/// How many players a game takes, in words: `3 players`, `2 to 8 players`.
pub fn players(range: &RangeInclusive<usize>) -> String {
    if range.start() == range.end() {
        format!("{} players", range.start())
    } else {
        format!("{} to {} players", range.start(), range.end())
    }
}

/// `1 bot`, `3 bots`, `2 passes`: a count with its noun, singular or plural.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if ["s", "x", "sh", "ch"].iter().any(|end| noun.ends_with(end)) {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// The default end-of-game line (see [`GameSpec::outcome_text`](crate::GameSpec)): for a
/// player "you win, +6", "you lose, -3" or "a draw"; for a spectator who won and every
/// seat's score.
pub fn outcome_line(outcome: &Outcome, viewer: Viewer) -> String {
    let anyone_won = outcome.won.iter().any(|&w| w);
    match viewer.seat() {
        Some(seat) if seat < outcome.scores.len() => {
            let score = signed(outcome.scores[seat]);
            if outcome.won.get(seat).copied().unwrap_or(false) {
                format!("You win, {score}.")
            } else if anyone_won {
                format!("You lose, {score}.")
            } else {
                format!("A draw, {score}.")
            }
        }
        _ => {
            let winners: Vec<String> = (0..outcome.won.len())
                .filter(|&s| outcome.won[s])
                .map(seat_name)
                .collect();
            let scores: Vec<String> = outcome
                .scores
                .iter()
                .enumerate()
                .map(|(s, &v)| format!("{} {}", seat_name(s), signed(v)))
                .collect();
            if winners.is_empty() {
                format!("No winner. Scores: {}.", scores.join(", "))
            } else {
                format!(
                    "{} won. Scores: {}.",
                    winners.join(" and "),
                    scores.join(", ")
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_plural_of_their_noun() {
        assert_eq!(count(1, "pass"), "1 pass");
        assert_eq!(count(2, "pass"), "2 passes");
        assert_eq!(count(0, "card"), "0 cards");
        assert_eq!(count(3, "penalty point"), "3 penalty points");
    }

    fn outcome(scores: &[i64], won: &[bool]) -> Outcome {
        Outcome {
            scores: scores.to_vec(),
            won: won.to_vec(),
            roles: vec!["player".into(); scores.len()],
        }
    }

    #[test]
    fn result_lines_are_plain_words() {
        let o = outcome(&[4, -2, -2], &[true, false, false]);
        assert_eq!(outcome_line(&o, Viewer::Seat(0)), "You win, +4.");
        assert_eq!(outcome_line(&o, Viewer::Seat(1)), "You lose, -2.");
        assert_eq!(
            outcome_line(&o, Viewer::Spectator),
            "seat 1 won. Scores: seat 1 +4, seat 2 -2, seat 3 -2."
        );
        let draw = outcome(&[0, 0], &[false, false]);
        assert_eq!(outcome_line(&draw, Viewer::Seat(1)), "A draw, 0.");
        assert_eq!(players(&(3..=3)), "3 players");
        assert_eq!(players(&(2..=8)), "2 to 8 players");
        assert_eq!(count(1, "bot"), "1 bot");
        assert_eq!(count(3, "bot"), "3 bots");
    }

    #[test]
    fn the_table_vocabulary_says_you_for_the_viewer() {
        let me = Viewer::Seat(1);
        assert_eq!(seat_label(1, me), "seat 2 (you)");
        assert_eq!(seat_label(2, me), "seat 3");
        assert_eq!(seat_label(1, Viewer::Spectator), "seat 2");
        assert_eq!(does(1, me, "passes", "pass"), "you pass");
        assert_eq!(does(0, me, "passes", "pass"), "seat 1 passes");
        assert_eq!(who(1, me), "you");
        assert_eq!(turn_mark(true), "▶");
        assert_eq!(turn_mark(false), " ");
        let cards = cards::parse_cards("3d 3s BJ").unwrap();
        assert_eq!(pretty_cards(&cards), "3♦ 3♠ BJ");
        assert_eq!(
            to_beat_line(&play_text("7 7", "a pair"), 2, me),
            "to beat: 7 7 (a pair) from seat 3"
        );
        assert_eq!(lead_line(1, me), "you lead: play anything");
        assert_eq!(lead_line(0, me), "seat 1 leads");
        assert_eq!(hand_line("3 4"), "your hand: 3 4");
    }

    /// People count seats from 1; the index under the number counts from 0.
    #[test]
    fn seats_are_numbered_from_one_for_people() {
        assert_eq!(seat_number(0), 1);
        assert_eq!(seat_name(3), "seat 4");
        assert_eq!(seat_from_number(1, 3), Some(0));
        assert_eq!(seat_from_number(3, 3), Some(2));
        assert_eq!(seat_from_number(0, 3), None);
        assert_eq!(seat_from_number(4, 3), None);
    }
}
