//! Search by determinization: the `search` bot of the card games.
//!
//! A card player does not know the other hands, so it cannot search the game tree. It can
//! deal the cards it has not seen at random, in a way that agrees with everything its seat
//! has seen (cards played, the kitty shown, hand sizes), and in each such world play every
//! candidate move out to the end with a fast policy. The move with the best mean result over
//! the worlds is the choice. The same worlds serve every candidate, so their differences are
//! measured with less noise than independent samples would give.
//!
//! A game opts in with [`Determinize`]: how to deal a world from a view, which moves are
//! worth trying, which fast bot plays the worlds out and what a finished world is worth to
//! the seat, and, if it can, how plausible a world makes what the other seats did
//! ([`Determinize::plausibility`]): worlds are kept with that chance, so a player who passed
//! is believed not to hold what it would surely have played; and, if it can, which worlds
//! the seat's side is sure to win ([`Determinize::proven_win`]), which then need no
//! play-out; and, if it can, which seats seem to play at random
//! ([`Determinize::random_play`]), who then play that share of the worlds out at random.
//! [`SearchBot`] does the rest under a [`Budget`].
//!
//! The bot sees only its [`Decision`]'s view, never the state: the worlds it plays out are
//! its own guesses. Its randomness comes from its seed and a hash of the view, so with a
//! sample budget (no time limit) the same view gives the same move on any machine.

use crate::sim::play_to_end;
use crate::{deal, Bot, Decision, GameRng, RandomBot, Rules, Seat, Seed};
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::time::{Duration, Instant};

/// What a game provides for [`SearchBot`].
pub trait Determinize: Rules {
    /// A whole state agreeing with everything `view` (the view of `seat`) shows: the cards
    /// the seat has not seen dealt at random among the hands (and a hidden kitty) that
    /// could hold them. `None` if the view is not one a seat can act from.
    fn determinize(view: &Self::View, seat: Seat, rng: &mut GameRng) -> Option<Self::State>;

    /// The moves worth trying, most promising first (ties go to the earlier one), at most
    /// about `limit` of them; a subset of `legal`. Rules a player must keep (a peasant
    /// stops a landlord about to go out) are kept by leaving the other moves out.
    fn candidates(
        view: &Self::View,
        seat: Seat,
        legal: &[Self::Action],
        limit: usize,
    ) -> Vec<Self::Action>;

    /// The fast player that plays a sampled world out, one per seat.
    fn rollout_bot(seed: &Seed) -> Box<dyn Bot<Self>>;

    /// What the finished world `end` is worth to `seat`, whose view at the decision was
    /// `view` (higher is better): a win, a score, or both.
    fn value(view: &Self::View, seat: Seat, end: &Self::State) -> f64;

    /// How likely the other seats were to act as the view shows they did, had the hidden
    /// cards been those of `world`: 1 for a world that explains every action, less for one
    /// in which a player would have acted otherwise (say, passed while holding an easy
    /// beat). Worlds are kept with this chance, so what the others did shapes what they
    /// are believed to hold. It is a chance, never a verdict: a person may pass with a beat
    /// in hand, and a world that contradicts them must stay possible. The default draws no
    /// inference. The judgement may stop as soon as the chance is below `floor` and return
    /// what it has: such a world will be thrown away, and should cost little.
    ///
    /// `at_random` are the seats this world has play at random
    /// ([`Determinize::random_play`]): their actions are judged as a random player's, each
    /// of its `n` choices with chance `1/n`, never against the model of a careful one.
    /// Judged as careful, a random player who passes holding a bomb would be believed not
    /// to hold one; judged as random, its pass makes a world with few beats in its hand
    /// only somewhat likelier than one with many.
    fn plausibility(
        view: &Self::View,
        seat: Seat,
        world: &Self::State,
        at_random: &[Seat],
        floor: f64,
    ) -> f64 {
        let _ = (view, seat, world, at_random, floor);
        1.0
    }

    /// What the world `state` (just after the seat's candidate) is worth to `seat` if the
    /// game can prove that the seat's side wins it however the others play: an endgame
    /// small enough to solve with every hand open. A play-out may throw such a world away
    /// (the fast player errs), where the seat itself would not. A lost world is not proven
    /// (that assumes opponents who play perfectly with open cards), so `None` plays the
    /// world out; the default proves nothing.
    fn proven_win(view: &Self::View, seat: Seat, state: &Self::State) -> Option<f64> {
        let _ = (view, seat, state);
        None
    }

    /// Per seat, the chance that it plays at random rather than like
    /// [`Determinize::rollout_bot`], judged from what it has done so far (a newcomer
    /// clicking anything, a random bot): in that share of the worlds the seat plays the
    /// world out at random. The model of the other players decides which plays look good:
    /// against a careful player a landlord keeps its high cards for the fight, against a
    /// random one it can spend them, since nobody is saving a bomb. The judgement may draw
    /// from `rng`. Empty (the default) for a game that judges nobody: every seat plays like
    /// the rollout bot, and no random draw is spent.
    fn random_play(view: &Self::View, seat: Seat, rng: &mut GameRng) -> Vec<f64> {
        let _ = (view, seat, rng);
        Vec::new()
    }

    /// Whether [`Determinize::plausibility`] draws any inference; a game that overrides it
    /// sets this too. A game that does not keeps the first world it deals and spends no
    /// random draw on keeping it, so its searches (and the games measured with them) are
    /// what they were before inference existed.
    const INFERS: bool = false;
}

/// How many worlds are dealt, at most, to find one that [`Determinize::plausibility`]
/// keeps; if none is kept, the most plausible of them is used. It bounds the cost of
/// inference when the view is hard to explain (a player acting against its model).
const TRIES_PER_WORLD: u32 = 16;

/// How much a [`SearchBot`] may think about one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Worlds played out per move, over all candidates: the samples per candidate are this
    /// divided by the number of candidates, within `min_samples..=max_samples`. It keeps
    /// the time per move about even, whether there are two candidates or twenty.
    pub playouts: u32,
    /// The fewest worlds each candidate is played out in.
    pub min_samples: u32,
    /// The most worlds each candidate is played out in.
    pub max_samples: u32,
    /// The most candidates tried.
    pub candidates: usize,
    /// A wall-clock limit per move; `None` for none. With a limit the bot stops early and
    /// its moves no longer reproduce, so tests and experiments leave it out.
    pub time: Option<Duration>,
}

impl Budget {
    /// The default setting (`search`): about 50 ms a move on one core of a laptop.
    pub const DEFAULT: Budget = Budget {
        playouts: 4_000,
        min_samples: 12,
        max_samples: 200,
        candidates: 16,
        time: None,
    };
    /// `search:fast`: about 10 ms a move, for filling many seats at once.
    pub const FAST: Budget = Budget {
        playouts: 240,
        min_samples: 4,
        max_samples: 60,
        candidates: 12,
        time: None,
    };
    /// `search:strong`: about 1 s a move.
    pub const STRONG: Budget = Budget {
        playouts: 80_000,
        min_samples: 100,
        max_samples: 2_000,
        candidates: 24,
        time: None,
    };

    /// The budget a bot name asks for, `prefix` being the bot's base name (`search`):
    /// `search`, `search:fast`, `search:strong`, `search:N` (exactly N worlds per
    /// candidate, 1–100000) or `search:Nms` (the default's worlds, but stopping after N
    /// milliseconds, 1–60000). `None` for any other name.
    pub fn from_name(name: &str, prefix: &str) -> Option<Budget> {
        let rest = name.strip_prefix(prefix)?;
        if rest.is_empty() {
            return Some(Budget::DEFAULT);
        }
        let setting = rest.strip_prefix(':')?;
        match setting {
            "fast" => Some(Budget::FAST),
            "strong" => Some(Budget::STRONG),
            _ => {
                if let Some(ms) = setting.strip_suffix("ms") {
                    let ms: u64 = ms.parse().ok().filter(|m| (1..=60_000).contains(m))?;
                    return Some(Budget {
                        playouts: u32::MAX,
                        max_samples: 100_000,
                        time: Some(Duration::from_millis(ms)),
                        ..Budget::DEFAULT
                    });
                }
                let n: u32 = setting.parse().ok().filter(|n| (1..=100_000).contains(n))?;
                Some(Budget {
                    playouts: 0,
                    min_samples: n,
                    max_samples: n,
                    ..Budget::DEFAULT
                })
            }
        }
    }

    /// Worlds per candidate when there are `candidates` of them.
    fn samples(&self, candidates: usize) -> u32 {
        let share = self.playouts / candidates.max(1) as u32;
        share.clamp(self.min_samples, self.max_samples.max(self.min_samples))
    }
}

/// The bot names a card game with a heuristic and a search bot lists, weakest first: what a
/// table or the terminal may seat. [`Budget::from_name`] also reads `search:N` and
/// `search:Nms` wherever a name is taken as given (self-play, the judge's `act`).
pub const CARD_BOT_NAMES: &[&str] = &[
    "random",
    "heuristic",
    "search:fast",
    "search",
    "search:strong",
];

/// The bot a card game seats when nobody picks one: the default setting (tens of
/// milliseconds a move), not `search:strong` (about a second), which a table must ask for.
pub const CARD_DEFAULT_BOT: &str = "search";

/// The `search` bot: plays each candidate move out in sampled worlds and keeps the best
/// (see the module docs).
pub struct SearchBot<R: Determinize> {
    budget: Budget,
    seed: Seed,
    players: Vec<Box<dyn Bot<R>>>,
    /// Random players, one per seat, swapped in for the seats a world has play at random
    /// ([`Determinize::random_play`]).
    randoms: Vec<Box<dyn Bot<R>>>,
    legal: Vec<R::Action>,
    events: Vec<R::Event>,
}

impl<R: Determinize> SearchBot<R> {
    /// A search bot with `budget`, its randomness drawn from `seed`; `seats` fast players
    /// play the worlds out.
    pub fn new(budget: Budget, seed: &Seed, seats: usize) -> Self {
        SearchBot {
            budget,
            seed: *seed,
            players: (0..seats)
                .map(|s| R::rollout_bot(&seed.derive(s as u64)))
                .collect(),
            randoms: (0..seats)
                .map(|_| Box::new(RandomBot::new(seed)) as Box<dyn Bot<R>>)
                .collect(),
            legal: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Each candidate with its mean value over the worlds played, in candidate order, and
    /// the number of worlds: the bot's reasoning, for tests and tools. Empty when the view
    /// cannot be sampled.
    pub fn evaluate(&mut self, decision: &Decision<'_, R>) -> Evaluation<R::Action> {
        let view = decision.view();
        let seat = decision.seat();
        let candidates = R::candidates(&view, seat, decision.legal(), self.budget.candidates);
        let mut eval = Evaluation {
            values: vec![Vec::new(); candidates.len()],
            candidates,
        };
        if eval.candidates.len() <= 1 {
            return eval;
        }
        let mut rng = self.world_seed(&*view).rng();
        let samples = self.budget.samples(eval.candidates.len());
        let deadline = self.budget.time.map(|t| Instant::now() + t);
        let careless = R::random_play(&view, seat, &mut rng);
        let mut at_random = Vec::with_capacity(careless.len());
        for played in 0..samples {
            if deadline.is_some_and(|d| played >= 1 && Instant::now() >= d) {
                break;
            }
            // Who plays at random is drawn first: the cards are then dealt to fit the
            // others' actions only.
            at_random.clear();
            at_random.extend(
                careless
                    .iter()
                    .enumerate()
                    .filter(|&(s, &p)| s != seat && p > 0.0 && unit(&mut rng) < p)
                    .map(|(s, _)| s)
                    .filter(|&s| s < self.players.len()),
            );
            let Some(world) = sample::<R>(&view, seat, &at_random, &mut rng) else {
                break;
            };
            self.swap_random(&at_random);
            // Every candidate meets the same random players' draws in this world.
            let draws = if at_random.is_empty() {
                None
            } else {
                Some(Seed::from_u64(rng.next_u64()))
            };
            for (c, values) in eval.candidates.iter().zip(eval.values.iter_mut()) {
                if let Some(draws) = draws {
                    for &s in &at_random {
                        self.players[s] = Box::new(RandomBot::new(&draws.derive(s as u64)));
                    }
                }
                let v = self.play(&world, seat, c, &view);
                values.push(v);
            }
            self.swap_random(&at_random);
        }
        eval
    }

    /// Swaps the random player in for each of `seats` (or back out again).
    fn swap_random(&mut self, seats: &[Seat]) {
        for &s in seats {
            std::mem::swap(&mut self.players[s], &mut self.randoms[s]);
        }
    }

    /// The value of `action` in `world`, played out to the end.
    fn play(&mut self, world: &R::State, seat: Seat, action: &R::Action, view: &R::View) -> f64 {
        let mut state = world.clone();
        self.events.clear();
        if R::apply(&mut state, seat, action.clone(), &mut self.events).is_err() {
            return f64::NEG_INFINITY;
        }
        if let Some(won) = R::proven_win(view, seat, &state) {
            return won;
        }
        match play_to_end(
            &mut state,
            &mut self.players,
            &mut self.legal,
            &mut self.events,
        ) {
            Ok(_) => R::value(view, seat, &state),
            Err(_) => f64::NEG_INFINITY,
        }
    }

    /// The seed of this decision's worlds: the bot's seed and the view, so one view always
    /// gets the same worlds.
    fn world_seed(&self, view: &R::View) -> Seed {
        let mut h = Sha256::new();
        h.update(self.seed.0);
        h.update(serde_json::to_vec(view).unwrap_or_default());
        Seed(h.finalize().into())
    }
}

impl<R: Determinize> Bot<R> for SearchBot<R> {
    fn act(&mut self, decision: &Decision<'_, R>) -> R::Action {
        let legal = decision.legal();
        if legal.len() == 1 {
            return legal[0].clone();
        }
        let eval = self.evaluate(decision);
        match eval.choice() {
            Some(a) if legal.contains(a) => a.clone(),
            _ => legal[0].clone(),
        }
    }
}

/// The candidates of one decision and each one's values in the worlds played (the same
/// worlds for all, in the same order).
#[derive(Debug, Clone)]
pub struct Evaluation<A> {
    /// The candidates, the game's favourite first.
    pub candidates: Vec<A>,
    /// Per candidate, its value in each world.
    pub values: Vec<Vec<f64>>,
}

/// How sure the bot must be before leaving the game's favourite candidate: the mean gain
/// over it, world by world, in standard errors. Without it the noise of a few dozen worlds
/// picks an ordinary move over the favourite about as often as a real improvement does.
const CONFIDENCE: f64 = 1.0;

impl<A> Evaluation<A> {
    /// Each candidate's mean value.
    pub fn means(&self) -> Vec<f64> {
        self.values.iter().map(|v| mean(v)).collect()
    }

    /// The choice: the candidate with the best mean, if it beats the favourite (the first
    /// candidate) by more than chance in the same worlds; else the favourite.
    pub fn choice(&self) -> Option<&A> {
        let means = self.means();
        let best = means
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| a.total_cmp(b).then(j.cmp(i)))
            .map(|(i, _)| i)?;
        if best == 0 || self.values[0].len() < 2 {
            return self.candidates.get(best);
        }
        let gains: Vec<f64> = self.values[best]
            .iter()
            .zip(&self.values[0])
            .map(|(b, f)| b - f)
            .collect();
        let m = mean(&gains);
        let n = gains.len() as f64;
        let var = gains.iter().map(|g| (g - m) * (g - m)).sum::<f64>() / (n - 1.0);
        let sure = m > CONFIDENCE * (var / n).sqrt();
        self.candidates.get(if sure { best } else { 0 })
    }
}

/// A world that agrees with the view, kept with its [`Determinize::plausibility`] (the
/// seats in `at_random` play at random in it): a rejection sampler over at most
/// [`TRIES_PER_WORLD`] deals, falling back on the most plausible of them. These are the
/// worlds [`SearchBot`] plays out; a game's tests use it to measure how close its
/// inference comes to the true hands.
pub fn sample<R: Determinize>(
    view: &R::View,
    seat: Seat,
    at_random: &[Seat],
    rng: &mut GameRng,
) -> Option<R::State> {
    if !R::INFERS {
        return R::determinize(view, seat, rng);
    }
    let mut best: Option<(f64, R::State)> = None;
    for _ in 0..TRIES_PER_WORLD {
        let world = R::determinize(view, seat, rng)?;
        let draw = unit(rng);
        // Judged exactly down to the draw and to the best so far: below both, the world is
        // neither kept nor the fallback.
        let floor = best.as_ref().map_or(0.0, |(q, _)| draw.min(*q));
        let p = R::plausibility(view, seat, &world, at_random, floor);
        if draw < p {
            return Some(world);
        }
        if best.as_ref().is_none_or(|(q, _)| p > *q) {
            best = Some((p, world));
        }
    }
    best.map(|(_, w)| w)
}

/// A uniform draw from [0, 1).
fn unit(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The legal actions of `seat` in `view`, worked out in one world that agrees with it: a
/// seat's legal actions depend only on what it knows, so any such world gives them (the
/// judge's `act` op uses this when a request leaves them out). Empty if the view cannot be
/// sampled or the seat has nothing to do.
pub fn legal_in_view<R: Determinize>(view: &R::View, seat: Seat) -> Vec<R::Action> {
    let mut rng = Seed::from_u64(0).rng();
    R::determinize(view, seat, &mut rng).map_or_else(Vec::new, |world| R::legal(&world, seat))
}

/// Deals `pool` (a list of unseen cards) into hands of the given sizes, in order, after a
/// shuffle from `rng`: the common core of every game's [`Determinize::determinize`].
/// Returns `None` if the pool does not hold exactly the cards the sizes ask for.
pub fn deal_unseen<T: Copy>(
    pool: &mut [T],
    sizes: &[usize],
    rng: &mut GameRng,
) -> Option<Vec<Vec<T>>> {
    if sizes.iter().sum::<usize>() != pool.len() {
        return None;
    }
    deal::shuffle(pool, rng);
    let mut at = 0;
    Some(
        sizes
            .iter()
            .map(|&n| {
                let hand = pool[at..at + n].to_vec();
                at += n;
                hand
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_settings() {
        assert_eq!(Budget::from_name("search", "search"), Some(Budget::DEFAULT));
        assert_eq!(
            Budget::from_name("search:fast", "search"),
            Some(Budget::FAST)
        );
        assert_eq!(
            Budget::from_name("search:strong", "search"),
            Some(Budget::STRONG)
        );
        let n = Budget::from_name("search:40", "search").map(|b| b.samples(7));
        assert_eq!(n, Some(40));
        let t = Budget::from_name("search:50ms", "search").and_then(|b| b.time);
        assert_eq!(t, Some(Duration::from_millis(50)));
        for bad in [
            "searchx",
            "search:",
            "search:0",
            "search:slow",
            "search:0ms",
            "random",
        ] {
            assert_eq!(Budget::from_name(bad, "search"), None, "{bad}");
        }
    }

    #[test]
    fn samples_spread_the_playouts_over_the_candidates() {
        assert_eq!(Budget::DEFAULT.samples(2), 200);
        assert_eq!(Budget::DEFAULT.samples(40), 100);
        assert_eq!(Budget::DEFAULT.samples(1000), 12);
    }

    #[test]
    fn the_unseen_cards_are_dealt_whole() {
        let mut pool: Vec<u8> = (0..10).collect();
        let hands = deal_unseen(&mut pool, &[3, 7], &mut Seed::from_u64(1).rng());
        let hands = hands.unwrap_or_default();
        assert_eq!(hands.iter().map(Vec::len).collect::<Vec<_>>(), [3, 7]);
        let mut all: Vec<u8> = hands.concat();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert!(deal_unseen(&mut pool, &[3, 3], &mut Seed::from_u64(1).rng()).is_none());
    }
}
