//! Accounts and sessions: register with a name and password (argon2id), log in for a
//! session token, or play as a guest and keep the guest's games when registering.
//!
//! Tokens are 32 random bytes, given to the client once and stored only as their sha256;
//! they expire and logout revokes them. Failed logins are limited per address and name and
//! per address, never per name alone (or anyone could lock a player out of their account
//! from anywhere); each try is counted before its password is checked, so a flood of
//! tries at once is held to the limit as tries one after another are. New accounts
//! (guests and registrations) are limited per address, and password hashes run a few at a
//! time: each takes tens of milliseconds and about 19 MiB by design, so a flood of them
//! must queue rather than take every core and gigabytes with it. A name without a password
//! (nobody's, a guest's, a deleted account's) is checked against a stand-in hash, so the
//! time a login takes tells nothing of the name. No password or token is ever logged or
//! sent back.
//!
//! In a hall of several nodes the windows of failed logins and new accounts, and the
//! addresses a ban blocks, are kept with the other nodes ([`Accounts::share`]), so that
//! spreading tries over the nodes buys nothing.

use crate::cluster::shared::Shared;
use crate::config::Limits;
use crate::names;
use crate::protocol::ErrorCode;
use crate::protocol::UserInfo;
use crate::ratelimit::{Counted, Window};
use crate::store::{unix_now, Store, StoreError};
use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why an account request failed; [`AuthError::code`] is the protocol's error code.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The name does not follow the rules.
    #[error(
        "a name is 2 to 24 letters, digits, '_' or '-', its letters of one script (Latin may go with Chinese, Japanese or Korean), and may not start with 'guest-' or 'deleted-'"
    )]
    BadName,
    /// The password is too short or too long.
    #[error("a password is 8 to 256 characters")]
    BadPassword,
    /// Another account has the name.
    #[error("the name '{0}' is taken")]
    NameTaken(String),
    /// Wrong name or password (the same answer for both, so names cannot be probed).
    #[error("wrong name or password")]
    WrongPassword,
    /// Too many failed logins for this name or address; try again later.
    #[error("too many failed logins; try again in a few minutes")]
    RateLimited,
    /// Too many new accounts from this address lately; log in, or try again later.
    #[error("too many new accounts from your address; log in, or try again later")]
    TooManyAccounts,
    /// The current password given to change it is wrong.
    #[error("the current password is wrong")]
    WrongCurrentPassword,
    /// A guest has no password to change: registering gives it one.
    #[error("a guest has no password: register to choose a name and password")]
    Guest,
    /// A moderator banned the account; the reason is the moderator's.
    #[error("banned by a moderator: {0}")]
    Banned(String),
    /// No new account (guest or registered) from this address for a while: a moderator
    /// banned an account that played from it. Said apart from [`AuthError::Banned`], for
    /// whoever else is behind the address (a household, a campus) is not the one banned.
    #[error(
        "no new accounts from this address for now: a moderator banned an account that played from it ({0}); log in to an account you have, or try again tomorrow"
    )]
    AddressBlocked(String),
    /// The session token is unknown, expired or revoked.
    #[error("the session has ended; log in again")]
    BadToken,
    /// Something else the accounts need failed (randomness for a token, the password
    /// hasher, a free guest name): a client can do no more about it than about the
    /// store, so it shares the store's code.
    #[error("{0}")]
    Storage(String),
    /// The store failed; its error, cause and all, is kept for the logs.
    #[error(transparent)]
    Store(StoreError),
}

impl AuthError {
    /// The protocol's error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            AuthError::BadName => ErrorCode::BadName,
            AuthError::BadPassword => ErrorCode::BadPassword,
            AuthError::NameTaken(_) => ErrorCode::NameTaken,
            AuthError::WrongPassword | AuthError::WrongCurrentPassword => ErrorCode::WrongPassword,
            AuthError::Guest => ErrorCode::Guest,
            AuthError::Banned(_) => ErrorCode::Banned,
            AuthError::AddressBlocked(_) => ErrorCode::AddressBlocked,
            AuthError::RateLimited => ErrorCode::RateLimited,
            AuthError::TooManyAccounts => ErrorCode::TooManyAccounts,
            AuthError::BadToken => ErrorCode::BadToken,
            AuthError::Storage(_) | AuthError::Store(_) => ErrorCode::Storage,
        }
    }
}

impl From<StoreError> for AuthError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NameTaken(n) => AuthError::NameTaken(n),
            other => AuthError::Store(other),
        }
    }
}

/// A new session: the token for the client, and its user.
#[derive(Debug, Clone)]
pub struct Session {
    /// Give it to the client once; only its hash is kept.
    pub token: String,
    /// The account.
    pub user: UserInfo,
}

/// Accounts and sessions over a [`Store`].
pub struct Accounts {
    store: Arc<dyn Store>,
    /// Failed logins per address and name ([`Limits::failed_logins`]).
    by_address_and_name: Window,
    /// Failed logins per address ([`Limits::failed_logins_per_address`]).
    by_address: Window,
    /// New accounts per address ([`Limits::new_accounts_per_address`]).
    new_by_address: Window,
    /// A hash of no password anyone has, checked when a name has none, so that a login
    /// takes as long whether or not the name has a password.
    stand_in: tokio::sync::OnceCell<String>,
    /// Password hashes (and checks) running at once: one a core.
    hashing: tokio::sync::Semaphore,
    session: Duration,
    /// Addresses that make no new account until a time, after a ban of an account that
    /// was playing from there: the banned player's account, its reason and the time. In a
    /// hall of several nodes only those Redis did not take ([`Accounts::shared`]).
    blocked: Mutex<HashMap<String, Block>>,
    /// The limits kept with the other nodes of the hall, once it has joined them.
    shared: std::sync::OnceLock<Arc<Shared>>,
}

/// An address blocked from making accounts, after a ban.
struct Block {
    user: i64,
    reason: String,
    until: Instant,
}

/// A login being tried, counted as failed until it is known: see [`Accounts::attempt`].
/// Dropped without [`Attempt::failed`] (the store failed, the connection went), the try
/// is given back.
struct Attempt<'a> {
    accounts: &'a Accounts,
    pair: String,
    address: String,
    /// The try, as counted per address and name, and per address; taken when given back.
    counted: Option<(Counted, Counted)>,
}

impl Attempt<'_> {
    /// The password was wrong: the try stays counted.
    fn failed(mut self) {
        self.counted = None;
    }

    /// The password was right: the try is given back, and the name's failed tries from
    /// this address are forgotten (the address's, at every name, are not: logging in to
    /// an account of one's own must not buy more guesses at others).
    fn passed(self) {
        self.accounts.by_address_and_name.clear(&self.pair);
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        if let Some((pair, address)) = self.counted.take() {
            self.accounts
                .by_address_and_name
                .give_back(&self.pair, pair);
            self.accounts.by_address.give_back(&self.address, address);
        }
    }
}

/// How long, after a ban, the banned player's address makes no new account: long enough
/// that coming back as a guest is not one click away, short enough that the next person
/// behind a shared address (a campus, a mobile network) is not shut out for good.
pub const BLOCK_ADDRESS_FOR: Duration = Duration::from_secs(24 * 3600);

/// sha256 of a token, in hex: what the store keeps.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn random_bytes<const N: usize>() -> Result<[u8; N], AuthError> {
    let mut bytes = [0u8; N];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| AuthError::Storage(format!("no randomness: {e}")))?;
    Ok(bytes)
}

/// An argon2id hash (PHC string, with its own random salt), computed off the async threads:
/// it takes tens of milliseconds by design.
async fn hash_password(
    hashing: &tokio::sync::Semaphore,
    password: String,
) -> Result<String, AuthError> {
    let _turn = hashing
        .acquire()
        .await
        .map_err(|e| AuthError::Storage(e.to_string()))?;
    tokio::task::spawn_blocking(move || {
        let hash: Result<PasswordHash, _> = Argon2::default().hash_password(password.as_bytes());
        hash.map(|h| h.to_string())
            .map_err(|e| AuthError::Storage(e.to_string()))
    })
    .await
    .map_err(|e| AuthError::Storage(e.to_string()))?
}

async fn check_password(hashing: &tokio::sync::Semaphore, password: String, hash: String) -> bool {
    let Ok(_turn) = hashing.acquire().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

impl Accounts {
    /// Accounts over `store`; `session` is how long a token lives; `limits` bound failed
    /// logins and new accounts; `hashers` password hashes run at once (the cores).
    pub fn new(store: Arc<dyn Store>, session: Duration, limits: &Limits, hashers: usize) -> Self {
        Accounts {
            store,
            by_address_and_name: Window::new(
                "failed_logins",
                limits.failed_logins,
                limits.login_window,
            ),
            by_address: Window::new(
                "failed_logins_per_address",
                limits.failed_logins_per_address,
                limits.login_window,
            ),
            stand_in: tokio::sync::OnceCell::new(),
            new_by_address: Window::new(
                "new_accounts",
                limits.new_accounts_per_address,
                limits.accounts_window,
            ),
            hashing: tokio::sync::Semaphore::new(hashers.max(1)),
            session,
            blocked: Mutex::new(HashMap::new()),
            shared: std::sync::OnceLock::new(),
        }
    }

    /// From now on, counts failed logins and new accounts, and keeps the addresses bans
    /// block, with the other nodes of the hall through `shared`.
    pub fn share(&self, shared: Arc<Shared>) {
        self.by_address_and_name.share(shared.clone());
        self.by_address.share(shared.clone());
        self.new_by_address.share(shared.clone());
        let _ = self.shared.set(shared);
    }

    /// After a ban of `user`, who played from `address`: no new account from there for
    /// [`BLOCK_ADDRESS_FOR`]. Kept in memory (a restart forgets it), or in a hall of
    /// several nodes in Redis, for every node (here only, logged, when Redis does not
    /// take it).
    pub async fn block_address(&self, address: &str, user: i64, reason: &str) {
        if let Some(shared) = self.shared.get() {
            match shared.block(address, user, reason, BLOCK_ADDRESS_FOR).await {
                Ok(()) => return,
                Err(e) => shared.unreachable("blocked_addresses", &e),
            }
        }
        let mut blocked = self.blocked.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        blocked.retain(|_, b| b.until > now);
        blocked.insert(
            address.to_string(),
            Block {
                user,
                reason: reason.to_string(),
                until: now + BLOCK_ADDRESS_FOR,
            },
        );
    }

    /// Lifts the address blocks a ban of `user` made (on every node, in a hall of
    /// several).
    pub async fn unblock(&self, user: i64) {
        self.blocked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|_, b| b.user != user);
        if let Some(shared) = self.shared.get() {
            if let Err(e) = shared.unblock(user).await {
                shared.unreachable("blocked_addresses", &e);
            }
        }
    }

    /// A ban's reason, if `address` is blocked from making accounts now.
    async fn blocked(&self, address: &str) -> Option<String> {
        let here = {
            let blocked = self.blocked.lock().unwrap_or_else(|p| p.into_inner());
            blocked
                .get(address)
                .filter(|b| b.until > Instant::now())
                .map(|b| b.reason.clone())
        };
        if here.is_some() {
            return here;
        }
        let shared = self.shared.get()?;
        match shared.blocked(address).await {
            Ok(reason) => reason,
            Err(e) => {
                shared.unreachable("blocked_addresses", &e);
                None
            }
        }
    }

    /// Counts a new account from `address`, or refuses it if the address has made its
    /// share lately.
    async fn new_account(&self, address: &str) -> Result<(), AuthError> {
        if let Some(reason) = self.blocked(address).await {
            return Err(AuthError::AddressBlocked(reason));
        }
        match self.new_by_address.reserve(address).await {
            Some(_) => Ok(()),
            None => Err(AuthError::TooManyAccounts),
        }
    }

    async fn open_session(&self, user: UserInfo) -> Result<Session, AuthError> {
        let token = hex::encode(random_bytes::<32>()?);
        let expires = unix_now() + self.session.as_secs() as i64;
        self.store
            .create_session(user.id, &token_hash(&token), expires)
            .await?;
        Ok(Session { token, user })
    }

    /// Registers `name`. A guest (`current`) becomes that account, keeping its games.
    /// `address` is the client's, for the limit of new accounts.
    pub async fn register(
        &self,
        current: Option<&UserInfo>,
        name: &str,
        password: &str,
        address: &str,
    ) -> Result<Session, AuthError> {
        let name = &names::normal(name);
        if !names::valid(name) {
            return Err(AuthError::BadName);
        }
        if !(8..=256).contains(&password.chars().count()) {
            return Err(AuthError::BadPassword);
        }
        self.new_account(address).await?;
        let hash = hash_password(&self.hashing, password.to_string()).await?;
        let user = match current {
            Some(guest) if guest.guest => self.store.register_guest(guest.id, name, &hash).await?,
            _ => self.store.create_user(name, Some(&hash), false).await?,
        };
        self.open_session(user).await
    }

    /// Counts a failed login of `name` from `address` before its password is checked:
    /// refused if the address has failed its share with that name, or with every name.
    /// The try stays counted if [`Attempt::failed`] is called, and is given back otherwise.
    async fn attempt(&self, name: &str, address: &str) -> Result<Attempt<'_>, AuthError> {
        let pair = format!("{address} {}", names::key(name));
        let Some(by_address) = self.by_address.reserve(address).await else {
            return Err(AuthError::RateLimited);
        };
        let Some(by_pair) = self.by_address_and_name.reserve(&pair).await else {
            self.by_address.give_back(address, by_address);
            return Err(AuthError::RateLimited);
        };
        Ok(Attempt {
            accounts: self,
            pair,
            address: address.to_string(),
            counted: Some((by_pair, by_address)),
        })
    }

    /// The stand-in hash (see [`Accounts::stand_in`]), made the first time it is needed.
    async fn stand_in(&self) -> Result<String, AuthError> {
        self.stand_in
            .get_or_try_init(|| async {
                let nobody = hex::encode(random_bytes::<16>()?);
                hash_password(&self.hashing, nobody).await
            })
            .await
            .cloned()
    }

    /// Checks `password` against `hash`, or against the stand-in when there is none, so
    /// both take the same time; false without a hash.
    async fn check(&self, password: &str, hash: Option<String>) -> Result<bool, AuthError> {
        let real = hash.is_some();
        let hash = match hash {
            Some(hash) => hash,
            None => self.stand_in().await?,
        };
        let right = check_password(&self.hashing, password.to_string(), hash).await;
        Ok(real && right)
    }

    /// Logs in. `address` is the client's, for the limits of failed logins.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        address: &str,
    ) -> Result<Session, AuthError> {
        let attempt = self.attempt(name, address).await?;
        let stored = self.store.user_by_name(name).await?;
        let hash = stored.as_ref().and_then(|u| u.password_hash.clone());
        if !self.check(password, hash).await? {
            attempt.failed();
            return Err(AuthError::WrongPassword);
        }
        let Some(u) = stored else {
            return Err(AuthError::WrongPassword);
        };
        attempt.passed();
        if let Some(reason) = u.banned {
            return Err(AuthError::Banned(reason));
        }
        self.open_session(u.info).await
    }

    /// Checks the password of a registered `user` before a change to the account: a guest
    /// has none, and a wrong one counts as a failed login of the name from the address.
    async fn check_current(
        &self,
        user: &UserInfo,
        password: &str,
        address: &str,
    ) -> Result<(), AuthError> {
        if user.guest {
            return Err(AuthError::Guest);
        }
        let attempt = self.attempt(&user.name, address).await?;
        let stored = self.store.user_by_name(&user.name).await?;
        let hash = stored
            .filter(|u| u.info.id == user.id)
            .and_then(|u| u.password_hash)
            .ok_or(AuthError::Guest)?;
        if !self.check(password, Some(hash)).await? {
            attempt.failed();
            return Err(AuthError::WrongCurrentPassword);
        }
        attempt.passed();
        Ok(())
    }

    /// Changes the password of `user`, whose session is `token`, after checking the
    /// current one; every other session of the account ends, and their count is returned.
    /// A wrong current password counts as a failed login of the name and the address, so
    /// a stolen session cannot be used to guess the password any faster than the login
    /// form can.
    pub async fn change_password(
        &self,
        user: &UserInfo,
        token: &str,
        password: &str,
        new_password: &str,
        address: &str,
    ) -> Result<u64, AuthError> {
        if !(8..=256).contains(&new_password.chars().count()) {
            return Err(AuthError::BadPassword);
        }
        self.check_current(user, password, address).await?;
        let hash = hash_password(&self.hashing, new_password.to_string()).await?;
        Ok(self
            .store
            .set_password(user.id, &hash, &token_hash(token))
            .await?)
    }

    /// Deletes the account of `user` after checking its password: its name is released
    /// (the account is renamed `deleted-<id>`), its password and ratings go, and every
    /// session ends. Its games stay, under the new name: they are the other players'
    /// records too. A wrong password counts as a failed login, as in
    /// [`Accounts::change_password`].
    pub async fn delete_account(
        &self,
        user: &UserInfo,
        password: &str,
        address: &str,
    ) -> Result<UserInfo, AuthError> {
        self.check_current(user, password, address).await?;
        Ok(self.store.delete_account(user.id).await?)
    }

    /// A new guest account with a generated name, for a client at `address`.
    pub async fn guest(&self, address: &str) -> Result<Session, AuthError> {
        self.new_account(address).await?;
        for _ in 0..8 {
            let suffix = hex::encode(random_bytes::<4>()?);
            match self
                .store
                .create_user(&format!("guest-{suffix}"), None, true)
                .await
            {
                Ok(user) => return self.open_session(user).await,
                Err(StoreError::NameTaken(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(AuthError::Storage("no free guest name".into()))
    }

    /// The user of a live session token.
    pub async fn resume(&self, token: &str) -> Result<UserInfo, AuthError> {
        self.store
            .session_user(&token_hash(token), unix_now())
            .await?
            .ok_or(AuthError::BadToken)
    }

    /// Ends a session.
    pub async fn logout(&self, token: &str) -> Result<(), AuthError> {
        Ok(self.store.revoke_session(&token_hash(token)).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_password_hash_waits_for_a_free_turn() {
        let hashing = tokio::sync::Semaphore::new(1);
        let taken = hashing.acquire().await.expect("a turn");
        let mut hash = std::pin::pin!(hash_password(&hashing, "correct horse".into()));
        // Every turn taken: however long we wait, no hash starts.
        assert!(
            tokio::time::timeout(Duration::from_millis(200), hash.as_mut())
                .await
                .is_err(),
            "hashed without a turn"
        );
        drop(taken);
        let hash = hash.await.expect("hashed once a turn is free");
        assert!(check_password(&hashing, "correct horse".into(), hash).await);
    }
}
