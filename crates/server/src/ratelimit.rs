//! Rate limits: token buckets per connection (messages) and per account (messages and
//! chat), and a counter of events per key in a sliding window (failed logins by name and
//! by address, new accounts by address).

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

/// Events per key within a sliding window (failed logins, new accounts): once a key has
/// counted `limit` of them in `window`, it is refused until the oldest leaves the window.
/// A limit of 0 refuses nothing.
pub struct Recent {
    limit: u32,
    window: Duration,
    seen: Mutex<HashMap<String, Vec<Instant>>>,
}

impl Recent {
    /// A counter of `limit` events per `window`.
    pub fn new(limit: u32, window: Duration) -> Recent {
        Recent {
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
        if self.limit == 0 {
            return true;
        }
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

    /// Counts an event of `key`.
    pub fn count(&self, key: &str) {
        if self.limit == 0 {
            return;
        }
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() > 100_000 {
            // A flood of distinct keys: forget the ones whose events have expired.
            seen.retain(|_, times| {
                times.retain(|&t| now.saturating_duration_since(t) < self.window);
                !times.is_empty()
            });
        }
        let times = seen.entry(key.to_string()).or_default();
        self.recent(now, times);
        times.push(now);
    }

    /// Forgets `key`'s events (a failed login's, after a success).
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
        let f = Recent::new(2, Duration::from_secs(60));
        assert!(f.allowed("alice"));
        f.count("alice");
        f.count("alice");
        assert!(!f.allowed("alice"));
        assert!(f.allowed("bob"));
        f.clear("alice");
        assert!(f.allowed("alice"));
        let none = Recent::new(0, Duration::from_secs(60));
        none.count("alice");
        assert!(none.allowed("alice"), "a limit of 0 refuses nothing");
    }
}
