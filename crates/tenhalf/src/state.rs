//! The game as a state machine: rounds dealt from one shuffle, turns, busts, wins, the
//! showdown and its pot (the original rules' sixteen rules and docs/rules/tenhalf.md).

use crate::hand::{showdown_order, Hand, Points, Standing, WinKind};
use cards::{Card, CardSet, Deck};
use game::{RuleError, Seat, Seed};
use serde::{Deserialize, Serialize};

/// The fewest players at a table.
pub const MIN_PLAYERS: usize = 2;
/// The most players at a table: 8 base cards a round leave room for several rounds per deck.
pub const MAX_PLAYERS: usize = 8;
/// What a bust costs, at once (rule 9).
pub const BUST_PENALTY: u32 = 2;
/// The pot before any winner adds to it (rule 11).
pub const POT_BASE: u32 = 2;
/// What each player who won the round adds to the pot (rule 11).
pub const POT_PER_WINNER: u32 = 2;

/// Cards in the one deck the game is played with, jokers included.
pub const DECK_SIZE: usize = 54;

/// Table options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The dealer's (庄家) seat. The dealer is dealt last and plays last in every round; the
    /// seat moves one to the left per game ([`Config::next_game`]), which the table does.
    pub dealer: Seat,
}

impl Config {
    /// The configuration of the table's next game: the dealer seat moves one seat on, so
    /// that over a session every seat deals as often (docs/rules/tenhalf.md).
    pub fn next_game(&self, seats: usize) -> Config {
        Config {
            dealer: (self.dealer + 1) % seats.max(1),
        }
    }
}

/// One move: take another card, or keep the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// 要牌: take the top card of the deck, face up.
    Hit,
    /// 不要: keep the hand for the showdown. Only from 7½ up (rule 5).
    Stand,
}

/// Where a player is in the current round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Has a base card and waits for their turn.
    Waiting,
    /// It is their turn.
    Playing,
    /// Stood (or was stood by an empty deck): in the showdown.
    Stood,
    /// Won outright and left the round (rule 9).
    Won(WinKind),
    /// Busted when the deck had no card left for a new base card: out of this round.
    Out,
}

/// A hand as shown at a showdown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShownHand {
    /// Whose hand.
    pub seat: Seat,
    /// All its cards, base card first.
    pub cards: Vec<Card>,
    /// Its total.
    pub points: Points,
}

/// The result of a round's showdown (rules 10–15).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Showdown {
    /// The round it closed.
    pub round: u32,
    /// The hands of those who stood, worst first.
    pub hands: Vec<ShownHand>,
    /// Who took the pot: the worst hand, or nobody if nobody stood.
    pub loser: Option<Seat>,
    /// The pot: 2, plus 2 per player who won the round (rule 11).
    pub pot: u32,
}

/// A public happening. Face-down base cards appear in no event until they are shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A round began: one face-down base card to each seat, in this order (rule 2).
    Dealt {
        /// The round number, from 1.
        round: u32,
        /// The seats in dealing and playing order: the dealer's left first, the dealer last.
        order: Vec<Seat>,
    },
    /// A player took a card, face up.
    Hit {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A player kept their hand.
    Stood {
        /// Who.
        seat: Seat,
    },
    /// The deck ran out during a player's turn: they stand where they are.
    DeckEmpty {
        /// Who.
        seat: Seat,
    },
    /// A player went over 10½: their cards are shown and they pay at once (rule 9).
    Busted {
        /// Who.
        seat: Seat,
        /// The busted hand, base card first.
        cards: Vec<Card>,
        /// The points they took.
        penalty: u32,
    },
    /// A busted player got a new face-down base card and goes on (rule 9).
    NewBase {
        /// Who.
        seat: Seat,
    },
    /// A busted player found the deck empty: no new base card, out of the round.
    Out {
        /// Who.
        seat: Seat,
    },
    /// A player won outright and left the round; the hand is shown to prove it.
    Won {
        /// Who.
        seat: Seat,
        /// The winning hand.
        cards: Vec<Card>,
        /// 10½ or 五龙.
        kind: WinKind,
    },
    /// The round's showdown.
    Showdown(Showdown),
    /// The deck holds fewer cards than players: the game is over (rule 16).
    GameOver {
        /// Each seat's penalty points.
        penalties: Vec<u32>,
    },
}

/// One seat's part of the state.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) hand: Hand,
    /// Whether the base card is still face down.
    pub(crate) base_hidden: bool,
    pub(crate) status: Status,
    pub(crate) penalties: u32,
}

/// A game in progress, hidden cards and the deck order included. Leaves the crate only
/// through [`crate::View`].
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) config: Config,
    /// The shuffled deck, top first.
    deck: [Card; DECK_SIZE],
    /// How many cards have been dealt from the top.
    next: u8,
    pub(crate) players: Vec<Player>,
    pub(crate) round: u32,
    /// Whose turn; `None` once the game is over.
    pub(crate) turn: Option<Seat>,
    /// Players who won this round: each adds to the pot.
    pub(crate) winners: u32,
    /// Every card of a finished hand this game; all were shown.
    pub(crate) discards: CardSet,
    pub(crate) last_showdown: Option<Showdown>,
    /// Set when the deck could not serve another round (rule 16).
    finished: bool,
}

impl State {
    /// A new game for `seats` players from a seeded shuffle (rule 1).
    pub fn new(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        let mut deck = Deck::WITH_JOKERS.cards();
        game::deal::shuffle(&mut deck, &mut seed.rng());
        State::from_deck(config, seats, &deck)
    }

    /// A new game dealt from a given deck order, top card first: the judge's and the
    /// tests' way to set up a situation. The deck must be the 54 cards, each once.
    pub fn from_deck(config: &Config, seats: usize, deck: &[Card]) -> Result<State, RuleError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&seats) {
            return Err(RuleError::BadConfig(format!(
                "Ten and a half takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats}"
            )));
        }
        if config.dealer >= seats {
            return Err(RuleError::BadConfig(format!(
                "the dealer must be one of seats 0 to {}, not {}",
                seats - 1,
                config.dealer
            )));
        }
        let cards: [Card; DECK_SIZE] = deck.try_into().map_err(|_| {
            RuleError::BadConfig(format!(
                "the deck must hold all {DECK_SIZE} cards, not {}",
                deck.len()
            ))
        })?;
        Deck::WITH_JOKERS
            .check_cards(&cards)
            .map_err(|e| RuleError::BadConfig(format!("not one deck: {e}")))?;
        let player = Player {
            hand: Hand::EMPTY,
            base_hidden: false,
            status: Status::Waiting,
            penalties: 0,
        };
        let mut state = State {
            config: config.clone(),
            deck: cards,
            next: 0,
            players: vec![player; seats],
            round: 0,
            turn: None,
            winners: 0,
            discards: CardSet::EMPTY,
            last_showdown: None,
            finished: false,
        };
        let mut events = Vec::new();
        state.deal_round(&mut events);
        state.settle(&mut events);
        Ok(state)
    }

    /// Number of players.
    pub fn seats(&self) -> usize {
        self.players.len()
    }

    /// The dealer's seat.
    pub fn dealer(&self) -> Seat {
        self.config.dealer
    }

    /// Cards left in the deck.
    pub fn deck_left(&self) -> usize {
        DECK_SIZE - self.next as usize
    }

    /// Whose turn it is; `None` once the game is over.
    pub fn turn(&self) -> Option<Seat> {
        self.turn
    }

    /// The current round, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Each seat's penalty points so far.
    pub fn penalties(&self) -> Vec<u32> {
        self.players.iter().map(|p| p.penalties).collect()
    }

    /// A seat's hand in this round (hidden base card included: not for players' eyes).
    pub fn hand(&self, seat: Seat) -> Option<&Hand> {
        self.players.get(seat).map(|p| &p.hand)
    }

    /// A seat's place in the round.
    pub fn status(&self, seat: Seat) -> Option<Status> {
        self.players.get(seat).map(|p| p.status)
    }

    /// The cards still in the deck, top first.
    pub fn deck(&self) -> &[Card] {
        &self.deck[self.next as usize..]
    }

    /// The cards of finished hands this game (all of them were shown).
    pub fn discards(&self) -> CardSet {
        self.discards
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The seats in dealing and playing order: the dealer's left first, the dealer last.
    pub fn order(&self) -> impl Iterator<Item = Seat> + Clone {
        let n = self.seats();
        let first = self.config.dealer + 1;
        (0..n).map(move |i| (first + i) % n)
    }

    /// The actions `seat` may take now.
    pub fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.turn != Some(seat) {
            return;
        }
        out.push(Action::Hit);
        if !self.players[seat].hand.must_hit() {
            out.push(Action::Stand);
        }
    }

    /// Applies one action. On `Err` nothing has changed.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(turn) = self.turn else {
            return Err(RuleError::GameOver);
        };
        if turn != seat {
            return Err(RuleError::NotYourTurn(seat));
        }
        match action {
            Action::Stand => {
                let hand = &self.players[seat].hand;
                if hand.must_hit() {
                    return Err(RuleError::Illegal(format!(
                        "at 7 or less you must hit (you have {})",
                        Points(hand.total())
                    )));
                }
                self.players[seat].status = Status::Stood;
                events.push(Event::Stood { seat });
                self.pass_turn(seat);
            }
            Action::Hit => self.hit(seat, events),
        }
        self.settle(events);
        Ok(())
    }

    fn draw(&mut self) -> Option<Card> {
        let card = self.deck.get(self.next as usize).copied()?;
        self.next += 1;
        Some(card)
    }

    /// A hit by the seat to act. `settle` has made sure the deck is not empty.
    fn hit(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let Some(card) = self.draw() else {
            return;
        };
        let player = &mut self.players[seat];
        player.hand.push(card);
        events.push(Event::Hit { seat, card });
        match player.hand.standing() {
            Standing::Open => {}
            Standing::Won(kind) => {
                player.status = Status::Won(kind);
                player.base_hidden = false;
                events.push(Event::Won {
                    seat,
                    cards: player.hand.cards().to_vec(),
                    kind,
                });
                self.winners += 1;
                self.pass_turn(seat);
            }
            Standing::Bust => {
                player.penalties += BUST_PENALTY;
                events.push(Event::Busted {
                    seat,
                    cards: player.hand.cards().to_vec(),
                    penalty: BUST_PENALTY,
                });
                for &c in player.hand.cards() {
                    self.discards.insert(c);
                }
                self.players[seat].hand = Hand::EMPTY;
                match self.draw() {
                    Some(base) => {
                        let player = &mut self.players[seat];
                        player.hand.push(base);
                        player.base_hidden = true;
                        events.push(Event::NewBase { seat });
                    }
                    None => {
                        self.players[seat].status = Status::Out;
                        events.push(Event::Out { seat });
                        self.pass_turn(seat);
                    }
                }
            }
        }
    }

    /// Gives the turn to the next waiting seat after `seat`, or to nobody when the round's
    /// turns are all played (the showdown follows in `settle`).
    fn pass_turn(&mut self, seat: Seat) {
        let n = self.seats();
        let dealer = self.config.dealer;
        let mut s = seat;
        self.turn = None;
        while s != dealer {
            s = (s + 1) % n;
            if self.players[s].status == Status::Waiting {
                self.players[s].status = Status::Playing;
                self.turn = Some(s);
                return;
            }
        }
    }

    /// Plays what needs no decision: a player facing an empty deck stands, a finished round
    /// goes to its showdown, and a new round is dealt while the deck lasts (rule 16).
    fn settle(&mut self, events: &mut Vec<Event>) {
        loop {
            match self.turn {
                Some(seat) if self.deck_left() == 0 => {
                    self.players[seat].status = Status::Stood;
                    events.push(Event::DeckEmpty { seat });
                    self.pass_turn(seat);
                }
                Some(_) => return,
                None if self.finished => return,
                None => {
                    self.showdown(events);
                    if self.deck_left() >= self.seats() {
                        self.deal_round(events);
                    } else {
                        self.finished = true;
                        events.push(Event::GameOver {
                            penalties: self.penalties(),
                        });
                        return;
                    }
                }
            }
        }
    }

    /// Deals every player a face-down base card, in order, and gives the turn to the first.
    fn deal_round(&mut self, events: &mut Vec<Event>) {
        self.round += 1;
        self.winners = 0;
        let order: Vec<Seat> = self.order().collect();
        for &seat in &order {
            let Some(base) = self.draw() else {
                break;
            };
            let player = &mut self.players[seat];
            player.hand = Hand::EMPTY;
            player.hand.push(base);
            player.base_hidden = true;
            player.status = Status::Waiting;
        }
        let first = order[0];
        self.players[first].status = Status::Playing;
        self.turn = Some(first);
        events.push(Event::Dealt {
            round: self.round,
            order,
        });
    }

    /// Compares the hands of those who stood; the worst takes the pot (rules 10–15). Then
    /// every hand of the round goes to the discards.
    fn showdown(&mut self, events: &mut Vec<Event>) {
        let standers: Vec<Seat> = self
            .order()
            .filter(|&s| self.players[s].status == Status::Stood)
            .collect();
        let hands: Vec<Hand> = standers.iter().map(|&s| self.players[s].hand).collect();
        let order = showdown_order(&hands);
        let loser = order.first().map(|&i| standers[i]);
        let pot = POT_BASE + POT_PER_WINNER * self.winners;
        if let Some(l) = loser {
            self.players[l].penalties += pot;
        }
        let showdown = Showdown {
            round: self.round,
            hands: order
                .iter()
                .map(|&i| ShownHand {
                    seat: standers[i],
                    cards: hands[i].cards().to_vec(),
                    points: Points(hands[i].total()),
                })
                .collect(),
            loser,
            pot,
        };
        events.push(Event::Showdown(showdown.clone()));
        self.last_showdown = Some(showdown);
        for player in &mut self.players {
            for &c in player.hand.cards() {
                self.discards.insert(c);
            }
            player.hand = Hand::EMPTY;
            player.base_hidden = false;
            player.status = Status::Waiting;
        }
    }

    /// Whether a seat holds a base card face down that nobody else has seen.
    pub fn base_hidden(&self, seat: Seat) -> bool {
        self.players.get(seat).is_some_and(|p| p.base_hidden)
    }
}
