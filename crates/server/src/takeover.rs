//! Which stored tables a node comes to serve: those it restores when it starts, and those
//! it takes over from a node whose leases ran out.
//!
//! Tables live in the store; a node serves a table while it holds the table's lease
//! ([`crate::store::Lease`]). A starting node restores the open tables it may claim: on
//! a PostgreSQL database shared by several nodes only the free ones (no lease, one run
//! out, or its own: a node restarted under the same id takes its tables back at once); on
//! SQLite, which one hall alone serves ([`Store::exclusive`]), every open table.
//!
//! While it runs, a node on a shared database looks every [`scan_every`] for open tables
//! whose lease ran out — their node died, stalled or let them go — and claims each
//! ([`Claim::IfFree`]); of two nodes that race for a table, the store's compare-and-set of
//! the epoch lets one win. A table taken over resumes from its stored record as after a
//! restart, so its players resume into the same seat and view; the node that lost it is
//! fenced at its next write. A table stands still from its node's death for at most the
//! lease's time to live and one scan.
//!
//! [`Store::exclusive`]: crate::store::Store::exclusive

use crate::hall::Hall;
use crate::store::{unix_millis, Claim, FreeTable, Lease, StoreError, StoredTable};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How often a node looks for tables to take over: twice a lease's life, so a table
/// waits at most half a lease after its lease ran out.
pub fn scan_every(lease_ttl: Duration) -> Duration {
    (lease_ttl / 2).max(Duration::from_millis(50))
}

/// The node id a node takes when none is given: this host's name and the port it listens
/// on (`cards-1:7878`). It stays the same across restarts of one node, so a node that
/// crashed and is started again claims its own tables back at once, without waiting for
/// their leases to run out; two nodes on one host differ by their ports.
pub fn default_node_id(addr: SocketAddr) -> String {
    let host = ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .map(|name| name.trim().to_string())
        .find(|name| !name.is_empty())
        .unwrap_or_else(|| addr.ip().to_string());
    format!("{host}:{}", addr.port())
}

impl Hall {
    /// How a table restored at start claims itself: taking over whatever lease it finds
    /// in a store this hall alone serves (they are its own crashed process's), and only a
    /// free one in a shared store.
    pub(crate) fn restore_claim(&self) -> Claim {
        if self.store.exclusive() {
            Claim::Takeover
        } else {
            Claim::IfFree
        }
    }

    /// Opens every stored table this node may serve now (see the module); each resumes
    /// its unfinished game from the store. First, each moderator's name is bound to the
    /// account registered under it now ([`crate::moderation::Moderators::bind`]). Returns
    /// how many tables it opened.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, StoreError> {
        self.moderators.bind(self.store.as_ref()).await?;
        let stored: Vec<StoredTable> = if self.store.exclusive() {
            self.store.open_tables().await?
        } else {
            self.store
                .free_tables(&self.node, unix_millis())
                .await?
                .into_iter()
                .map(|free| free.table)
                .collect()
        };
        let n = stored.len();
        for table in stored {
            self.serve_stored(table, None);
        }
        Ok(n)
    }
}

/// Takes over, every [`scan_every`], the tables whose leases ran out, for as long as the
/// hall serves (the server aborts it before its tables stop). Only on a shared store: on
/// SQLite every table is this hall's.
pub async fn take_over(hall: Arc<Hall>) {
    if hall.store.exclusive() {
        return;
    }
    let mut every = tokio::time::interval(scan_every(hall.config.timing.lease_ttl));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        scan(&hall).await;
    }
}

/// One look for tables to take over: claims each free table this node does not serve,
/// then reads the claimed ones again (their last holder may have written between the
/// look and the claim; after the claim it cannot) and serves them.
pub async fn scan(hall: &Arc<Hall>) {
    let looked = unix_millis();
    let free = match hall.store.free_tables(&hall.node, looked).await {
        Ok(free) => free,
        Err(e) => {
            tracing::warn!(error = %e, "cannot look for tables to take over");
            return;
        }
    };
    let mut claimed: Vec<(Lease, Option<(String, i64)>)> = Vec::new();
    for FreeTable { table, holder } in free {
        if hall.table(&table.id).is_some() || hall.registry.get(&table.game).is_err() {
            continue;
        }
        // A live lease of this node's own on a table it does not serve yet is a table it
        // is opening this moment (claimed and stored, its task not yet listed): claiming
        // it again would fence the table being opened at its first write.
        if holder
            .as_ref()
            .is_some_and(|(node, expires_at)| *node == hall.node && *expires_at > looked)
        {
            continue;
        }
        let ttl = hall.config.timing.lease_ttl;
        match hall
            .store
            .claim_table(&table.id, &hall.node, ttl, unix_millis(), Claim::IfFree)
            .await
        {
            Ok(lease) => claimed.push((lease, holder)),
            // Another node was first, or the holder renewed in time.
            Err(StoreError::LeaseHeld { .. }) => {}
            Err(e) => tracing::warn!(table = %table.id, error = %e, "cannot take the table over"),
        }
    }
    if claimed.is_empty() {
        return;
    }
    let now = unix_millis();
    let fresh = match hall.store.free_tables(&hall.node, now).await {
        Ok(fresh) => fresh,
        Err(e) => {
            // The leases run out unrenewed and the next look (here or elsewhere) takes
            // the tables again.
            tracing::warn!(error = %e, "cannot read the tables taken over");
            return;
        }
    };
    for (lease, holder) in claimed {
        let Some(free) = fresh.iter().find(|f| f.table.id == lease.table) else {
            // Closed by its last holder in the meantime: nothing to serve.
            if let Err(e) = hall.store.release_table(&lease).await {
                tracing::warn!(table = %lease.table, error = %e, "cannot release a closed table");
            }
            continue;
        };
        log_takeover(hall, &lease, holder, now);
        hall.serve_stored(free.table.clone(), Some(lease));
    }
}

/// Says which table this node took over, from which node, and how long it stood still:
/// since its last holder's last renewal (its lease's end less a lease's life, the holder
/// running with this node's timing), or that the holder let it go (a drain).
fn log_takeover(hall: &Hall, lease: &Lease, holder: Option<(String, i64)>, now: i64) {
    let ttl = i64::try_from(hall.config.timing.lease_ttl.as_millis()).unwrap_or(i64::MAX);
    match holder {
        Some((node, 0)) => tracing::info!(
            table = %lease.table, from = %node, epoch = lease.epoch,
            "took over table {} from node {node}, which let it go", lease.table
        ),
        Some((node, expired_at)) => {
            let stood = now.saturating_sub(expired_at.saturating_sub(ttl)).max(0);
            tracing::info!(
                table = %lease.table, from = %node, epoch = lease.epoch, ms = stood,
                "took over table {} from node {node} after {stood} ms", lease.table
            );
        }
        None => {
            tracing::info!(table = %lease.table, epoch = lease.epoch, "took over table {}, which had no lease", lease.table)
        }
    }
}
