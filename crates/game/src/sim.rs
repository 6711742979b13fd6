//! Self-play: bots against bots over many seeded games, with statistics per bot and role.
//!
//! Game `i` of a run is dealt from `Seed::from_u64(seed).derive(i)` (or, in a duplicate
//! run, from deal `i / seats`) and its bots are seeded from that game's seed, so a run's
//! results are the same whatever the thread count.

use crate::stats::{Summary, Tally};
use crate::{Bot, Decision, GameError, GameSpec, Outcome, Rules, Seat, Seed, ToAct};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What to play.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SimOptions {
    /// Table configuration in the game's JSON form (`null` for the default).
    pub config: serde_json::Value,
    /// One bot name per seat, in seat order for the first game.
    pub bots: Vec<String>,
    /// Number of games.
    pub games: u64,
    /// The index of the first game: a run with `first: k` plays games `k`, `k + 1`, … of
    /// the run that starts at 0 on the same seed, exactly as that run would (the deals and
    /// the bots' seeds depend only on the index), so a stopped run can be finished.
    #[serde(default)]
    pub first: u64,
    /// The run's seed number.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Rotate bots over seats from game to game (game `i` puts bot `(s + i) mod n` in seat
    /// `s`), so no bot keeps a seat's advantage.
    pub rotate: bool,
    /// Deal each deal once per seat, the bots rotated over it (with `rotate`): game `i` is
    /// dealt from deal `i / seats`, so every bot meets the same cards, or the same Gomoku
    /// opening, from every seat, and the luck of the deal cancels out.
    #[serde(default)]
    pub duplicate: bool,
}

impl SimOptions {
    /// A run with each bot kept in its seat (no rotation) on two threads: how experiments
    /// measure one role, such as a fixed landlord.
    pub fn seated(config: serde_json::Value, bots: &[&str], games: u64, seed: u64) -> Self {
        SimOptions {
            config,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            games,
            first: 0,
            seed,
            threads: 2,
            rotate: false,
            duplicate: false,
        }
    }

    /// The seed game `i` of a run at a table of `seats` is dealt from (see
    /// [`SimOptions::duplicate`]).
    pub fn game_seed(&self, i: u64, seats: usize) -> Seed {
        Seed::from_u64(self.seed).derive(self.deal(i, seats))
    }

    /// The indices of the games this run plays: `first .. first + games`; an error if
    /// there are none or they would not fit in a `u64`.
    pub fn indices(&self) -> Result<std::ops::Range<u64>, GameError> {
        if self.games == 0 {
            return Err(GameError::BadConfig("play at least one game".into()));
        }
        let end = self
            .first
            .checked_add(self.games)
            .ok_or_else(|| GameError::BadConfig("the first game's index is too large".into()))?;
        Ok(self.first..end)
    }

    /// The deal game `i` of a run at a table of `seats` is dealt from: `i` itself, or in a
    /// duplicate run `i / seats`.
    pub fn deal(&self, i: u64, seats: usize) -> u64 {
        if self.duplicate {
            i / seats.max(1) as u64
        } else {
            i
        }
    }
}

/// One finished game of a run, as [`run_each`] hands it over: what it takes to compare two
/// runs on the same deals game by game (the deals one bot lost that another won), or to
/// keep the games a long run finished before it was stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's index in the run.
    pub game: u64,
    /// The deal it was dealt from ([`SimOptions::deal`]): `game` itself except in a
    /// duplicate run, where each deal is played once per seat.
    pub deal: u64,
    /// The bot in each seat.
    pub bots: Vec<String>,
    /// Each seat's role in the game (landlord, peasant, black…).
    pub roles: Vec<String>,
    /// Whether each seat won.
    pub won: Vec<bool>,
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// Actions applied in the game.
    pub actions: u64,
}

impl GameResult {
    /// The result of game `i` of a run from its outcome, with `bots` in seat order.
    pub fn new(
        opts: &SimOptions,
        i: u64,
        bots: Vec<String>,
        outcome: &Outcome,
        actions: u64,
    ) -> Self {
        let seats = bots.len();
        GameResult {
            game: i,
            deal: opts.deal(i, seats),
            roles: (0..seats)
                .map(|s| {
                    outcome
                        .roles
                        .get(s)
                        .map_or("player", String::as_str)
                        .to_string()
                })
                .collect(),
            bots,
            won: outcome.won.clone(),
            scores: outcome.scores.clone(),
            actions,
        }
    }
}

/// Results of one bot name (all seats it sat in) over a run.
#[derive(Debug, Clone, Serialize)]
pub struct BotReport {
    /// The bot's name.
    pub bot: String,
    /// All its seat-games together.
    pub overall: Summary,
    /// Split by the role it had in each game.
    pub roles: BTreeMap<String, Summary>,
}

/// How long one bot thought, apart from the results because it is wall-clock time: it
/// grows on a busy machine, and the results never depend on it.
#[derive(Debug, Clone, Serialize)]
pub struct ThinkTime {
    /// The bot's name.
    pub bot: String,
    /// Its mean time, in milliseconds, over the decisions where it had a choice (two or
    /// more legal actions): what a table waits for it. Quick decisions are sampled, one in
    /// 64; slow ones are all timed (see `Stopwatch`).
    pub ms_per_choice: f64,
    /// The decisions with a choice it made.
    pub choices: u64,
}

/// A finished run.
#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    /// The game id.
    pub game: String,
    /// Games played.
    pub games: u64,
    /// Actions applied in all games.
    pub actions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second over all threads.
    pub games_per_s: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Per bot name, in the order first named.
    pub bots: Vec<BotReport>,
    /// Per bot name, in the same order, its thinking time (empty when not measured).
    pub think: Vec<ThinkTime>,
}

/// Per-thread tallies, indexed by bot (position in the de-duplicated bot list) and role
/// (position in `roles`, in order of first appearance): no allocation per game once every
/// role has been seen.
#[derive(Default, Clone)]
struct Acc {
    actions: u64,
    /// Per bot: the estimated nanoseconds spent on decisions with a choice, and how many.
    think: Vec<(f64, u64)>,
    overall: Vec<Tally>,
    roles: Vec<String>,
    by_role: Vec<Vec<Tally>>,
}

impl Acc {
    fn new(bots: usize) -> Self {
        Acc {
            overall: vec![Tally::default(); bots],
            think: vec![(0.0, 0); bots],
            ..Acc::default()
        }
    }

    fn role_index(&mut self, role: &str) -> usize {
        match self.roles.iter().position(|r| r == role) {
            Some(i) => i,
            None => {
                self.roles.push(role.to_string());
                self.by_role
                    .push(vec![Tally::default(); self.overall.len()]);
                self.roles.len() - 1
            }
        }
    }

    fn count(&mut self, bot: usize, role: &str, won: bool, drawn: bool, score: i64) {
        self.overall[bot].add(won, drawn, score);
        let r = self.role_index(role);
        self.by_role[r][bot].add(won, drawn, score);
    }

    fn merge(&mut self, other: Acc) {
        for (mine, theirs) in self.think.iter_mut().zip(&other.think) {
            mine.0 += theirs.0;
            mine.1 += theirs.1;
        }
        self.actions += other.actions;
        for (mine, theirs) in self.overall.iter_mut().zip(&other.overall) {
            mine.merge(theirs);
        }
        for (role, tallies) in other.roles.iter().zip(&other.by_role) {
            let r = self.role_index(role);
            for (mine, theirs) in self.by_role[r].iter_mut().zip(tallies) {
                mine.merge(theirs);
            }
        }
    }
}

/// Upper bound on actions in one game: a game that runs longer has a bug that would
/// otherwise hang self-play.
pub const MAX_ACTIONS: usize = 1_000_000;

/// Plays one game with the given bots (one per seat) to its end.
///
/// Simultaneous phases are played seat by seat in ascending order, as if the actions arrived
/// in that order. Returns the outcome and the number of actions applied.
pub fn play_out<R: Rules>(
    config: &R::Config,
    seed: &Seed,
    bots: &mut [Box<dyn Bot<R>>],
) -> Result<(R::State, Outcome, usize), GameError> {
    let mut state = R::start(config, bots.len(), seed).map_err(GameError::config)?;
    let actions = play_to_end(&mut state, bots, &mut Vec::new(), &mut Vec::new())?;
    let outcome =
        R::outcome(&state).ok_or_else(|| GameError::Stuck("finished without an outcome".into()))?;
    Ok((state, outcome, actions))
}

/// Plays a game in progress to its end with the given bots (one per seat), as
/// [`play_out`] does from the deal; the search bots play their sampled worlds out with it.
/// `legal` and `events` are scratch space, so a caller playing many games allocates once.
/// Returns the number of actions applied.
pub fn play_to_end<R: Rules>(
    state: &mut R::State,
    bots: &mut [Box<dyn Bot<R>>],
    legal: &mut Vec<R::Action>,
    events: &mut Vec<R::Event>,
) -> Result<usize, GameError> {
    let mut actions = 0usize;
    loop {
        let seat: Seat = match R::to_act(state) {
            ToAct::Finished => return Ok(actions),
            ToAct::Seat(s) => s,
            ToAct::Seats(set) => match set.iter().next() {
                Some(s) => s,
                None => return Err(GameError::Stuck("no seat to act".into())),
            },
        };
        legal.clear();
        R::legal_into(state, seat, legal);
        if legal.is_empty() || seat >= bots.len() {
            return Err(GameError::Stuck(format!(
                "seat {seat} is to act with no legal action or no player"
            )));
        }
        let action = bots[seat].act(&Decision::from_state(state, seat, legal));
        events.clear();
        R::apply(state, seat, action, events)?;
        actions += 1;
        if actions > MAX_ACTIONS {
            return Err(GameError::Stuck(format!(
                "no end after {MAX_ACTIONS} actions"
            )));
        }
    }
}

/// A bot's thinking time over the decisions where it had a choice, measured without a
/// clock read around every move: two reads cost about as much as a random bot's whole
/// decision, so timing each one slowed random self-play by a fifth.
///
/// A bot that thinks quickly is sampled: one decision in [`Stopwatch::STRIDE`] is timed
/// and stands for the others. A bot whose last timed decision took at least
/// [`Stopwatch::SLOW`] is timed at every decision, where the clock costs nothing beside its
/// thinking and a short run of a slow engine still gets an exact figure. The mean is the
/// slow decisions' exact total plus the fast ones' sampled mean times their count.
///
/// Each seat of each worker thread has its own stopwatch, written by that thread only
/// (loads and stores, never a locked add) and read once the thread is done.
#[derive(Default)]
struct Stopwatch {
    /// Decisions with a choice, fast or slow: the sampling's counter.
    choices: AtomicU64,
    /// Fast decisions with a choice, and the nanoseconds of the sampled ones and how many.
    fast: AtomicU64,
    fast_nanos: AtomicU64,
    fast_timed: AtomicU64,
    /// Slow decisions, every one timed.
    slow: AtomicU64,
    slow_nanos: AtomicU64,
    /// Whether the last timed decision was slow.
    slow_now: std::sync::atomic::AtomicBool,
}

impl Stopwatch {
    /// One fast decision in this many is timed.
    const STRIDE: u64 = 64;
    /// A decision this slow (in nanoseconds) dwarfs two clock reads.
    const SLOW: u64 = 20_000;

    /// Adds `n` to a counter only this thread writes.
    fn bump(counter: &AtomicU64, n: u64) {
        counter.store(
            counter.load(Ordering::Relaxed).saturating_add(n),
            Ordering::Relaxed,
        );
    }

    /// Runs one decision with a choice, timing it if it is sampled.
    fn time<T>(&self, decide: impl FnOnce() -> T) -> T {
        let n = self.choices.load(Ordering::Relaxed);
        self.choices.store(n + 1, Ordering::Relaxed);
        let slow = self.slow_now.load(Ordering::Relaxed);
        if !slow {
            Self::bump(&self.fast, 1);
            if !n.is_multiple_of(Self::STRIDE) {
                return decide();
            }
        }
        let started = Instant::now();
        let out = decide();
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        if slow {
            Self::bump(&self.slow, 1);
            Self::bump(&self.slow_nanos, nanos);
        } else {
            Self::bump(&self.fast_timed, 1);
            Self::bump(&self.fast_nanos, nanos);
        }
        self.slow_now.store(nanos >= Self::SLOW, Ordering::Relaxed);
        out
    }

    /// The estimated nanoseconds spent over all decisions with a choice, and how many.
    fn estimate(&self) -> (f64, u64) {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let fast_mean = match load(&self.fast_timed) {
            0 => 0.0,
            timed => load(&self.fast_nanos) as f64 / timed as f64,
        };
        (
            load(&self.slow_nanos) as f64 + fast_mean * load(&self.fast) as f64,
            load(&self.slow) + load(&self.fast),
        )
    }
}

/// A bot whose decisions are timed for the report.
struct Timed<R: Rules> {
    inner: Box<dyn Bot<R>>,
    clock: Arc<Stopwatch>,
}

impl<R: Rules> Bot<R> for Timed<R> {
    fn act(&mut self, decision: &Decision<'_, R>) -> R::Action {
        if decision.legal().len() < 2 {
            return self.inner.act(decision);
        }
        let inner = &mut self.inner;
        self.clock.time(|| inner.act(decision))
    }
}

/// The threads a run uses: as asked, but never more than there are games to play or
/// cores to play them on (a thread per `--threads 100000` would exhaust the machine).
pub fn worker_threads(asked: usize, games: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    asked
        .min(cores)
        .min(usize::try_from(games).unwrap_or(usize::MAX))
        .max(1)
}

/// Runs a self-play series for a game with bots (see [`SimOptions`]).
pub fn run<R: GameSpec>(opts: &SimOptions) -> Result<SimReport, GameError> {
    run_each::<R>(opts, None)
}

/// Runs a self-play series as [`run`] does, handing each game to `each` as it ends: in
/// index order on one thread, in the order they finish on several. With `None` no
/// [`GameResult`] is built (a few allocations a game, which show in fast random self-play).
pub fn run_each<R: GameSpec>(
    opts: &SimOptions,
    each: Option<&(dyn Fn(&GameResult) + Sync)>,
) -> Result<SimReport, GameError> {
    let indices = opts.indices()?;
    let config: R::Config = if opts.config.is_null() {
        R::Config::default()
    } else {
        serde_json::from_value(opts.config.clone())
            .map_err(|e| GameError::BadConfig(e.to_string()))?
    };
    let seats = opts.bots.len();
    if !R::seats(&config).contains(&seats) {
        let r = R::seats(&config);
        return Err(GameError::BadConfig(format!(
            "{} takes {}; {} named",
            R::ID,
            crate::text::players(&r),
            crate::text::count(seats, "bot")
        )));
    }
    for name in &opts.bots {
        if R::bot(name, &Seed([0; 32])).is_none() {
            return Err(GameError::UnknownBot {
                game: R::ID.into(),
                bot: name.clone(),
                known: R::bot_names().join(", "),
            });
        }
    }
    // A configuration the rules refuse is reported as such, before any thread starts.
    R::start(&config, seats, &Seed::from_u64(opts.seed)).map_err(GameError::config)?;
    let threads = worker_threads(opts.threads, opts.games);
    // Bots are reported by name: two seats of "random" are one row.
    let mut names: Vec<String> = Vec::new();
    for b in &opts.bots {
        if !names.contains(b) {
            names.push(b.clone());
        }
    }
    let bot_index: Vec<usize> = opts
        .bots
        .iter()
        .map(|b| names.iter().position(|n| n == b).unwrap_or(0))
        .collect();
    let started = Instant::now();
    let results: Vec<Result<Acc, GameError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let config = &config;
                let bot_index = &bot_index;
                let bots_named = names.len();
                scope.spawn(move || {
                    let mut acc = Acc::new(bots_named);
                    // One stopwatch per bot named, kept from game to game so that its
                    // sampling runs on across them.
                    let clocks: Vec<Arc<Stopwatch>> =
                        (0..bots_named).map(|_| Arc::default()).collect();
                    let mut n = t as u64;
                    while n < opts.games {
                        let i = indices.start + n;
                        let seed = opts.game_seed(i, seats);
                        let shift = if opts.rotate {
                            (i % seats as u64) as usize
                        } else {
                            0
                        };
                        let seat_bot: Vec<usize> =
                            (0..seats).map(|s| (s + shift) % seats).collect();
                        let mut bots: Vec<Box<dyn Bot<R>>> = seat_bot
                            .iter()
                            .enumerate()
                            .map(|(s, &b)| {
                                let n = &opts.bots[b];
                                R::bot(n, &seed.derive(1_000 + s as u64))
                                    .map(|inner| {
                                        Box::new(Timed {
                                            inner,
                                            clock: Arc::clone(&clocks[bot_index[b]]),
                                        })
                                            as Box<dyn Bot<R>>
                                    })
                                    .ok_or_else(|| GameError::UnknownBot {
                                        game: R::ID.into(),
                                        bot: n.to_string(),
                                        known: R::bot_names().join(", "),
                                    })
                            })
                            .collect::<Result<_, _>>()?;
                        let (_, outcome, actions) = play_out::<R>(config, &seed, &mut bots)
                            .map_err(|e| match e {
                                GameError::Stuck(m) => GameError::Stuck(format!("game {i}: {m}")),
                                other => other,
                            })?;
                        acc.actions += actions as u64;
                        if let Some(each) = each {
                            let seated = seat_bot.iter().map(|&b| opts.bots[b].clone()).collect();
                            each(&GameResult::new(opts, i, seated, &outcome, actions as u64));
                        }
                        let drawn = !outcome.won.iter().any(|&w| w);
                        for (s, &b) in seat_bot.iter().enumerate() {
                            let role = outcome.roles.get(s).map_or("player", String::as_str);
                            acc.count(bot_index[b], role, outcome.won[s], drawn, outcome.scores[s]);
                        }
                        n += threads as u64;
                    }
                    acc.think = clocks.iter().map(|c| c.estimate()).collect();
                    Ok(acc)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(GameError::Stuck("a self-play thread panicked".into())))
            })
            .collect()
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut total = Acc::new(names.len());
    for r in results {
        total.merge(r?);
    }
    let think = names
        .iter()
        .zip(&total.think)
        .map(|(bot, &(nanos, choices))| ThinkTime {
            bot: bot.clone(),
            ms_per_choice: if choices == 0 {
                0.0
            } else {
                nanos / choices as f64 / 1e6
            },
            choices,
        })
        .collect();
    let bots = names
        .into_iter()
        .enumerate()
        .map(|(i, bot)| BotReport {
            overall: total.overall[i].summary(),
            roles: total
                .roles
                .iter()
                .zip(&total.by_role)
                .filter(|(_, t)| t[i].games > 0)
                .map(|(role, t)| (role.clone(), t[i].summary()))
                .collect(),
            bot,
        })
        .collect();
    Ok(SimReport {
        game: R::ID.into(),
        games: opts.games,
        actions: total.actions,
        seconds,
        games_per_s: if seconds > 0.0 {
            opts.games as f64 / seconds
        } else {
            0.0
        },
        threads,
        bots,
        think,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quick decisions are sampled, one in 64, and still counted every one; once a
    /// decision is slow, every decision is timed.
    #[test]
    fn the_stopwatch_samples_quick_decisions_and_times_slow_ones() {
        let quick = Stopwatch::default();
        for _ in 0..1000 {
            quick.time(|| ());
        }
        assert_eq!(quick.fast.load(Ordering::Relaxed), 1000);
        assert_eq!(
            quick.fast_timed.load(Ordering::Relaxed),
            16,
            "decisions 0, 64, … 960"
        );
        assert_eq!(quick.estimate().1, 1000);

        let slow = Stopwatch::default();
        for _ in 0..10 {
            slow.time(|| std::thread::sleep(std::time::Duration::from_millis(1)));
        }
        // The first decision is a sample of the quick kind; it shows the bot is slow.
        assert_eq!(slow.fast_timed.load(Ordering::Relaxed), 1);
        assert_eq!(slow.slow.load(Ordering::Relaxed), 9);
        let (nanos, choices) = slow.estimate();
        assert_eq!(choices, 10);
        assert!(
            nanos >= 10.0 * 1e6,
            "ten sleeps of a millisecond at least: {nanos}"
        );
    }

    #[test]
    fn a_duplicate_run_deals_each_deal_once_per_seat() {
        let mut opts = SimOptions::seated(serde_json::Value::Null, &["a", "b", "c"], 9, 5);
        let seeds =
            |opts: &SimOptions| -> Vec<Seed> { (0..9).map(|i| opts.game_seed(i, 3)).collect() };
        let single = seeds(&opts);
        for (i, a) in single.iter().enumerate() {
            assert!(
                single[i + 1..].iter().all(|b| b != a),
                "every game its own deal"
            );
        }
        opts.duplicate = true;
        let duplicate = seeds(&opts);
        for deal in duplicate.chunks(3) {
            assert!(deal.iter().all(|s| *s == deal[0]), "one deal, three games");
        }
        assert_ne!(duplicate[0], duplicate[3]);
        assert_eq!(duplicate[3], single[1], "deal k is the single run's game k");
    }
}
