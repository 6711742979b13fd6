//! Bans: the host's moderators (`qipai serve --moderator NAME`) shut an account out of
//! the hall.
//!
//! A ban is stored with the account (why, and when), so it survives restarts: the account
//! cannot log in, and every session it had ends in the same write. Its live connection is
//! told the reason and closed; its seats are then held and played by computers as any
//! dropped player's are, so the tables it sat at go on. Coming back as a guest from the
//! same address is refused for [`BLOCK_ADDRESS_FOR`] (in memory: a restart forgets it;
//! in a hall of several nodes, in Redis, so every node refuses it — the node the player
//! was connected to blocks the address, wherever the moderator is).
//! What the account did stays: its games, replays and ratings are part of other players'
//! records too.
//!
//! A moderator cannot ban a moderator: the host, who names them, removes one instead.
//!
//! The host names moderators by name, but the role belongs to an account: when the hall
//! starts, each name is bound to the account registered under it then, and only that
//! account is the moderator while the hall runs. A name nobody has registered yet is bound
//! to the first account seen under it (the host registers it, then uses it). So a
//! moderator who deletes their account takes the role with them: whoever registers the
//! freed name is nobody special. The binding is kept in memory; at the next start the name
//! is bound again to whoever holds it then, so a host whose moderator left removes the
//! name from `--moderator` before restarting.

use crate::accounts::BLOCK_ADDRESS_FOR;
use crate::hall::{Hall, Refusal};
use crate::protocol::ErrorCode;
use crate::protocol::{ServerMessage, UserInfo};
use crate::store::{Store, StoreError};
use std::collections::HashMap;
use std::sync::Mutex;

/// The host's moderators: the names given (by their [`crate::names::key`]) and the
/// account each is bound to (see the module's documentation).
pub struct Moderators {
    /// Each name's key, the name as the host gave it, and the account it is bound to
    /// once one is.
    bound: Mutex<HashMap<String, (String, Option<i64>)>>,
}

impl Moderators {
    /// The moderators the host named, bound to no account yet.
    pub fn new(names: &[String]) -> Moderators {
        Moderators {
            bound: Mutex::new(
                names
                    .iter()
                    .map(|n| (crate::names::key(n), (n.clone(), None)))
                    .collect(),
            ),
        }
    }

    /// Binds each name to the registered account that holds it now, when the hall
    /// starts; a name nobody holds waits for the first account seen under it.
    pub async fn bind(&self, store: &dyn Store) -> Result<(), StoreError> {
        let names: Vec<(String, String)> = self
            .lock()
            .iter()
            .map(|(key, (name, _))| (key.clone(), name.clone()))
            .collect();
        for (key, name) in names {
            let holder = store.user_by_name(&name).await?;
            match holder.filter(|u| !u.info.guest) {
                Some(u) => {
                    tracing::info!(name = %u.info.name, id = u.info.id, "moderator");
                    self.lock().insert(key, (name, Some(u.info.id)));
                }
                None => tracing::warn!(
                    name = %name,
                    "a moderator's name nobody has registered: the first account to take it will be the moderator"
                ),
            }
        }
        Ok(())
    }

    /// Whether `user` is the account a moderator's name is bound to; the first account
    /// seen under a name that is bound to none yet becomes it.
    fn is(&self, user: &UserInfo) -> bool {
        if user.guest {
            return false;
        }
        match self.lock().get_mut(&crate::names::key(&user.name)) {
            Some((_, bound)) => *bound.get_or_insert(user.id) == user.id,
            None => false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, Option<i64>)>> {
        self.bound.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Whether `user` is one of the hall's moderators: the registered account a name the host
/// named is bound to ([`Moderators`]).
pub fn is_moderator(hall: &Hall, user: &UserInfo) -> bool {
    hall.moderators.is(user)
}

/// Refuses anyone but a moderator.
fn moderator(hall: &Hall, by: Option<&UserInfo>) -> Result<(), Refusal> {
    let by = by.ok_or_else(Refusal::not_logged_in)?;
    if !is_moderator(hall, by) {
        return Err(Refusal::new(
            ErrorCode::NotModerator,
            "only the hall's moderators may ban, unban and see the bans",
        ));
    }
    Ok(())
}

/// The account `name`, for a moderator `by`; refuses anyone else.
async fn target(hall: &Hall, by: Option<&UserInfo>, name: &str) -> Result<UserInfo, Refusal> {
    moderator(hall, by)?;
    let stored = hall
        .store
        .user_by_name(name)
        .await
        .map_err(|e| Refusal::new(ErrorCode::Storage, e.to_string()))?
        .ok_or_else(|| Refusal::new(ErrorCode::NoUser, format!("there is no player {name}")))?;
    if is_moderator(hall, &stored.info) {
        return Err(Refusal::new(
            ErrorCode::NotAllowed,
            "a moderator cannot be banned: the host removes the name from --moderator",
        ));
    }
    Ok(stored.info)
}

/// `ban`: shuts `name` out for `reason`, ends its sessions and its connection, and blocks
/// the address it played from. Answers the moderator with [`ServerMessage::Moderated`].
pub async fn ban(
    hall: &Hall,
    by: Option<&UserInfo>,
    name: &str,
    reason: &str,
) -> Result<ServerMessage, Refusal> {
    let max = hall.config.limits.max_chat;
    let reason = crate::chat::clean(reason, max).map_err(|_| {
        Refusal::new(
            ErrorCode::BadReason,
            format!("say why, in at most {max} characters"),
        )
    })?;
    let user = target(hall, by, name).await?;
    let ended = hall
        .store
        .set_banned(user.id, Some(&reason))
        .await
        .map_err(|e| Refusal::new(ErrorCode::Storage, e.to_string()))?;
    let told = format!("banned by a moderator: {reason}");
    if let Some(address) = hall.disconnect(user.id, ErrorCode::Banned, &told) {
        hall.accounts
            .block_address(&address, user.id, &reason)
            .await;
    }
    if let Some(cluster) = hall.cluster.get() {
        cluster.banned(user.id, &reason, &told).await;
    }
    tracing::info!(
        user = %user.name,
        by = %by.map_or("", |b| b.name.as_str()),
        reason = %reason,
        block_hours = BLOCK_ADDRESS_FOR.as_secs() / 3600,
        "banned"
    );
    Ok(ServerMessage::Moderated {
        user: user.name,
        banned: true,
        sessions_ended: ended,
    })
}

/// `unban`: lets `name` log in again, and lifts the address block its ban made.
pub async fn unban(
    hall: &Hall,
    by: Option<&UserInfo>,
    name: &str,
) -> Result<ServerMessage, Refusal> {
    let user = target(hall, by, name).await?;
    hall.store
        .set_banned(user.id, None)
        .await
        .map_err(|e| Refusal::new(ErrorCode::Storage, e.to_string()))?;
    hall.accounts.unblock(user.id).await;
    tracing::info!(user = %user.name, by = %by.map_or("", |b| b.name.as_str()), "unbanned");
    Ok(ServerMessage::Moderated {
        user: user.name,
        banned: false,
        sessions_ended: 0,
    })
}

/// `bans`: every banned account with its reason, the latest first, for a moderator who
/// wants to review them (a ban lasts until it is lifted).
pub async fn bans(hall: &Hall, by: Option<&UserInfo>) -> Result<ServerMessage, Refusal> {
    moderator(hall, by)?;
    let bans = hall
        .store
        .bans()
        .await
        .map_err(|e| Refusal::new(ErrorCode::Storage, e.to_string()))?;
    Ok(ServerMessage::Bans { bans })
}
