//! The rules as a state machine: placing stones, five in a row, renju's forbidden points,
//! undo negotiation (悔棋), resignation and the full-board draw.

use crate::board::{Board, Color, Point, MAX_SIZE};
use crate::notation::format_point;
use crate::renju::{self, Forbidden};
use game::{Outcome, RuleError, Rules, Seat, Seed, ToAct, Viewer};

use crate::opening::{OpeningRule, Swap2Step};

pub use crate::action::{Action, EndReason, Event, GameEnd};
use crate::config::{color_at, seat_at, OPENING_STREAM};
pub use crate::config::{Config, UndoPolicy, MAX_OPENING};
pub use crate::view::View;

/// A game of Gomoku in progress.
#[derive(Clone, Debug)]
pub struct State {
    config: Config,
    board: Board,
    moves: Vec<Point>,
    undo_left: [u8; 2],
    pending_undo: Option<Color>,
    /// Stones placed so far, those taken back included: it names a position, so that a
    /// request repeated after a refusal, before another stone, is told apart.
    placed: usize,
    /// Per colour (black, white), the [`State::placed`] count at which its last request
    /// was refused.
    refused_at: [Option<usize>; 2],
    /// Whether the pending request has been paid for when asked (a repeat after a
    /// refusal), so that granting it costs nothing more.
    pending_paid: bool,
    end: Option<GameEnd>,
    win_line: Vec<Point>,
    /// The seat that plays black now: [`Config::black`] until a swap2 choice says
    /// otherwise.
    black: u8,
    /// The swap2 opening's step, while it lasts.
    swap2: Option<Swap2Step>,
    /// Stones of the swap2 opening (3 or 5 once it is over), which no undo takes back.
    laid: usize,
}

impl State {
    /// A new game under `config` (checked).
    pub fn new(config: &Config) -> Result<State, RuleError> {
        if !(5..=MAX_SIZE as u8).contains(&config.size) {
            return Err(RuleError::BadConfig(format!(
                "the board side must be 5 to {MAX_SIZE}, not {}",
                config.size
            )));
        }
        if config.black > 1 {
            return Err(RuleError::BadConfig(format!(
                "black is seat 0 or 1, not {}",
                config.black
            )));
        }
        if config.opening_rule == OpeningRule::Swap2 && config.opening > 0 {
            return Err(RuleError::BadConfig(
                "swap2 lays its own opening: a random opening does not go with it".into(),
            ));
        }
        Ok(State {
            black: config.black,
            swap2: (config.opening_rule == OpeningRule::Swap2).then_some(Swap2Step::LayThree),
            laid: 0,
            config: config.clone(),
            board: Board::new(config.size),
            moves: Vec::new(),
            undo_left: [config.undo_limit; 2],
            pending_undo: None,
            placed: 0,
            refused_at: [None; 2],
            pending_paid: false,
            end: None,
            win_line: Vec::new(),
        })
    }

    /// The table options.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The stones on the board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The stones played, in order (black first).
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The colour to place the next stone.
    pub fn to_move(&self) -> Color {
        Color::of_ply(self.moves.len())
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// The colour `seat` plays now (under swap2, tentatively until the opening's choice),
    /// `None` for a seat that is not at the board.
    pub fn color_of(&self, seat: Seat) -> Option<Color> {
        color_at(self.black, seat)
    }

    /// The seat that plays `color` now.
    pub fn seat_of(&self, color: Color) -> Seat {
        seat_at(self.black, color)
    }

    /// The swap2 opening's step, while it lasts (`None` in a free opening, and once the
    /// colours are chosen).
    pub fn swap2(&self) -> Option<Swap2Step> {
        self.swap2
    }

    /// The seat to act in the swap2 opening's `step`: the first player lays the three
    /// stones and makes the last choice, the second player the rest. While the opening
    /// lasts the first player is black (tentatively).
    fn swap2_seat(&self, step: Swap2Step) -> Seat {
        if step.is_first_players() {
            self.seat_of(Color::Black)
        } else {
            self.seat_of(Color::White)
        }
    }

    /// Whether the colour to move may place a stone on `p`, and if not, why.
    ///
    /// The reasons name the point as the board prints it (`h8`).
    pub fn check_place(&self, p: Point) -> Result<(), RuleError> {
        let size = self.config.size;
        let at = format_point(p, size);
        if !self.board.contains(p) {
            return Err(RuleError::Illegal(format!(
                "{at} is off the {size}×{size} board"
            )));
        }
        if !self.board.is_empty_at(p) {
            return Err(RuleError::Illegal(format!("{at} is already taken")));
        }
        if self.config.rule.has_forbidden(self.to_move()) {
            if let Some(f) = renju::forbidden(&self.board, p) {
                return Err(RuleError::Illegal(format!("{at} is {}", f.message())));
            }
        }
        Ok(())
    }

    /// Plays the next stone of the game (the colour to move), as a record replays it: the
    /// game must be running with no undo request pending.
    pub fn play(&mut self, p: Point) -> Result<Vec<Event>, RuleError> {
        if self.end.is_some() {
            return Err(RuleError::GameOver);
        }
        if self.pending_undo.is_some() {
            return Err(RuleError::WrongPhase(
                "an undo request awaits its answer".into(),
            ));
        }
        let mut events = Vec::new();
        if let Some(step) = self.swap2 {
            self.swap2_act(step, Action::Place(p), &mut events)?;
            return Ok(events);
        }
        self.check_place(p)?;
        self.place(p, &mut events);
        Ok(events)
    }

    /// An action in the swap2 opening by the seat to act at `step`: a stone (at a choice,
    /// playing White with it), taking Black, or placing two more.
    fn swap2_act(
        &mut self,
        step: Swap2Step,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.swap2_seat(step);
        match action {
            Action::Place(p) => {
                self.check_place(p)?;
                if step.is_choice() {
                    self.settle(seat, Color::White, events);
                }
                self.place(p, events);
            }
            Action::TakeBlack if step.is_choice() => self.settle(seat, Color::Black, events),
            Action::PlaceTwo if step == Swap2Step::Choose => {
                self.swap2 = Some(Swap2Step::LayTwo);
            }
            Action::TakeBlack | Action::PlaceTwo => {
                return Err(RuleError::WrongPhase(if step.is_choice() {
                    "placing two more stones is the second player's first choice only".into()
                } else {
                    "lay the opening's stones first; the choice of colour comes after".into()
                }))
            }
            Action::RequestUndo => {
                return Err(RuleError::Illegal(
                    "the swap2 opening's stones are not taken back".into(),
                ))
            }
            Action::AnswerUndo(_) => {
                return Err(RuleError::WrongPhase(
                    "there is no undo request to answer".into(),
                ))
            }
            Action::Resign => self.resign(self.color_of(seat).unwrap_or(Color::Black), events),
        }
        Ok(())
    }

    /// Swap2: `seat` takes `color`, the other seat the other colour; the opening is over.
    fn settle(&mut self, seat: Seat, color: Color, events: &mut Vec<Event>) {
        let seat = seat.min(1) as u8;
        self.black = if color == Color::Black {
            seat
        } else {
            1 - seat
        };
        self.laid = self.moves.len();
        self.swap2 = None;
        events.push(Event::Chose { seat, color });
    }

    /// `color` gives up the game.
    fn resign(&mut self, color: Color, events: &mut Vec<Event>) {
        events.push(Event::Resigned { color });
        self.end = Some(GameEnd {
            winner: Some(color.other()),
            reason: EndReason::Resignation,
        });
    }

    /// Puts every point the colour to move may take into `out`, as placements.
    fn placements_into(&self, out: &mut Vec<Action>) {
        let forbid = self.config.rule.has_forbidden(self.to_move());
        for p in self.board.points() {
            if self.board.is_empty_at(p) && !(forbid && renju::forbidden(&self.board, p).is_some())
            {
                out.push(Action::Place(p));
            }
        }
    }

    /// Black's forbidden points now (empty unless renju with black to move).
    pub fn forbidden_now(&self) -> Vec<(Point, Forbidden)> {
        if self.end.is_none() && self.config.rule.has_forbidden(self.to_move()) {
            renju::forbidden_points(&self.board)
        } else {
            Vec::new()
        }
    }

    /// Whether `color` has a stone of its own after the opening, which an undo could take
    /// back.
    fn has_own_move(&self, color: Color) -> bool {
        let n = self.moves.len();
        let last = if n > 0 && Color::of_ply(n - 1) == color {
            n - 1
        } else if n > 1 {
            n - 2
        } else {
            return false;
        };
        last >= usize::from(self.config.opening).max(self.laid)
    }

    /// Whether `color`'s last request was refused with the board as it is now: asking
    /// again before another stone costs one undo at once.
    fn refused_here(&self, color: Color) -> bool {
        self.refused_at[color.index()] == Some(self.placed)
    }

    fn may_request_undo(&self, color: Color) -> bool {
        self.end.is_none()
            && self.swap2.is_none()
            && self.pending_undo.is_none()
            && self.has_own_move(color)
            && (self.config.undo == UndoPolicy::Granted || self.undo_left[color.index()] > 0)
    }

    /// Lifts stones until `color`'s last stone is gone, so `color` is to move again.
    fn take_back(&mut self, color: Color, events: &mut Vec<Event>) {
        let mut points = Vec::new();
        while let Some(p) = self.moves.pop() {
            self.board.set(p, None);
            points.push(p);
            if Color::of_ply(self.moves.len()) == color {
                break;
            }
        }
        events.push(Event::TakenBack { points });
    }

    /// Lays [`Config::opening`] stones drawn from `seed` on empty points within three of
    /// the centre, each one a legal placement for its colour.
    fn lay_opening(&mut self, seed: &Seed) -> Result<(), RuleError> {
        let stones = self.config.opening;
        if stones == 0 {
            return Ok(());
        }
        if stones > MAX_OPENING || self.config.size < 9 {
            return Err(RuleError::BadConfig(format!(
                "an opening is 0 to {MAX_OPENING} stones on a board of side 9 or more, not {stones} on {}",
                self.config.size
            )));
        }
        let centre = self.config.size / 2;
        let area: Vec<Point> = (centre - 3..=centre + 3)
            .flat_map(|x| (centre - 3..=centre + 3).map(move |y| Point::new(x, y)))
            .collect();
        let mut rng = seed.derive(OPENING_STREAM).rng();
        let mut events = Vec::new();
        while self.moves.len() < usize::from(stones) {
            let free: Vec<Point> = area
                .iter()
                .copied()
                .filter(|&p| self.check_place(p).is_ok())
                .collect();
            if free.is_empty() {
                return Err(RuleError::BadConfig("no room for the opening".into()));
            }
            let p = free[game::deal::below(&mut rng, free.len())];
            self.place(p, &mut events);
        }
        Ok(())
    }

    /// Plays a stone that [`State::check_place`] accepted.
    fn place(&mut self, p: Point, events: &mut Vec<Event>) {
        let color = self.to_move();
        self.board.set(p, Some(color));
        self.moves.push(p);
        self.placed += 1;
        events.push(Event::Placed { color, point: p });
        if let Some(step) = self.swap2 {
            self.swap2 = step.after_stone(self.moves.len());
        }
        if let Some(line) = self.board.five_through(p, color, self.config.rule) {
            events.push(Event::Won {
                color,
                line: line.clone(),
            });
            self.win_line = line;
            self.end = Some(GameEnd {
                winner: Some(color),
                reason: EndReason::Five,
            });
        } else if self.moves.len() == usize::from(self.config.size).pow(2) {
            events.push(Event::Draw);
            self.end = Some(GameEnd {
                winner: None,
                reason: EndReason::FullBoard,
            });
        }
    }
}

/// The game of Gomoku, for the registry.
pub struct Gomoku;

impl Rules for Gomoku {
    const ID: &'static str = "gomoku";
    const NAME: &'static str = "五子棋 Gomoku";
    type Config = Config;
    type State = State;
    type Action = Action;
    type PublicAction = Action;
    type View = View;
    type Event = Event;

    fn public_action(action: &Action) -> Action {
        // Stones, undo requests and answers, and resignations are all public.
        *action
    }

    fn seats(_: &Config) -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn start(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        if seats != 2 {
            return Err(RuleError::BadConfig(format!(
                "gomoku is played by two, not {seats}"
            )));
        }
        let mut state = State::new(config)?;
        state.lay_opening(seed)?;
        Ok(state)
    }

    fn to_act(state: &State) -> ToAct {
        if state.end.is_some() {
            ToAct::Finished
        } else if let Some(asker) = state.pending_undo {
            ToAct::Seat(state.seat_of(asker.other()))
        } else if let Some(step) = state.swap2 {
            ToAct::Seat(state.swap2_seat(step))
        } else {
            ToAct::Seat(state.seat_of(state.to_move()))
        }
    }

    /// The seat to move may place a stone, ask to undo or resign; the other seat may ask to
    /// undo its own last move or resign even while waiting; while a request is pending only
    /// the answer is legal. In the swap2 opening the seat to act lays a stone of the colour
    /// to move, or at a choice also takes Black (or places two more), and no undo is asked.
    fn legal_into(state: &State, seat: Seat, out: &mut Vec<Action>) {
        let Some(color) = state.color_of(seat) else {
            return;
        };
        if state.end.is_some() {
            return;
        }
        if let Some(asker) = state.pending_undo {
            if asker.other() == color {
                out.push(Action::AnswerUndo(true));
                out.push(Action::AnswerUndo(false));
            }
            return;
        }
        if let Some(step) = state.swap2 {
            if seat == state.swap2_seat(step) {
                state.placements_into(out);
                if step.is_choice() {
                    out.push(Action::TakeBlack);
                }
                if step == Swap2Step::Choose {
                    out.push(Action::PlaceTwo);
                }
            }
            out.push(Action::Resign);
            return;
        }
        if color == state.to_move() {
            state.placements_into(out);
        }
        if state.may_request_undo(color) {
            out.push(Action::RequestUndo);
        }
        out.push(Action::Resign);
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let color = state.color_of(seat).ok_or(RuleError::NotYourTurn(seat))?;
        if state.end.is_some() {
            return Err(RuleError::GameOver);
        }
        if let Some(asker) = state.pending_undo {
            return match action {
                Action::AnswerUndo(accept) if asker.other() == color => {
                    state.pending_undo = None;
                    let paid = std::mem::take(&mut state.pending_paid);
                    if accept {
                        if !paid {
                            state.undo_left[asker.index()] =
                                state.undo_left[asker.index()].saturating_sub(1);
                        }
                        state.refused_at[asker.index()] = None;
                        state.take_back(asker, events);
                    } else {
                        state.refused_at[asker.index()] = Some(state.placed);
                        events.push(Event::UndoRefused { color: asker });
                    }
                    Ok(())
                }
                Action::AnswerUndo(_) => Err(RuleError::NotYourTurn(seat)),
                _ => Err(RuleError::WrongPhase(format!(
                    "{} asked to undo; wait for the answer",
                    asker.name()
                ))),
            };
        }
        if let Some(step) = state.swap2 {
            // Either player may resign, and neither may undo, whoever is to act.
            if seat != state.swap2_seat(step)
                && !matches!(action, Action::Resign | Action::RequestUndo)
            {
                return Err(RuleError::NotYourTurn(seat));
            }
            if action == Action::Resign {
                state.resign(color, events);
                return Ok(());
            }
            return state.swap2_act(step, action, events);
        }
        match action {
            Action::Place(p) => {
                if color != state.to_move() {
                    return Err(RuleError::NotYourTurn(seat));
                }
                state.check_place(p)?;
                state.place(p, events);
            }
            Action::RequestUndo => {
                if !state.has_own_move(color) {
                    return Err(RuleError::Illegal("you have no move to take back".into()));
                }
                if !state.may_request_undo(color) {
                    return Err(RuleError::Illegal(format!(
                        "no undo left (limit {} granted per game)",
                        state.config.undo_limit
                    )));
                }
                match state.config.undo {
                    UndoPolicy::Granted => state.take_back(color, events),
                    UndoPolicy::Ask => {
                        // The same request again, before another stone: it costs one now.
                        let repeat = state.refused_here(color);
                        if repeat {
                            state.undo_left[color.index()] =
                                state.undo_left[color.index()].saturating_sub(1);
                        }
                        state.pending_paid = repeat;
                        state.pending_undo = Some(color);
                        events.push(Event::UndoRequested { color });
                    }
                }
            }
            Action::AnswerUndo(_) => {
                return Err(RuleError::WrongPhase(
                    "there is no undo request to answer".into(),
                ))
            }
            Action::Resign => state.resign(color, events),
            Action::TakeBlack | Action::PlaceTwo => {
                return Err(RuleError::WrongPhase(
                    "choosing colours is for the swap2 opening".into(),
                ))
            }
        }
        Ok(())
    }

    /// Running out of time refuses a pending undo request and otherwise loses the game.
    fn default_action(state: &State, _seat: Seat) -> Action {
        if state.pending_undo.is_some() {
            Action::AnswerUndo(false)
        } else {
            Action::Resign
        }
    }

    fn view(state: &State, _viewer: Viewer) -> View {
        View {
            size: state.config.size,
            rule: state.config.rule,
            undo: state.config.undo,
            moves: state.moves.clone(),
            to_move: state.end.is_none().then(|| state.to_move()),
            pending_undo: state.pending_undo,
            undo_left: state.undo_left,
            undo_refused: [Color::Black, Color::White].map(|c| state.refused_here(c)),
            black: state.black,
            swap2: state.swap2,
            end: state.end,
            win_line: state.win_line.clone(),
            forbidden: state.forbidden_now().into_iter().map(|(p, _)| p).collect(),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let end = state.end?;
        let colors = [0, 1].map(|seat| state.color_of(seat).unwrap_or(Color::of_ply(seat)));
        let won: Vec<bool> = colors.iter().map(|&c| end.winner == Some(c)).collect();
        let scores = won
            .iter()
            .map(|&w| match (end.winner, w) {
                (None, _) => 0,
                (Some(_), true) => 1,
                (Some(_), false) => -1,
            })
            .collect();
        Some(Outcome {
            scores,
            won,
            roles: colors.iter().map(|c| c.name().into()).collect(),
        })
    }
}
