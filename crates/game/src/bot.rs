//! Computer players.

use crate::{deal, GameRng, Rules, Seat, Seed, Viewer};
use std::borrow::Cow;

/// What a bot is given when it must act: its seat, the legal actions and (on demand) its
/// seat's view. Never the state: a bot cannot see cards it should not.
///
/// The view is computed only if the bot asks for it, so a random bot in self-play costs
/// nothing beyond the legal-move list.
pub struct Decision<'a, R: Rules> {
    source: Source<'a, R>,
    seat: Seat,
    legal: &'a [R::Action],
}

enum Source<'a, R: Rules> {
    State(&'a R::State),
    View(&'a R::View),
}

impl<'a, R: Rules> Decision<'a, R> {
    /// A decision for `seat` in a running game.
    pub fn from_state(state: &'a R::State, seat: Seat, legal: &'a [R::Action]) -> Self {
        Decision {
            source: Source::State(state),
            seat,
            legal,
        }
    }

    /// A decision from a view alone: the judge's `act` op, or a bot asked by another
    /// framework that knows only what the seat knows.
    pub fn from_view(view: &'a R::View, seat: Seat, legal: &'a [R::Action]) -> Self {
        Decision {
            source: Source::View(view),
            seat,
            legal,
        }
    }

    /// The seat that must act.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The legal actions (never empty when a seat is to act).
    pub fn legal(&self) -> &'a [R::Action] {
        self.legal
    }

    /// Everything this seat may know.
    pub fn view(&self) -> Cow<'a, R::View> {
        match self.source {
            Source::State(s) => Cow::Owned(R::view(s, Viewer::Seat(self.seat))),
            Source::View(v) => Cow::Borrowed(v),
        }
    }
}

/// A computer player. It chooses one of the legal actions from what its seat may know.
pub trait Bot<R: Rules>: Send {
    /// The bot's choice; must be one of `decision.legal()`.
    fn act(&mut self, decision: &Decision<'_, R>) -> R::Action;
}

/// Picks uniformly among the legal actions: the baseline every game has, and the load of
/// speed benchmarks.
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A random bot drawing from `seed`.
    pub fn new(seed: &Seed) -> Self {
        RandomBot { rng: seed.rng() }
    }
}

impl<R: Rules> Bot<R> for RandomBot {
    fn act(&mut self, decision: &Decision<'_, R>) -> R::Action {
        let legal = decision.legal();
        legal[deal::below(&mut self.rng, legal.len())].clone()
    }
}
