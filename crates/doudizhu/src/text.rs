//! Dou Dizhu's text face: the table drawn for a terminal, typed actions, hints, help.

use crate::rules::{Action, Phase};
use crate::{Kind, Play, View};
use cards::RankCounts;
use game::Viewer;
use std::fmt::Write;

/// Orders plays "smallest first", the order `hint` cycles through and `legal` lists: plain
/// plays by main rank, then fewer cards first; bombs after them, the rocket last.
pub(crate) fn hint_order(plays: &mut [Play]) {
    plays.sort_by_key(|p| {
        (
            p.is_bomb(),
            p.kind() == Kind::Rocket,
            p.rank(),
            p.size(),
            p.kind(),
            p.cards(),
        )
    });
}

fn role(view: &View, seat: usize) -> &'static str {
    match view.landlord {
        Some(l) if l == seat => "landlord",
        Some(_) => "peasant",
        None => "",
    }
}

fn seat_name(view: &View, seat: usize) -> String {
    if view.seat == Some(seat) {
        format!("seat {seat} (you)")
    } else {
        format!("seat {seat}")
    }
}

fn describe(entry: &(usize, Option<Play>)) -> String {
    match entry.1 {
        Some(p) => format!("{} ({})", p, p.kind().name().replace('_', " ")),
        None => "pass".to_string(),
    }
}

pub(crate) fn render(view: &View, _viewer: Viewer) -> String {
    let mut out = String::new();
    let _ = match (view.phase, view.landlord) {
        (Phase::Bidding, _) => writeln!(
            out,
            "斗地主 — bidding (seat {} bid first{})",
            view.first_bidder,
            if view.redeals > 0 {
                format!(", redeal {}", view.redeals)
            } else {
                String::new()
            }
        ),
        (_, Some(l)) => writeln!(
            out,
            "斗地主 — landlord: seat {l}, bid {}, multiplier ×{}",
            view.bid, view.multiplier
        ),
        (_, None) => writeln!(out, "斗地主"),
    };
    if let Some(k) = view.kitty {
        let _ = writeln!(out, "kitty: {k}");
    }
    let bids = if view.phase == Phase::Bidding {
        &view.bids[..]
    } else {
        &[]
    };
    for (seat, bid) in bids {
        let said = if *bid == 0 {
            "no bid".to_string()
        } else {
            format!("bids {bid}")
        };
        let _ = writeln!(out, "  {} {said}", seat_name(view, *seat));
    }
    for seat in 0..3 {
        let turn = if view.to_act == Some(seat) {
            "  ← to act"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:<16}{:<10}{:>2} cards{turn}",
            seat_name(view, seat),
            role(view, seat),
            view.hand_sizes[seat],
        );
    }
    // The current round: the plays since the last lead.
    let recent: Vec<String> = view
        .history
        .iter()
        .rev()
        .take(3)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .map(|e| format!("{}: {}", seat_name(view, e.0), describe(e)))
        .collect();
    if !recent.is_empty() {
        let _ = writeln!(out, "table: {}", recent.join(" · "));
    }
    match view.last {
        Some((s, p)) => {
            let _ = writeln!(out, "to beat: {p} from {}", seat_name(view, s));
        }
        None if view.phase == Phase::Playing => {
            let _ = writeln!(out, "a new round: the player to act leads anything");
        }
        None => {}
    }
    if let (Some(w), Some(scores)) = (view.winner, view.scores) {
        let side = if Some(w) == view.landlord {
            "the landlord wins"
        } else {
            "the peasants win"
        };
        let _ = writeln!(out, "{} went out: {side}", seat_name(view, w));
        if view.spring {
            let _ = writeln!(out, "spring (春天): ×2");
        }
        if view.anti_spring {
            let _ = writeln!(out, "anti-spring (反春): ×2");
        }
        for (s, sc) in scores.iter().enumerate() {
            let _ = writeln!(out, "  {}: {sc:+}", seat_name(view, s));
        }
        if let Some(hands) = view.revealed {
            for (s, h) in hands.iter().enumerate() {
                if !h.is_empty() {
                    let _ = writeln!(out, "  {} held {h}", seat_name(view, s));
                }
            }
        }
    }
    if let Some(h) = view.hand.filter(|h| !h.is_empty()) {
        let _ = writeln!(out, "your hand: {h}");
    }
    out
}

pub(crate) fn action_text(action: &Action) -> String {
    match action {
        Action::Bid(0) => "no bid".into(),
        Action::Bid(b) => format!("bid {b}"),
        Action::Pass => "pass".into(),
        Action::Play(p) => p.to_string(),
    }
}

pub(crate) fn parse_action(view: &View, text: &str) -> Result<Action, String> {
    let t = text.trim().to_lowercase();
    let t = t.as_str();
    let passing = matches!(t, "pass" | "p" | "过" | "不要" | "不出");
    if view.phase == Phase::Bidding {
        if passing || matches!(t, "no" | "no bid" | "0" | "不叫") {
            return Ok(Action::Bid(0));
        }
        let digits = t.strip_prefix("bid").unwrap_or(t).trim();
        return match digits.parse::<u8>() {
            Ok(b) if b <= 3 => Ok(Action::Bid(b)),
            _ => Err(format!("bid 1, 2 or 3, or pass — not '{}'", text.trim())),
        };
    }
    if passing {
        return Ok(Action::Pass);
    }
    let cards: RankCounts = text.parse().map_err(|e| format!("{e}"))?;
    if cards.is_empty() {
        return Err("type the cards to play (e.g. 3 3 4 4 5 5), or pass".into());
    }
    Play::classify(cards)
        .map(Action::Play)
        .ok_or_else(|| format!("{cards} is not a play"))
}

pub(crate) fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
    if view.phase == Phase::Bidding {
        return legal.to_vec();
    }
    let mut plays: Vec<Play> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(p) => Some(*p),
            _ => None,
        })
        .collect();
    hint_order(&mut plays);
    plays.into_iter().map(Action::Play).collect()
}

pub(crate) fn help() -> &'static str {
    "Type the cards to play by rank, suits do not matter: `3 3 3 4`, or run together \
`33344`; T or 10 for ten; BJ and RJ for the small and big jokers. `pass` (or p) to pass. \
While bidding: 1, 2 or 3, or `pass` for no bid. `hint` cycles through the plays that beat \
the table, smallest first."
}
