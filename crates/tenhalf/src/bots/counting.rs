//! A card counter: it knows exactly which cards it has not seen, and from them the chances of
//! busting, of 10½, of 五龙 and of losing the showdown, and takes the choice with the lower
//! expected penalty.
//!
//! The next card is equally likely to be any card the bot has not seen (the deck and the
//! other players' face-down base cards are one unseen pile to it), so the odds of every draw
//! come from the exact composition of that pile. Further along, the model simplifies in the
//! usual ways of a one-pass estimate: later draws use the same composition, players still to
//! act are assumed to play the seed's fixed policy, and rivals are independent of each other.
//!
//! One more thing counts: the game lasts as long as its one deck (rule 16), so every card
//! drawn brings the end of the game nearer and saves everyone a share of a later round's
//! penalties. While more rounds are to come, the bot credits each card it draws with that
//! share ([`Fresh::card_credit`]).

use super::seed::SEED_STANDS_AT;
use crate::hand::{halves, strength, Halves, Hand, MAX_CARDS, TEN_AND_A_HALF};
use crate::state::{BUST_PENALTY, POT_BASE, POT_PER_WINNER};
use crate::view::View;
use crate::{Action, Status, TenHalf};
use cards::{Card, CardSet, Rank};
use game::{Bot, Decision};

/// Card values: index 0 is ½ (J, Q, K, jokers), index `k` is `k` points (A = 1 … 10).
const VALUES: usize = 11;
/// Totals a hand can have before it busts: 0 to 10½ in half points.
const TOTALS: usize = TEN_AND_A_HALF as usize + 1;
/// 7½, the lowest total a player may stand on.
const MAY_STAND_FROM: Halves = 15;
/// A per-total, per-card-count table (index: total in halves, cards in hand).
type Table = [[f64; MAX_CARDS]; TOTALS];

/// The value index of a card (see [`VALUES`]).
fn value_index(card: Card) -> usize {
    match card.rank() {
        Rank::Jack | Rank::Queen | Rank::King | Rank::BlackJoker | Rank::RedJoker => 0,
        r => r.pips() as usize,
    }
}

/// The half points of value index `k`.
const fn value_halves(k: usize) -> Halves {
    if k == 0 {
        1
    } else {
        2 * k as Halves
    }
}

/// The bot's reading of one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Chance that the next card busts the hand.
    pub bust: f64,
    /// Chance that the next card makes exactly 10½.
    pub ten_and_a_half: f64,
    /// Chance that the next card is a fifth card within 10½ (五龙).
    pub five_dragon: f64,
    /// Chance of being the showdown's loser when standing now.
    pub lose_showdown: f64,
    /// Expected penalty points of standing now.
    pub stand_cost: f64,
    /// Expected penalty points of hitting now and playing on as well as the bot can, less
    /// the credit for the cards it would take from later rounds.
    pub hit_cost: f64,
}

/// How one other player may end the round, as far as the bot's showdown is concerned.
enum Rival {
    /// Already stood: the face-up cards are known; the base card is one of `bases`, the
    /// unseen cards that make a total the player could have stood on.
    Stood {
        hits: Halves,
        cards: u8,
        best_hit: u8,
        bases: Vec<Card>,
    },
    /// Still to play: assumed to play the seed's policy from a fresh base card.
    Later,
}

/// How a player still to act ends the round under the seed's policy, busts aside (a bust
/// starts a fresh hand, so the end is drawn from the same distribution).
struct Fresh {
    /// Chance of winning outright.
    win: f64,
    /// Chance of standing on each total with each number of cards.
    stand: Table,
    /// Expected busts in the player's round.
    busts: f64,
    /// Expected cards the player's round takes from the deck, new base cards included.
    cards: f64,
}

impl Fresh {
    /// What one card drawn now is worth to a player, in penalty points, while the deck
    /// will serve more rounds: every card taken shortens the game by 1/(cards a round
    /// takes) of a round, and a round costs an average seat (pot + busts) / players.
    fn card_credit(&self, players: usize) -> f64 {
        let n = players as f64;
        let pot = f64::from(POT_BASE) + f64::from(POT_PER_WINNER) * n * self.win;
        let per_seat = (pot + n * f64::from(BUST_PENALTY) * self.busts) / n;
        let per_round_cards = n * self.cards;
        if per_round_cards > 0.0 {
            per_seat / per_round_cards
        } else {
            0.0
        }
    }
}

/// The counter.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingBot;

impl CountingBot {
    /// The bot's reading of the viewer's decision, `None` if the viewer is not to act.
    pub fn estimate(view: &View) -> Option<Estimate> {
        let me = view.me()?;
        if view.to_act != Some(me.seat) {
            return None;
        }
        let hand = Hand::of(&view.my_cards())?;
        let unseen = CardSet::from_bits(!view.seen().bits());
        let mut counts = [0u32; VALUES];
        for c in unseen.iter() {
            counts[value_index(c)] += 1;
        }
        let total: u32 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let p: [f64; VALUES] = counts.map(|n| f64::from(n) / f64::from(total));
        let fresh = seed_policy_outcome(&p);
        let rivals = rivals(view, unseen);
        let known_winners = view.winners;
        let stand_cost = |t: Halves, n: usize, best: Option<u8>| {
            let (_, cost) = showdown_cost(&rivals, &fresh, known_winners, t, n as u8, best);
            cost
        };
        let mut stand_table: Table = [[0.0; MAX_CARDS]; TOTALS];
        for (t, row) in stand_table
            .iter_mut()
            .enumerate()
            .skip(MAY_STAND_FROM as usize)
        {
            for (n, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = stand_cost(t as Halves, n, None);
            }
        }
        let credit = card_credit(view, &fresh);
        let (values, fresh_cost) = play_on_values(&p, &stand_table, credit);
        let (t0, n0) = (hand.total(), hand.len());
        let mut est = Estimate {
            bust: 0.0,
            ten_and_a_half: 0.0,
            five_dragon: 0.0,
            lose_showdown: 0.0,
            stand_cost: 0.0,
            hit_cost: -credit,
        };
        for (k, &pk) in p.iter().enumerate() {
            let t = t0 + value_halves(k);
            if t > TEN_AND_A_HALF {
                est.bust += pk;
                est.hit_cost += pk * (f64::from(BUST_PENALTY) - credit + fresh_cost);
            } else if t == TEN_AND_A_HALF {
                est.ten_and_a_half += pk;
            } else if n0 + 1 == MAX_CARDS {
                est.five_dragon += pk;
            } else {
                est.hit_cost += pk * values[t as usize][n0 + 1];
            }
        }
        let best = hand.best().map(strength);
        let (lose, cost) = showdown_cost(&rivals, &fresh, known_winners, t0, n0 as u8, best);
        est.lose_showdown = lose;
        est.stand_cost = cost;
        Some(est)
    }

    /// The counter's choice for the viewer: the cheaper of standing and hitting.
    pub fn choose(view: &View) -> Action {
        let must_hit = view
            .me()
            .and_then(|_| Hand::of(&view.my_cards()))
            .is_none_or(|h| h.must_hit());
        if must_hit {
            return Action::Hit;
        }
        match CountingBot::estimate(view) {
            Some(e) if e.stand_cost <= e.hit_cost => Action::Stand,
            _ => Action::Hit,
        }
    }
}

impl Bot<TenHalf> for CountingBot {
    fn act(&mut self, decision: &Decision<'_, TenHalf>) -> Action {
        let legal = decision.legal();
        if legal.len() == 1 {
            return legal[0];
        }
        let choice = CountingBot::choose(&decision.view());
        if legal.contains(&choice) {
            choice
        } else {
            Action::Hit
        }
    }
}

/// The value of drawing a card now ([`Fresh::card_credit`]), if the deck is expected to
/// serve another round after this one; nothing in a game's last round.
fn card_credit(view: &View, fresh: &Fresh) -> f64 {
    let players = view.players.len();
    let to_play = view
        .players
        .iter()
        .filter(|p| matches!(p.status, Status::Waiting | Status::Playing))
        .count();
    let left_after_round = view.deck_left as f64 - to_play as f64 * fresh.cards;
    if left_after_round >= players as f64 {
        fresh.card_credit(players)
    } else {
        0.0
    }
}

/// The other players who may still meet the viewer at the showdown.
fn rivals(view: &View, unseen: CardSet) -> Vec<Rival> {
    let me = view.viewer.seat();
    let deck_empty = view.deck_left == 0;
    view.order()
        .filter(|&s| Some(s) != me)
        .filter_map(|s| {
            let p = &view.players[s];
            match p.status {
                Status::Waiting => Some(Rival::Later),
                Status::Stood => {
                    let hits: Halves = p.hits.iter().map(|&c| halves(c)).sum();
                    let best_hit = p.hits.iter().map(|&c| strength(c)).max().unwrap_or(0);
                    let last_hit = p.hits.last().map_or(0, |&c| halves(c));
                    // The base cards the player could have stood on: first those with which
                    // the seed's policy would have hit until the last card and then stood,
                    // then any the rules allow, then any at all. `(stand_from, hit_below)`:
                    // the total stood on is at least `stand_from`; the total before the last
                    // hit was below `hit_below`.
                    let stood_on = |(stand_from, hit_below): (Halves, Halves)| {
                        move |c: &Card| {
                            let t = hits + halves(*c);
                            let before = t - last_hit;
                            t < TEN_AND_A_HALF
                                && (deck_empty || t >= stand_from)
                                && (last_hit == 0 || before < hit_below)
                        }
                    };
                    let beliefs = [
                        (SEED_STANDS_AT, SEED_STANDS_AT),
                        (MAY_STAND_FROM, TEN_AND_A_HALF),
                        (0, Halves::MAX),
                    ];
                    let bases: Vec<Card> = match p.base {
                        Some(b) => vec![b],
                        None => beliefs
                            .into_iter()
                            .map(|b| unseen.iter().filter(stood_on(b)).collect::<Vec<_>>())
                            .find(|fits| !fits.is_empty())
                            .unwrap_or_default(),
                    };
                    Some(Rival::Stood {
                        hits,
                        cards: p.cards() as u8,
                        best_hit,
                        bases,
                    })
                }
                Status::Playing | Status::Won(_) | Status::Out => None,
            }
        })
        .collect()
}

/// Chance that a rival with total `t2`, `n2` cards does not beat the viewer's `t`, `n`: 1
/// if the rival is higher, ½ on a tie the best cards decide without the bot knowing them.
fn above(t2: Halves, n2: u8, t: Halves, n: u8) -> f64 {
    match (t2, n2).cmp(&(t, n)) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The chance of losing the showdown standing on `t` with `n` cards (best card `best` if
/// known), and the expected penalty of it: the loser pays 2 plus 2 per winner of the round.
fn showdown_cost(
    rivals: &[Rival],
    fresh: &Fresh,
    known_winners: u32,
    t: Halves,
    n: u8,
    best: Option<u8>,
) -> (f64, f64) {
    // For each rival: the chance they do not stand above the viewer (a_j) and the chance
    // they win the round (w_j, which also keeps them out of the way).
    let mut a = Vec::with_capacity(rivals.len());
    let mut w = Vec::with_capacity(rivals.len());
    for rival in rivals {
        match rival {
            Rival::Later => {
                let mut p = fresh.win;
                for (t2, row) in fresh.stand.iter().enumerate() {
                    for (n2, &q) in row.iter().enumerate() {
                        if q > 0.0 {
                            p += q * above(t2 as Halves, n2 as u8, t, n);
                        }
                    }
                }
                a.push(p);
                w.push(fresh.win);
            }
            Rival::Stood {
                hits,
                cards,
                best_hit,
                bases,
            } => {
                let mut above_me = 0.0;
                for &c in bases {
                    let t2 = hits + halves(c);
                    above_me += match best {
                        Some(b) if (t2, *cards) == (t, n) => {
                            f64::from(u8::from((*best_hit).max(strength(c)) > b))
                        }
                        _ => above(t2, *cards, t, n),
                    };
                }
                a.push(above_me / bases.len().max(1) as f64);
                w.push(0.0);
            }
        }
    }
    let everyone_above: f64 = a.iter().product();
    let base_pot = f64::from(POT_BASE + POT_PER_WINNER * known_winners);
    let mut cost = base_pot * everyone_above;
    for (j, &wj) in w.iter().enumerate() {
        if wj > 0.0 {
            let others: f64 = a
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .map(|(_, &ai)| ai)
                .product();
            cost += f64::from(POT_PER_WINNER) * wj * others;
        }
    }
    (everyone_above, cost)
}

/// How a player still to act ends the round under the seed's fixed policy.
fn seed_policy_outcome(p: &[f64; VALUES]) -> Fresh {
    let mut mass: Table = [[0.0; MAX_CARDS]; TOTALS];
    let mut stand: Table = [[0.0; MAX_CARDS]; TOTALS];
    let (mut win, mut bust) = (0.0, 0.0);
    // Cards one attempt (a base card and its hits, up to a stand, a win or a bust) takes.
    let mut drawn = 1.0;
    for (k, &pk) in p.iter().enumerate() {
        mass[value_halves(k) as usize][1] += pk;
    }
    for t in 0..TOTALS {
        for n in 1..MAX_CARDS {
            let m = mass[t][n];
            if m == 0.0 {
                continue;
            }
            if t as Halves >= SEED_STANDS_AT {
                stand[t][n] += m;
                continue;
            }
            drawn += m;
            for (k, &pk) in p.iter().enumerate() {
                let t2 = t + value_halves(k) as usize;
                if t2 > TEN_AND_A_HALF as usize {
                    bust += m * pk;
                } else if t2 == TEN_AND_A_HALF as usize || n + 1 == MAX_CARDS {
                    win += m * pk;
                } else {
                    mass[t2][n + 1] += m * pk;
                }
            }
        }
    }
    let kept = 1.0 - bust;
    if kept <= 0.0 {
        return Fresh {
            win,
            stand,
            busts: 0.0,
            cards: drawn,
        };
    }
    win /= kept;
    for row in &mut stand {
        for q in row.iter_mut() {
            *q /= kept;
        }
    }
    // Attempts are repeated until one does not bust: 1/kept attempts, 1/kept − 1 busts.
    Fresh {
        win,
        stand,
        busts: bust / kept,
        cards: drawn / kept,
    }
}

/// The expected penalty of every open hand when played on as well as the model allows, and
/// that of a fresh hand after a bust (its own fixed point: a fresh hand can bust again).
/// Every card drawn, a bust's new base card included, earns `credit`.
fn play_on_values(p: &[f64; VALUES], stand: &Table, credit: f64) -> (Table, f64) {
    let mut values: Table = [[0.0; MAX_CARDS]; TOTALS];
    let mut fresh = f64::from(BUST_PENALTY);
    for _ in 0..8 {
        for t in (0..TOTALS - 1).rev() {
            for n in 1..MAX_CARDS {
                let mut hit = -credit;
                for (k, &pk) in p.iter().enumerate() {
                    let t2 = t + value_halves(k) as usize;
                    if t2 > TEN_AND_A_HALF as usize {
                        hit += pk * (f64::from(BUST_PENALTY) - credit + fresh);
                    } else if t2 < TEN_AND_A_HALF as usize && n + 1 < MAX_CARDS {
                        hit += pk * values[t2][n + 1];
                    }
                }
                values[t][n] = if t as Halves >= MAY_STAND_FROM {
                    hit.min(stand[t][n])
                } else {
                    hit
                };
            }
        }
        fresh = p
            .iter()
            .enumerate()
            .map(|(k, &pk)| pk * values[value_halves(k) as usize][1])
            .sum();
    }
    (values, fresh)
}
