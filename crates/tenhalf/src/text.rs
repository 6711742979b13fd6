//! The terminal face: the table as text, and the words a player types.

use crate::hand::Points;
use crate::state::{Action, Status};
use crate::view::{PlayerView, View};
use crate::WinKind;
use game::Viewer;
use std::fmt::Write;

/// What to type, for the terminal's `help`.
pub(crate) const HELP: &str =
    "Ten and a half (十点半): get as close to 10½ as you can without going over. \
Type `hit` (or 要) for another card, `stand` (or `s`, 不要) to keep your hand. At 7 or \
less you must hit; from 7½ to 10 you choose. Exactly 10½, or five cards within 10½ (五龙), \
wins at once. Over 10½ costs 2 points and you start again with a new base card. Of those who \
stand, the lowest hand takes the pot: 2 points plus 2 for each player who won the round. \
[Xx] is your face-down base card, ▒▒ another player's. Lower penalties are better.";

/// An action as typed.
pub(crate) fn action_text(action: Action) -> &'static str {
    match action {
        Action::Hit => "hit",
        Action::Stand => "stand",
    }
}

/// Reads a typed action, in English or Chinese. `h` is left to the terminal's `hint`.
pub(crate) fn parse_action(text: &str) -> Result<Action, String> {
    match text.trim().to_lowercase().as_str() {
        "hit" | "要" | "要牌" => Ok(Action::Hit),
        "stand" | "s" | "stay" | "不要" | "停" => Ok(Action::Stand),
        other => Err(format!("'{other}' is not a move: type hit or stand")),
    }
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::Waiting => "waiting",
        Status::Playing => "playing",
        Status::Stood => "stood",
        Status::Won(WinKind::TenAndAHalf) => "won 10½",
        Status::Won(WinKind::FiveDragon) => "won 五龙",
        Status::Out => "out",
    }
}

fn cards_text(p: &PlayerView, own: bool) -> String {
    let mut out = String::new();
    if p.has_base {
        match (p.base, own) {
            (Some(b), true) => {
                let _ = write!(out, "[{}]", b.pretty());
            }
            (Some(b), false) => out.push_str(&b.pretty()),
            (None, _) => out.push_str("▒▒"),
        }
    }
    for c in &p.hits {
        let _ = write!(out, " {}", c.pretty());
    }
    out
}

/// The table from `viewer`'s side.
pub(crate) fn render(view: &View, viewer: Viewer) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "十点半 Ten and a half — round {}, dealer seat {}, {} cards left in the deck",
        view.round, view.dealer, view.deck_left
    );
    for p in &view.players {
        let own = viewer == Viewer::Seat(p.seat);
        let marker = if view.to_act == Some(p.seat) {
            '>'
        } else {
            ' '
        };
        let mut who = format!("seat {}", p.seat);
        if p.seat == view.dealer {
            who.push_str(" (dealer)");
        }
        if own {
            who.push_str(" (you)");
        }
        let mut line = format!(
            "{marker} {who:<22} penalties {:>3}  {:<9} {}",
            p.penalties,
            status_text(p.status),
            cards_text(p, own)
        );
        if p.has_base {
            match p.points {
                Some(points) => {
                    let _ = write!(line, "  = {points}");
                }
                None => {
                    let n = p.cards();
                    let _ = write!(line, "  ({n} card{})", if n == 1 { "" } else { "s" });
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if let Some(s) = &view.last_showdown {
        let hands: Vec<String> = s
            .hands
            .iter()
            .map(|h| {
                let cards: Vec<String> = h.cards.iter().map(|c| c.pretty()).collect();
                format!("seat {} {} ({})", h.seat, h.points, cards.join(" "))
            })
            .collect();
        let result = match s.loser {
            Some(l) => format!("seat {l} took the pot of {}", s.pot),
            None => "nobody stood, no pot".to_string(),
        };
        let _ = writeln!(
            out,
            "Round {} showdown: {result}. {}",
            s.round,
            hands.join(", ")
        );
    }
    match (view.finished, view.to_act) {
        (true, _) => {
            let totals: Vec<String> = view
                .players
                .iter()
                .map(|p| format!("seat {}: {}", p.seat, p.penalties))
                .collect();
            let _ = writeln!(out, "Game over. Penalties: {}", totals.join(", "));
        }
        (false, Some(seat)) if viewer == Viewer::Seat(seat) => {
            let points = view.me().and_then(|p| p.points).unwrap_or(Points(0));
            let prompt = if points.0 <= crate::hand::MUST_HIT_UP_TO {
                format!("You have {points}: at 7 or less you must hit. Type hit.")
            } else {
                format!("You have {points}: hit or stand?")
            };
            let _ = writeln!(out, "{prompt}");
        }
        (false, Some(seat)) => {
            let _ = writeln!(out, "Seat {seat} to play.");
        }
        (false, None) => {}
    }
    out
}
