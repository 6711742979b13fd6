//! Who follows a table: subscribing (a person's newest connection takes over), watching,
//! resuming after a dropped connection (the missed messages replayed, or the last game's
//! end read back from the store after a restart), table chat, and closing the table when
//! nobody is left.

use super::log::{self, Entry};
use super::play::Phase;
use super::seats::Auto;
use super::{Client, Sub, TableTask};
use crate::hall::Refusal;
use crate::outbox::ConnId;
use crate::protocol::ErrorCode;
use crate::protocol::ServerMessage;
use serde_json::Value;
use std::time::Instant;

impl TableTask {
    /// Adds (or replaces) a subscriber; a person's second connection takes over.
    pub(super) fn subscribe(&mut self, from: &Client) {
        if let Some(user) = &from.user {
            let older: Vec<ConnId> = self
                .subs
                .iter()
                .filter(|(c, s)| {
                    **c != from.conn && s.user.as_ref().is_some_and(|u| u.id == user.id)
                })
                .map(|(c, _)| *c)
                .collect();
            for c in older {
                if let Some(sub) = self.subs.remove(&c) {
                    sub.out.send(&ServerMessage::error(
                        ErrorCode::TakenOver,
                        "this table is now followed from another connection",
                        Some(&self.id),
                    ));
                }
            }
        }
        self.subs.insert(
            from.conn,
            Sub {
                user: from.user.clone(),
                out: from.out.clone(),
            },
        );
        self.recount_connections();
    }

    /// Counts each seated person's connections; a person back from away takes the seat
    /// back from the computer.
    pub(super) fn recount_connections(&mut self) {
        let now = Instant::now();
        for seat in &mut self.seats {
            let Some(person) = &seat.person else { continue };
            let n = self
                .subs
                .values()
                .filter(|s| s.user.as_ref().is_some_and(|u| u.id == person.id))
                .count();
            seat.connections = n;
            if n == 0 {
                seat.away_since.get_or_insert(now);
            } else {
                seat.away_since = None;
                if seat.auto == Some(Auto::Away) {
                    seat.auto = None;
                }
            }
        }
    }

    /// A private table lets in only those with its code.
    pub(super) fn check_invite(&self, invite: Option<&str>) -> Result<(), Refusal> {
        match &self.invite {
            Some(code) if invite != Some(code.as_str()) => Err(Refusal::new(
                ErrorCode::Private,
                "this table is private: you need its invite code",
            )),
            _ => Ok(()),
        }
    }

    /// Whether `from`, who holds no seat here, may follow the table as a spectator: anyone
    /// at a public table; at a private one, whoever already follows it on this connection,
    /// its host, and those with its code when the host lets people watch.
    fn may_watch(&self, from: &Client, invite: Option<&str>) -> Result<(), Refusal> {
        if self.invite.is_none() || self.subs.contains_key(&from.conn) || self.is_host(from) {
            return Ok(());
        }
        self.check_invite(invite)?;
        if !self.options.spectators {
            return Err(Refusal::new(
                ErrorCode::NoSpectators,
                "the host of this private table lets nobody watch it",
            ));
        }
        Ok(())
    }

    /// Follows the table as a spectator (or, for a person seated here, from their seat).
    pub(super) fn watch(&mut self, from: Client, invite: Option<String>) {
        let already_seated = from.user.as_ref().and_then(|u| self.seat_of(u)).is_some();
        if !already_seated {
            if let Err(r) = self.may_watch(&from, invite.as_deref()) {
                return self.refuse(&from, r);
            }
        }
        self.subscribe(&from);
        from.out.send(&self.snapshot(from.user.as_ref()));
        self.sync_auto_bots();
        self.publish_seats();
    }

    /// A connection back after a drop: what it missed since `last_seq`, in order, then the
    /// table as it is now. A client that holds nothing yet (`last_seq` 0: a page just
    /// loaded) is sent every entry still kept, so that it can show the moves and the chat
    /// that came before.
    pub(super) async fn resume(&mut self, from: Client, last_seq: u64, invite: Option<String>) {
        let seated = from.user.as_ref().and_then(|u| self.seat_of(u)).is_some();
        if !seated {
            if let Err(r) = self.may_watch(&from, invite.as_deref()) {
                return self.refuse(&from, r);
            }
        }
        self.subscribe(&from);
        let audience = self.audience(from.user.as_ref());
        let mut replayed_end = false;
        if last_seq < self.seq {
            if let Some(missed) = self.log.since(last_seq) {
                for (seq, entry) in missed {
                    replayed_end |= self.last_game.as_ref().is_some_and(|g| g.seq == *seq);
                    if let Entry::Chat { from: who, .. } = entry {
                        if from.out.mutes(who) {
                            continue;
                        }
                    }
                    // A deal's call for nonces is replayed only while that deal still
                    // waits for them: answering a past one could only be refused.
                    if let Entry::Commitment { game_id, .. } = entry {
                        if !self.waits_for_nonces(game_id) {
                            continue;
                        }
                    }
                    if let Some(m) = log::message(&self.id, *seq, entry, audience) {
                        from.out.send(&m);
                    }
                }
            }
        }
        if !replayed_end {
            self.resend_game_over(&from, last_seq).await;
        }
        from.out.send(&self.snapshot(from.user.as_ref()));
        self.sync_auto_bots();
        self.publish_seats();
    }

    /// The end of the last game, from the store, for a client that last heard of the table
    /// before it and cannot be replayed it (the server restarted in between: the replay
    /// buffer lives in memory, the record does not).
    pub(super) async fn resend_game_over(&self, to: &Client, last_seq: u64) {
        let Some(last) = self.last_game.as_ref().filter(|g| last_seq < g.seq) else {
            return;
        };
        match self.hall.store.finished_record(&last.id).await {
            Ok(Some(record)) => {
                let scores = record
                    .outcome
                    .as_ref()
                    .map(|o| o.scores.clone())
                    .unwrap_or_default();
                to.out.send(&ServerMessage::GameOver {
                    table: self.id.clone(),
                    seq: last.seq,
                    game_id: last.id.clone(),
                    scores,
                    record: serde_json::to_value(&record).unwrap_or(Value::Null),
                    totals: self.totals.clone(),
                    ratings: Vec::new(),
                });
            }
            Ok(None) => {}
            Err(e) => tracing::error!(table = %self.id, error = %e, "cannot read the last game"),
        }
    }

    /// Table chat, from people who follow the table.
    pub(super) fn chat(&mut self, from: &Client, text: String) {
        let Some(user) = &from.user else {
            return self.refuse(from, Refusal::not_logged_in());
        };
        if !self.subs.contains_key(&from.conn) {
            return self.refuse(
                from,
                Refusal::new(
                    ErrorCode::NotWatching,
                    "join or watch the table to chat there",
                ),
            );
        }
        self.publish(Entry::Chat {
            from: user.name.clone(),
            text,
        });
    }

    /// The person behind connection `from.conn` changed. A guest who registered is the
    /// same account under a new name: its seats, its hosting and its connections here take
    /// the name, so the seats and the lobby say who plays. A login (or a new guest after a
    /// logout) puts another account behind the connection: it follows the table as that
    /// account from now on, seeing what that account may see, and the seat it held as the
    /// old one counts as left by that connection; where the account logged in sits, the
    /// connection starts following the table. Either way the connection is sent the table
    /// afresh, since its seat may have changed with its person.
    pub(super) async fn user_changed(&mut self, from: Client) {
        let Some(user) = from.user.clone() else {
            return;
        };
        let mut renamed = false;
        for seat in &mut self.seats {
            if seat.holds(&user) && seat.person.as_ref() != Some(&user) {
                seat.person = Some(user.clone());
                renamed = true;
            }
        }
        if self.host.id == user.id && self.host != user {
            self.host = user.clone();
            renamed = true;
        }
        for sub in self.subs.values_mut() {
            if sub.user.as_ref().is_some_and(|u| u.id == user.id) {
                sub.user = Some(user.clone());
            }
        }
        let sits_here = self.seat_of(&user).is_some();
        let follows = match self.subs.get_mut(&from.conn) {
            Some(sub) => {
                sub.user = Some(user.clone());
                true
            }
            // The account logged in sits here: its new connection follows the table.
            None if sits_here => {
                self.subscribe(&from);
                true
            }
            None => false,
        };
        if renamed {
            self.save().await;
        }
        self.recount_connections();
        if follows {
            from.out.send(&self.snapshot(Some(&user)));
        }
        self.sync_auto_bots();
        self.publish_seats();
    }

    /// A connection closed: its seat (if any) counts as away from now.
    pub(super) async fn gone(&mut self, conn: ConnId) {
        if self.subs.remove(&conn).is_some() {
            self.recount_connections();
            self.publish_seats();
            self.close_if_abandoned().await;
        }
    }

    /// Whether connection `conn` follows the table as a person who holds a seat at it.
    pub(super) fn seated_connection(&self, conn: ConnId) -> bool {
        let Some(user) = self.subs.get(&conn).and_then(|s| s.user.as_ref()) else {
            return false;
        };
        self.seats
            .iter()
            .any(|s| s.person.as_ref().is_some_and(|p| p.id == user.id))
    }

    /// Closes the table when nobody sits in it and nobody watches.
    pub(super) async fn close_if_abandoned(&mut self) {
        let people = self.seats.iter().any(|s| s.person.is_some());
        if people || !self.subs.is_empty() || !matches!(self.phase, Phase::Waiting) {
            return;
        }
        let Some(fence) = self.fence() else { return };
        self.closed = true;
        match self.hall.store.close_table(&fence).await {
            Ok(()) => self.release().await,
            Err(e) => {
                if self.fenced(&e) {
                    return;
                }
                tracing::error!(table = %self.id, error = %e, "cannot close the table");
            }
        }
        let mut info = self.info();
        info.status = "closed".into();
        self.hall.lobby.update(info);
        self.hall.forget_table(&self.id);
    }
}
