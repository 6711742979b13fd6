//! Private tables' invite codes, and the count of wrong ones each address sends, so that
//! a code cannot be guessed by trying many.
//!
//! Each node knows the codes of the private tables it serves. In a hall of several nodes
//! it also writes them in Redis (`P:invite:TABLE`, [`crate::cluster::shared`]), and the
//! wrong codes are counted there, so that guesses spread over the nodes, at tables served
//! anywhere, count together.

use crate::cluster::Cluster;
use crate::hall::Refusal;
use crate::protocol::{ErrorCode, TableRequest};
use crate::ratelimit::Window;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Wrong invite codes one address may send in [`WRONG_INVITES_WINDOW`] before every code
/// it sends is refused (`rate_limited`) until the window passes: with
/// [`INVITE_LENGTH`] characters, a code cannot be guessed at that pace.
pub const WRONG_INVITES: u32 = 10;

/// The window of [`WRONG_INVITES`].
pub const WRONG_INVITES_WINDOW: Duration = Duration::from_secs(600);

/// Characters of an invite code: 16 of 31 are 79 bits, from the system's random source.
pub const INVITE_LENGTH: usize = 16;

/// The codes of the private tables served here, and the wrong codes per address.
pub struct Invites {
    codes: Mutex<HashMap<String, String>>,
    wrong: Window,
}

impl Default for Invites {
    fn default() -> Self {
        Invites {
            codes: Mutex::default(),
            wrong: Window::new("wrong_invites", WRONG_INVITES, WRONG_INVITES_WINDOW),
        }
    }
}

impl Invites {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.codes.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// From now on, counts wrong codes with the other nodes through `shared`.
    pub fn share(&self, shared: Arc<crate::cluster::shared::Shared>) {
        self.wrong.share(shared);
    }

    /// Table `table`, served here, is private with `code`. In a hall of several nodes,
    /// [`publish`] tells the others.
    pub fn open(&self, table: &str, code: &str) {
        self.lock().insert(table.to_string(), code.to_string());
    }

    /// Table `table` closed here.
    pub fn close(&self, table: &str, cluster: Option<&Arc<Cluster>>) {
        let private = self.lock().remove(table).is_some();
        if let (true, Some(cluster)) = (private, cluster.cloned()) {
            let table = table.to_string();
            tokio::spawn(async move {
                if let Err(e) = cluster.shared().forget_invite(&table).await {
                    cluster.shared().unreachable("wrong_invites", &e);
                }
            });
        }
    }

    /// Counts the wrong invite codes an address sends, before a join or a watch reaches
    /// its table (which checks the code again, and lets in a player seated there without
    /// one). An address that has sent [`WRONG_INVITES`] wrong codes lately is refused
    /// whatever code it sends, right or wrong, so the answer tells it nothing more; a
    /// request without a code guesses nothing and passes. In a hall of several nodes
    /// (`cluster`) the count is kept with the other nodes, and the code of a table served
    /// elsewhere is read from Redis (a table whose code Redis does not know, after a Redis
    /// restart, is checked by its table only).
    pub async fn check(
        &self,
        request: &TableRequest,
        address: &str,
        cluster: Option<&Arc<Cluster>>,
    ) -> Result<(), Refusal> {
        let (table, invite) = match request {
            TableRequest::Join(r) => (&r.table, r.invite.as_deref()),
            TableRequest::Watch(r) => (&r.table, r.invite.as_deref()),
            TableRequest::Resume(r) => (&r.table, r.invite.as_deref()),
            _ => return Ok(()),
        };
        let Some(invite) = invite else {
            return Ok(());
        };
        let here = self.lock().get(table).cloned();
        let code = match (here, cluster) {
            (Some(code), _) => code,
            (None, Some(cluster)) => match elsewhere(cluster, table).await {
                Some(code) => code,
                None => return Ok(()),
            },
            (None, None) => return Ok(()),
        };
        // Counted as wrong until it is known right, so codes sent at once are held to the
        // limit too.
        let Some(counted) = self.wrong.reserve(address).await else {
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                "too many wrong invite codes from your address: try again in a few minutes",
            ));
        };
        if invite != code {
            return Err(Refusal::new(
                ErrorCode::Private,
                "this table is private: you need its invite code",
            ));
        }
        self.wrong.give_back(address, counted);
        Ok(())
    }
}

/// Tells the other nodes of the hall the code of private table `table`, served here.
pub async fn publish(cluster: &Cluster, table: &str, code: &str) {
    if let Err(e) = cluster.shared().set_invite(table, code).await {
        cluster.shared().unreachable("wrong_invites", &e);
    }
}

/// The invite code of private table `table` served by another node, if Redis knows it.
async fn elsewhere(cluster: &Cluster, table: &str) -> Option<String> {
    let shared = cluster.shared();
    match shared.invite(table).await {
        Ok(code) => code,
        Err(e) => {
            shared.unreachable("wrong_invites", &e);
            None
        }
    }
}
