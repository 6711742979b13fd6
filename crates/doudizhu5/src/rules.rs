//! The state machine: deal, grab, kitty and instant wins, declaration, play, score.

use crate::action::{Action, Event, Phase, PublicAction, Turn};
use crate::config::{check_deal, Config, CustomDeal};
use crate::declare::{declarations, default_mode, instant_win, marked_card, InstantWin, Mode};
use crate::grab::{clickable, multiplier, Shown};
use crate::hand::Hand;
use crate::movegen::for_each_play;
use crate::play::{KindSet, Play};
use crate::scoring::{score, ScoreMode};
use crate::suited::SuitedCards;
use crate::view::View;
use cards::{Card, Deck, RankCounts};
use game::{deal, Outcome, RuleError, Rules, Seat, SeatSet, Seed, ToAct, Viewer};

/// Players at the table.
pub const SEATS: usize = 5;
/// Cards dealt to each player.
pub const HAND: usize = 31;
/// Cards in the kitty (底牌).
pub const KITTY: usize = 7;
/// Three decks with their jokers: 162 cards.
pub const DECK: Deck = Deck {
    decks: 3,
    jokers: true,
};

/// A game in progress, every hidden card included.
#[derive(Debug, Clone)]
pub struct State {
    pub(crate) config: Config,
    pub(crate) hands: Vec<Hand>,
    pub(crate) kitty: Vec<Card>,
    /// The seven cards the landlord took: the landlord's to see, everyone's once the game
    /// is over (docs/rules/doudizhu5.md).
    pub(crate) taken_kitty: Vec<Card>,
    pub(crate) face_up: Card,
    pub(crate) face_up_holder: Seat,
    pub(crate) phase: Phase,
    pub(crate) shown: Vec<Vec<Shown>>,
    pub(crate) grabbing: SeatSet,
    pub(crate) grabs: u32,
    pub(crate) landlord: Option<Seat>,
    pub(crate) mode: Option<Mode>,
    pub(crate) marked: Option<Card>,
    pub(crate) partner: Option<Seat>,
    pub(crate) revealed: bool,
    pub(crate) instant: Option<InstantWin>,
    pub(crate) turn: Seat,
    pub(crate) last: Option<(Seat, Play)>,
    pub(crate) passes: u8,
    pub(crate) history: Vec<Turn>,
    pub(crate) winner: Option<Seat>,
}

impl State {
    /// A game in its play phase that agrees with `view` in everything public, with `hands`
    /// as the hidden cards and `mode` and `partner` as the search bot guesses them: one
    /// world it plays out.
    pub(crate) fn world(
        view: &View,
        hands: Vec<Hand>,
        mode: Option<Mode>,
        partner: Option<Seat>,
    ) -> State {
        let passes = view
            .history
            .iter()
            .rev()
            .take_while(|t| t.cards.is_none())
            .count();
        State {
            config: Config {
                base: view.base.max(1),
                ..Config::default()
            },
            hands,
            kitty: Vec::new(),
            taken_kitty: view.kitty.clone().unwrap_or_default(),
            face_up: view.face_up,
            face_up_holder: view.face_up_holder,
            phase: view.phase,
            shown: view.shown.clone(),
            grabbing: SeatSet::EMPTY,
            grabs: view.grabs,
            landlord: view.landlord,
            mode,
            marked: view.declaration.and_then(|d| d.marked),
            partner,
            revealed: view.revealed,
            instant: None,
            turn: view.turn.unwrap_or(0) % SEATS,
            last: view
                .on_table
                .as_ref()
                .and_then(|t| Some((t.seat, Play::classify(t.cards)?))),
            passes: u8::try_from(passes).unwrap_or(u8::MAX),
            history: view.history.clone(),
            winner: None,
        }
    }

    /// The seat's hand (rules-side; players see it through their view).
    pub fn hand(&self, seat: Seat) -> Option<&Hand> {
        self.hands.get(seat)
    }

    /// Cards not in any hand: the kitty (until the landlord takes it) and the played cards.
    pub fn out_of_hands(&self) -> RankCounts {
        let mut rc = RankCounts::from_cards(&self.kitty);
        for t in &self.history {
            if let Some(c) = t.cards {
                rc = rc.plus(c);
            }
        }
        rc
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The landlord, once the grab is over.
    pub fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// The landlord's partner, if one was called — secret in play until revealed.
    pub fn partner(&self) -> Option<Seat> {
        self.partner
    }

    /// The play on the table a follower must beat.
    pub(crate) fn to_beat(&self) -> Option<&Play> {
        self.last.as_ref().map(|(_, p)| p)
    }

    /// The deal: the configured one, or three shuffled decks with a face-up card drawn
    /// from the 155 dealt.
    fn deal(config: &Config, seed: &Seed) -> Result<CustomDeal, RuleError> {
        if let Some(d) = &config.deal {
            check_deal(d)?;
            return Ok(d.clone());
        }
        let mut rng = seed.rng();
        let mut cards = DECK.cards();
        deal::shuffle(&mut cards, &mut rng);
        let dealt = SEATS * HAND;
        let pick = deal::below(&mut rng, dealt);
        Ok(CustomDeal {
            hands: cards[..dealt].chunks(HAND).map(<[Card]>::to_vec).collect(),
            kitty: cards[dealt..].to_vec(),
            face_up: (cards[pick], pick / HAND),
        })
    }

    /// Ends the grab: the strongest set shown names the landlord (else the 明牌's holder),
    /// who takes the kitty; then the instant wins are checked.
    fn end_grab(&mut self, events: &mut Vec<Event>) {
        let best = (0..SEATS)
            .flat_map(|s| self.shown[s].iter().map(move |sh| (sh.strength(), s)))
            .max();
        let landlord = best.map_or(self.face_up_holder, |(_, s)| s);
        self.landlord = Some(landlord);
        self.taken_kitty = std::mem::take(&mut self.kitty);
        for &c in &self.taken_kitty {
            self.hands[landlord].add(c);
        }
        events.push(Event::Landlord {
            seat: landlord,
            grabs: self.grabs,
        });
        if let Some(reason) = instant_win(&self.hands[landlord]) {
            self.instant = Some(reason);
            events.push(Event::InstantWin {
                seat: landlord,
                reason,
            });
            self.finish(landlord, events);
        } else {
            self.phase = Phase::Declare;
        }
    }

    fn finish(&mut self, winner: Seat, events: &mut Vec<Event>) {
        self.phase = Phase::Finished;
        self.winner = Some(winner);
        if let Some(o) = self.outcome() {
            events.push(Event::Finished {
                winner,
                landlord_won: self.landlord_won(),
                scores: o.scores,
            });
        }
    }

    fn landlord_won(&self) -> bool {
        match (self.winner, self.landlord) {
            (Some(w), Some(l)) => w == l || Some(w) == self.partner,
            _ => false,
        }
    }

    fn score_mode(&self) -> ScoreMode {
        match self.mode {
            Some(m) if self.instant.is_none() => ScoreMode::Declared(m),
            _ => ScoreMode::Instant,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let landlord = self.landlord?;
        self.winner?;
        let won = self.landlord_won();
        let s = score(
            u64::from(self.grabs),
            u64::from(self.config.base),
            self.score_mode(),
            won,
        );
        let mut out = Outcome {
            scores: vec![s.opponent; SEATS],
            won: vec![!won; SEATS],
            roles: vec!["opponent".to_string(); SEATS],
        };
        out.scores[landlord] = s.landlord;
        out.won[landlord] = won;
        out.roles[landlord] = "landlord".into();
        if let (Some(p), Some(ps)) = (self.partner, s.partner) {
            out.scores[p] = ps;
            out.won[p] = won;
            out.roles[p] = "partner".into();
        }
        Some(out)
    }

    /// Each seat's score change, once finished.
    pub(crate) fn outcome_scores(&self) -> Option<Vec<i64>> {
        self.outcome().map(|o| o.scores)
    }

    /// The grab multiplier so far, with the open solo's ×2.
    pub(crate) fn multiplier(&self) -> u32 {
        multiplier(self.grabs)
            * if self.mode == Some(Mode::OpenSolo) {
                2
            } else {
                1
            }
    }
}

/// 五人斗地主 (如东三打二): the [`Rules`] implementation.
pub struct DouDizhu5;

impl Rules for DouDizhu5 {
    const ID: &'static str = "doudizhu5";
    const NAME: &'static str = "五人斗地主 如东三打二 Five-player Dou Dizhu";
    type Config = Config;
    type State = State;
    type Action = Action;
    type PublicAction = PublicAction;
    type View = View;
    type Event = Event;

    /// A hidden solo must look exactly like a partner call to the others: both are
    /// public as `marked`.
    fn public_action(action: &Action) -> PublicAction {
        PublicAction::from(*action)
    }

    /// Plays are listed by rank: a suited play is a form of the play of its ranks.
    fn listed(action: &Action) -> Action {
        match *action {
            Action::PlaySuited(cards) => Action::Play(cards.ranks()),
            other => other,
        }
    }

    fn seats(_: &Config) -> std::ops::RangeInclusive<usize> {
        SEATS..=SEATS
    }

    fn start(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        if seats != SEATS {
            return Err(RuleError::BadConfig(format!(
                "five-player Dou Dizhu needs {SEATS} players, not {seats}"
            )));
        }
        if config.base == 0 {
            return Err(RuleError::BadConfig(
                "the base score must be at least 1".into(),
            ));
        }
        let CustomDeal {
            hands,
            kitty,
            face_up: (face_up, face_up_holder),
        } = State::deal(config, seed)?;
        let hands: Vec<Hand> = hands.iter().map(|h| Hand::of(h)).collect();
        let mut grabbing = SeatSet::EMPTY;
        for (s, h) in hands.iter().enumerate() {
            if !clickable(h, face_up, &[]).is_empty() {
                grabbing.insert(s);
            }
        }
        let mut state = State {
            config: config.clone(),
            hands,
            kitty,
            taken_kitty: Vec::new(),
            face_up,
            face_up_holder,
            phase: Phase::Grab,
            shown: vec![Vec::new(); SEATS],
            grabbing,
            grabs: 0,
            landlord: None,
            mode: None,
            marked: None,
            partner: None,
            revealed: false,
            instant: None,
            turn: face_up_holder,
            last: None,
            passes: 0,
            history: Vec::new(),
            winner: None,
        };
        if grabbing.is_empty() {
            state.end_grab(&mut Vec::new());
        }
        Ok(state)
    }

    fn to_act(state: &State) -> ToAct {
        match state.phase {
            Phase::Grab => ToAct::Seats(state.grabbing),
            Phase::Declare => state.landlord.map_or(ToAct::Finished, ToAct::Seat),
            Phase::Play => ToAct::Seat(state.turn),
            Phase::Finished => ToAct::Finished,
        }
    }

    fn legal_into(state: &State, seat: Seat, out: &mut Vec<Action>) {
        if !Self::to_act(state).includes(seat) {
            return;
        }
        match state.phase {
            Phase::Grab => {
                out.extend(
                    clickable(&state.hands[seat], state.face_up, &state.shown[seat])
                        .into_iter()
                        .map(Action::Grab),
                );
                out.push(Action::Decline);
            }
            Phase::Declare => out.extend(
                declarations(&state.hands[seat])
                    .into_iter()
                    .map(|(m, _)| Action::Declare(m)),
            ),
            Phase::Play => {
                let last = state.to_beat();
                for_each_play(state.hands[seat].ranks(), last, KindSet::ALL, |p| {
                    out.push(Action::Play(p.cards))
                });
                if last.is_some() {
                    out.push(Action::Pass);
                }
            }
            Phase::Finished => {}
        }
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if state.phase == Phase::Finished {
            return Err(RuleError::GameOver);
        }
        if !Self::to_act(state).includes(seat) {
            return Err(RuleError::NotYourTurn(seat));
        }
        match (state.phase, action) {
            (Phase::Grab, Action::Grab(card)) => {
                if !clickable(&state.hands[seat], state.face_up, &state.shown[seat]).contains(&card)
                {
                    return Err(RuleError::Illegal(format!(
                        "you cannot grab with {}: grab with two or three identical RJ, BJ or {} cards you hold",
                        card.pretty(),
                        state.face_up.rank()
                    )));
                }
                let shown = match state.shown[seat].iter_mut().find(|s| s.card == card) {
                    Some(s) => {
                        s.count += 1;
                        *s
                    }
                    None => {
                        let s = Shown { card, count: 2 };
                        state.shown[seat].push(s);
                        s
                    }
                };
                state.grabs += 1;
                events.push(Event::Grabbed { seat, shown });
                if clickable(&state.hands[seat], state.face_up, &state.shown[seat]).is_empty() {
                    state.grabbing.remove(seat);
                }
            }
            (Phase::Grab, Action::Decline) => {
                state.grabbing.remove(seat);
                events.push(Event::Declined { seat });
            }
            (Phase::Declare, Action::Declare(mode)) => {
                let hand = &state.hands[seat];
                let marked = marked_card(hand, mode);
                if mode != Mode::OpenSolo && marked.is_none() {
                    return Err(RuleError::Illegal(match mode {
                        Mode::HiddenSolo => "a hidden solo needs three identical cards".into(),
                        _ => "calling a partner needs a card you hold exactly two of".into(),
                    }));
                }
                state.mode = Some(mode);
                state.marked = marked;
                state.partner = match (mode, marked) {
                    (Mode::Partner, Some(c)) => {
                        (0..SEATS).find(|&s| s != seat && state.hands[s].copies(c) > 0)
                    }
                    _ => None,
                };
                state.phase = Phase::Play;
                state.turn = seat;
                events.push(Event::Declared {
                    seat,
                    open_solo: mode == Mode::OpenSolo,
                    marked,
                });
            }
            (Phase::Play, Action::Play(cards)) => play(state, seat, cards, None, events)?,
            (Phase::Play, Action::PlaySuited(cards)) => {
                let suited = cards.has_suits().then_some(cards);
                play(state, seat, cards.ranks(), suited, events)?
            }
            (Phase::Play, Action::Pass) => {
                if state.last.is_none() {
                    return Err(RuleError::Illegal("you lead: play something".into()));
                }
                state.history.push(Turn {
                    seat,
                    cards: None,
                    suited: None,
                });
                events.push(Event::Passed { seat });
                state.passes += 1;
                state.turn = (seat + 1) % SEATS;
                if usize::from(state.passes) == SEATS - 1 {
                    state.last = None;
                    state.passes = 0;
                }
            }
            (phase, a) => return Err(RuleError::WrongPhase(wrong_phase(phase, a))),
        }
        if state.phase == Phase::Grab && state.grabbing.is_empty() {
            state.end_grab(events);
        }
        Ok(())
    }

    fn default_action(state: &State, seat: Seat) -> Action {
        let hand = state.hands.get(seat);
        match state.phase {
            Phase::Grab | Phase::Finished => Action::Decline,
            Phase::Declare => Action::Declare(hand.map_or(Mode::Partner, default_mode)),
            Phase::Play if state.last.is_some() => Action::Pass,
            Phase::Play => match hand.and_then(|h| h.ranks().lowest()) {
                Some(r) => Action::Play(RankCounts::of(r, 1)),
                None => Action::Pass,
            },
        }
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View::of(state, viewer)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome()
    }
}

/// Plays `cards`: by rank, the game choosing the copies, or exactly the copies `suited`
/// names. Everything is checked before the hand changes.
fn play(
    state: &mut State,
    seat: Seat,
    cards: RankCounts,
    suited: Option<SuitedCards>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if let Some(lacking) = suited.and_then(|named| state.hands[seat].lacks(named)) {
        return Err(RuleError::Illegal(lacking));
    }
    let hand = state.hands[seat].ranks();
    if !hand.contains(cards) {
        return Err(RuleError::Illegal(format!("you do not hold {cards}")));
    }
    let Some(p) = Play::classify(cards) else {
        return Err(RuleError::Illegal(format!("{cards} is not a play")));
    };
    if let Some(last) = state.to_beat() {
        if !p.beats(last) {
            return Err(RuleError::Illegal(format!(
                "{cards} ({}) does not beat {} ({})",
                p.kind.words(),
                last.cards,
                last.kind.words()
            )));
        }
    }
    let marked_played = match suited {
        Some(named) => {
            state.hands[seat].remove_suited(named);
            state.marked.is_some_and(|m| named.count(m) > 0)
        }
        None => {
            let gone = state.hands[seat].remove_play(cards, state.marked);
            state.marked.is_some_and(|m| gone.contains(&m))
        }
    };
    state.history.push(Turn {
        seat,
        cards: Some(cards),
        suited,
    });
    events.push(Event::Played {
        seat,
        cards,
        suited,
        kind: p.kind,
    });
    let reveals = marked_played
        && match state.mode {
            Some(Mode::Partner) => state.partner == Some(seat),
            Some(Mode::HiddenSolo) => state.landlord == Some(seat),
            _ => false,
        };
    if reveals && !state.revealed {
        state.revealed = true;
        events.push(Event::Revealed {
            partner: seat,
            hidden_solo: state.mode == Some(Mode::HiddenSolo),
        });
    }
    state.last = Some((seat, p));
    state.passes = 0;
    state.turn = (seat + 1) % SEATS;
    if state.hands[seat].is_empty() {
        state.finish(seat, events);
    }
    Ok(())
}

fn wrong_phase(phase: Phase, action: Action) -> String {
    let now = match phase {
        Phase::Grab => "the grab is on: grab or decline",
        Phase::Declare => "the landlord is declaring: open solo, hidden solo or partner",
        Phase::Play => "cards are being played: play or pass",
        Phase::Finished => "the game is over",
    };
    let what = match action {
        Action::Grab(_) => "grab",
        Action::Decline => "decline",
        Action::Declare(_) => "declare",
        Action::Play(_) | Action::PlaySuited(_) => "play cards",
        Action::Pass => "pass",
    };
    format!("you cannot {what} now; {now}")
}
