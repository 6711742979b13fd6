//! The table's lease: the store's word that this node serves the table, and the epoch
//! that every write for the table carries ([`crate::store::Lease`]).
//!
//! A new table is claimed by the hall before its first save, and so is a table taken over
//! from another node ([`crate::takeover`]); a table restored after a restart claims itself
//! when its task starts ([`crate::hall::Hall::restore_claim`]: taking over the lease its
//! previous process left when one hall alone serves the store, only a free one when nodes
//! share it). The task renews the lease every
//! [`Timing::lease_renew`](crate::config::Timing::lease_renew) for
//! [`Timing::lease_ttl`](crate::config::Timing::lease_ttl), and lets it go when the hall
//! stops or the table closes.
//!
//! A write refused as [`StoreError::Fenced`] means another claim came since (a node that
//! took the table over while this one was paused past its lease): this node no longer
//! owns the table. It stops serving it at once — nothing more is applied or published,
//! the write is not tried again, its clients are told to reconnect — and says so in its
//! log.

use super::play::Phase;
use super::TableTask;
use crate::protocol::{ErrorCode, ServerMessage};
use crate::store::{unix_millis, Fence, StoreError};
use std::time::{Duration, Instant};

/// The first wait after a claim that failed (the store out of reach); each next one is
/// twice as long, up to the configured longest ([`crate::config::Timing::store_retry`]).
const FIRST_WAIT: Duration = Duration::from_millis(500);

impl TableTask {
    /// What the table's writes carry; `None` once the table has been fenced.
    pub(super) fn fence(&self) -> Option<Fence> {
        self.lease.as_ref().map(|l| l.fence())
    }

    /// Claims the table as its task starts (a table restored after a restart), waiting
    /// for a store that is out of reach; false if the table cannot be served here (another
    /// node claimed it first).
    pub(super) async fn claim(&mut self) -> bool {
        let timing = &self.hall.config.timing;
        let (ttl, renew, longest) = (timing.lease_ttl, timing.lease_renew, timing.store_retry);
        let claim = self.hall.restore_claim();
        let mut wait = FIRST_WAIT;
        loop {
            let claimed = self
                .hall
                .store
                .claim_table(&self.id, &self.hall.node, ttl, unix_millis(), claim)
                .await;
            match claimed {
                Ok(lease) => {
                    tracing::debug!(table = %self.id, epoch = lease.epoch, "table claimed");
                    self.lease = Some(lease);
                    self.renew_at = Some(Instant::now() + renew);
                    return true;
                }
                Err(e @ StoreError::LeaseHeld { .. }) => {
                    tracing::info!(table = %self.id, error = %e, "another node serves the table; this one leaves it");
                    let mut info = self.info();
                    info.status = "closed".into();
                    self.hall.lobby.update(info);
                    self.hall.forget_table(&self.id);
                    return false;
                }
                Err(e) => {
                    tracing::warn!(table = %self.id, error = %e, retry_in = ?wait, "cannot claim the table yet");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(longest);
                }
            }
        }
    }

    /// Renews the lease if it is time. A renewal the store could not take is tried again
    /// at the next; one refused as fenced stops the table.
    pub(super) async fn renew_if_due(&mut self) {
        let now = Instant::now();
        if self.renew_at.is_none_or(|t| t > now) {
            return;
        }
        let Some(lease) = self.lease.clone() else {
            return;
        };
        let timing = &self.hall.config.timing;
        let (ttl, renew) = (timing.lease_ttl, timing.lease_renew);
        self.renew_at = Some(now + renew);
        match self
            .hall
            .store
            .renew_lease(&lease, ttl, unix_millis())
            .await
        {
            Ok(renewed) => self.lease = Some(renewed),
            Err(e) => {
                if !self.fenced(&e) {
                    tracing::warn!(table = %self.id, error = %e, "cannot renew the table's lease; trying again");
                }
            }
        }
    }

    /// Whether this node still owns the table, asked before a move is applied: a lease
    /// overdue for renewal (the node was paused or starved past it) is renewed first, so
    /// a node that lost the table learns it before it applies anything, not after.
    pub(super) async fn still_owned(&mut self) -> bool {
        self.renew_if_due().await;
        !self.closed && self.lease.is_some()
    }

    /// Says in the log that a move for this table (by `seat`) was neither stored nor
    /// published, because another node owns the table now.
    pub(super) fn unowned_move(&self, seat: usize) {
        tracing::warn!(
            table = %self.id, node = %self.hall.node, seat,
            "a move at table {} not stored and not published: another node owns the table now",
            self.id
        );
    }

    /// Lets the lease go (the hall stops, or the table closed), so a next process claims
    /// the table without waiting for it to run out.
    pub(super) async fn release(&mut self) {
        let Some(lease) = self.lease.take() else {
            return;
        };
        self.renew_at = None;
        if let Err(e) = self.hall.store.release_table(&lease).await {
            tracing::warn!(table = %self.id, error = %e, "cannot release the table's lease");
        }
    }

    /// If `error` is a fenced write: stops serving the table — logs it, tells everyone at
    /// the table, applies and writes nothing more, and leaves the hall's list of tables
    /// (the lobby's entry goes with it) — and says true.
    pub(super) fn fenced(&mut self, error: &StoreError) -> bool {
        if !matches!(error, StoreError::Fenced { .. }) {
            return false;
        }
        if self.lease.take().is_none() {
            return true;
        }
        tracing::error!(
            table = %self.id, node = %self.hall.node,
            "{error}: another node took the table over; this node stops serving it, and stores and publishes nothing more of it"
        );
        self.renew_at = None;
        for sub in self.subs.values() {
            sub.out.send(&ServerMessage::error(
                ErrorCode::Storage,
                "another server has taken this table over; reconnect to go on playing",
                Some(&self.id),
            ));
        }
        self.set_phase(Phase::Waiting);
        self.fill_at = None;
        self.closed = true;
        let mut info = self.info();
        info.status = "closed".into();
        self.hall.lobby.update(info);
        self.hall.forget_table(&self.id);
        true
    }
}
