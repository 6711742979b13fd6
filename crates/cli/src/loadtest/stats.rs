//! What the load generator counts: live gauges that every client task updates (for the
//! progress lines and the sampled "tables playing"), and each task's own tally (latency
//! histogram, acknowledged actions) merged once at the end, so the hot path takes no lock.

use hdrhistogram::Histogram;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;

/// Gauges and counters shared by every client task.
#[derive(Default)]
pub struct Live {
    /// Connections open now.
    pub connections: AtomicI64,
    /// Tables with a game being played now (counted by each table's host).
    pub playing: AtomicI64,
    /// Actions seen at the tables (counted by each table's host) inside the window.
    pub actions: AtomicU64,
    /// Actions the clients sent and saw broadcast back, inside the window.
    pub acked: AtomicU64,
    /// Games finished inside the window.
    pub games: AtomicU64,
    /// Whether the measured window is open.
    pub measuring: AtomicBool,
    /// Connections made again after one dropped (or led nowhere).
    pub reconnects: AtomicU64,
    /// Actions received a second time (a replay after a resume), known by their sequence
    /// number and counted once.
    pub replayed: AtomicU64,
    /// A seat's action broadcast with no move of its player's on its way, nor the turn
    /// run out: an action applied twice.
    pub doubled: AtomicU64,
    /// Tables where a player's connection dropped.
    pub stopped: AtomicU64,
    /// For each interruption that ended: milliseconds from the first drop to the next
    /// action broadcast at the table.
    pub resumed: Mutex<Vec<u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Live {
    /// Counts an error under its class (a protocol error code, or what failed).
    pub fn error(&self, class: &str) {
        let mut errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        *errors.entry(class.to_string()).or_default() += 1;
    }

    /// Errors by class.
    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Whether the window is open.
    pub fn in_window(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    /// Adds `n` to a counter when the window is open.
    pub fn count(&self, counter: &AtomicU64, n: u64) {
        if self.in_window() {
            counter.fetch_add(n, Ordering::Relaxed);
        }
    }
}

/// A stretch of one game that a client followed without missing an action: from the
/// deal, or from a resume that may have missed some (a node died, or the table's replay
/// no longer held what was missed). Within it every action is in order, each once.
#[derive(Debug, Clone, Default)]
pub struct Segment {
    /// Where its first action stands among the game's actions, when known (from the
    /// deal, or from a resume whose replay missed nothing); `None` when the client cannot
    /// know how many actions it missed, and the record check finds its place.
    pub start: Option<usize>,
    /// The seat of every action seen in it, in order: what places it in the record.
    pub seats: Vec<u8>,
    /// This client's own acknowledged actions: their place in the segment, and the
    /// action as its maker saw it broadcast (its private form).
    pub acks: Vec<(usize, Value)>,
}

/// What one client saw of one finished game, for the lost-action check.
#[derive(Debug, Clone, Default)]
pub struct GameSeen {
    /// The game's id.
    pub game_id: String,
    /// Each client's view of it (merged by game at the end of the run).
    pub views: Vec<View>,
}

/// One client's view of one game.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// The client's seat.
    pub seat: usize,
    /// Whether it is the table's host, whose view must hold every action (the others'
    /// only their own).
    pub host: bool,
    /// What it saw, in order.
    pub segments: Vec<Segment>,
}

impl View {
    /// Acknowledged actions in the view.
    pub fn acks(&self) -> usize {
        self.segments.iter().map(|s| s.acks.len()).sum()
    }
}

/// A table's interruptions: from the first drop of one of its players' connections to
/// the next action broadcast there (the node that served it died, or Redis went away).
#[derive(Default)]
pub struct Outage {
    since: Mutex<Option<std::time::Instant>>,
}

impl Outage {
    /// One of the table's players lost its connection now (the first one counts).
    pub fn dropped(&self, live: &Live) {
        let mut since = self.since.lock().unwrap_or_else(|p| p.into_inner());
        if since.is_none() {
            *since = Some(std::time::Instant::now());
            live.stopped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// An action was broadcast live at the table: an interruption, if any, ends.
    pub fn played(&self, live: &Live) {
        let mut since = self.since.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(t) = since.take() {
            let ms = u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX);
            live.resumed
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(ms);
        }
    }
}

/// What one client task gives back at the end.
pub struct Tally {
    /// Microseconds from sending an action to receiving its broadcast, inside the window
    /// (made at the first sample: spectators and idle clients need none).
    pub latency: Option<Histogram<u64>>,
    /// Finished games this client played.
    pub games: Vec<GameSeen>,
    /// Acknowledged actions of games still running at the end (not checkable).
    pub unfinished_acks: u64,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally {
            latency: None,
            games: Vec::new(),
            unfinished_acks: 0,
        }
    }
}

impl Tally {
    /// Counts one latency sample, in microseconds.
    pub fn latency(&mut self, us: u64) {
        let _ = self
            .latency
            .get_or_insert_with(new_histogram)
            .record(us.clamp(1, MAX_US));
    }
}

/// The longest latency a histogram holds: 10 minutes.
const MAX_US: u64 = 600_000_000;

/// A histogram of microseconds from 1 µs to 10 minutes, 2 significant digits (1%; about
/// 20 KiB, where 3 digits would take 160 KiB for each of thousands of clients).
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_US, 2).expect("static histogram bounds")
}

/// Latency quantiles in milliseconds.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Latency {
    /// Samples.
    pub count: u64,
    /// Mean.
    pub mean_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// The slowest.
    pub max_ms: f64,
}

impl Latency {
    /// The quantiles of a histogram of microseconds.
    pub fn of(h: &Histogram<u64>) -> Latency {
        let ms = |us: u64| us as f64 / 1000.0;
        Latency {
            count: h.len(),
            mean_ms: h.mean() / 1000.0,
            p50_ms: ms(h.value_at_quantile(0.5)),
            p90_ms: ms(h.value_at_quantile(0.9)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            p999_ms: ms(h.value_at_quantile(0.999)),
            max_ms: ms(h.max()),
        }
    }
}

/// Min, mean and max of a sampled gauge.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Sampled {
    /// The lowest sample.
    pub min: i64,
    /// The mean of the samples.
    pub mean: f64,
    /// The highest sample.
    pub max: i64,
}

impl Sampled {
    /// The summary of `samples` (zeros when there are none).
    pub fn of(samples: &[i64]) -> Sampled {
        if samples.is_empty() {
            return Sampled::default();
        }
        Sampled {
            min: samples.iter().copied().min().unwrap_or(0),
            mean: samples.iter().sum::<i64>() as f64 / samples.len() as f64,
            max: samples.iter().copied().max().unwrap_or(0),
        }
    }
}

/// How long tables stood still after a player's connection dropped.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Resumes {
    /// Tables where a player's connection dropped.
    pub stopped: u64,
    /// Interruptions that ended with an action at the table.
    pub resumed: u64,
    /// Median milliseconds from the first drop to the next action.
    pub p50_ms: u64,
    /// 99th percentile.
    pub p99_ms: u64,
    /// The longest.
    pub max_ms: u64,
}

impl Resumes {
    /// The figures of `live`'s interruptions.
    pub fn of(live: &Live) -> Resumes {
        let mut ms = live
            .resumed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        ms.sort_unstable();
        let at = |q: f64| -> u64 {
            if ms.is_empty() {
                return 0;
            }
            let i = ((ms.len() as f64 * q).ceil() as usize).clamp(1, ms.len()) - 1;
            ms[i]
        };
        Resumes {
            stopped: live.stopped.load(Ordering::Relaxed),
            resumed: ms.len() as u64,
            p50_ms: at(0.5),
            p99_ms: at(0.99),
            max_ms: ms.last().copied().unwrap_or(0),
        }
    }
}
