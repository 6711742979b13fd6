//! The `heuristic` bot: splits its hand into few strong groups and plays by that plan.
//!
//! * [`decompose`] — the plan: bombs and the rocket whole, chains searched, trios with
//!   kickers, and a score for how fast and how safely the hand plays out;
//! * [`leading`] — the cheapest group first, a sure finish when there is one, feeding a
//!   partner about to go out, never the kind an opponent could go out on;
//! * [`following`] — the beating play that costs the plan least, the partner's play left
//!   alone, opponents about to go out stopped at any cost;
//! * [`bidding`] — a bid by hand strength;
//! * [`stakes`] — doubling (加倍) and showing (明牌) by its estimate of winning.
//!
//! It decides from its view alone and is deterministic: the same view and legal actions
//! give the same answer.

pub(crate) mod bidding;
pub(crate) mod decompose;
mod following;
mod leading;
pub(crate) mod situation;
pub(crate) mod stakes;

use crate::{Action, DouDizhu, Phase, Play, View};
use decompose::Decomposer;
use game::{Bot, Decision, Seed};
use situation::Situation;

/// The heuristic Dou Dizhu player (see the module docs). Holds only scratch space, reused
/// from decision to decision so the hot path does not allocate.
pub struct HeuristicBot {
    dec: Decomposer,
    plays: Vec<Play>,
    buf: Vec<Play>,
}

impl HeuristicBot {
    /// A new bot. It plays deterministically, so the seed (taken like every bot's) is unused.
    pub fn new(_seed: &Seed) -> Self {
        HeuristicBot {
            dec: Decomposer::default(),
            plays: Vec::with_capacity(64),
            buf: Vec::with_capacity(64),
        }
    }

    fn bid(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let want = bidding::wanted_bid(view.hand?, &mut self.dec);
        Some(if legal.contains(&Action::Bid(want)) {
            Action::Bid(want)
        } else {
            Action::Bid(0)
        })
    }

    fn play(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let sit = Situation::of(view)?;
        let before = self.dec.plan(sit.hand);
        match view.last {
            None => {
                let cards = leading::lead(&sit, &before, &mut self.buf)?;
                let play = Action::Play(Play::classify(cards)?);
                legal.contains(&play).then_some(play)
            }
            Some((by, last)) => {
                self.plays.clear();
                // Plays are rated by the hand they leave, so only plays from the hand count
                // (a hand-built decision might list others).
                self.plays.extend(legal.iter().filter_map(|a| match a {
                    Action::Play(p) if sit.hand.contains(p.cards()) => Some(*p),
                    _ => None,
                }));
                let plays = std::mem::take(&mut self.plays);
                let choice = following::follow(
                    &sit,
                    by,
                    last,
                    &plays,
                    &before,
                    &mut self.dec,
                    &mut self.buf,
                );
                self.plays = plays;
                Some(choice.map_or(Action::Pass, Action::Play))
            }
        }
    }
}

impl Bot<DouDizhu> for HeuristicBot {
    fn act(&mut self, decision: &Decision<'_, DouDizhu>) -> Action {
        let legal = decision.legal();
        let view = decision.view();
        let choice = match view.phase {
            Phase::Bidding => self.bid(&view, legal),
            Phase::Doubling => stakes::double(&view, legal, &mut self.dec),
            Phase::Showing => stakes::show(&view, &mut self.dec),
            Phase::Playing => self.play(&view, legal),
            Phase::Finished => None,
        };
        // The plan's choice is checked against the legal list; should it ever miss, the
        // first legal action (a pass when following) keeps the game going.
        choice
            .filter(|a| legal.contains(a))
            .or_else(|| legal.first().copied())
            .unwrap_or(Action::Pass)
    }
}
