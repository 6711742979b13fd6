//! The terminal face: the table as text, and actions typed as text.

use crate::action::{Action, Phase, PublicAction, PublicMode};
use crate::bots::heuristic::lead_score;
use crate::declare::Mode;
use crate::play::Play;
use crate::rules::SEATS;
use crate::view::View;
use cards::{format_cards, Card, RankCounts};
use game::Viewer;
use std::fmt::Write;

/// What to type, for `help`.
pub const HELP: &str = "Five-player Dou Dizhu (如东三打二). Grab: `grab` (your strongest card), \
`grab 9h` / `grab RJ`, or `decline`. Landlord's declaration: `partner` (叫朋友), `hidden` \
(暗独打) or `open` (明独打, x2). Play: ranks without suits, e.g. `3 3 3 4 4`, `A 2 3 4 5`, \
`33344`, `BJ BJ`; `pass` to pass. `hint` cycles through suggestions.";

/// An action as typed.
pub fn action_text(action: &Action) -> String {
    match action {
        Action::Grab(c) => format!("grab {c}"),
        Action::Decline => "decline".into(),
        Action::Declare(m) => match m {
            Mode::OpenSolo => "open".into(),
            Mode::HiddenSolo => "hidden".into(),
            Mode::Partner => "partner".into(),
        },
        Action::Play(cards) => cards.to_string(),
        Action::Pass => "pass".into(),
    }
}

/// A public action as the table's log shows it: a hidden solo and a partner call both
/// read "marks a card".
pub fn public_action_text(action: &PublicAction) -> String {
    match action {
        PublicAction::Declare(PublicMode::OpenSolo) => "open".into(),
        PublicAction::Declare(PublicMode::Marked) => "marks a card".into(),
        PublicAction::Grab(c) => format!("grab {c}"),
        PublicAction::Decline => "decline".into(),
        PublicAction::Play(cards) => cards.to_string(),
        PublicAction::Pass => "pass".into(),
    }
}

/// Reads a typed action in the context of the phase.
pub fn parse_action(view: &View, text: &str) -> Result<Action, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    match view.phase {
        Phase::Grab => match lower.as_str() {
            "decline" | "no" | "pass" | "不抢" => Ok(Action::Decline),
            "grab" | "抢" => view
                .can_grab
                .first()
                .map(|&c| Action::Grab(c))
                .ok_or_else(|| "you have nothing to grab with".to_string()),
            _ => {
                let card = lower.strip_prefix("grab").unwrap_or(&lower).trim();
                card.parse::<Card>()
                    .map(Action::Grab)
                    .map_err(|e| format!("{e}; type `grab`, `grab 9h` or `decline`"))
            }
        },
        Phase::Declare => match lower.as_str() {
            "open" | "open_solo" | "明独打" | "明" => Ok(Action::Declare(Mode::OpenSolo)),
            "hidden" | "hidden_solo" | "暗独打" | "暗" => Ok(Action::Declare(Mode::HiddenSolo)),
            "partner" | "friend" | "叫朋友" | "朋友" => Ok(Action::Declare(Mode::Partner)),
            _ => Err("declare `partner`, `hidden` or `open`".into()),
        },
        Phase::Play => match lower.as_str() {
            "pass" | "p" | "过" | "不要" => Ok(Action::Pass),
            _ => t
                .parse::<RankCounts>()
                .map(Action::Play)
                .map_err(|e| format!("{e}; type ranks like `3 3 3 4 4` or `pass`")),
        },
        Phase::Finished => Err("the game is over".into()),
    }
}

/// Suggestions, best first: in play, low long plays when leading and the cheapest beating
/// play when following, bombs last.
pub fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
    let hand = view.ranks();
    let mut out = legal.to_vec();
    if view.phase == Phase::Play {
        let leading = view.on_table.is_none();
        let cost = |a: &Action| match a {
            Action::Play(c) => Play::classify(*c).map_or(i64::MAX, |p| {
                let bomb = i64::from(p.kind.is_bomb()) << 40;
                bomb + if leading {
                    -i64::from(lead_score(hand, &p))
                } else {
                    i64::from(p.key)
                }
            }),
            _ => i64::MAX - 1,
        };
        out.sort_by_key(cost);
    }
    out
}

/// The table as text from `viewer`'s side.
pub fn render(v: &View, viewer: Viewer) -> String {
    let mut s = String::new();
    let me = viewer.seat();
    let _ = writeln!(
        s,
        "五人斗地主 — {:?}   明牌 {} (seat {})   multiplier x{} (base {})",
        v.phase,
        v.face_up.pretty(),
        v.face_up_holder,
        v.multiplier,
        v.base
    );
    for seat in 0..SEATS {
        let mut tags = Vec::new();
        if me == Some(seat) {
            tags.push("you".to_string());
        }
        if v.landlord == Some(seat) {
            tags.push("landlord".into());
        }
        if v.partner == Some(seat) && v.landlord != Some(seat) {
            tags.push("partner".into());
        }
        if v.turn == Some(seat) {
            tags.push("to play".into());
        }
        if v.grabbing.contains(&seat) {
            tags.push("grabbing".into());
        }
        let shown: Vec<String> = v.shown[seat]
            .iter()
            .map(|sh| format_cards(&vec![sh.card; usize::from(sh.count)]))
            .collect();
        let _ = write!(s, "  seat {seat}: {:>2} cards", v.hand_sizes[seat]);
        if !tags.is_empty() {
            let _ = write!(s, " [{}]", tags.join(", "));
        }
        if !shown.is_empty() {
            let _ = write!(s, "  grabbed: {}", shown.join(" | "));
        }
        s.push('\n');
    }
    if let Some(d) = v.declaration {
        match (d.open_solo, d.marked) {
            (true, _) => s.push_str("  Landlord plays open solo (一打四), x2\n"),
            (false, Some(c)) => {
                let _ = writeln!(s, "  Marked card: {} (找{})", c.pretty(), c.pretty());
            }
            (false, None) => {}
        }
    }
    if let Some(m) = v.my_mode {
        let _ = writeln!(s, "  You declared: {}", m.name());
    }
    if let Some(t) = &v.on_table {
        let _ = writeln!(
            s,
            "  On the table: seat {} played {} ({})",
            t.seat,
            t.cards,
            t.kind.name()
        );
    }
    if let Some(w) = v.instant_win {
        let _ = writeln!(s, "  Instant win: {}", w.message());
    }
    if let (Some(w), Some(scores)) = (v.winner, &v.scores) {
        let _ = writeln!(s, "  Seat {w} went out. Scores: {scores:?}");
    }
    if let Some(hand) = &v.hand {
        let _ = writeln!(
            s,
            "  Your hand ({}): {}",
            hand.len(),
            RankCounts::from_cards(hand)
        );
        let _ = writeln!(s, "  Suits: {}", format_cards(hand));
    }
    if !v.can_grab.is_empty() {
        let _ = writeln!(s, "  You can grab with: {}", format_cards(&v.can_grab));
    }
    for (m, c) in &v.options {
        let _ = writeln!(
            s,
            "  Option: {}{}",
            m.name(),
            c.map(|c| format!(" (marks {c})")).unwrap_or_default()
        );
    }
    s
}
