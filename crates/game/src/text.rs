//! Words every game's terminal face shares, so the five games read alike: the result line,
//! signed scores, seat counts.

use crate::{Outcome, Viewer};
use std::ops::RangeInclusive;

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

/// `1 bot`, `3 bots`: a count with its noun, singular or plural.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
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
                .map(|s| format!("seat {s}"))
                .collect();
            let scores: Vec<String> = outcome
                .scores
                .iter()
                .enumerate()
                .map(|(s, &v)| format!("seat {s} {}", signed(v)))
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
            "seat 0 won. Scores: seat 0 +4, seat 1 -2, seat 2 -2."
        );
        let draw = outcome(&[0, 0], &[false, false]);
        assert_eq!(outcome_line(&draw, Viewer::Seat(1)), "A draw, 0.");
        assert_eq!(players(&(3..=3)), "3 players");
        assert_eq!(players(&(2..=8)), "2 to 8 players");
        assert_eq!(count(1, "bot"), "1 bot");
        assert_eq!(count(3, "bot"), "3 bots");
    }
}
