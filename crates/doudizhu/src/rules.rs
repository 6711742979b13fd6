//! The Dou Dizhu state machine: deal, bid, play, score.

pub use crate::event::Event;
use crate::movegen::legal_plays;
use crate::scoring::{settle, ScoreInput};
use crate::stakes::Doubling;
use crate::{Play, View};
use cards::{CardSet, Deck, Rank, RankCounts};
use game::{deal, GameRng, Outcome, RuleError, Rules, Seat, Seed, ToAct, Viewer};
use serde::{Deserialize, Serialize};

/// Cards dealt to each player; the rest (3) is the kitty.
pub const HAND: u32 = 17;
/// All-pass deals that are redealt before the first bidder is made landlord at 1.
pub const MAX_REDEALS: u8 = 3;

/// Table options.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Every bomb and rocket doubles the score, not only those played to beat a play (the
    /// house rule many players know; the original rules count only effective bombs).
    pub all_bombs_double: bool,
    /// 加倍 / 超级加倍: after the kitty, each seat may double its own stake (`"double"`), or
    /// also quadruple it (`"super"`). Off by default, as the original rules have it; left
    /// out of the JSON when off, so the records of tables without it read as they did.
    #[serde(skip_serializing_if = "Doubling::is_off")]
    pub doubling: Doubling,
    /// 明牌: the landlord may show their hand before the first play, for ×2. Off by
    /// default; left out of the JSON when off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub show_cards: bool,
    /// The first bidder. A table draws it for its first game (`None`: drawn from the seed)
    /// and moves it one seat on for each later game.
    pub first_bidder: Option<Seat>,
    /// A fixed landlord and no bidding (base 1): for self-play experiments that measure
    /// card play alone, and endgame puzzles.
    pub landlord: Option<Seat>,
    /// Given hands and kitty instead of a shuffled deal: tests and endgame puzzles. Redeals
    /// after an all-pass bidding still shuffle from the seed.
    pub deal: Option<CustomDeal>,
}

/// A deal chosen by hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomDeal {
    /// The three hands, seat 0 first.
    pub hands: [RankCounts; 3],
    /// The kitty (normally 3 cards; endgame puzzles may leave it empty).
    pub kitty: RankCounts,
}

/// The phase of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players bid for the landlord's seat.
    Bidding,
    /// Each seat chooses its doubling (加倍), the peasants first, then the landlord
    /// (the `doubling` option).
    Doubling,
    /// The landlord decides whether to show their hand (明牌; the `show_cards` option).
    Showing,
    /// Cards are played.
    Playing,
    /// Someone went out.
    Finished,
}

/// One move.
///
/// JSON: `{"bid":2}` (`{"bid":0}` declines to bid), `"pass"`, `{"play":"3 3 3 4"}`,
/// `{"double":2}` (1 不加倍, 2 加倍, 4 超级加倍), `{"show":true}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A bid of 1–3, or 0 for no bid (不叫).
    Bid(u8),
    /// Not following the play on the table (过).
    Pass,
    /// Playing cards.
    Play(Play),
    /// Doubling one's own stake (加倍): 1 (不加倍), 2 (加倍) or 4 (超级加倍).
    Double(u8),
    /// The landlord shows their hand (明牌, `true`) or keeps it hidden (`false`).
    Show(bool),
}

/// A game in progress. Hidden cards live here; only [`View`]s leave.
#[derive(Debug, Clone)]
pub struct State {
    pub(crate) config: Config,
    pub(crate) rng: GameRng,
    pub(crate) hands: [RankCounts; 3],
    pub(crate) kitty: RankCounts,
    /// The suited cards each seat was dealt, and the kitty's (index 3): what a view's
    /// suits are derived from ([`crate::suits`]). Never read by the rules.
    pub(crate) dealt: [CardSet; 4],
    pub(crate) phase: Phase,
    pub(crate) first_bidder: Seat,
    pub(crate) bids: Vec<(Seat, u8)>,
    pub(crate) redeals: u8,
    pub(crate) landlord: Option<Seat>,
    pub(crate) bid: u8,
    pub(crate) turn: Seat,
    /// The play to beat and who made it; `None` when the player to act leads.
    pub(crate) last: Option<(Seat, Play)>,
    pub(crate) history: Vec<(Seat, Option<Play>)>,
    pub(crate) plays_made: [u16; 3],
    /// Bombs and rockets that double the score (effective, or all with the option).
    pub(crate) doubling_bombs: u32,
    /// Each seat's doubling (加倍: 1, 2 or 4), 0 until chosen or without the option.
    pub(crate) doubles: [u8; 3],
    /// Whether the landlord showed their hand (明牌).
    pub(crate) shown: bool,
    pub(crate) result: Option<GameResult>,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct GameResult {
    pub winner: Seat,
    pub landlord_won: bool,
    pub spring: bool,
    pub anti_spring: bool,
    pub scores: [i64; 3],
}

thread_local! {
    /// Scratch space for [`DouDizhu::legal_into`]'s plays.
    static PLAYS: std::cell::RefCell<Vec<Play>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// 斗地主 Dou Dizhu, the [`Rules`] of the original rules (a network Dou Dizhu's rule
/// appendix) as docs/rules/doudizhu.md gives them.
pub struct DouDizhu;

/// The seat after `seat`: play passes to seat + 1, round the three.
pub(crate) fn next(seat: Seat) -> Seat {
    (seat + 1) % 3
}

impl State {
    /// The score multiplier so far, common to both stakes: ×2 per doubling bomb, ×2 for a
    /// shown hand (spring is added at the end). Each seat's own doubling is apart
    /// ([`State::doubles`]): it multiplies only the stakes that seat is in.
    pub fn multiplier(&self) -> i64 {
        ScoreInput {
            bid: 1,
            landlord_won: true,
            bombs: self.doubling_bombs,
            spring: self.result.is_some_and(|r| r.spring),
            anti_spring: self.result.is_some_and(|r| r.anti_spring),
            shown: self.shown,
        }
        .multiplier()
    }

    /// Each seat's doubling (加倍: 1, 2 or 4); 0 for a seat that has not chosen, and for
    /// every seat at a table without the `doubling` option.
    pub fn doubles(&self) -> [u8; 3] {
        self.doubles
    }

    /// Whether the landlord showed their hand (明牌).
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The landlord, once known.
    pub fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// A seat's hand. For tests, the judge and puzzles — never for bots (they get a View).
    pub fn hand(&self, seat: Seat) -> RankCounts {
        self.hands[seat % 3]
    }

    /// A state that agrees with `view` in everything public, with `hands` and `kitty` as
    /// the hidden cards: one world the search bot imagines and plays out. Redeals in it
    /// shuffle from `rng`. Bombs played so far are read off the view's multiplier; the
    /// table's options are not in a view, so the standard ones apply.
    pub(crate) fn world(
        view: &View,
        hands: [RankCounts; 3],
        kitty: RankCounts,
        rng: GameRng,
    ) -> State {
        let mut plays_made = [0u16; 3];
        for (s, p) in &view.history {
            if p.is_some() && *s < 3 {
                plays_made[*s] += 1;
            }
        }
        let shown = view.shown.is_some();
        State {
            config: Config {
                doubling: view.doubling,
                show_cards: view.show_cards,
                ..Config::default()
            },
            rng,
            hands,
            kitty,
            dealt: [CardSet::EMPTY; 4],
            phase: view.phase,
            first_bidder: view.first_bidder,
            bids: view.bids.clone(),
            redeals: view.redeals,
            landlord: view.landlord,
            bid: view.bid,
            turn: view.to_act.unwrap_or(view.first_bidder) % 3,
            last: view.last,
            history: view.history.clone(),
            plays_made,
            doubling_bombs: view
                .multiplier
                .max(1)
                .trailing_zeros()
                .saturating_sub(u32::from(shown)),
            doubles: view.doubles,
            shown,
            result: None,
        }
    }

    fn deal_shuffled(&mut self) {
        // The suited cards are shuffled (the same permutation as ranks alone would get), so
        // that the suits of the deal are kept beside the ranks the rules play with.
        let mut cards = Deck::WITH_JOKERS.cards();
        deal::shuffle(&mut cards, &mut self.rng);
        let mut hands = [RankCounts::EMPTY; 4];
        let mut dealt = [CardSet::EMPTY; 4];
        for (i, c) in cards.iter().enumerate() {
            let to = if i < 3 * HAND as usize { i % 3 } else { 3 };
            hands[to].add(c.rank(), 1);
            dealt[to].insert(*c);
        }
        self.hands = [hands[0], hands[1], hands[2]];
        self.kitty = hands[3];
        self.dealt = dealt;
    }

    fn make_landlord(&mut self, seat: Seat, bid: u8, events: &mut Vec<Event>) {
        self.landlord = Some(seat);
        self.bid = bid;
        self.hands[seat] = self.hands[seat].plus(self.kitty);
        self.last = None;
        events.push(Event::Landlord {
            seat,
            bid,
            kitty: self.kitty,
        });
        self.after_kitty(seat);
    }

    fn apply_bid(&mut self, seat: Seat, bid: u8, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let highest = self.bids.iter().map(|&(_, b)| b).max().unwrap_or(0);
        if bid > 3 {
            return Err(RuleError::Illegal(format!(
                "a bid is 1, 2 or 3 (or 0 for no bid), not {bid}"
            )));
        }
        if bid != 0 && bid <= highest {
            return Err(RuleError::Illegal(format!(
                "a bid must be higher than {highest}"
            )));
        }
        self.bids.push((seat, bid));
        events.push(Event::Bid { seat, bid });
        let (best_seat, best) = self
            .bids
            .iter()
            .copied()
            .max_by_key(|&(_, b)| b)
            .unwrap_or((seat, 0));
        if bid == 3 || self.bids.len() == 3 {
            if best > 0 {
                self.make_landlord(best_seat, best, events);
            } else if self.redeals >= MAX_REDEALS {
                let first = self.first_bidder;
                self.make_landlord(first, 1, events);
            } else {
                self.redeals += 1;
                self.bids.clear();
                self.deal_shuffled();
                self.turn = self.first_bidder;
                events.push(Event::Redealt {
                    redeals: self.redeals,
                });
            }
        } else {
            self.turn = next(seat);
        }
        Ok(())
    }

    fn apply_play(
        &mut self,
        seat: Seat,
        play: Option<Play>,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(play) = play else {
            if self.last.is_none() {
                return Err(RuleError::Illegal(
                    "you lead this round: play something".into(),
                ));
            }
            self.history.push((seat, None));
            events.push(Event::Passed { seat });
            self.turn = next(seat);
            if let Some((owner, _)) = self.last {
                if owner == self.turn {
                    self.last = None;
                    events.push(Event::RoundWon { seat: owner });
                }
            }
            return Ok(());
        };
        if !self.hands[seat].contains(play.cards()) {
            return Err(RuleError::Illegal(format!("you do not hold {play}")));
        }
        if let Some((_, last)) = self.last {
            if !play.beats(last) {
                return Err(RuleError::Illegal(beat_refusal(play, last)));
            }
        }
        if play.is_bomb() && (self.last.is_some() || self.config.all_bombs_double) {
            self.doubling_bombs += 1;
        }
        self.hands[seat] = self.hands[seat].minus(play.cards());
        self.plays_made[seat] += 1;
        self.history.push((seat, Some(play)));
        events.push(Event::Played {
            seat,
            play,
            multiplier: self.multiplier(),
        });
        if self.hands[seat].is_empty() {
            self.finish(seat, events);
        } else {
            self.last = Some((seat, play));
            self.turn = next(seat);
        }
        Ok(())
    }

    fn finish(&mut self, winner: Seat, events: &mut Vec<Event>) {
        let landlord = self.landlord.unwrap_or(winner);
        let landlord_won = winner == landlord;
        let peasants_silent = (0..3)
            .filter(|&s| s != landlord)
            .all(|s| self.plays_made[s] == 0);
        let spring = landlord_won && peasants_silent;
        let anti_spring = !landlord_won && self.plays_made[landlord] <= 1;
        let input = ScoreInput {
            bid: self.bid,
            landlord_won,
            bombs: self.doubling_bombs,
            spring,
            anti_spring,
            shown: self.shown,
        };
        let factor = |s: Seat| self.doubles[s].max(1);
        let peasants = [next(landlord), next(next(landlord))];
        let (l, p) = settle(&input, factor(landlord), peasants.map(factor));
        let mut scores = [0; 3];
        scores[landlord] = l;
        scores[peasants[0]] = p[0];
        scores[peasants[1]] = p[1];
        self.phase = Phase::Finished;
        self.last = None;
        let result = GameResult {
            winner,
            landlord_won,
            spring,
            anti_spring,
            scores,
        };
        self.result = Some(result);
        events.push(Event::Finished {
            winner,
            landlord_won,
            scores,
            spring,
            anti_spring,
            doubles: self.doubles,
            shown: self.shown,
        });
    }
}

/// Why `play` does not beat `last`, in words.
fn beat_refusal(play: Play, last: Play) -> String {
    if play.kind() != last.kind() || play.len() != last.len() {
        format!(
            "{} ({}) cannot follow {} ({}): play the same kind and number of cards, or a bomb",
            play,
            play.kind().words(),
            last,
            last.kind().words()
        )
    } else {
        format!("{play} is not higher than {last}")
    }
}

fn check_custom(d: &CustomDeal) -> Result<(), RuleError> {
    let all = d.hands.iter().fold(d.kitty, |acc, h| acc.plus(*h));
    // Each nibble of the sum is at most 4 + 4 + 4 + 4 = 16; 16 would wrap, so check ranks
    // one by one before trusting the packed sum.
    for r in Rank::ALL {
        let n: u32 = d.hands.iter().map(|h| h.count(r)).sum::<u32>() + d.kitty.count(r);
        if n as usize > Deck::WITH_JOKERS.copies_of_rank(r) {
            return Err(RuleError::BadConfig(format!(
                "the deal holds {n} {r}, the deck only {}",
                Deck::WITH_JOKERS.copies_of_rank(r)
            )));
        }
    }
    Deck::WITH_JOKERS
        .check_ranks(all)
        .map_err(|e| RuleError::BadConfig(e.to_string()))?;
    if d.hands.iter().any(|h| h.is_empty()) {
        return Err(RuleError::BadConfig(
            "every hand needs at least one card".into(),
        ));
    }
    Ok(())
}

impl Rules for DouDizhu {
    const ID: &'static str = "doudizhu";
    const NAME: &'static str = "斗地主 Dou Dizhu";
    type Config = Config;
    type State = State;
    type Action = Action;
    type PublicAction = Action;
    type View = View;
    type Event = Event;

    fn seats(_: &Config) -> std::ops::RangeInclusive<usize> {
        3..=3
    }

    fn start(config: &Config, seats: usize, seed: &Seed) -> Result<State, RuleError> {
        if seats != 3 {
            return Err(RuleError::BadConfig(format!(
                "Dou Dizhu is for 3 players, not {seats}"
            )));
        }
        for s in [config.first_bidder, config.landlord].into_iter().flatten() {
            if s >= 3 {
                return Err(RuleError::BadConfig(format!("there is no seat {s}")));
            }
        }
        let mut rng = seed.rng();
        let first_bidder = match config.first_bidder {
            Some(s) => s,
            None => deal::below(&mut rng, 3),
        };
        let mut state = State {
            config: config.clone(),
            rng,
            hands: [RankCounts::EMPTY; 3],
            kitty: RankCounts::EMPTY,
            dealt: [CardSet::EMPTY; 4],
            phase: Phase::Bidding,
            first_bidder,
            bids: Vec::with_capacity(3),
            redeals: 0,
            landlord: None,
            bid: 0,
            turn: first_bidder,
            last: None,
            history: Vec::with_capacity(64),
            plays_made: [0; 3],
            doubling_bombs: 0,
            doubles: [0; 3],
            shown: false,
            result: None,
        };
        match &config.deal {
            Some(d) => {
                check_custom(d)?;
                state.hands = d.hands;
                state.kitty = d.kitty;
            }
            None => state.deal_shuffled(),
        }
        if let Some(l) = config.landlord {
            state.first_bidder = l;
            state.make_landlord(l, 1, &mut Vec::new());
        }
        Ok(state)
    }

    fn public_action(action: &Action) -> Action {
        // Bids, plays and passes are seen by everyone.
        *action
    }

    fn to_act(state: &State) -> ToAct {
        match state.phase {
            Phase::Finished => ToAct::Finished,
            _ => ToAct::Seat(state.turn),
        }
    }

    fn legal_into(state: &State, seat: Seat, out: &mut Vec<Action>) {
        if seat != state.turn {
            return;
        }
        // The play phase first, as one branch: the hot path of self-play and search.
        if state.phase == Phase::Playing {
            let last = state.last.map(|(_, p)| p);
            if last.is_some() {
                out.push(Action::Pass);
            }
            // The generator writes plays; a per-thread buffer keeps the hot path of
            // self-play free of allocation once it has grown.
            PLAYS.with_borrow_mut(|plays| {
                plays.clear();
                legal_plays(state.hands[seat], last, plays);
                out.extend(plays.iter().copied().map(Action::Play));
            });
            return;
        }
        match state.phase {
            Phase::Bidding => {
                let highest = state.bids.iter().map(|&(_, b)| b).max().unwrap_or(0);
                out.push(Action::Bid(0));
                out.extend((highest + 1..=3).map(Action::Bid));
            }
            Phase::Doubling | Phase::Showing => state.stake_choices(out),
            Phase::Playing | Phase::Finished => {}
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
        if seat != state.turn {
            return Err(RuleError::NotYourTurn(seat));
        }
        // The play phase first, as one branch: the hot path of self-play and search.
        if state.phase == Phase::Playing {
            return match action {
                Action::Pass => state.apply_play(seat, None, events),
                Action::Play(p) => state.apply_play(seat, Some(p), events),
                Action::Bid(_) => Err(RuleError::WrongPhase(
                    "the bidding is over: play cards or pass".into(),
                )),
                Action::Double(_) | Action::Show(_) => Err(RuleError::WrongPhase(
                    "the cards are being played: play cards or pass".into(),
                )),
            };
        }
        match (state.phase, action) {
            (Phase::Bidding, Action::Bid(b)) => state.apply_bid(seat, b, events),
            (Phase::Bidding, _) => Err(RuleError::WrongPhase(
                "the bidding is not over: bid 1, 2 or 3, or 0 for no bid".into(),
            )),
            (Phase::Doubling, Action::Double(f)) => state.apply_double(seat, f, events),
            (Phase::Doubling, _) => Err(RuleError::WrongPhase(
                "choose your doubling first: 1 (no double), 2 (加倍) or 4 (超级加倍)".into(),
            )),
            (Phase::Showing, Action::Show(show)) => {
                state.apply_show(seat, show, events);
                Ok(())
            }
            (Phase::Showing, _) => Err(RuleError::WrongPhase(
                "the landlord first decides whether to show their hand (明牌)".into(),
            )),
            // The play phase was answered above.
            (Phase::Playing | Phase::Finished, _) => Err(RuleError::GameOver),
        }
    }

    fn default_action(state: &State, seat: Seat) -> Action {
        match state.phase {
            Phase::Playing if state.last.is_none() => {
                // Leading on timeout: the lowest single card.
                let lowest = state.hands[seat % 3].lowest().unwrap_or(Rank::Three);
                Play::classify(RankCounts::of(lowest, 1)).map_or(Action::Pass, Action::Play)
            }
            Phase::Playing => Action::Pass,
            // On timeout nobody doubles and the landlord's hand stays hidden.
            Phase::Doubling => Action::Double(1),
            Phase::Showing => Action::Show(false),
            _ => Action::Bid(0),
        }
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View::of(state, viewer)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let r = state.result?;
        let landlord = state.landlord?;
        Some(Outcome {
            scores: r.scores.to_vec(),
            won: (0..3).map(|s| (s == landlord) == r.landlord_won).collect(),
            roles: (0..3)
                .map(|s| if s == landlord { "landlord" } else { "peasant" }.to_string())
                .collect(),
        })
    }
}
