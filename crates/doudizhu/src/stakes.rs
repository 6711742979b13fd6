//! The table options that raise the stakes after the kitty, as 欢乐斗地主 plays them (see
//! docs/rules/doudizhu.md, "Table options"):
//!
//! * 加倍 / 超级加倍 ([`Doubling`]): each seat in turn — the two peasants from the
//!   landlord's right, then the landlord — doubles its own stake or not. A peasant's factor
//!   multiplies the stake between that peasant and the landlord; the landlord's multiplies
//!   both stakes ([`crate::settle`]).
//! * 明牌 (`show_cards`): then the landlord may show their hand, ×2 for everyone; from then
//!   on every view holds the landlord's hand.
//!
//! Both are off by default, and a game without them never enters these phases.

use crate::rules::{next, Action, Phase, State};
use crate::Event;
use game::{RuleError, Seat};
use serde::{Deserialize, Serialize};

/// The `doubling` table option: which doublings (加倍) a seat may choose after the kitty.
///
/// JSON: `"off"` (the default), `"double"` (不加倍 or 加倍 ×2), `"super"` (also 超级加倍 ×4;
/// 欢乐斗地主 sells the super doubling as an item, here a table simply allows it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum Doubling {
    /// No doubling phase: the original rules.
    #[default]
    Off,
    /// Each seat may double its stake (加倍, ×2).
    Double,
    /// Each seat may double (×2) or super-double (超级加倍, ×4) its stake.
    Super,
}

/// A `doubling` option that is none of the three: the configuration is refused with the
/// option's name and its values, so whoever set up the table knows what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the doubling option is \"off\", \"double\" or \"super\", not {0:?}")]
pub struct BadDoubling(pub String);

impl TryFrom<String> for Doubling {
    type Error = BadDoubling;

    fn try_from(text: String) -> Result<Doubling, BadDoubling> {
        match text.as_str() {
            "off" => Ok(Doubling::Off),
            "double" => Ok(Doubling::Double),
            "super" => Ok(Doubling::Super),
            _ => Err(BadDoubling(text)),
        }
    }
}

impl Doubling {
    /// Whether the option is off (the default): serialisation leaves it out then.
    pub fn is_off(&self) -> bool {
        *self == Doubling::Off
    }

    /// The factors a seat may choose, 1 (不加倍) first; none when the option is off.
    pub fn factors(self) -> &'static [u8] {
        match self {
            Doubling::Off => &[],
            Doubling::Double => &[1, 2],
            Doubling::Super => &[1, 2, 4],
        }
    }
}

/// Whether no seat has doubled: how [`Event::Finished`] leaves its `doubles` out of the
/// JSON at tables without the option.
pub(crate) fn no_doubles(doubles: &[u8; 3]) -> bool {
    *doubles == [0; 3]
}

impl State {
    /// The landlord has taken the kitty: the doubling phase if the table has it, else the
    /// showing phase if the table has that, else the landlord leads.
    pub(crate) fn after_kitty(&mut self, landlord: Seat) {
        if self.config.doubling.is_off() {
            self.after_doubling(landlord);
        } else {
            self.phase = Phase::Doubling;
            self.turn = next(landlord);
        }
    }

    fn after_doubling(&mut self, landlord: Seat) {
        self.phase = if self.config.show_cards {
            Phase::Showing
        } else {
            Phase::Playing
        };
        self.turn = landlord;
    }

    /// The legal actions of the doubling and showing phases.
    pub(crate) fn stake_choices(&self, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Doubling => out.extend(
                self.config
                    .doubling
                    .factors()
                    .iter()
                    .map(|&f| Action::Double(f)),
            ),
            Phase::Showing => out.extend([Action::Show(false), Action::Show(true)]),
            _ => {}
        }
    }

    /// A seat's doubling. The peasants choose first, the landlord last (knowing theirs).
    pub(crate) fn apply_double(
        &mut self,
        seat: Seat,
        factor: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let factors = self.config.doubling.factors();
        if !factors.contains(&factor) {
            let allowed = if self.config.doubling == Doubling::Super {
                "1 (no double), 2 (加倍) or 4 (超级加倍)"
            } else {
                "1 (no double) or 2 (加倍)"
            };
            return Err(RuleError::Illegal(format!(
                "at this table you double by {allowed}, not {factor}"
            )));
        }
        self.doubles[seat] = factor;
        events.push(Event::Doubled { seat, factor });
        match self.landlord {
            Some(landlord) if landlord == seat => self.after_doubling(landlord),
            _ => self.turn = next(seat),
        }
        Ok(())
    }

    /// The landlord shows their hand (明牌) or keeps it hidden, then leads.
    pub(crate) fn apply_show(&mut self, seat: Seat, show: bool, events: &mut Vec<Event>) {
        self.shown = show;
        events.push(Event::Shown {
            seat,
            hand: show.then_some(self.hands[seat]),
        });
        self.phase = Phase::Playing;
        self.turn = seat;
    }

    /// How many times the bid one seat's score is, before the common multiplier: the
    /// landlord's factor times the factors of the peasants it plays (twice the stake when
    /// nobody doubles), a peasant's its own times the landlord's. 1 for a peasant, 2 for
    /// the landlord, without the option.
    pub(crate) fn stake_units(&self, seat: Seat) -> i64 {
        let Some(landlord) = self.landlord else {
            return 1;
        };
        let factor = |s: Seat| i64::from(self.doubles[s].max(1));
        if seat == landlord {
            factor(landlord) * (factor(next(landlord)) + factor(next(next(landlord))))
        } else {
            factor(landlord) * factor(seat % 3)
        }
    }
}
