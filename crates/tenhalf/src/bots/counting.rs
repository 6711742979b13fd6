//! A card counter: it knows exactly which cards it has not seen, and from them the chances of
//! busting, of 10½, of 五龙 and of losing the showdown, and takes the choice with the lower
//! expected penalty.
//!
//! The next card is equally likely to be any card the bot has not seen (the deck and the
//! other players' face-down base cards are one unseen pile to it), so the odds of every draw
//! come from the exact composition of that pile. Further along, the model simplifies in the
//! usual ways of a one-pass estimate: later draws use the same composition, players still to
//! act are assumed to play the original rules' fixed policy, and rivals are independent of each other.
//!
//! Two things about the deck count besides its composition. Near its end, players still to
//! act may find it empty and have to stand where they are, often low: the bot works out how
//! many cards each of them can expect ([`seed_policy_endings`]). And the game lasts as long
//! as the deck (rule 16), so every card drawn brings the end nearer and saves everyone a
//! share of a later round's penalties: while more rounds are to come, the bot credits each
//! card it draws with that share ([`card_credit`]).

use super::odds::{
    not_below, seed_policy_endings, value_halves, value_index, Ending, Table, BUDGETS,
    MAY_STAND_FROM, TOTALS, VALUES, ZEROS,
};
use super::seed::SEED_STANDS_AT;
use crate::hand::{halves, strength, Halves, Hand, MAX_CARDS, TEN_AND_A_HALF};
use crate::state::{BUST_PENALTY, POT_BASE, POT_PER_WINNER};
use crate::view::View;
use crate::{Action, Status, TenHalf};
use cards::{Card, CardSet};
use game::{Bot, Decision};

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

/// A player who already stood: the face-up cards are known; the base card is one of
/// `bases`, the unseen cards with which they would have played as they did.
struct Stood {
    hits: Halves,
    cards: u8,
    best_hit: u8,
    bases: Vec<Card>,
}

impl Stood {
    /// How this player stands, by total and card count (the best card aside).
    fn stand(&self) -> Table {
        let mut stand = ZEROS;
        let share = 1.0 / self.bases.len().max(1) as f64;
        for &c in &self.bases {
            let t = (self.hits + halves(c)).min(TEN_AND_A_HALF);
            stand[t as usize][usize::from(self.cards).min(MAX_CARDS - 1)] += share;
        }
        stand
    }

    /// The chance that this player's hand is higher than `t` points in `n` cards with best
    /// card `best`: exact, best cards included.
    fn higher_than(&self, t: Halves, n: u8, best: u8) -> f64 {
        let higher = self
            .bases
            .iter()
            .filter(|&&c| {
                let key = (self.hits + halves(c), self.cards);
                key > (t, n) || (key == (t, n) && self.best_hit.max(strength(c)) > best)
            })
            .count();
        higher as f64 / self.bases.len().max(1) as f64
    }
}

/// One rival as the showdown cost needs it: the chance of not standing below each hand, and
/// the chance of winning the round (which adds to the pot).
struct Odds {
    not_below: Table,
    win: f64,
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
        let endings = seed_policy_endings(&p);
        let credit = card_credit(view, &endings[BUDGETS]);
        let stood = stood_rivals(view, unseen);
        let later = view
            .players
            .iter()
            .filter(|p| p.status == Status::Waiting)
            .count();
        let odds_when = |left: usize| -> Vec<Odds> {
            let mut odds: Vec<Odds> = stood
                .iter()
                .map(|s| Odds {
                    not_below: not_below(0.0, &s.stand()),
                    win: 0.0,
                })
                .collect();
            odds.extend(budgets(left, later, &endings).map(|b| Odds {
                not_below: endings[b].not_below(),
                win: endings[b].win,
            }));
            odds
        };
        let winners = view.winners;
        let left = view.deck_left;
        let after_hit = stand_costs(&odds_when(left.saturating_sub(1)), winners);
        let (values, fresh_cost) = play_on_values(&p, &after_hit, credit);
        let (t0, n0) = (hand.total(), hand.len());
        let last_card = left == 1;
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
                // On the last card a bust leaves the round: no new base, no showdown.
                let after = if last_card { 0.0 } else { fresh_cost - credit };
                est.hit_cost += pk * (f64::from(BUST_PENALTY) + after);
            } else if t == TEN_AND_A_HALF {
                est.ten_and_a_half += pk;
            } else if n0 + 1 == MAX_CARDS {
                est.five_dragon += pk;
            } else if last_card {
                est.hit_cost += pk * after_hit[t as usize][n0 + 1];
            } else {
                est.hit_cost += pk * values[t as usize][n0 + 1];
            }
        }
        // Standing now, compared exactly with the hands that already stood.
        let best = hand.best().map_or(0, strength);
        let mut not_below_now: Vec<f64> = stood
            .iter()
            .map(|s| s.higher_than(t0, n0 as u8, best))
            .collect();
        let mut wins = vec![0.0; stood.len()];
        for b in budgets(left, later, &endings) {
            not_below_now.push(endings[b].not_below()[t0 as usize][n0]);
            wins.push(endings[b].win);
        }
        let (lose, cost) = showdown_cost(&not_below_now, &wins, winners);
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

/// What one card drawn now is worth, in penalty points, if the deck is expected to serve
/// another round after this one (nothing in a game's last round): every card taken shortens
/// the game by 1/(cards a round takes) of a round, and a round costs an average seat
/// (pot + busts) / players. `round` is how a player's round ends with a deck to spare.
fn card_credit(view: &View, round: &Ending) -> f64 {
    let players = view.players.len() as f64;
    let cards_per_player = 1.0 + round.draws;
    let to_play = view
        .players
        .iter()
        .filter(|p| matches!(p.status, Status::Waiting | Status::Playing))
        .count() as f64;
    if (view.deck_left as f64) - to_play * cards_per_player < players {
        return 0.0;
    }
    let pot = f64::from(POT_BASE) + f64::from(POT_PER_WINNER) * players * round.win;
    let per_seat = (pot + players * f64::from(BUST_PENALTY) * round.busts) / players;
    per_seat / (players * cards_per_player)
}

/// The cards the deck holds for each of the `later` players still to act, in order, when
/// `left` are left as the viewer's turn ends: each takes what they expect to need.
fn budgets(left: usize, later: usize, endings: &[Ending]) -> impl Iterator<Item = usize> + '_ {
    let mut left = left as f64;
    (0..later).map(move |_| {
        let budget = (left.max(0.0).round() as usize).min(BUDGETS);
        left -= endings[budget].draws;
        budget
    })
}

/// The players who already stood, with the base cards they may hold.
fn stood_rivals(view: &View, unseen: CardSet) -> Vec<Stood> {
    let me = view.viewer.seat();
    let deck_empty = view.deck_left == 0;
    view.order()
        .filter(|&s| Some(s) != me)
        .map(|s| &view.players[s])
        .filter(|p| p.status == Status::Stood)
        .map(|p| {
            let hits: Halves = p.hits.iter().map(|&c| halves(c)).sum();
            let best_hit = p.hits.iter().map(|&c| strength(c)).max().unwrap_or(0);
            let last_hit = p.hits.last().map_or(0, |&c| halves(c));
            // First the bases with which the original rules' policy would have hit until the last
            // card and then stood, then any the rules allow, then any at all.
            // `(stand_from, hit_below)`: the total stood on is at least `stand_from`; the
            // total before the last hit was below `hit_below`.
            let stood_on = |(stand_from, hit_below): (Halves, Halves)| {
                move |c: &Card| {
                    let t = hits + halves(*c);
                    t < TEN_AND_A_HALF
                        && (deck_empty || t >= stand_from)
                        && (last_hit == 0 || t - last_hit < hit_below)
                }
            };
            let beliefs = [
                (SEED_STANDS_AT, SEED_STANDS_AT),
                (MAY_STAND_FROM, TEN_AND_A_HALF),
                (0, Halves::MAX),
            ];
            let bases = match p.base {
                Some(b) => vec![b],
                None => beliefs
                    .into_iter()
                    .map(|b| unseen.iter().filter(stood_on(b)).collect::<Vec<_>>())
                    .find(|fits| !fits.is_empty())
                    .unwrap_or_default(),
            };
            Stood {
                hits,
                cards: p.cards() as u8,
                best_hit,
                bases,
            }
        })
        .collect()
}

/// The chance of losing the showdown and its expected penalty, from each rival's chance of
/// not standing below the viewer (`not_below`) and of winning the round (`wins`): the loser
/// pays 2 plus 2 per winner of the round.
fn showdown_cost(not_below: &[f64], wins: &[f64], known_winners: u32) -> (f64, f64) {
    let everyone_above: f64 = not_below.iter().product();
    let base_pot = f64::from(POT_BASE + POT_PER_WINNER * known_winners);
    let mut cost = base_pot * everyone_above;
    for (j, &wj) in wins.iter().enumerate() {
        if wj > 0.0 {
            let others: f64 = not_below
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .map(|(_, &a)| a)
                .product();
            cost += f64::from(POT_PER_WINNER) * wj * others;
        }
    }
    (everyone_above, cost)
}

/// The expected penalty of standing on each total with each number of cards.
fn stand_costs(rivals: &[Odds], known_winners: u32) -> Table {
    let wins: Vec<f64> = rivals.iter().map(|r| r.win).collect();
    let mut costs = ZEROS;
    let mut not_below = vec![0.0; rivals.len()];
    for (t, row) in costs.iter_mut().enumerate() {
        for (n, cell) in row.iter_mut().enumerate().skip(1) {
            for (a, r) in not_below.iter_mut().zip(rivals) {
                *a = r.not_below[t][n];
            }
            *cell = showdown_cost(&not_below, &wins, known_winners).1;
        }
    }
    costs
}

/// The expected penalty of every open hand when played on as well as the model allows, and
/// that of a fresh hand after a bust (its own fixed point: a fresh hand can bust again).
/// Every card drawn, a bust's new base card included, earns `credit`.
fn play_on_values(p: &[f64; VALUES], stand: &Table, credit: f64) -> (Table, f64) {
    let mut values: Table = ZEROS;
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
