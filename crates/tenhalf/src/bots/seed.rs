//! The fixed policy of the original rules' rule 7: the other players "hit at 7½, 8 and 8½; stand at
//! 9, 9½ and 10".

use crate::hand::{Halves, Hand};
use crate::{Action, TenHalf};
use game::{Bot, Decision};

/// 9: the original rules' players stand from here up (rule 7).
pub const SEED_STANDS_AT: Halves = 18;

/// Plays rule 7's fixed policy; at 7 or less every player must hit anyway (rule 5).
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedBot;

impl SeedBot {
    /// The policy's choice for a hand.
    pub fn choose(hand: &Hand) -> Action {
        if hand.total() >= SEED_STANDS_AT {
            Action::Stand
        } else {
            Action::Hit
        }
    }
}

impl Bot<TenHalf> for SeedBot {
    fn act(&mut self, decision: &Decision<'_, TenHalf>) -> Action {
        let legal = decision.legal();
        let view = decision.view();
        let hand = Hand::of(&view.my_cards()).unwrap_or_default();
        let choice = SeedBot::choose(&hand);
        if legal.contains(&choice) {
            choice
        } else {
            Action::Hit
        }
    }
}
