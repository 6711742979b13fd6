//! The limits every node of a hall keeps together, in Redis, so that a stranger who
//! spreads over N nodes gets no more than from one: the connections each address holds
//! open, the windows of events counted per address or name (new accounts, failed logins,
//! wrong invite codes), each address's requests of the HTTP API, the addresses a ban
//! blocks from new accounts, and the invite code of each private table (so that a node
//! counts wrong codes for a table another node serves).
//!
//! What is counted per connection or per account (messages, chat) stays on each node: an
//! account has one connection in the hall at a time, so those hold already, and they are
//! the hot path.
//!
//! Each call is one Redis round trip (a Lua script where it reads and writes, so that
//! nodes asking at once are counted one after the other), bounded by [`WITHIN`]. When
//! Redis does not answer, the caller falls back to what its node counts alone (a stranger
//! then gets up to N times the limit, for as long as Redis is away) and the node logs it,
//! at most once every [`WARN_EVERY`].
//!
//! Connections: each address has a hash `P:conns:ADDRESS` of how many connections each
//! node process holds (field `NODE/RUN`, `RUN` drawn when the process starts). A node's
//! count leaves the sum once its presence (`P:alive:NODE`, which holds its `RUN`) has run
//! out, or names another run of that node (it restarted), so the connections of a node
//! that died are no longer counted against anyone.

use redis::aio::ConnectionManager;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The longest wait for Redis before a limit falls back to this node's own count.
pub const WITHIN: Duration = Duration::from_secs(1);

/// The least time between two warnings that Redis did not answer a limit.
pub const WARN_EVERY: Duration = Duration::from_secs(10);

/// How long an address's count of connections is kept after its last change: a safety
/// net for counts a node could not take back (Redis out of reach when a connection
/// closed); a connection open longer than this with no other from its address is then no
/// longer counted.
const CONNECTIONS_KEPT: Duration = Duration::from_secs(24 * 3600);

/// Counts a connection of `ARGV[1]` (`NODE/RUN`) in `KEYS[1]` unless the address holds
/// `ARGV[2]` already (0: no limit); the counts of runs no longer alive (`ARGV[3]` is the
/// prefix of the presence keys) are dropped first. 1 when counted, 0 when refused.
static CONNECT: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"local fields = redis.call('HGETALL', KEYS[1])
          local total = 0
          for i = 1, #fields, 2 do
            local holder = fields[i]
            local node, run = string.match(holder, '^(.*)/([^/]*)$')
            local alive = node and redis.call('GET', ARGV[3] .. node)
            if holder == ARGV[1] or alive == run then
              total = total + (tonumber(fields[i + 1]) or 0)
            else
              redis.call('HDEL', KEYS[1], holder)
            end
          end
          local limit = tonumber(ARGV[2])
          if limit > 0 and total >= limit then return 0 end
          redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
          redis.call('PEXPIRE', KEYS[1], ARGV[4])
          return 1",
    )
});

/// Takes back one connection of `ARGV[1]` from `KEYS[1]`.
static DISCONNECT: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
          if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
          return n",
    )
});

/// Counts event `ARGV[3]` in the window `KEYS[1]` (a sorted set scored by Redis's own
/// clock, so the nodes' clocks do not matter) unless it holds `ARGV[2]` events of the last
/// `ARGV[1]` ms already. 1 when counted, 0 when refused.
static RESERVE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"local t = redis.call('TIME')
          local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
          local window = tonumber(ARGV[1])
          redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
          if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
          redis.call('ZADD', KEYS[1], now, ARGV[3])
          redis.call('PEXPIRE', KEYS[1], window)
          return 1",
    )
});

/// Takes one request from the bucket `KEYS[1]` of `ARGV[1]` ms a request with bursts of
/// `ARGV[2]` ms of them (the generic cell rate algorithm: the key holds the time at which
/// the bucket is full again, on Redis's clock). 1 when taken, 0 when refused.
static TAKE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"local t = redis.call('TIME')
          local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
          local full = tonumber(redis.call('GET', KEYS[1])) or now
          if full < now then full = now end
          local after = full + tonumber(ARGV[1])
          if after - now > tonumber(ARGV[2]) then return 0 end
          redis.call('SET', KEYS[1], string.format('%.3f', after), 'PX', math.ceil(after - now) + 1)
          return 1",
    )
});

/// Lifts every block of account `ARGV[1]` listed in `KEYS[1]`; `ARGV[2]` is the prefix
/// of the block keys.
static UNBLOCK: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"for _, address in ipairs(redis.call('SMEMBERS', KEYS[1])) do
            local key = ARGV[2] .. address
            local v = redis.call('GET', key)
            if v and string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then
              redis.call('DEL', key)
            end
          end
          redis.call('DEL', KEYS[1])
          return 0",
    )
});

/// A new login's number: Redis's clock in milliseconds, times 1,000, plus a count, so
/// that a later login anywhere in the hall has a larger number, also after Redis restarts.
static LOGIN: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"local t = redis.call('TIME')
          local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
          local n = redis.call('INCR', KEYS[1]) % 1000
          return ms * 1000 + n",
    )
});

/// Why a shared limit could not be read: the caller falls back to its node's own.
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
    /// Redis refused or failed.
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// Redis did not answer within [`WITHIN`].
    #[error("Redis did not answer within {} ms", WITHIN.as_millis())]
    Late,
}

/// The limits this node keeps with the others, in Redis.
pub struct Shared {
    prefix: String,
    /// This process among the nodes: `NODE/RUN`.
    holder: String,
    redis: ConnectionManager,
    /// A count for events' names in the windows, unique with [`Shared::holder`].
    events: AtomicU64,
    /// When the last warning that Redis did not answer was logged.
    warned: std::sync::Mutex<Option<Instant>>,
}

impl Shared {
    /// The shared limits of node `node`, this run of it being `run` (what its presence key
    /// holds), under `prefix`.
    pub fn new(prefix: &str, node: &str, run: &str, redis: ConnectionManager) -> Shared {
        Shared {
            prefix: prefix.to_string(),
            holder: format!("{node}/{run}"),
            redis,
            events: AtomicU64::new(0),
            warned: std::sync::Mutex::new(None),
        }
    }

    /// Runs `call` within [`WITHIN`].
    async fn within<T>(
        &self,
        call: impl std::future::Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, SharedError> {
        match tokio::time::timeout(WITHIN, call).await {
            Ok(result) => Ok(result?),
            Err(_) => Err(SharedError::Late),
        }
    }

    /// Logs that Redis did not answer `what`, unless that was logged less than
    /// [`WARN_EVERY`] ago (a flood must not flood the log too).
    pub fn unreachable(&self, what: &str, error: &SharedError) {
        let mut warned = self.warned.lock().unwrap_or_else(|p| p.into_inner());
        if warned.is_some_and(|at| at.elapsed() < WARN_EVERY) {
            return;
        }
        *warned = Some(Instant::now());
        tracing::warn!(limit = %what, error = %error, "Redis did not answer a limit the nodes share: this node counts it alone for now");
    }

    /// Counts a connection from `address` in the hall unless it holds `limit` already (0:
    /// no limit); false when refused.
    pub async fn connect(&self, address: &str, limit: usize) -> Result<bool, SharedError> {
        let mut redis = self.redis.clone();
        let alive = format!("{}:alive:", self.prefix);
        let kept = CONNECTIONS_KEPT.as_millis() as u64;
        let counted: i64 = self
            .within(
                CONNECT
                    .key(self.connections_key(address))
                    .arg(&self.holder)
                    .arg(limit)
                    .arg(alive)
                    .arg(kept)
                    .invoke_async(&mut redis),
            )
            .await?;
        Ok(counted == 1)
    }

    /// Takes back a connection from `address` that [`Shared::connect`] counted.
    pub async fn disconnect(&self, address: &str) -> Result<(), SharedError> {
        let mut redis = self.redis.clone();
        let _: i64 = self
            .within(
                DISCONNECT
                    .key(self.connections_key(address))
                    .arg(&self.holder)
                    .invoke_async(&mut redis),
            )
            .await?;
        Ok(())
    }

    fn connections_key(&self, address: &str) -> String {
        format!("{}:conns:{address}", self.prefix)
    }

    fn window_key(&self, window: &str, key: &str) -> String {
        format!("{}:window:{window}:{key}", self.prefix)
    }

    /// Counts an event of `key` in window `window` (`limit` events in `within`) unless
    /// it holds `limit` already: the event's name, to give it back with, or `None` when
    /// refused.
    pub async fn reserve(
        &self,
        window: &str,
        key: &str,
        limit: u32,
        within: Duration,
    ) -> Result<Option<String>, SharedError> {
        let event = format!(
            "{}/{}",
            self.holder,
            self.events.fetch_add(1, Ordering::Relaxed)
        );
        let mut redis = self.redis.clone();
        let counted: i64 = self
            .within(
                RESERVE
                    .key(self.window_key(window, key))
                    .arg(within.as_millis().max(1) as u64)
                    .arg(limit)
                    .arg(&event)
                    .invoke_async(&mut redis),
            )
            .await?;
        Ok((counted == 1).then_some(event))
    }

    /// Gives back `event`, which [`Shared::reserve`] counted for `key` in `window`.
    pub async fn give_back(&self, window: &str, key: &str, event: &str) -> Result<(), SharedError> {
        let mut redis = self.redis.clone();
        let mut zrem = redis::cmd("ZREM");
        zrem.arg(self.window_key(window, key)).arg(event);
        let _: i64 = self.within(zrem.query_async(&mut redis)).await?;
        Ok(())
    }

    /// Forgets every event of `key` in `window`.
    pub async fn clear(&self, window: &str, key: &str) -> Result<(), SharedError> {
        let mut redis = self.redis.clone();
        let mut del = redis::cmd("DEL");
        del.arg(self.window_key(window, key));
        let _: i64 = self.within(del.query_async(&mut redis)).await?;
        Ok(())
    }

    /// Takes one of `address`'s requests of the HTTP API, `rate` a second with bursts of
    /// `burst`, from a bucket every node shares; false when refused.
    pub async fn take(&self, address: &str, rate: f64, burst: f64) -> Result<bool, SharedError> {
        let every_ms = 1000.0 / rate;
        let mut redis = self.redis.clone();
        let taken: i64 = self
            .within(
                TAKE.key(format!("{}:api:{address}", self.prefix))
                    .arg(every_ms)
                    .arg(every_ms * burst)
                    .invoke_async(&mut redis),
            )
            .await?;
        Ok(taken == 1)
    }

    fn block_key(&self, address: &str) -> String {
        format!("{}:blocked:{address}", self.prefix)
    }

    fn blocks_of(&self, user: i64) -> String {
        format!("{}:blocks:{user}", self.prefix)
    }

    /// Blocks `address` from new accounts for `until`, after a ban of `user` for
    /// `reason`, on every node.
    pub async fn block(
        &self,
        address: &str,
        user: i64,
        reason: &str,
        until: Duration,
    ) -> Result<(), SharedError> {
        let ms = until.as_millis().max(1) as u64;
        let mut pipe = redis::pipe();
        pipe.cmd("SET")
            .arg(self.block_key(address))
            .arg(format!("{user} {reason}"))
            .arg("PX")
            .arg(ms)
            .ignore()
            .cmd("SADD")
            .arg(self.blocks_of(user))
            .arg(address)
            .ignore()
            .cmd("PEXPIRE")
            .arg(self.blocks_of(user))
            .arg(ms)
            .ignore();
        let mut redis = self.redis.clone();
        self.within(pipe.query_async::<()>(&mut redis)).await
    }

    /// Lifts every block a ban of `user` made, on every node.
    pub async fn unblock(&self, user: i64) -> Result<(), SharedError> {
        let mut redis = self.redis.clone();
        let _: i64 = self
            .within(
                UNBLOCK
                    .key(self.blocks_of(user))
                    .arg(user.to_string())
                    .arg(format!("{}:blocked:", self.prefix))
                    .invoke_async(&mut redis),
            )
            .await?;
        Ok(())
    }

    /// The ban's reason, if `address` is blocked from new accounts.
    pub async fn blocked(&self, address: &str) -> Result<Option<String>, SharedError> {
        let mut redis = self.redis.clone();
        let mut get = redis::cmd("GET");
        get.arg(self.block_key(address));
        let value: Option<String> = self.within(get.query_async(&mut redis)).await?;
        // Written as `USER REASON` by [`Shared::block`].
        Ok(value.map(|v| {
            v.split_once(' ')
                .map(|(_, reason)| reason.to_string())
                .unwrap_or_default()
        }))
    }

    fn invite_key(&self, table: &str) -> String {
        format!("{}:invite:{table}", self.prefix)
    }

    /// Tells every node the invite code of private table `table`, served here.
    pub async fn set_invite(&self, table: &str, code: &str) -> Result<(), SharedError> {
        let mut redis = self.redis.clone();
        let mut set = redis::cmd("SET");
        set.arg(self.invite_key(table)).arg(code);
        self.within(set.query_async::<()>(&mut redis)).await
    }

    /// Forgets the invite code of `table` (it closed).
    pub async fn forget_invite(&self, table: &str) -> Result<(), SharedError> {
        let mut redis = self.redis.clone();
        let mut del = redis::cmd("DEL");
        del.arg(self.invite_key(table));
        let _: i64 = self.within(del.query_async(&mut redis)).await?;
        Ok(())
    }

    /// The invite code of private table `table`, wherever it is served; `None` for a
    /// public table or one Redis does not know.
    pub async fn invite(&self, table: &str) -> Result<Option<String>, SharedError> {
        let mut redis = self.redis.clone();
        let mut get = redis::cmd("GET");
        get.arg(self.invite_key(table));
        self.within(get.query_async(&mut redis)).await
    }

    /// The number of a new login: larger than every login's before it, anywhere in the
    /// hall ([`LOGIN`]).
    pub async fn login(&self) -> Result<u64, SharedError> {
        let mut redis = self.redis.clone();
        let n: i64 = self
            .within(
                LOGIN
                    .key(format!("{}:logins", self.prefix))
                    .invoke_async(&mut redis),
            )
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
