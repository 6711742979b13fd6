//! Dou Dizhu's text face: the table drawn for a terminal, typed actions, hints, help.

use crate::bots::HeuristicBot;
use crate::rules::{Action, Event, Phase, MAX_REDEALS};
use crate::{Kind, Play, View};
use cards::{Rank, RankCounts};
use game::{text, Bot, Decision, Seed, Viewer};
use std::fmt::Write;

mod stakes;

/// Orders plays "smallest first", the order `legal` lists and [`hints`] falls back on: plain
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

/// A play with its kind in words: `3 3 3 4 (a trio with a single)`.
pub(crate) fn play_words(play: Play) -> String {
    text::play_text(&play.to_string(), play.kind().words())
}

fn describe(entry: &(usize, Option<Play>)) -> String {
    match entry.1 {
        Some(p) => play_words(p),
        None => "pass".to_string(),
    }
}

pub(crate) fn render(view: &View, viewer: Viewer) -> String {
    let mut out = String::new();
    let _ = match (view.phase, view.landlord) {
        (Phase::Bidding, _) => writeln!(
            out,
            "斗地主 Dou Dizhu — bidding ({} bid first{})",
            text::seat_name(view.first_bidder),
            if view.redeals > 0 {
                format!(", redeal {}", view.redeals)
            } else {
                String::new()
            }
        ),
        (_, Some(l)) => writeln!(
            out,
            "斗地主 Dou Dizhu — landlord {}, bid {}, multiplier ×{}",
            text::seat_label(l, viewer),
            view.bid,
            view.multiplier
        ),
        (_, None) => writeln!(out, "斗地主 Dou Dizhu"),
    };
    if let Some(k) = view.kitty {
        let _ = writeln!(out, "kitty: {k}");
    }
    stakes::render(view, viewer, &mut out);
    let bids = if view.phase == Phase::Bidding {
        &view.bids[..]
    } else {
        &[]
    };
    for (seat, bid) in bids {
        let said = if *bid == 0 {
            "no bid".to_string()
        } else {
            format!("bid {bid}")
        };
        let _ = writeln!(out, "  {}: {said}", text::seat_label(*seat, viewer));
    }
    for seat in 0..3 {
        let _ = writeln!(
            out,
            "{} {:<15}{:<10}{:>8}",
            text::turn_mark(view.to_act == Some(seat)),
            text::seat_label(seat, viewer),
            role(view, seat),
            text::count(view.hand_sizes[seat] as usize, "card"),
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
        .map(|e| format!("{}: {}", text::seat_label(e.0, viewer), describe(e)))
        .collect();
    if !recent.is_empty() && view.phase == Phase::Playing {
        let _ = writeln!(out, "this round: {}", recent.join(" · "));
    }
    match (view.last, view.to_act) {
        (Some((s, p)), _) => {
            let _ = writeln!(out, "{}", text::to_beat_line(&play_words(p), s, viewer));
        }
        (None, Some(leader)) if view.phase == Phase::Playing => {
            let _ = writeln!(out, "{}", text::lead_line(leader, viewer));
        }
        _ => {}
    }
    if let (Some(w), Some(scores)) = (view.winner, view.scores) {
        let side = if Some(w) == view.landlord {
            "the landlord wins"
        } else {
            "the peasants win"
        };
        let _ = writeln!(out, "{} went out: {side}", text::seat_label(w, viewer));
        if view.spring {
            let _ = writeln!(out, "spring (春天): ×2");
        }
        if view.anti_spring {
            let _ = writeln!(out, "anti-spring (反春): ×2");
        }
        if view.shown.is_some() {
            let _ = writeln!(out, "shown hand (明牌): ×2");
        }
        for (s, sc) in scores.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:<15}{}",
                text::seat_label(s, viewer),
                text::signed(*sc)
            );
        }
        if let Some(hands) = view.revealed {
            for (s, h) in hands.iter().enumerate() {
                if !h.is_empty() {
                    let _ = writeln!(out, "  {} held {h}", text::seat_label(s, viewer));
                }
            }
        }
    }
    if let Some(h) = view
        .hand
        .filter(|h| !h.is_empty() && view.revealed.is_none())
    {
        let _ = writeln!(out, "{}", text::hand_line(&h.to_string()));
    }
    out
}

/// One line of the table's log for `viewer`: what a seat did, in words.
pub(crate) fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
    let line = match event {
        Event::Bid { seat, bid: 0 } => text::does(*seat, viewer, "does not bid", "do not bid"),
        Event::Bid { seat, bid } => format!("{} {bid}", text::does(*seat, viewer, "bids", "bid")),
        Event::Redealt { redeals } => format!(
            "Nobody bid: the cards are shuffled and dealt again (redeal {redeals} of {MAX_REDEALS})."
        ),
        Event::Landlord { seat, bid, kitty } => {
            let is = text::does(*seat, viewer, "is", "are");
            format!("{is} the landlord for {bid}; the kitty is {kitty}")
        }
        Event::Played {
            seat,
            play,
            multiplier,
        } => {
            let mut line = format!(
                "{} {}",
                text::does(*seat, viewer, "plays", "play"),
                play_words(*play)
            );
            if play.is_bomb() {
                let _ = write!(line, "; the multiplier is ×{multiplier}");
            }
            line
        }
        Event::Passed { seat } => text::does(*seat, viewer, "passes", "pass"),
        Event::Doubled { seat, factor } => stakes::doubled_line(*seat, *factor, viewer),
        Event::Shown { seat, hand } => stakes::shown_line(*seat, *hand, viewer),
        Event::RoundWon { seat } => format!(
            "Nobody beats it: {} a new round.",
            text::does(*seat, viewer, "leads", "lead")
        ),
        Event::Finished {
            winner,
            landlord_won,
            spring,
            anti_spring,
            doubles,
            shown,
            ..
        } => {
            let side = if *landlord_won {
                "the landlord wins"
            } else {
                "the peasants win"
            };
            let mut line = format!(
                "{} out of cards: {side}",
                text::does(*winner, viewer, "is", "are")
            );
            if *spring {
                line.push_str(", a spring (春天) doubles the score");
            }
            if *anti_spring {
                line.push_str(", an anti-spring (反春) doubles the score");
            }
            stakes::finish_words(doubles, *shown, &mut line);
            line.push('.');
            line
        }
    };
    Some(line)
}

pub(crate) fn action_text(action: &Action) -> String {
    match action {
        Action::Bid(0) => "no bid".into(),
        Action::Bid(b) => format!("bid {b}"),
        Action::Pass => "pass".into(),
        Action::Play(p) => p.to_string(),
        Action::Double(f) => stakes::action_words(*f).into(),
        Action::Show(true) => "show".into(),
        Action::Show(false) => "no show".into(),
    }
}

/// Why typed text is not a Dou Dizhu action. Each message tells the player what to type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// While bidding, text that is no bid (the text as typed).
    #[error("bid 1, 2 or 3, or pass — not '{0}'")]
    NotABid(String),
    /// Cards that do not read (an unknown rank, say).
    #[error(transparent)]
    Cards(#[from] cards::ParseError),
    /// Nothing typed but blanks.
    #[error("type the cards to play (e.g. 3 3 4 4 5 5), or pass")]
    NoCards,
    /// Cards that read but form none of the plays.
    #[error("{0} is not a play")]
    NotAPlay(RankCounts),
    /// While doubling (加倍), text that is no doubling (the text as typed).
    #[error("type 1 (no double), 2 (double) or 4 (super double) — not '{0}'")]
    NotADouble(String),
    /// While the landlord decides on showing (明牌), text that is neither (as typed).
    #[error("type show (明牌) or no — not '{0}'")]
    NotAShow(String),
}

pub(crate) fn parse_action(view: &View, text: &str) -> Result<Action, ParseActionError> {
    if let Some(choice) = stakes::parse(view, text) {
        return choice;
    }
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
            _ => Err(ParseActionError::NotABid(text.trim().to_string())),
        };
    }
    if passing {
        return Ok(Action::Pass);
    }
    let cards: RankCounts = text.parse()?;
    if cards.is_empty() {
        return Err(ParseActionError::NoCards);
    }
    Play::classify(cards)
        .map(Action::Play)
        .ok_or(ParseActionError::NotAPlay(cards))
}

/// The plays `hint` cycles through, best first: the heuristic bot's own play when it would
/// play (what a good player would do here), then every other play smallest first, those
/// that break up a bomb or the rocket last but for the bomb itself. Smallest first alone
/// would offer a single 4 out of 4 4 4 4 before a lone 5.
pub(crate) fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
    if view.phase != Phase::Playing {
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
    let hand = view.hand.unwrap_or(RankCounts::EMPTY);
    plays.sort_by_key(|&p| breaks_a_bomb(hand, p));
    let seat = view.seat.unwrap_or(0);
    let suggested =
        match HeuristicBot::new(&Seed::from_u64(0)).act(&Decision::from_view(view, seat, legal)) {
            Action::Play(p) => plays.iter().position(|&q| q == p),
            _ => None,
        };
    if let Some(i) = suggested {
        plays[..=i].rotate_right(1);
    }
    plays.into_iter().map(Action::Play).collect()
}

/// Whether `play` takes cards from a bomb or the rocket in `hand` without being that bomb
/// or the rocket.
fn breaks_a_bomb(hand: RankCounts, play: Play) -> bool {
    if play.is_bomb() {
        return false;
    }
    let rocket = hand.count(Rank::BlackJoker) == 1 && hand.count(Rank::RedJoker) == 1;
    play.cards().iter().any(|(r, _)| {
        hand.count(r) == 4 || (rocket && matches!(r, Rank::BlackJoker | Rank::RedJoker))
    })
}

pub(crate) fn help() -> &'static str {
    "Type the cards to play by rank, suits do not matter: `3 3 3 4`, or run together \
`33344`; T or 10 for ten; BJ and RJ for the small and big jokers. `pass` (or p) to pass. \
While bidding: 1, 2 or 3, or `pass` for no bid. `hint` cycles through the plays that beat \
the table (every play when you lead): the computer's suggestion first, then smallest first, \
breaking up a bomb last. At tables with doubling (加倍), after the kitty each seat types 1 \
(no double), 2 (double, ×2) or 4 (super double, ×4, where the table allows it): a peasant's \
doubling multiplies its own stake with the landlord, the landlord's both stakes. At tables \
with 明牌 the landlord then types `show` (everyone sees the landlord's hand, ×2) or `no`."
}
