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

/// One acknowledged action of a client: where it is in its game, and what was sent back.
#[derive(Debug, Clone)]
pub struct Ack {
    /// Its index among the game's actions.
    pub index: usize,
    /// The seat that made it.
    pub seat: usize,
    /// The action as its maker saw it broadcast (its private form).
    pub action: Value,
}

/// What one client saw of one finished game, for the lost-action check.
#[derive(Debug, Clone, Default)]
pub struct GameSeen {
    /// The game's id.
    pub game_id: String,
    /// Every action broadcast at the table (only the host's count is kept).
    pub actions: Option<usize>,
    /// This client's own acknowledged actions.
    pub acks: Vec<Ack>,
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
