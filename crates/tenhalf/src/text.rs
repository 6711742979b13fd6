//! The terminal face: the table as text, and the words a player types.

use crate::hand::{halves, Points};
use crate::state::{Action, Event, Showdown, Status, POT_BASE, POT_PER_WINNER};
use crate::view::{PlayerView, View};
use crate::WinKind;
use cards::Card;
use game::{text, Outcome, Viewer};
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

/// Typed text that is neither hit nor stand (the text, trimmed and lowercased). A turn
/// has only those two moves, so the message names them both.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move: type hit or stand")]
pub struct NotAMove(pub String);

/// Reads a typed action, in English or Chinese. `h` is left to the terminal's `hint`.
pub(crate) fn parse_action(text: &str) -> Result<Action, NotAMove> {
    match text.trim().to_lowercase().as_str() {
        "hit" | "要" | "要牌" => Ok(Action::Hit),
        "stand" | "s" | "stay" | "不要" | "停" => Ok(Action::Stand),
        other => Err(NotAMove(other.to_string())),
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
        "十点半 Ten and a half — round {}, dealer {}, {} cards left in the deck",
        view.round,
        text::seat_name(view.dealer),
        view.deck_left
    );
    for p in &view.players {
        let own = viewer == Viewer::Seat(p.seat);
        let marker = text::turn_mark(view.to_act == Some(p.seat));
        let who = text::seat_label(p.seat, viewer);
        let role = if p.seat == view.dealer { "dealer" } else { "" };
        let mut line = format!(
            "{marker} {who:<15}{role:<8}penalties {:>3}  {:<9} {}",
            p.penalties,
            if view.finished {
                ""
            } else {
                status_text(p.status)
            },
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
        let took = match s.loser {
            Some(l) => format!(
                "{} the pot of {}",
                text::does(l, viewer, "took", "took"),
                s.pot
            ),
            None => "nobody stood, no pot".to_string(),
        };
        let _ = writeln!(out, "Round {}: {took}.", s.round);
    }
    match (view.finished, view.to_act) {
        (true, _) => {
            let totals: Vec<String> = view
                .players
                .iter()
                .map(|p| format!("{} {}", text::seat_label(p.seat, viewer), p.penalties))
                .collect();
            let _ = writeln!(out, "Game over. Penalty points: {}.", totals.join(", "));
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
            let _ = writeln!(out, "Seat {} to play.", text::seat_number(seat));
        }
        (false, None) => {}
    }
    out
}

/// A win in words: `10½` or `five dragons (五龙)`.
fn win_words(kind: WinKind) -> &'static str {
    match kind {
        WinKind::TenAndAHalf => "10½",
        WinKind::FiveDragon => "five dragons (五龙), five cards within 10½",
    }
}

/// Shown cards and their total: `K♠ 9♥ 5♦ = 15`.
fn shown(cards: &[Card]) -> String {
    let total = cards.iter().fold(0u8, |t, &c| t.saturating_add(halves(c)));
    format!("{} = {}", text::pretty_cards(cards), Points(total))
}

/// "2 penalty points", "1 penalty point".
fn penalty_points(n: u32) -> String {
    text::count(n as usize, "penalty point")
}

/// The round's end in one line: who took the pot, its size and why, and who stood at what.
fn showdown_text(s: &Showdown, viewer: Viewer) -> String {
    let winners = s.pot.saturating_sub(POT_BASE) / POT_PER_WINNER;
    let why = if winners == 0 {
        String::new()
    } else {
        format!(
            " ({POT_BASE}, plus {POT_PER_WINNER} for {} who won at once)",
            text::count(winners as usize, "player")
        )
    };
    let stood: Vec<String> = s
        .hands
        .iter()
        .map(|h| format!("{} {}", text::who(h.seat, viewer), shown(&h.cards)))
        .collect();
    match s.loser {
        None => format!(
            "Round {}: nobody stood, so nobody takes the pot of {}{why}.",
            s.round, s.pot
        ),
        Some(l) if s.hands.len() == 1 => format!(
            "Round {}: {} the pot of {}{why}: alone in the showdown with {}.",
            s.round,
            text::does(l, viewer, "takes", "take"),
            s.pot,
            shown(&s.hands[0].cards)
        ),
        Some(l) => format!(
            "Round {}: {} the pot of {}{why} with the lowest hand. Stood: {}.",
            s.round,
            text::does(l, viewer, "takes", "take"),
            s.pot,
            stood.join("; ")
        ),
    }
}

/// One line of the table's log for `viewer`: what happened, in words. Face-down base cards
/// never appear: events do not carry them until they are shown.
pub(crate) fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
    Some(match event {
        Event::Dealt { round, order } => {
            let first = order.first().copied().unwrap_or(0);
            let dealer = order.last().copied().unwrap_or(0);
            format!(
                "Round {round}: a face-down base card to each seat; {} first, the dealer ({}) last.",
                text::who(first, viewer),
                text::who(dealer, viewer)
            )
        }
        Event::Hit { seat, card } => format!(
            "{}: {}",
            text::does(*seat, viewer, "hits", "hit"),
            card.pretty()
        ),
        Event::Stood { seat } => text::does(*seat, viewer, "stands", "stand"),
        Event::DeckEmpty { seat } => format!(
            "The deck is empty: {} where {}.",
            text::does(*seat, viewer, "stands", "stand"),
            if viewer.seat() == Some(*seat) {
                "you are"
            } else {
                "they are"
            }
        ),
        Event::Busted {
            seat,
            cards,
            penalty,
        } => format!(
            "{} with {} and {} {}.",
            text::does(*seat, viewer, "busts", "bust"),
            shown(cards),
            if viewer.seat() == Some(*seat) {
                "take"
            } else {
                "takes"
            },
            penalty_points(*penalty)
        ),
        Event::NewBase { seat } => format!(
            "{} a new face-down base card and {} on.",
            text::does(*seat, viewer, "gets", "get"),
            if viewer.seat() == Some(*seat) {
                "go"
            } else {
                "goes"
            }
        ),
        Event::Out { seat } => format!(
            "No card is left for a new base card: {} out of the round.",
            text::does(*seat, viewer, "is", "are")
        ),
        Event::Won { seat, cards, kind } => format!(
            "{} at once with {} ({}) and {} the round; the pot grows by {POT_PER_WINNER}.",
            text::does(*seat, viewer, "wins", "win"),
            win_words(*kind),
            text::pretty_cards(cards),
            if viewer.seat() == Some(*seat) {
                "leave"
            } else {
                "leaves"
            }
        ),
        Event::Showdown(s) => showdown_text(s, viewer),
        Event::GameOver { penalties } => {
            let each: Vec<String> = penalties
                .iter()
                .enumerate()
                .map(|(s, p)| format!("{} {p}", text::who(s, viewer)))
                .collect();
            format!(
                "The deck cannot serve another round: the game is over. Penalty points: {}.",
                each.join(", ")
            )
        }
    })
}

/// The end of a game for `viewer`, in penalty points (lower is better): who took the
/// fewest, and how many the viewer took.
pub(crate) fn outcome_text(outcome: &Outcome, viewer: Viewer) -> String {
    let points: Vec<u64> = outcome.scores.iter().map(|s| s.unsigned_abs()).collect();
    let fewest: Vec<usize> = (0..points.len()).filter(|&s| outcome.won[s]).collect();
    let best = fewest.first().map(|&s| points[s]);
    let names = |seats: &[usize]| {
        seats
            .iter()
            .map(|&s| text::who(s, viewer))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    match viewer.seat().filter(|&s| s < points.len()) {
        Some(me) => {
            let mine = penalty_points(points[me] as u32);
            let others: Vec<usize> = fewest.iter().copied().filter(|&s| s != me).collect();
            match best {
                None => format!("Everyone took {mine}: nobody did better."),
                Some(_) if outcome.won[me] && others.is_empty() => {
                    format!("You took {mine}, the fewest at the table: you win.")
                }
                Some(_) if outcome.won[me] => format!(
                    "You took {mine}, the fewest at the table, shared with {}.",
                    names(&others)
                ),
                Some(b) => format!("You took {mine}; {} took the fewest, {b}.", names(&fewest)),
            }
        }
        None => {
            let each: Vec<String> = points
                .iter()
                .enumerate()
                .map(|(s, p)| format!("{} {p}", text::seat_name(s)))
                .collect();
            match best {
                None => format!(
                    "Everyone took the same. Penalty points: {}.",
                    each.join(", ")
                ),
                Some(_) => format!(
                    "{} took the fewest penalty points. Penalty points: {}.",
                    names(&fewest),
                    each.join(", ")
                ),
            }
        }
    }
}
