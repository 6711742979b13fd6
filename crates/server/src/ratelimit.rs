//! Rate limits: token buckets per connection (messages), per account (messages and
//! chat) and per address (HTTP API requests), and a counter of events per key in a
//! sliding window (failed logins by name and by address, new accounts by address, wrong
//! invite codes by address). In a hall of several nodes, what a stranger could multiply
//! by spreading over the nodes is counted by them together, in Redis: the windows
//! ([`Window`]) and the API's buckets ([`PerAddress::share`]); the buckets per connection
//! and per account stay on their node (an account has one connection in the hall).

use crate::cluster::shared::Shared;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};
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

    /// The tokens saved up at `now`.
    fn tokens_at(&self, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        (self.tokens + elapsed * self.rate).min(self.burst)
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

/// A token bucket per client address ([`address_key`]): what each address may ask of the
/// HTTP API. A rate of 0 refuses nothing.
pub struct PerAddress {
    rate: f64,
    burst: f64,
    /// Addresses remembered before the full buckets are forgotten.
    keep: usize,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
    /// The bucket every node of the hall shares, once joined ([`PerAddress::share`]).
    shared: OnceLock<Arc<Shared>>,
}

/// Addresses remembered before the full buckets are forgotten.
const ADDRESSES_KEPT: usize = 100_000;

impl PerAddress {
    /// `rate` requests a second per address, `burst` at once.
    pub fn new(rate: f64, burst: f64) -> PerAddress {
        PerAddress {
            rate,
            burst: burst.max(1.0),
            keep: ADDRESSES_KEPT,
            buckets: Mutex::new(HashMap::new()),
            shared: OnceLock::new(),
        }
    }

    /// From now on, each address's bucket is shared by every node of the hall, through
    /// `shared` ([`PerAddress::take_in_hall`]).
    pub fn share(&self, shared: Arc<Shared>) {
        let _ = self.shared.set(shared);
    }

    /// Takes one of `address`'s tokens if it has one: from the bucket every node shares
    /// once [`PerAddress::share`]d (from this node's, logged, while Redis does not
    /// answer), else from this node's.
    pub async fn take_in_hall(&self, address: IpAddr) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        if let Some(shared) = self.shared.get() {
            let key = address_key(address).to_string();
            match shared.take(&key, self.rate, self.burst).await {
                Ok(taken) => return taken,
                Err(e) => shared.unreachable("api_requests_per_second", &e),
            }
        }
        self.take(address)
    }

    /// The same, remembering at most `keep` addresses before it forgets.
    #[cfg(test)]
    fn keeping(self, keep: usize) -> PerAddress {
        PerAddress { keep, ..self }
    }

    /// Takes one of `address`'s tokens if it has one.
    pub fn take(&self, address: IpAddr) -> bool {
        self.take_at(address, Instant::now())
    }

    /// [`PerAddress::take`] at a given moment (for tests).
    pub fn take_at(&self, address: IpAddr, now: Instant) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let address = address_key(address);
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= self.keep && !buckets.contains_key(&address) {
            // A flood of distinct addresses: a bucket that has filled up again is the same
            // as a new one, so forgetting it changes no answer. If that frees less than
            // half, the flood is recent: forget every bucket rather than scan again at the
            // next address (whoever floods from that many addresses is past a limit per
            // address anyway).
            let burst = self.burst;
            buckets.retain(|_, b| b.tokens_at(now) < burst);
            if buckets.len() > self.keep / 2 {
                buckets.clear();
            }
        }
        let mut fresh = Bucket::new(self.rate, self.burst);
        fresh.last = now;
        buckets.entry(address).or_insert(fresh).take_at(now)
    }

    /// How many addresses are remembered (for tests).
    pub fn remembered(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// What every limit per address counts a client by: its IPv4 address, or its IPv6 /64
/// network, since one host is commonly given a whole /64 and could otherwise take a fresh
/// address for every connection, account or request. An IPv4 client of a server listening
/// on `[::]` arrives as `::ffff:a.b.c.d`, and is counted as `a.b.c.d` (as one /64, all of
/// them would share one share).
pub fn address_key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
    }
}

/// Events per key within a sliding window (failed logins, new accounts, wrong invite
/// codes): once a key has counted `limit` of them in `window`, it is refused until the
/// oldest leaves the window. A limit of 0 refuses nothing.
///
/// Its memory is bounded: keys whose events have all left the window are forgotten, and
/// past [`KEYS_KEPT`] keys (a flood of invented names or addresses) the ones whose latest
/// event is oldest go first, so whoever floods forgets their own tries before anyone
/// else's recent ones.
pub struct Recent {
    limit: u32,
    window: Duration,
    keep: usize,
    seen: Mutex<HashMap<String, Vec<Instant>>>,
}

/// Keys a [`Recent`] remembers at most.
pub const KEYS_KEPT: usize = 100_000;

impl Recent {
    /// A counter of `limit` events per `window`.
    pub fn new(limit: u32, window: Duration) -> Recent {
        Recent {
            limit,
            window,
            keep: KEYS_KEPT,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// The same, remembering at most `keep` keys (for tests).
    #[cfg(test)]
    fn keeping(self, keep: usize) -> Recent {
        Recent { keep, ..self }
    }

    fn recent(&self, now: Instant, times: &mut Vec<Instant>) {
        times.retain(|&t| now.saturating_duration_since(t) < self.window);
    }

    /// Makes room for one more key: forgets the expired ones, then, if that is not
    /// enough, the half whose latest event is oldest.
    fn make_room(&self, now: Instant, seen: &mut HashMap<String, Vec<Instant>>) {
        if seen.len() < self.keep {
            return;
        }
        seen.retain(|_, times| {
            times.retain(|&t| now.saturating_duration_since(t) < self.window);
            !times.is_empty()
        });
        if seen.len() < self.keep {
            return;
        }
        let mut latest: Vec<Instant> = seen
            .values()
            .map(|times| times.last().copied().unwrap_or(now))
            .collect();
        let half = latest.len() / 2;
        let (_, cut, _) = latest.select_nth_unstable(half);
        let cut = *cut;
        seen.retain(|_, times| times.last().is_some_and(|&t| t > cut));
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
        if !seen.contains_key(key) {
            self.make_room(now, &mut seen);
        }
        let times = seen.entry(key.to_string()).or_default();
        self.recent(now, times);
        times.push(now);
    }

    /// Counts an event of `key` if it may have one more, in one step: what a slow check
    /// (a password hash) reserves before it starts, so that however many run at once, at
    /// most `limit` are counted and the rest refused. False when refused.
    pub fn reserve(&self, key: &str) -> bool {
        if self.limit == 0 {
            return true;
        }
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if !seen.contains_key(key) {
            self.make_room(now, &mut seen);
        }
        let times = seen.entry(key.to_string()).or_default();
        self.recent(now, times);
        if times.len() as u32 >= self.limit {
            return false;
        }
        times.push(now);
        true
    }

    /// Gives back one event [`Recent::reserve`] counted for `key` (the check it was for
    /// succeeded, or never ran).
    pub fn give_back(&self, key: &str) {
        if self.limit == 0 {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(times) = seen.get_mut(key) {
            times.pop();
            if times.is_empty() {
                seen.remove(key);
            }
        }
    }

    /// Forgets `key`'s events (a failed login's, after a success).
    pub fn clear(&self, key: &str) {
        self.seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(key);
    }

    /// How many keys are remembered (for tests).
    pub fn remembered(&self) -> usize {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// A [`Recent`] that the nodes of a hall count together: in a hall of several nodes
/// ([`Window::share`]), in Redis ([`crate::cluster::shared`]), so that a stranger who
/// spreads tries over N nodes gets no more of them than from one; on this node alone
/// otherwise, and while Redis does not answer (logged).
pub struct Window {
    /// Its name among the shared windows.
    name: &'static str,
    limit: u32,
    within: Duration,
    here: Recent,
    shared: OnceLock<Arc<Shared>>,
}

/// An event a [`Window`] counted, to give back if the check it was for passes.
#[derive(Debug)]
pub enum Counted {
    /// Counted on this node.
    Here,
    /// Counted in Redis, under this name.
    Shared(String),
}

impl Window {
    /// A window named `name` of `limit` events per `within`, counted here until shared.
    pub fn new(name: &'static str, limit: u32, within: Duration) -> Window {
        Window {
            name,
            limit,
            within,
            here: Recent::new(limit, within),
            shared: OnceLock::new(),
        }
    }

    /// From now on, counts with the other nodes through `shared`.
    pub fn share(&self, shared: Arc<Shared>) {
        let _ = self.shared.set(shared);
    }

    /// Counts an event of `key` if it may have one more, in one step (see
    /// [`Recent::reserve`]); `None` when refused.
    pub async fn reserve(&self, key: &str) -> Option<Counted> {
        if self.limit == 0 {
            return Some(Counted::Here);
        }
        if let Some(shared) = self.shared.get() {
            match shared
                .reserve(self.name, key, self.limit, self.within)
                .await
            {
                Ok(counted) => return counted.map(Counted::Shared),
                Err(e) => shared.unreachable(self.name, &e),
            }
        }
        self.here.reserve(key).then_some(Counted::Here)
    }

    /// Gives back `counted`, an event [`Window::reserve`] counted for `key`.
    pub fn give_back(&self, key: &str, counted: Counted) {
        match counted {
            Counted::Here => self.here.give_back(key),
            Counted::Shared(event) => {
                let Some(shared) = self.shared.get().cloned() else {
                    return;
                };
                let (name, key) = (self.name, key.to_string());
                tokio::spawn(async move {
                    if let Err(e) = shared.give_back(name, &key, &event).await {
                        shared.unreachable(name, &e);
                    }
                });
            }
        }
    }

    /// Forgets `key`'s events (a failed login's, after a success), here and in Redis.
    pub fn clear(&self, key: &str) {
        self.here.clear(key);
        if let Some(shared) = self.shared.get().cloned() {
            let (name, key) = (self.name, key.to_string());
            tokio::spawn(async move {
                if let Err(e) = shared.clear(name, &key).await {
                    shared.unreachable(name, &e);
                }
            });
        }
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
    fn each_address_has_its_own_bucket_and_full_ones_are_forgotten_in_a_flood() {
        let start = Instant::now();
        let limit = PerAddress::new(1.0, 2.0);
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let b: IpAddr = "203.0.113.2".parse().unwrap();
        assert!(limit.take_at(a, start) && limit.take_at(a, start));
        assert!(!limit.take_at(a, start), "a's burst is spent");
        assert!(limit.take_at(b, start), "b is not a");
        assert!(
            limit.take_at(a, start + Duration::from_secs(1)),
            "a's rate refills it"
        );
        // One IPv6 host's /64 is one address.
        let v6 = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(limit.take_at(v6("2001:db8::1"), start) && limit.take_at(v6("2001:db8::2"), start));
        assert!(!limit.take_at(v6("2001:db8::ffff:1"), start));
        assert!(limit.take_at(v6("2001:db8:0:1::1"), start), "another /64");
        // IPv4 clients of a server on `[::]` are told apart by their IPv4 address.
        assert!(limit.take_at(v6("::ffff:198.51.100.1"), start));
        assert!(limit.take_at(v6("::ffff:198.51.100.1"), start));
        assert!(limit.take_at(v6("::ffff:198.51.100.2"), start));
        // A flood of addresses. Four remembered, none yet full again: a fifth forgets
        // them all, the flood being recent.
        let small = PerAddress::new(1.0, 2.0).keeping(4);
        let n = |i: u8| IpAddr::from([198, 51, 100, i]);
        for i in 1..=5 {
            assert!(small.take_at(n(i), start));
        }
        assert_eq!(small.remembered(), 1);
        for i in 6..=8 {
            small.take_at(n(i), start);
        }
        // Five seconds on, every bucket is full again but 6's, which spends its burst; the
        // next new address forgets the full ones only, and 6 stays held back.
        let on = start + Duration::from_secs(5);
        assert!(small.take_at(n(6), on) && small.take_at(n(6), on));
        assert!(small.take_at(n(9), on));
        assert_eq!(small.remembered(), 2);
        assert!(!small.take_at(n(6), on));
        let off = PerAddress::new(0.0, 0.0);
        assert!(
            (0..1000).all(|_| off.take_at(a, start)),
            "a rate of 0 refuses nothing"
        );
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

    #[test]
    fn a_reservation_counts_at_once_and_is_given_back_on_success() {
        let f = Recent::new(2, Duration::from_secs(60));
        assert!(f.reserve("alice") && f.reserve("alice"));
        assert!(!f.reserve("alice"), "two in flight are the limit");
        f.give_back("alice");
        assert!(f.reserve("alice"), "one given back, one more may try");
        assert!(Recent::new(0, Duration::from_secs(60)).reserve("x"));
    }

    #[test]
    fn a_flood_of_keys_forgets_the_oldest_not_everyone() {
        let f = Recent::new(1, Duration::from_secs(60)).keeping(10);
        f.count("owner-guesser");
        for i in 0..100 {
            f.count(&format!("invented-{i}"));
            assert!(f.remembered() <= 10);
        }
        // The latest keys are still held back.
        assert!(!f.allowed("invented-99"));
    }
}
