//! The text face of the table options 加倍 and 明牌: the doubling and showing phases drawn,
//! logged, typed and explained.

use super::ParseActionError;
use crate::rules::{Action, Phase};
use crate::{Doubling, View};
use cards::RankCounts;
use game::{text, Viewer};
use std::fmt::Write;

/// A doubling as a player types it, and as the terminal writes the action: what
/// [`parse`] reads back.
pub(super) fn action_words(factor: u8) -> &'static str {
    match factor {
        2 => "double",
        4 => "super double",
        _ => "no double",
    }
}

/// A seat's doubling as the table shows it: `×2`, `no`, or `…` while it has not chosen.
fn factor_mark(factor: u8) -> String {
    match factor {
        0 => "…".into(),
        1 => "no".into(),
        f => format!("×{f}"),
    }
}

/// The lines the options add to a table: the seats' doublings, the landlord's shown hand,
/// and what the seat to act is asked.
pub(super) fn render(view: &View, viewer: Viewer, out: &mut String) {
    let Some(landlord) = view.landlord else {
        return;
    };
    if !view.doubling.is_off() {
        let marks: Vec<String> = (0..3)
            .map(|s| {
                let s = (landlord + 1 + s) % 3;
                format!(
                    "{} {}",
                    text::seat_label(s, viewer),
                    factor_mark(view.doubles[s])
                )
            })
            .collect();
        let _ = writeln!(out, "doubling (加倍): {}", marks.join(" · "));
    }
    let playing = view.revealed.is_none();
    if let Some(hand) = view
        .shown
        .filter(|_| playing && viewer.seat() != Some(landlord))
    {
        let _ = writeln!(out, "the landlord's hand, shown (明牌): {hand}");
    }
    let Some(seat) = view.to_act else {
        return;
    };
    let you = viewer.seat() == Some(seat);
    match view.phase {
        Phase::Doubling if you => {
            let choices = match view.doubling {
                Doubling::Super => "1 no, 2 double (加倍, ×2) or 4 super double (超级加倍, ×4)",
                _ => "1 no or 2 double (加倍, ×2)",
            };
            let _ = writeln!(out, "double your stake? {choices}");
        }
        Phase::Doubling => {
            let _ = writeln!(out, "{} chooses a doubling", text::seat_name(seat));
        }
        Phase::Showing if you => {
            let _ = writeln!(out, "show your hand to everyone (明牌, ×2)? `show` or `no`");
        }
        Phase::Showing => {
            let _ = writeln!(
                out,
                "the landlord decides whether to show their hand (明牌)"
            );
        }
        _ => {}
    }
}

/// The log line of a doubling.
pub(super) fn doubled_line(seat: usize, factor: u8, viewer: Viewer) -> String {
    match factor {
        2 => format!(
            "{} (加倍, ×2)",
            text::does(seat, viewer, "doubles", "double")
        ),
        4 => format!(
            "{} (超级加倍, ×4)",
            text::does(seat, viewer, "super-doubles", "super-double")
        ),
        _ => text::does(seat, viewer, "does not double", "do not double"),
    }
}

/// The log line of the landlord's showing decision.
pub(super) fn shown_line(seat: usize, hand: Option<RankCounts>, viewer: Viewer) -> String {
    match hand {
        Some(h) => format!(
            "{} (明牌, ×2): {h}",
            text::does(seat, viewer, "shows their hand", "show your hand")
        ),
        None => text::does(
            seat,
            viewer,
            "keeps their hand hidden",
            "keep your hand hidden",
        ),
    }
}

/// The finish's words for the options: the shown hand's ×2 and each seat's doubling.
pub(super) fn finish_words(doubles: &[u8; 3], shown: bool, line: &mut String) {
    if shown {
        line.push_str(", the shown hand (明牌) doubles the score");
    }
    let doubled: Vec<String> = (0..3)
        .filter(|&s| doubles[s] > 1)
        .map(|s| format!("{} ×{}", text::seat_name(s), doubles[s]))
        .collect();
    if !doubled.is_empty() {
        let _ = write!(line, ", doubled stakes: {}", doubled.join(", "));
    }
}

/// What a player types in the doubling and showing phases; `None` in the others.
pub(super) fn parse(view: &View, typed: &str) -> Option<Result<Action, ParseActionError>> {
    let t = typed.trim().to_lowercase();
    let t = t.as_str();
    match view.phase {
        Phase::Doubling => Some(match t {
            "1" | "no" | "n" | "pass" | "p" | "no double" | "不加倍" => Ok(Action::Double(1)),
            "2" | "double" | "d" | "加倍" => Ok(Action::Double(2)),
            "4" | "super" | "super double" | "超级加倍" => Ok(Action::Double(4)),
            _ => Err(ParseActionError::NotADouble(typed.trim().to_string())),
        }),
        Phase::Showing => Some(match t {
            "show" | "s" | "yes" | "y" | "明牌" => Ok(Action::Show(true)),
            "no" | "n" | "no show" | "hide" | "pass" | "p" | "不明牌" => Ok(Action::Show(false)),
            _ => Err(ParseActionError::NotAShow(typed.trim().to_string())),
        }),
        _ => None,
    }
}
