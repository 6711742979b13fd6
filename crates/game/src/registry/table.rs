//! One game in progress behind JSON: [`Table`], the unit a server's table task or a terminal
//! session owns.

use super::{to_json, GameError, JsonBot};
use crate::record::RecordedAction;
use crate::{
    Bot, Clock, Decision, GameSpec, Outcome, Record, RuleError, Seat, Seed, ToAct, Viewer,
};
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// An action the table accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Who acted.
    pub seat: Seat,
    /// The action as chosen, in its private form: for the actor's eyes only.
    pub action: Value,
    /// Its public form: what every other seat and every spectator may learn.
    pub public: Value,
    /// What happened, as public events.
    pub events: Vec<Value>,
}

/// A bot's decision packed to run away from the table — on a worker thread, so that a
/// long search never holds up the table's messages. It holds the bot, the seat's view and
/// the legal actions, never the state. Its answer goes back through [`Table::apply`], which
/// checks it like any other action (the table may have moved on meanwhile).
pub struct BotTask {
    seat: Seat,
    run: Box<dyn FnOnce() -> Result<Value, GameError> + Send>,
}

impl BotTask {
    /// A task from any closure: a decision the registry's bots do not make (a host's own
    /// engine, a test's stand-in) runs in a server's bot pool like theirs, and its answer
    /// is checked by [`Table::apply`] like theirs.
    pub fn new(
        seat: Seat,
        run: impl FnOnce() -> Result<Value, GameError> + Send + 'static,
    ) -> BotTask {
        BotTask {
            seat,
            run: Box::new(run),
        }
    }

    /// The seat the bot plays.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Lets the bot think; returns its action in JSON.
    pub fn run(self) -> Result<Value, GameError> {
        (self.run)()
    }
}

impl std::fmt::Debug for BotTask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BotTask(seat {})", self.seat)
    }
}

/// One game in progress behind JSON.
///
/// Every accepted action is appended to the record before `apply` returns, so the record is
/// always the exact history of the state. [`Table::record`] is what anyone may see: the
/// public forms of actions while the game runs, everything once it is over.
/// [`Table::journal`] adds the sealed private forms, for the owner's storage only.
pub trait Table: Send + Sync {
    /// The game's id.
    fn game(&self) -> &'static str;
    /// This game's id.
    fn id(&self) -> &str;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// The commitment published before the deal.
    fn commitment(&self) -> &str;
    /// The configuration, in the game's JSON form.
    fn config(&self) -> &Value;
    /// Who must act.
    fn to_act(&self) -> ToAct;
    /// How many actions have been applied: the length of the record's history.
    fn actions(&self) -> usize;
    /// The turn timer for the seat(s) to act now (see [`GameSpec::clock`]).
    fn clock(&self) -> Clock;
    /// The legal actions of `seat`, as JSON, in the order a hint offers them
    /// ([`GameSpec::hints`], best first) and then the rest as the rules list them: a client
    /// that cycles through them from the first (the browser's Hint button) makes the same
    /// suggestions as the terminal's `hint`.
    fn legal(&self, seat: Seat) -> Result<Vec<Value>, GameError>;
    /// Applies a JSON action.
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Applied, GameError>;
    /// Applies an action typed as text (`3 3 4`, `pass`, `h8`).
    fn apply_text(&mut self, seat: Seat, text: &str) -> Result<Applied, GameError>;
    /// Applies the seat's timeout action.
    fn apply_default(&mut self, seat: Seat) -> Result<Applied, GameError>;
    /// Lets one of the game's bots play `seat` from now on (an empty seat, or a player
    /// who dropped).
    fn set_bot(&mut self, seat: Seat, name: &str, seed: &Seed) -> Result<(), GameError>;
    /// Lets a [`JsonBot`] play `seat` from now on.
    fn set_json_bot(&mut self, seat: Seat, bot: Box<dyn JsonBot>) -> Result<(), GameError>;
    /// Gives the seat back to a person.
    fn clear_bot(&mut self, seat: Seat);
    /// Whether a bot plays `seat`.
    fn has_bot(&self, seat: Seat) -> bool;
    /// The seat's bot decision, to run anywhere (see [`BotTask`]).
    fn bot_task(&self, seat: Seat) -> Result<BotTask, GameError>;
    /// Lets the seat's bot choose here and now, and applies its choice.
    fn bot_move(&mut self, seat: Seat) -> Result<Applied, GameError>;
    /// What `viewer` may see, as JSON.
    fn view(&self, viewer: Viewer) -> Result<Value, GameError>;
    /// What `viewer` may see, as text for a terminal.
    fn render(&self, viewer: Viewer) -> String;
    /// The suggestions a `hint` command cycles through for `seat`, as typed text.
    fn hints(&self, seat: Seat) -> Vec<String>;
    /// The result once finished.
    fn outcome(&self) -> Option<Outcome>;
    /// Once finished, the configuration of the match's next game at this table (see
    /// [`GameSpec::next_game`]); `None` while the game runs.
    fn next_game(&self) -> Option<Result<Value, GameError>>;
    /// The record as anyone may see it: public forms and no seed while the game runs;
    /// the seed, the sealed private forms and the outcome once it is over.
    fn record(&self) -> Record;
    /// The record with the sealed private forms but without the seed: what the table's
    /// owner stores so that [`ErasedGame::resume`](super::ErasedGame::resume) can rebuild
    /// it. Never shown to players while the game runs.
    fn journal(&self) -> Record;
}

/// Who plays a seat for the table: one of the game's own bots, or a JSON bot.
enum SeatBot<R: GameSpec> {
    Native(Box<dyn Bot<R>>),
    Json(Box<dyn JsonBot>),
}

/// A seat's bot, shared with the [`BotTask`] thinking for it.
type SharedBot<R> = Arc<Mutex<SeatBot<R>>>;

/// The [`Table`] of a [`GameSpec`].
pub(super) struct TypedTable<R: GameSpec> {
    state: R::State,
    seed: Seed,
    record: Record,
    bots: Vec<Option<SharedBot<R>>>,
}

impl<R: GameSpec> TypedTable<R> {
    /// A table at `state`, whose history so far is `record`.
    pub(super) fn new(state: R::State, seed: Seed, record: Record) -> Self {
        TypedTable {
            bots: (0..record.seats).map(|_| None).collect(),
            state,
            seed,
            record,
        }
    }

    fn apply_typed(&mut self, seat: Seat, action: R::Action) -> Result<Applied, GameError> {
        // Encode first: a failure must leave the state and the record as they were.
        let private = to_json(&action)?;
        let public = to_json(&R::public_action(&action))?;
        let mut events = Vec::new();
        R::apply(&mut self.state, seat, action, &mut events)?;
        self.record.actions.push(RecordedAction {
            seat,
            action: public.clone(),
            sealed: (public != private).then(|| private.clone()),
        });
        if let Some(outcome) = R::outcome(&self.state) {
            self.tell_json_bots(&outcome);
        }
        Ok(Applied {
            seat,
            action: private,
            public,
            events: events.iter().map(to_json).collect::<Result<_, _>>()?,
        })
    }

    /// Tells each JSON bot at the table how the game ended ([`JsonBot::over`]), with its
    /// seat's last view. A bot still busy thinking (it cannot be, once the game is over,
    /// unless its task outlived the game) is skipped rather than waited for.
    fn tell_json_bots(&self, outcome: &Outcome) {
        for (seat, bot) in self.bots.iter().enumerate() {
            let Some(Ok(mut bot)) = bot.as_ref().map(|b| b.try_lock()) else {
                continue;
            };
            if let SeatBot::Json(bot) = &mut *bot {
                if let Ok(view) = to_json(&R::view(&self.state, Viewer::Seat(seat))) {
                    bot.over(seat, &view, outcome);
                }
            }
        }
    }

    fn seat_bot(&mut self, seat: Seat, bot: SeatBot<R>) -> Result<(), GameError> {
        let slot = self
            .bots
            .get_mut(seat)
            .ok_or_else(|| GameError::BadConfig(format!("there is no seat {seat}")))?;
        *slot = Some(Arc::new(Mutex::new(bot)));
        Ok(())
    }
}

/// Asks a seat's bot for its action, from the seat's view and legal actions only.
fn decide<R: GameSpec>(
    bot: &SharedBot<R>,
    seat: Seat,
    view: &R::View,
    legal: &[R::Action],
) -> Result<Value, GameError> {
    let failed = |message: String| GameError::BotFailed { seat, message };
    let mut bot = bot
        .lock()
        .map_err(|_| failed("the bot failed on an earlier move".into()))?;
    match &mut *bot {
        SeatBot::Native(bot) => to_json(&bot.act(&Decision::from_view(view, seat, legal))),
        SeatBot::Json(bot) => {
            let legal_json = legal.iter().map(to_json).collect::<Result<Vec<_>, _>>()?;
            let answer = bot
                .act(seat, &to_json(view)?, &legal_json)
                .map_err(failed)?;
            let action: R::Action = serde_json::from_value(answer.clone())
                .map_err(|e| failed(format!("answered {answer}: {e}")))?;
            if !legal.contains(&R::listed(&action)) {
                return Err(failed(format!(
                    "answered {answer}, which is not legal here"
                )));
            }
            Ok(answer)
        }
    }
}

impl<R: GameSpec> Table for TypedTable<R> {
    fn game(&self) -> &'static str {
        R::ID
    }

    fn id(&self) -> &str {
        &self.record.id
    }

    fn seats(&self) -> usize {
        self.record.seats
    }

    fn commitment(&self) -> &str {
        &self.record.commitment
    }

    fn config(&self) -> &Value {
        &self.record.config
    }

    fn to_act(&self) -> ToAct {
        R::to_act(&self.state)
    }

    fn actions(&self) -> usize {
        self.record.actions.len()
    }

    fn clock(&self) -> Clock {
        R::clock(&self.state)
    }

    fn legal(&self, seat: Seat) -> Result<Vec<Value>, GameError> {
        let mut legal = R::legal(&self.state, seat);
        if legal.len() > 1 {
            let view = R::view(&self.state, Viewer::Seat(seat));
            let mut ordered = R::hints(&view, &legal);
            ordered.retain(|a| legal.contains(a));
            ordered.dedup();
            legal.retain(|a| !ordered.contains(a));
            ordered.append(&mut legal);
            legal = ordered;
        }
        legal.iter().map(to_json).collect()
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Applied, GameError> {
        let action: R::Action = serde_json::from_value(action.clone())
            .map_err(|e| GameError::BadAction(e.to_string()))?;
        self.apply_typed(seat, action)
    }

    fn apply_text(&mut self, seat: Seat, text: &str) -> Result<Applied, GameError> {
        if seat >= self.record.seats {
            return Err(RuleError::NotYourTurn(seat).into());
        }
        let view = R::view(&self.state, Viewer::Seat(seat));
        let action =
            R::parse_action(&view, text).map_err(|e| GameError::BadAction(e.to_string()))?;
        self.apply_typed(seat, action)
    }

    fn apply_default(&mut self, seat: Seat) -> Result<Applied, GameError> {
        if !R::to_act(&self.state).includes(seat) {
            return Err(RuleError::NotYourTurn(seat).into());
        }
        let action = R::default_action(&self.state, seat);
        self.apply_typed(seat, action)
    }

    fn set_bot(&mut self, seat: Seat, name: &str, seed: &Seed) -> Result<(), GameError> {
        let bot = R::bot(name, seed).ok_or_else(|| GameError::UnknownBot {
            game: R::ID.into(),
            bot: name.into(),
            known: R::bot_names().join(", "),
        })?;
        self.seat_bot(seat, SeatBot::Native(bot))
    }

    fn set_json_bot(&mut self, seat: Seat, bot: Box<dyn JsonBot>) -> Result<(), GameError> {
        self.seat_bot(seat, SeatBot::Json(bot))
    }

    fn clear_bot(&mut self, seat: Seat) {
        if let Some(slot) = self.bots.get_mut(seat) {
            *slot = None;
        }
    }

    fn has_bot(&self, seat: Seat) -> bool {
        self.bots.get(seat).is_some_and(Option::is_some)
    }

    fn bot_task(&self, seat: Seat) -> Result<BotTask, GameError> {
        if !R::to_act(&self.state).includes(seat) {
            return Err(RuleError::NotYourTurn(seat).into());
        }
        let bot = self
            .bots
            .get(seat)
            .and_then(Option::as_ref)
            .ok_or(GameError::NoBot(seat))?
            .clone();
        let legal = R::legal(&self.state, seat);
        let view = R::view(&self.state, Viewer::Seat(seat));
        Ok(BotTask::new(seat, move || {
            decide::<R>(&bot, seat, &view, &legal)
        }))
    }

    fn bot_move(&mut self, seat: Seat) -> Result<Applied, GameError> {
        let action = self.bot_task(seat)?.run()?;
        self.apply(seat, &action)
    }

    fn view(&self, viewer: Viewer) -> Result<Value, GameError> {
        to_json(&R::view(&self.state, viewer))
    }

    fn render(&self, viewer: Viewer) -> String {
        R::render(&R::view(&self.state, viewer), viewer)
    }

    fn hints(&self, seat: Seat) -> Vec<String> {
        let legal = R::legal(&self.state, seat);
        let view = R::view(&self.state, Viewer::Seat(seat));
        R::hints(&view, &legal)
            .iter()
            .map(|a| R::action_text_at(&view, a))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        R::outcome(&self.state)
    }

    fn next_game(&self) -> Option<Result<Value, GameError>> {
        R::outcome(&self.state)?;
        let config = super::erased::parse_config::<R>(&self.record.config);
        Some(config.and_then(|c| to_json(&R::next_game(&c, self.record.seats, &self.state))))
    }

    fn record(&self) -> Record {
        match R::outcome(&self.state) {
            Some(outcome) => {
                let mut record = self.record.clone();
                record.seed = Some(self.seed);
                record.outcome = Some(outcome);
                record
            }
            None => self.record.public(),
        }
    }

    fn journal(&self) -> Record {
        self.record.clone()
    }
}
