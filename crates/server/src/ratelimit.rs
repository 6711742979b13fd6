//! Rate limits: token buckets per connection (messages) and per account (messages and
//! chat), and a failure counter per key (failed logins by name and by address).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
#[derive(Debug, Clone)]
pub struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            rate,
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    /// [`Bucket::take`] at a given moment (for tests).
    pub fn take_at(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Failures per key within a sliding window: once a key has failed `limit` times in
/// `window`, it is locked until the oldest failure leaves the window.
pub struct Failures {
    limit: u32,
    window: Duration,
    seen: Mutex<HashMap<String, Vec<Instant>>>,
}

impl Failures {
    /// A counter of `limit` failures per `window`.
    pub fn new(limit: u32, window: Duration) -> Failures {
        Failures {
            limit,
            window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    fn recent(&self, now: Instant, times: &mut Vec<Instant>) {
        times.retain(|&t| now.saturating_duration_since(t) < self.window);
    }

    /// Whether `key` may try again now.
    pub fn allowed(&self, key: &str) -> bool {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        match seen.get_mut(key) {
            Some(times) => {
                self.recent(now, times);
                (times.len() as u32) < self.limit
            }
            None => true,
        }
    }

    /// Counts a failure of `key`.
    pub fn fail(&self, key: &str) {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() > 100_000 {
            // A flood of distinct keys: forget the ones whose failures have expired.
            seen.retain(|_, times| {
                times.retain(|&t| now.saturating_duration_since(t) < self.window);
                !times.is_empty()
            });
        }
        let times = seen.entry(key.to_string()).or_default();
        self.recent(now, times);
        times.push(now);
    }

    /// Forgets `key`'s failures (after a success).
    pub fn clear(&self, key: &str) {
        self.seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let start = Instant::now();
        let mut b = Bucket::new(2.0, 3.0);
        b.last = start;
        assert!((0..3).all(|_| b.take_at(start)));
        assert!(!b.take_at(start));
        assert!(b.take_at(start + Duration::from_millis(500)));
        assert!(!b.take_at(start + Duration::from_millis(600)));
    }

    #[test]
    fn failures_lock_a_key_and_a_success_clears_it() {
        let f = Failures::new(2, Duration::from_secs(60));
        assert!(f.allowed("alice"));
        f.fail("alice");
        f.fail("alice");
        assert!(!f.allowed("alice"));
        assert!(f.allowed("bob"));
        f.clear("alice");
        assert!(f.allowed("alice"));
    }
}
