//! The terminal face of the game: the table as text, typed plays, hints and help.

use crate::bots::plan::{best_plan, Unseen};
use crate::bots::Heuristic;
use crate::combo::Combo;
use crate::rules::{Action, Event, SEATS};
use crate::view::View;
use cards::{parse_cards, CardSet, Deck, ParseError};
use game::{text, Bot, Decision, Viewer};
use std::fmt::Write;

/// What to type at the terminal.
pub const HELP: &str = "Type the cards to play, rank then suit, separated by spaces: `3d` \
(single), `7h 7s` (pair), `9d 9c 9s` (triple), `3d 4c 5h 6s 7d` (straight), five of one suit \
(flush), `9d 9c 9s 5h 5s` (full house), `9d 9c 9h 9s 5s` (four of a kind with one card) or a \
straight flush. Ranks 3 4 5 6 7 8 9 T J Q K A 2 (10 is fine for T); suits d c h s = ♦ ♣ ♥ ♠, \
lowest to highest (the symbols work too). Type `pass` to pass (not when you lead). Follow with as many cards as the \
play on the table, and higher: by rank then suit, and among five-card plays straight < flush < \
full house < four of a kind < straight flush. The match's first play must include 3d. \
`hint` suggests plays that beat the table: the computer's first, then smallest first, \
breaking up a pair, triple or five-card group of your hand last.";

/// Reads a typed action: `pass` (or `p`), or cards in the suited notation.
pub fn parse_action(text: &str) -> Result<Action, ParseError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("p") {
        return Ok(Action::Pass);
    }
    parse_set(t).map(Action::Play)
}

/// Reads distinct cards of the 52-card deck: `3d 3s`. Errors name the offending card.
pub fn parse_set(text: &str) -> Result<CardSet, ParseError> {
    let cards = parse_cards(text)?;
    Deck::NO_JOKERS.check_cards(&cards)?;
    Ok(cards.into_iter().collect())
}

/// An action as a player reads and may type it (`hint` shows it): `3♦ 3♠` or `pass`.
/// Typing accepts the symbols as well as the letters `3d 3s`.
pub fn action_text(action: &Action) -> String {
    match action {
        Action::Play(cards) => pretty(*cards),
        Action::Pass => "pass".into(),
    }
}

/// The plays of `legal` in the order `hint` offers them: the computer's own play first
/// (the `heuristic` bot's, when it would play), then the rest smallest first, with the
/// plays that break up a group of the hand last; `pass` alone if there are none.
///
/// A group is one of the plays the computer would split the hand into (a pair, a triple,
/// a five-card play): smallest first alone would offer a single out of a pair, or a 9 out
/// of a straight flush, before a card that stands alone.
pub fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
    let mut plays: Vec<Combo> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(cards) => Combo::classify(*cards),
            Action::Pass => None,
        })
        .collect();
    if plays.is_empty() {
        return legal
            .iter()
            .filter(|a| **a == Action::Pass)
            .cloned()
            .collect();
    }
    plays.sort_by_key(Combo::order_key);
    if let (Some(hand), Some(seat)) = (view.hand, view.seat) {
        let groups = best_plan(hand, &Unseen::new(view.unseen())).plays;
        plays.sort_by_key(|play| breaks_up(&groups, play.cards));
        let computer = Heuristic::new().act(&Decision::from_view(view, seat, legal));
        if let Some(i) = plays.iter().position(|p| Action::Play(p.cards) == computer) {
            plays[..=i].rotate_right(1);
        }
    }
    plays.into_iter().map(|c| Action::Play(c.cards)).collect()
}

/// Whether playing `cards` takes some but not all of the cards of one of `groups`.
fn breaks_up(groups: &[Combo], cards: CardSet) -> bool {
    groups.iter().any(|group| {
        let shared = group.cards.bits() & cards.bits();
        shared != 0 && shared != group.cards.bits()
    })
}

/// Pretty cards for people: `3♦ 3♠`.
fn pretty(cards: CardSet) -> String {
    text::pretty_cards(&cards.iter().collect::<Vec<_>>())
}

/// A play with its kind in words: `3♦ 4♣ 5♥ 6♠ 7♦ (a straight)`.
fn play_words(play: &Combo) -> String {
    text::play_text(&pretty(play.cards), play.kind.described())
}

/// One line of the table's log for `viewer`: what a seat did, in words.
pub fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
    Some(match event {
        Event::Played {
            seat,
            play,
            cards_left,
        } => {
            let mut line = format!(
                "{} {}",
                text::does(*seat, viewer, "plays", "play"),
                play_words(play)
            );
            if (1..=3).contains(cards_left) {
                let _ = write!(line, "; {} left", text::count(*cards_left as usize, "card"));
            }
            line
        }
        Event::Passed { seat } => text::does(*seat, viewer, "passes", "pass"),
        Event::NewLead { seat } => format!(
            "Nobody beats it: {} a new round.",
            text::does(*seat, viewer, "leads", "lead")
        ),
        Event::DealOver(r) => {
            let left: Vec<String> = (0..SEATS)
                .filter(|&s| s != r.winner)
                .map(|s| {
                    let n = r.hands.get(s).map_or(0, |h| h.len());
                    format!(
                        "{} {} ({})",
                        text::who(s, viewer),
                        text::count(n as usize, "card"),
                        text::signed(r.results.get(s).copied().unwrap_or(0))
                    )
                })
                .collect();
            format!(
                "{} out of cards and {} the deal ({}). Left holding: {}.",
                text::does(r.winner, viewer, "is", "are"),
                if viewer.seat() == Some(r.winner) {
                    "win"
                } else {
                    "wins"
                },
                text::signed(r.results.get(r.winner).copied().unwrap_or(0)),
                left.join(", ")
            )
        }
    })
}

/// The table from `viewer`'s side.
pub fn render(view: &View, viewer: Viewer) -> String {
    let me = viewer.seat();
    let mut out = String::new();
    let name = |s: usize| text::seat_label(s, viewer);
    let _ = writeln!(out, "锄大地 Big Two");
    for s in 0..SEATS {
        let n = view.cards_left.get(s).copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "{} {:<15}{:>8}",
            text::turn_mark(view.to_act == Some(s)),
            name(s),
            text::count(n as usize, "card")
        );
    }
    match (&view.last, view.to_act) {
        _ if view.result.is_some() => {}
        (None, Some(leader)) if view.must_include.is_some() => {
            let _ = writeln!(
                out,
                "{} first.",
                text::does(leader, viewer, "leads", "lead")
            );
        }
        (Some(t), _) => {
            let passes = match view.passes {
                0 => String::new(),
                n => format!(", {} since", text::count(usize::from(n), "pass")),
            };
            let _ = writeln!(
                out,
                "{}{passes}",
                text::to_beat_line(&play_words(&t.play), t.seat, viewer)
            );
        }
        (None, Some(leader)) => {
            let _ = writeln!(out, "{}", text::lead_line(leader, viewer));
        }
        (None, None) => {}
    }
    if let Some(card) = view.must_include {
        let _ = writeln!(out, "The first play must include {}.", card.pretty());
    }
    if let Some(hand) = view.hand.filter(|h| !h.is_empty() && view.result.is_none()) {
        let _ = writeln!(out, "{}", text::hand_line(&pretty(hand)));
    }
    if let Some(r) = &view.result {
        let _ = writeln!(out, "Deal over: {} went out.", name(r.winner));
        for s in 0..SEATS {
            let left = r.hands.get(s).copied().unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<15}left {:<40} card score {:>3}  result {}",
                name(s),
                if left.is_empty() {
                    "-".to_string()
                } else {
                    pretty(left)
                },
                r.card_scores.get(s).copied().unwrap_or(0),
                text::signed(r.results.get(s).copied().unwrap_or(0))
            );
        }
    } else if me.is_some() && view.to_act == me && view.last.is_some() {
        let _ = writeln!(out, "Your turn: beat it or type pass.");
    }
    out
}

/// The end of a deal for `viewer`. Big Two pays by the cards left, so a seat that did not
/// go out may still gain: the line says who went out and the viewer's result, rather than
/// "you lose, +1".
pub fn outcome_text(outcome: &game::Outcome, viewer: Viewer) -> String {
    let winner = outcome.won.iter().position(|&w| w);
    match (
        viewer
            .seat()
            .and_then(|s| outcome.scores.get(s).map(|&r| (s, r))),
        winner,
    ) {
        (Some((me, r)), Some(w)) if me == w => {
            format!("You went out first and win the deal, {}.", text::signed(r))
        }
        (Some((_, r)), Some(w)) => format!(
            "Seat {} went out first and wins the deal; your result, by the cards left, is {}.",
            text::seat_number(w),
            text::signed(r)
        ),
        _ => text::outcome_line(outcome, viewer),
    }
}
