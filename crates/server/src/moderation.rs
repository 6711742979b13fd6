//! Bans: the host's moderators (`qipai serve --moderator NAME`) shut an account out of
//! the hall.
//!
//! A ban is stored with the account (why, and when), so it survives restarts: the account
//! cannot log in, and every session it had ends in the same write. Its live connection is
//! told the reason and closed; its seats are then held and played by computers as any
//! dropped player's are, so the tables it sat at go on. Coming back as a guest from the
//! same address is refused for [`BLOCK_ADDRESS_FOR`] (in memory: a restart forgets it).
//! What the account did stays: its games, replays and ratings are part of other players'
//! records too.
//!
//! A moderator cannot ban a moderator: the host, who names them, removes one instead.

use crate::accounts::BLOCK_ADDRESS_FOR;
use crate::hall::{Hall, Refusal};
use crate::protocol::ErrorCode;
use crate::protocol::{ServerMessage, UserInfo};

/// Whether `user` is one of the hall's moderators: a registered account the host named.
pub fn is_moderator(hall: &Hall, user: &UserInfo) -> bool {
    !user.guest
        && hall
            .config
            .moderators
            .iter()
            .any(|m| crate::names::key(m) == crate::names::key(&user.name))
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
    let reason = crate::conn::clean_chat(reason, max).map_err(|_| {
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
        hall.accounts.block_address(&address, user.id, &reason);
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
    hall.accounts.unblock(user.id);
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
