//! The terminal face: the table as text, and actions typed as text.

use crate::action::{Action, Event, Phase, PublicAction, PublicMode};
use crate::bots::heuristic::lead_score;
use crate::declare::Mode;
use crate::play::{Kind, Play};
use crate::rules::SEATS;
use crate::suited::{names_suits, SuitedCards};
use crate::view::View;
use cards::{Card, RankCounts};
use game::{text, Viewer};
use std::fmt::Write;

/// What to type, for `help`.
pub const HELP: &str = "Five-player Dou Dizhu (如东三打二). Grab: `grab` (your strongest card), \
`grab 9h` / `grab RJ`, or `decline`. Landlord's declaration: `partner` (叫朋友), `hidden` \
(暗独打) or `open` (明独打, ×2). Play: your cards with their suits, e.g. `6d 6c` or `6♦ 6♣` \
(everyone sees them), or ranks alone, e.g. `3 3 3 4 4`, `A 2 3 4 5`, `33344`, `BJ BJ` (the \
game picks the copies and shows ranks only); `pass` to pass. `hint` cycles through \
suggestions.";

/// An action as typed (and as `hint` suggests it): grab cards with suit symbols, which
/// typing accepts as well as letters.
pub fn action_text(action: &Action) -> String {
    match action {
        Action::Grab(c) => format!("grab {}", c.pretty()),
        Action::Decline => "decline".into(),
        Action::Declare(m) => mode_typed(*m).into(),
        Action::Play(cards) => cards.to_string(),
        Action::PlaySuited(cards) => suited_text(*cards),
        Action::Pass => "pass".into(),
    }
}

/// Suited cards with suit symbols (`6♦ 6♣ BJ`), as the table shows them and typing reads.
fn suited_text(cards: SuitedCards) -> String {
    text::pretty_cards(&cards.cards())
}

/// What a player types for a declaration.
fn mode_typed(mode: Mode) -> &'static str {
    match mode {
        Mode::OpenSolo => "open",
        Mode::HiddenSolo => "hidden",
        Mode::Partner => "partner",
    }
}

/// A declaration in words.
fn mode_words(mode: Mode) -> &'static str {
    match mode {
        Mode::OpenSolo => "an open solo (明独打): alone against four, ×2",
        Mode::HiddenSolo => "a hidden solo (暗独打): alone, marked like a partner call",
        Mode::Partner => "a partner call (叫朋友)",
    }
}

/// A public action as the table's log shows it: a hidden solo and a partner call both
/// read "marks a card", exactly as their public form `{"declare":"marked"}` says.
pub fn public_action_text(action: &PublicAction) -> String {
    match action {
        PublicAction::Declare(PublicMode::OpenSolo) => "declares an open solo".into(),
        PublicAction::Declare(PublicMode::Marked) => {
            "marks a card (a partner call or a hidden solo)".into()
        }
        PublicAction::Grab(c) => format!("grabs with {}", c.pretty()),
        PublicAction::Decline => "stops grabbing".into(),
        PublicAction::Play(cards) => cards.to_string(),
        PublicAction::PlaySuited(cards) => suited_text(*cards),
        PublicAction::Pass => "passes".into(),
    }
}

/// Why typed text is not an action of the phase. Each message tells the player what to
/// type; the cards' own error stays the source where cards did not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// `grab` typed, but no card of the hand can grab.
    #[error("you have nothing to grab with")]
    NothingToGrab,
    /// A grab whose card does not read.
    #[error("{0}; type `grab`, `grab 9h` (or 9♥) or `decline`")]
    GrabCard(#[source] cards::ParseError),
    /// During the declaration, text that names no declaration.
    #[error("declare `partner`, `hidden` or `open`")]
    NotADeclaration,
    /// During play, ranks that do not read.
    #[error("{0}; type ranks like `3 3 3 4 4`, cards with their suits like `6d 6c` (or 6♦ 6♣), or `pass`")]
    Ranks(#[source] cards::ParseError),
    /// During play, suited cards that do not read (a suit left out of one, say).
    #[error("{0}; type your cards with their suits like `6d 6c` (or 6♦ 6♣), or ranks alone")]
    Suited(#[source] cards::ParseError),
    /// The game is over: nothing can be typed.
    #[error("the game is over")]
    GameOver,
}

/// Reads a typed action in the context of the phase.
pub fn parse_action(view: &View, text: &str) -> Result<Action, ParseActionError> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    match view.phase {
        Phase::Grab => match lower.as_str() {
            "decline" | "no" | "pass" | "不抢" => Ok(Action::Decline),
            "grab" | "抢" => view
                .can_grab
                .first()
                .map(|&c| Action::Grab(c))
                .ok_or(ParseActionError::NothingToGrab),
            _ => {
                let card = lower.strip_prefix("grab").unwrap_or(&lower).trim();
                card.parse::<Card>()
                    .map(Action::Grab)
                    .map_err(ParseActionError::GrabCard)
            }
        },
        Phase::Declare => match lower.as_str() {
            "open" | "open_solo" | "明独打" | "明" => Ok(Action::Declare(Mode::OpenSolo)),
            "hidden" | "hidden_solo" | "暗独打" | "暗" => Ok(Action::Declare(Mode::HiddenSolo)),
            "partner" | "friend" | "叫朋友" | "朋友" => Ok(Action::Declare(Mode::Partner)),
            _ => Err(ParseActionError::NotADeclaration),
        },
        Phase::Play => match lower.as_str() {
            "pass" | "p" | "过" | "不要" => Ok(Action::Pass),
            _ if names_suits(t) => t
                .parse::<SuitedCards>()
                .map(Action::PlaySuited)
                .map_err(ParseActionError::Suited),
            _ => t
                .parse::<RankCounts>()
                .map(Action::Play)
                .map_err(ParseActionError::Ranks),
        },
        Phase::Finished => Err(ParseActionError::GameOver),
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

/// The phase in words, for the table's first line.
fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Grab => "the grab (抢地主)",
        Phase::Declare => "the landlord declares",
        Phase::Play => "play",
        Phase::Finished => "game over",
    }
}

/// A play with its kind in words: `5 5 5 7 7 (a trio with a pair)`, suited where its
/// player named the suits (`5♦ 5♦ 5♣ 7♥ 7♠ (a trio with a pair)`).
fn play_words(cards: RankCounts, suited: Option<SuitedCards>, kind: Kind) -> String {
    let cards = suited.map_or_else(|| cards.to_string(), suited_text);
    text::play_text(&cards, kind.words())
}

/// The table as text from `viewer`'s side. Suited cards are written with suit symbols
/// everywhere; a play by rank alone, whose copies nobody chose in the open, by rank.
pub fn render(v: &View, viewer: Viewer) -> String {
    let mut s = String::new();
    let me = viewer.seat();
    let _ = writeln!(
        s,
        "五人斗地主 Five-player Dou Dizhu — {}   明牌 {} (held by {})   multiplier ×{} (base {})",
        phase_words(v.phase),
        v.face_up.pretty(),
        text::seat_label(v.face_up_holder, viewer),
        v.multiplier,
        v.base
    );
    for seat in 0..SEATS {
        let mut tags = Vec::new();
        if v.landlord == Some(seat) {
            tags.push("landlord");
        }
        if v.partner == Some(seat) && v.landlord != Some(seat) {
            tags.push("partner");
        }
        if v.grabbing.contains(&seat) {
            tags.push("grabbing");
        }
        let shown: Vec<String> = v.shown[seat]
            .iter()
            .map(|sh| text::pretty_cards(&vec![sh.card; usize::from(sh.count)]))
            .collect();
        let mut line = format!(
            "{} {:<15}{:>8}  {:<18}",
            text::turn_mark(
                v.turn == Some(seat) || (v.phase == Phase::Declare && tags.contains(&"landlord"))
            ),
            text::seat_label(seat, viewer),
            text::count(v.hand_sizes.get(seat).copied().unwrap_or(0), "card"),
            tags.join(", ")
        );
        if !shown.is_empty() {
            let _ = write!(line, "grabbed {}", shown.join(" | "));
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    if let Some(d) = v.declaration {
        match (d.open_solo, d.marked) {
            (true, _) => {
                s.push_str("The landlord plays an open solo (明独打): alone against four, ×2.\n")
            }
            (false, Some(c)) if v.revealed => {
                let _ = writeln!(
                    s,
                    "Marked card {} (找{}): played, so the sides are known.",
                    c.pretty(),
                    c.pretty()
                );
            }
            (false, Some(c)) => {
                let _ = writeln!(
                    s,
                    "Marked card {} (找{}): a partner call or a hidden solo; the sides show when it is played.",
                    c.pretty(),
                    c.pretty()
                );
            }
            (false, None) => {}
        }
    }
    if let Some(m) = v.my_mode {
        let _ = writeln!(s, "You declared {}.", mode_words(m));
    } else if me.is_some() && v.partner == me && v.landlord != me && !v.revealed {
        let _ = writeln!(
            s,
            "You hold the other copy of the marked card: you are the landlord's secret partner (副地主)."
        );
    }
    if let Some(k) = &v.kitty {
        let whose = if me.is_some() && me == v.landlord && v.phase != Phase::Finished {
            "the kitty you took (only you see it)"
        } else {
            "the kitty"
        };
        let mut k = k.clone();
        k.sort();
        let _ = writeln!(s, "{whose}: {}", text::pretty_cards(&k));
    }
    match (&v.on_table, v.turn) {
        _ if v.phase == Phase::Finished => {}
        (Some(t), _) => {
            let _ = writeln!(
                s,
                "{}",
                text::to_beat_line(&play_words(t.cards, t.suited, t.kind), t.seat, viewer)
            );
        }
        (None, Some(leader)) => {
            let _ = writeln!(s, "{}", text::lead_line(leader, viewer));
        }
        (None, None) => {}
    }
    if let Some(w) = v.instant_win {
        let _ = writeln!(s, "Instant win (不打自胜): {}.", w.message());
    }
    if let (Some(w), Some(scores)) = (v.winner, &v.scores) {
        if v.instant_win.is_none() {
            let _ = writeln!(s, "{} went out.", text::seat_label(w, viewer));
        }
        for (seat, score) in scores.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {:<15}{}",
                text::seat_label(seat, viewer),
                text::signed(*score)
            );
        }
    }
    if let Some(hand) = v.hand.as_ref().filter(|h| !h.is_empty()) {
        let _ = writeln!(
            s,
            "{} ({})",
            text::hand_line(&text::pretty_cards(hand)),
            text::count(hand.len(), "card")
        );
    }
    if !v.can_grab.is_empty() {
        let _ = writeln!(
            s,
            "You can grab with: {} (`grab` takes the first), or `decline`.",
            text::pretty_cards(&v.can_grab)
        );
    }
    if !v.options.is_empty() {
        let options: Vec<String> = v
            .options
            .iter()
            .map(|(m, c)| {
                let marks = c
                    .map(|c| format!(", marks {}", c.pretty()))
                    .unwrap_or_default();
                format!("`{}` {}{marks}", mode_typed(*m), mode_words(*m))
            })
            .collect();
        let _ = writeln!(s, "Declare one of:");
        for o in options {
            let _ = writeln!(s, "  {o}");
        }
    }
    s
}

/// One line of the table's log for `viewer`: what a seat did, in words. A hidden solo and
/// a partner call read alike until the marked card is played.
pub fn event_text(event: &Event, viewer: Viewer) -> Option<String> {
    let me = viewer.seat();
    Some(match event {
        Event::Grabbed { seat, shown } => {
            let set = text::pretty_cards(&vec![shown.card; usize::from(shown.count)]);
            let what = if shown.count >= 3 {
                "the triple"
            } else {
                "the pair"
            };
            format!(
                "{} {what} {set}",
                text::does(*seat, viewer, "grabs with", "grab with")
            )
        }
        Event::Declined { seat } => text::does(*seat, viewer, "stops grabbing", "stop grabbing"),
        Event::Landlord { seat, grabs } => {
            let how = if *grabs == 0 {
                "Nobody grabbed: ".to_string()
            } else {
                format!(
                    "The grab is over after {}, multiplier ×{grabs}: ",
                    text::count(*grabs as usize, "grab")
                )
            };
            let holder = if *grabs == 0 {
                " as the 明牌's holder"
            } else {
                ""
            };
            let take = if me == Some(*seat) { "take" } else { "takes" };
            format!(
                "{how}{} the landlord (正地主){holder} and {take} the seven kitty cards.",
                text::does(*seat, viewer, "is", "are")
            )
        }
        Event::InstantWin { seat, reason } => format!(
            "{} at once (不打自胜): {}.",
            text::does(*seat, viewer, "wins", "win"),
            reason.message()
        ),
        Event::Declared {
            seat,
            open_solo: true,
            ..
        } => format!(
            "{} an open solo (明独打): alone against four, ×2.",
            text::does(*seat, viewer, "declares", "declare")
        ),
        Event::Declared {
            seat,
            marked: Some(c),
            ..
        } if me == Some(*seat) => format!(
            "you mark {} (找{}); the others cannot tell a partner call from a hidden solo.",
            c.pretty(),
            c.pretty()
        ),
        Event::Declared {
            seat,
            marked: Some(c),
            ..
        } => format!(
            "{} {} (找{}): a partner call or a hidden solo — whoever holds another {} is the \
             secret partner, unless the landlord holds them all.",
            text::does(*seat, viewer, "marks", "mark"),
            c.pretty(),
            c.pretty(),
            c.pretty()
        ),
        Event::Declared { seat, .. } => text::does(*seat, viewer, "declares", "declare"),
        Event::Played {
            seat,
            cards,
            suited,
            kind,
        } => format!(
            "{} {}",
            text::does(*seat, viewer, "plays", "play"),
            play_words(*cards, *suited, *kind)
        ),
        Event::Passed { seat } => text::does(*seat, viewer, "passes", "pass"),
        Event::Revealed {
            partner,
            hidden_solo: true,
        } => format!(
            "The marked card is played: it was a hidden solo (暗独打) — {} alone against four.",
            text::does(*partner, viewer, "plays", "play")
        ),
        Event::Revealed { partner, .. } => format!(
            "The marked card is played: {} the landlord's partner (副地主).",
            text::does(*partner, viewer, "is", "are")
        ),
        Event::Finished {
            winner,
            landlord_won,
            ..
        } => format!(
            "{} out of cards: {}.",
            text::does(*winner, viewer, "is", "are"),
            if *landlord_won {
                "the landlord's side wins"
            } else {
                "the opponents win"
            }
        ),
    })
}
