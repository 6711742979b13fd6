//! What one seat (or a spectator) may know.
//!
//! Until the marked card is played, nobody but the partner knows who the partner is, and
//! nobody but the landlord knows whether the mark hides a partner call or a hidden solo:
//! the view shows the marked card and nothing more.

use crate::action::{Phase, Turn};
use crate::declare::{declarations, InstantWin, Mode};
use crate::grab::{clickable, Shown};
use crate::play::Kind;
use crate::rules::{State, SEATS};
use crate::suited::SuitedCards;
use cards::{Card, RankCounts};
use game::{Seat, Viewer};
use serde::{Deserialize, Serialize};

/// The play on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnTable {
    /// Who played it.
    pub seat: Seat,
    /// The cards.
    pub cards: RankCounts,
    /// The same cards with their suits, if its player named them (see [`Turn::suited`]).
    #[serde(default)]
    pub suited: Option<SuitedCards>,
    /// As what.
    pub kind: Kind,
}

/// The landlord's declaration as everybody sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// Whether it is the open solo (一打四).
    pub open_solo: bool,
    /// The marked card of a hidden solo or partner call.
    pub marked: Option<Card>,
}

/// One seat's (or a spectator's) knowledge of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// The phase.
    pub phase: Phase,
    /// The viewer's own cards, ascending (`None` for a spectator).
    pub hand: Option<Vec<Card>>,
    /// Every seat's number of cards.
    pub hand_sizes: Vec<usize>,
    /// The face-up card (明牌).
    pub face_up: Card,
    /// Who holds it.
    pub face_up_holder: Seat,
    /// The grab sets each seat has shown.
    pub shown: Vec<Vec<Shown>>,
    /// Seats still deciding in the grab.
    pub grabbing: Vec<Seat>,
    /// The viewer's cards it can still grab with.
    pub can_grab: Vec<Card>,
    /// Grabs so far.
    pub grabs: u32,
    /// The multiplier: grabs (at least 1), doubled for an open solo.
    pub multiplier: u32,
    /// The table's base score.
    pub base: u32,
    /// The grab window, seconds.
    pub grab_seconds: u32,
    /// The declaration time, seconds.
    pub declare_seconds: u32,
    /// The landlord (正地主), once known.
    pub landlord: Option<Seat>,
    /// The seven kitty cards the landlord took: shown to the landlord alone while the game
    /// is played (they would tell the others which cards the landlord holds twice, and so
    /// hint at the marked card), and to everyone once it is over.
    #[serde(default)]
    pub kitty: Option<Vec<Card>>,
    /// The declaration as everyone sees it.
    pub declaration: Option<Declaration>,
    /// The landlord's own choices while declaring, with the card each marks (landlord only).
    pub options: Vec<(Mode, Option<Card>)>,
    /// The landlord's actual mode (landlord only; others see only the declaration).
    pub my_mode: Option<Mode>,
    /// The partner (副地主): public once revealed, and known to the partner.
    pub partner: Option<Seat>,
    /// Whether the marked card has been played.
    pub revealed: bool,
    /// Who must act in play.
    pub turn: Option<Seat>,
    /// The play to beat, if any.
    pub on_table: Option<OnTable>,
    /// Every turn of the play phase, in order.
    pub history: Vec<Turn>,
    /// The instant win, if the game ended that way.
    pub instant_win: Option<InstantWin>,
    /// The player who went out.
    pub winner: Option<Seat>,
    /// Score changes once finished.
    pub scores: Option<Vec<i64>>,
}

impl View {
    /// The view of `viewer` (a seat outside the table sees what a spectator sees).
    pub fn of(state: &State, viewer: Viewer) -> View {
        let me = viewer.seat().filter(|&s| s < SEATS);
        let is_landlord = me.is_some() && me == state.landlord;
        let over = state.phase == Phase::Finished;
        let knows_partner = state.revealed || over || (me.is_some() && me == state.partner);
        View {
            viewer,
            phase: state.phase,
            hand: me.map(|s| state.hands[s].cards()),
            hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
            face_up: state.face_up,
            face_up_holder: state.face_up_holder,
            shown: state.shown.clone(),
            grabbing: state.grabbing.iter().collect(),
            can_grab: match me {
                Some(s) if state.phase == Phase::Grab && state.grabbing.contains(s) => {
                    clickable(&state.hands[s], state.face_up, &state.shown[s])
                }
                _ => Vec::new(),
            },
            grabs: state.grabs,
            multiplier: state.multiplier(),
            base: state.config.base,
            grab_seconds: state.config.grab_seconds,
            declare_seconds: state.config.declare_seconds,
            landlord: state.landlord,
            kitty: (is_landlord || (over && state.landlord.is_some()))
                .then(|| state.taken_kitty.clone()),
            declaration: state.mode.map(|m| Declaration {
                open_solo: m == Mode::OpenSolo,
                marked: state.marked,
            }),
            options: match (is_landlord, state.phase, me) {
                (true, Phase::Declare, Some(s)) => declarations(&state.hands[s]),
                _ => Vec::new(),
            },
            my_mode: if is_landlord { state.mode } else { None },
            partner: match state.mode {
                Some(Mode::HiddenSolo) if state.revealed || over || is_landlord => state.landlord,
                _ if knows_partner => state.partner,
                _ => None,
            },
            revealed: state.revealed,
            turn: (state.phase == Phase::Play).then_some(state.turn),
            on_table: state.last.as_ref().map(|(s, p)| OnTable {
                seat: *s,
                cards: p.cards,
                // The play to beat is the last one made.
                suited: state
                    .history
                    .iter()
                    .rev()
                    .find(|t| t.cards.is_some())
                    .and_then(|t| t.suited),
                kind: p.kind,
            }),
            history: state.history.clone(),
            instant_win: state.instant,
            winner: state.winner,
            scores: if state.phase == Phase::Finished {
                state.outcome_scores()
            } else {
                None
            },
        }
    }

    /// The viewer's hand by rank.
    pub fn ranks(&self) -> RankCounts {
        self.hand
            .as_deref()
            .map_or(RankCounts::EMPTY, RankCounts::from_cards)
    }
}
