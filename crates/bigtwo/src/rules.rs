//! The deal as a state machine: dealing, the opening lead, playing and passing, scoring.

use crate::combo::{Combo, DECK};
use crate::error::PlayError;
use crate::movegen::for_each_legal;
use crate::scoring::{card_score, results};
use crate::view::{DealResult, View};
use cards::{Card, CardSet, Deck, Rank, Suit};
use game::{deal, Outcome, RuleError, Rules, Seat, Seed, ToAct, Viewer};
use serde::{Deserialize, Serialize};

/// 3♦, the card that opens a match.
pub const THREE_OF_DIAMONDS: Card = Card::suited(Rank::Three, Suit::Diamonds);

/// Big Two is played by four.
pub const SEATS: usize = 4;

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 13;

/// Who leads the deal. The rules cannot know a deal's place in a match, so the table says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opening {
    /// A match's first deal: the holder of 3♦ leads, and that first play must include 3♦.
    #[default]
    ThreeOfDiamonds,
    /// Every later deal: the previous deal's winner (this seat) leads anything.
    Seat(Seat),
}

/// Table options for one deal. JSON: `{"opening":"three_of_diamonds"}` or
/// `{"opening":{"seat":2}}`; `{}` is the match's first deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Who leads, and whether the first play must include 3♦.
    pub opening: Opening,
}

impl Config {
    /// The configuration of the deal after one that ended with `outcome`: its winner leads.
    /// `None` if the outcome names no winner (not a finished Big Two deal).
    pub fn next_deal(outcome: &Outcome) -> Option<Config> {
        let winner = outcome.won.iter().position(|&w| w)?;
        Some(Config {
            opening: Opening::Seat(winner),
        })
    }
}

/// One move. JSON: `{"play":"3d 3s"}` or `"pass"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Play these cards.
    Play(CardSet),
    /// Pass: not allowed to the player who leads.
    Pass,
}

/// The play that stands on the table and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    /// Who played it.
    pub seat: Seat,
    /// What was played.
    pub play: Combo,
}

/// A public happening, for the table log and animations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A seat played cards.
    Played {
        /// Who.
        seat: Seat,
        /// What.
        play: Combo,
        /// Cards left in that hand.
        cards_left: u32,
    },
    /// A seat passed.
    Passed {
        /// Who.
        seat: Seat,
    },
    /// Three passes in a row: the last player to have played leads anything.
    NewLead {
        /// Who leads.
        seat: Seat,
    },
    /// Someone went out; the deal is scored.
    DealOver(DealResult),
}

/// One deal in progress, every hand included. Never shown to a player: see [`View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) hands: [CardSet; SEATS],
    pub(crate) turn: Seat,
    pub(crate) last: Option<Trick>,
    pub(crate) passes: u8,
    pub(crate) must_include: Option<Card>,
    pub(crate) played: CardSet,
    pub(crate) opener: Seat,
    pub(crate) result: Option<DealResult>,
}

impl State {
    /// A deal from given hands, for tests and puzzles: `opening` says who leads. The hands
    /// must be disjoint, not empty and hold no jokers; their sizes are the caller's choice.
    pub fn from_hands(hands: [CardSet; SEATS], opening: Opening) -> Result<State, RuleError> {
        let mut seen = CardSet::EMPTY;
        for h in &hands {
            if h.is_empty() {
                return Err(RuleError::BadConfig(
                    "every seat needs at least one card".into(),
                ));
            }
            if h.bits() & !DECK.bits() != 0 {
                return Err(RuleError::BadConfig(
                    "Big Two is played without jokers".into(),
                ));
            }
            if seen.bits() & h.bits() != 0 {
                return Err(RuleError::BadConfig(format!(
                    "{} is dealt twice",
                    CardSet::from_bits(seen.bits() & h.bits())
                )));
            }
            seen = seen.union(*h);
        }
        let (opener, must_include) = match opening {
            Opening::Seat(s) if s < SEATS => (s, None),
            Opening::Seat(s) => {
                return Err(RuleError::BadConfig(format!(
                    "no seat {s}: seats are 0 to 3"
                )))
            }
            Opening::ThreeOfDiamonds => {
                let holder = hands.iter().position(|h| h.contains(THREE_OF_DIAMONDS));
                let holder = holder.ok_or_else(|| {
                    RuleError::BadConfig("nobody holds 3d to open the match".into())
                })?;
                (holder, Some(THREE_OF_DIAMONDS))
            }
        };
        Ok(State {
            hands,
            turn: opener,
            last: None,
            passes: 0,
            must_include,
            played: CardSet::EMPTY,
            opener,
            result: None,
        })
    }

    /// A deal that agrees with `view` in everything public, with `hands` as the hidden
    /// cards: one world the search bot imagines and plays out.
    pub(crate) fn world(view: &View, hands: [CardSet; SEATS]) -> State {
        State {
            hands,
            turn: view.to_act.unwrap_or(view.opener) % SEATS,
            last: view.last,
            passes: view.passes,
            must_include: view.must_include,
            played: view.played,
            opener: view.opener,
            result: None,
        }
    }

    /// The cards a seat holds.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat).copied().unwrap_or_default()
    }

    /// Every card played so far in this deal.
    pub fn played(&self) -> CardSet {
        self.played
    }

    /// The play standing on the table, if the current player is following.
    pub fn last(&self) -> Option<Trick> {
        self.last
    }

    /// The seat that led the deal.
    pub fn opener(&self) -> Seat {
        self.opener
    }

    /// The scored result, once someone has gone out.
    pub fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    /// The card the next play must include (3♦ before a match's first play).
    pub fn must_include(&self) -> Option<Card> {
        self.must_include
    }

    /// Why `action` by `seat` is not allowed now, or the play it makes (`None` for a pass).
    fn check(&self, seat: Seat, action: &Action) -> Result<Option<Combo>, RuleError> {
        if self.result.is_some() {
            return Err(RuleError::GameOver);
        }
        if seat != self.turn {
            return Err(RuleError::NotYourTurn(seat));
        }
        let cards = match action {
            Action::Pass if self.last.is_none() => return Err(PlayError::LeaderPasses.into()),
            Action::Pass => return Ok(None),
            Action::Play(cards) => *cards,
        };
        if cards.is_empty() {
            return Err(PlayError::NoCards.into());
        }
        let missing = cards.minus(self.hands[seat]);
        if !missing.is_empty() {
            return Err(PlayError::NotHeld(missing).into());
        }
        let play = Combo::classify(cards).ok_or_else(|| PlayError::not_a_play(cards))?;
        if let Some(card) = self.must_include.filter(|&c| !cards.contains(c)) {
            return Err(PlayError::MustInclude(card).into());
        }
        if let Some(last) = &self.last {
            if play.size() != last.play.size() {
                return Err(PlayError::WrongSize {
                    on_table: last.play.kind,
                    size: last.play.size(),
                }
                .into());
            }
            if !play.beats(&last.play) {
                return Err(PlayError::TooLow {
                    play: cards,
                    last: last.play.cards,
                }
                .into());
            }
        }
        Ok(Some(play))
    }

    fn next(&mut self) {
        self.turn = (self.turn + 1) % SEATS;
    }
}

/// 锄大地 Big Two. The [`Rules`] of one deal; a match is a series of deals run by the table.
pub struct BigTwo;

impl Rules for BigTwo {
    const ID: &'static str = "bigtwo";
    const NAME: &'static str = "锄大地 Big Two";

    type Config = Config;
    type State = State;
    type Action = Action;
    type PublicAction = Action;
    type View = View;
    type Event = Event;

    fn public_action(action: &Action) -> Action {
        // Every play and pass is seen by everyone.
        action.clone()
    }

    fn seats(_: &Config) -> std::ops::RangeInclusive<usize> {
        SEATS..=SEATS
    }

    fn start(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        if seats != SEATS {
            return Err(RuleError::BadConfig(format!(
                "Big Two is played by exactly four players, not {seats}"
            )));
        }
        let mut cards = Deck::NO_JOKERS.cards();
        deal::shuffle(&mut cards, &mut seed.rng());
        let mut hands = [CardSet::EMPTY; SEATS];
        for (i, &c) in cards.iter().enumerate() {
            hands[i % SEATS].insert(c);
        }
        State::from_hands(hands, config.opening)
    }

    fn to_act(state: &State) -> ToAct {
        if state.result.is_some() {
            ToAct::Finished
        } else {
            ToAct::Seat(state.turn)
        }
    }

    fn legal_into(state: &State, seat: Seat, out: &mut Vec<Action>) {
        if state.result.is_some() || seat != state.turn {
            return;
        }
        let last = state.last.as_ref().map(|t| &t.play);
        for_each_legal(state.hands[seat], last, state.must_include, &mut |c| {
            out.push(Action::Play(c.cards))
        });
        if last.is_some() {
            out.push(Action::Pass);
        }
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(play) = state.check(seat, &action)? else {
            events.push(Event::Passed { seat });
            state.passes += 1;
            state.next();
            if usize::from(state.passes) == SEATS - 1 {
                state.passes = 0;
                state.last = None;
                events.push(Event::NewLead { seat: state.turn });
            }
            return Ok(());
        };
        let hand = &mut state.hands[seat];
        *hand = hand.minus(play.cards);
        let cards_left = hand.len();
        state.played = state.played.union(play.cards);
        state.must_include = None;
        state.last = Some(Trick { seat, play });
        state.passes = 0;
        events.push(Event::Played {
            seat,
            play,
            cards_left,
        });
        if cards_left == 0 {
            let card_scores: Vec<i64> = state.hands.iter().map(|&h| card_score(h)).collect();
            let result = DealResult {
                winner: seat,
                hands: state.hands.to_vec(),
                results: results(&card_scores),
                card_scores,
            };
            events.push(Event::DealOver(result.clone()));
            state.result = Some(result);
        } else {
            state.next();
        }
        Ok(())
    }

    fn default_action(state: &State, seat: Seat) -> Action {
        if state.last.is_some() {
            return Action::Pass;
        }
        let hand = state.hand(seat);
        let card = state.must_include.or_else(|| hand.lowest());
        Action::Play(card.into_iter().collect())
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View::of(state, viewer)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let r = state.result.as_ref()?;
        Some(Outcome {
            scores: r.results.clone(),
            won: (0..SEATS).map(|s| s == r.winner).collect(),
            roles: (0..SEATS)
                .map(|s| {
                    if s == state.opener {
                        "opener"
                    } else {
                        "follower"
                    }
                    .to_string()
                })
                .collect(),
        })
    }
}
