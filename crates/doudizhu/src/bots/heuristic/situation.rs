//! What the bot reads off its view before choosing a play: who is who, who is close to going
//! out, and which plays the opponents could still beat.

use crate::movegen::legal_plays;
use crate::{Play, View};
use cards::RankCounts;
use game::Seat;

pub(crate) use crate::rules::next;

/// The table as one seat sees it during the play.
pub(crate) struct Situation {
    /// The seat deciding.
    pub me: Seat,
    /// The landlord's seat.
    pub landlord: Seat,
    /// The deciding seat's hand.
    pub hand: RankCounts,
    /// Cards left in each hand.
    pub sizes: [u32; 3],
    /// Cards the deciding seat has not seen: the other two hands together.
    pub unseen: RankCounts,
}

impl Situation {
    /// The situation of `view`'s seat, if the play phase is on and the view is a player's.
    pub fn of(view: &View) -> Option<Situation> {
        let me = view.seat.filter(|&s| s < 3)?;
        let landlord = view.landlord.filter(|&s| s < 3)?;
        Some(Situation {
            me,
            landlord,
            hand: view.hand?,
            sizes: view.hand_sizes,
            unseen: view.unseen(),
        })
    }

    /// Whether the deciding seat is the landlord.
    pub fn is_landlord(&self) -> bool {
        self.me == self.landlord
    }

    /// The other peasant, for a peasant.
    pub fn partner(&self) -> Option<Seat> {
        (!self.is_landlord()).then(|| 3 - self.me - self.landlord)
    }

    /// Whether `seat` plays against the deciding seat.
    pub fn is_opponent(&self, seat: Seat) -> bool {
        seat != self.me && (self.is_landlord() || seat == self.landlord)
    }

    /// The fewest cards an opponent holds: how close the other side is to going out.
    pub fn opponent_min(&self) -> u32 {
        (0..3)
            .filter(|&s| self.is_opponent(s))
            .map(|s| self.sizes[s])
            .min()
            .unwrap_or(u32::MAX)
    }

    /// The most cards an opponent holds: no opponent can play more at once.
    fn opponent_max(&self) -> u32 {
        (0..3)
            .filter(|&s| self.is_opponent(s))
            .map(|s| self.sizes[s])
            .max()
            .unwrap_or(0)
    }

    /// Whether the unseen cards hold a play an opponent could beat `play` with. Cautious: the
    /// unseen cards of two hands are pooled, so it may see a beater no one holds.
    pub fn beatable(&self, play: Play, buf: &mut Vec<Play>) -> bool {
        buf.clear();
        legal_plays(self.unseen, Some(play), buf);
        let most = self.opponent_max();
        buf.iter().any(|p| p.size() <= most)
    }
}
