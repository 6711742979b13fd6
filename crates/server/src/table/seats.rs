//! Who sits where: people, computers, readiness, connections, and 托管 — when and why a
//! computer plays a person's seat.

use super::play::Phase;
use super::{Client, TableTask};
use crate::hall::Refusal;
use crate::protocol::ErrorCode;
use crate::protocol::{SeatInfo, UserInfo};
use crate::store::StoredSeat;
use game::text::{seat_name, seat_number};
use std::time::Instant;

/// Why a computer plays a person's seat for now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auto {
    /// The person asked for it (托管 on).
    Asked,
    /// The person let the clock run out too often in a row.
    Timeouts,
    /// The person has been away longer than the grace period.
    Away,
}

/// One seat.
#[derive(Debug, Clone, Default)]
pub struct SeatState {
    /// The person sitting here.
    pub person: Option<UserInfo>,
    /// The computer filling the seat (a bot's name), when no person sits.
    pub bot: Option<String>,
    /// Ready for the next game (computers always are).
    pub ready: bool,
    /// The person's connections watching the table.
    pub connections: usize,
    /// Since when the person has had no connection.
    pub away_since: Option<Instant>,
    /// Why a computer plays the person's seat, if it does.
    pub auto: Option<Auto>,
    /// The person's timeouts in a row.
    pub timeouts: u32,
}

impl SeatState {
    /// A seat as stored (after a restart: nobody connected yet).
    pub fn restored(stored: &StoredSeat, now: Instant) -> SeatState {
        SeatState {
            person: stored.user.clone(),
            bot: stored.bot.clone(),
            ready: stored.bot.is_some(),
            connections: 0,
            away_since: stored.user.as_ref().map(|_| now),
            auto: None,
            timeouts: 0,
        }
    }

    /// Nobody sits here.
    pub fn is_empty(&self) -> bool {
        self.person.is_none() && self.bot.is_none()
    }

    /// Whether `user` sits here.
    pub fn holds(&self, user: &UserInfo) -> bool {
        self.person.as_ref().is_some_and(|p| p.id == user.id)
    }

    /// Whether a computer makes this seat's moves now.
    pub fn computer_plays(&self) -> bool {
        self.bot.is_some() || self.auto.is_some()
    }

    /// The seat as stored.
    pub fn stored(&self) -> StoredSeat {
        StoredSeat {
            user: self.person.clone(),
            bot: self.bot.clone(),
        }
    }

    /// The seat as clients see it.
    pub fn info(&self, seat: usize) -> SeatInfo {
        SeatInfo {
            seat,
            user: self.person.clone(),
            bot: self.bot.clone(),
            ready: self.ready,
            connected: self.connections > 0,
            auto: self.auto.is_some(),
        }
    }

    /// Empties the seat.
    pub fn clear(&mut self) {
        *self = SeatState::default();
    }
}

impl TableTask {
    /// Marks every filled seat ready, for a game resumed from the store: a game starts only
    /// when every seat is ready, and its seats stay so until it ends, so a restart must
    /// not show the players of a running game as not ready (the store keeps no readiness).
    pub(super) fn ready_for_resumed_game(&mut self) {
        for seat in &mut self.seats {
            seat.ready = !seat.is_empty();
        }
    }

    /// Sits a person down (between games), `ready` or not for the next game, or answers a
    /// person already seated here with the table again; a quick-play table starts its
    /// wait for more people. Ready in the same step, the seat is ready in the very
    /// snapshot that seats it: a client never tells its player to get ready and then
    /// shows them ready.
    pub(super) async fn join(
        &mut self,
        from: Client,
        seat: Option<usize>,
        invite: Option<String>,
        ready: bool,
    ) {
        let Some(user) = from.user.clone() else {
            return self.refuse(&from, Refusal::not_logged_in());
        };
        if let Some(s) = self.seat_of(&user) {
            if seat.is_none_or(|want| want == s) {
                if ready {
                    self.seats[s].ready = true;
                }
                self.subscribe(&from);
                from.out.send(&self.snapshot(Some(&user)));
                self.sync_auto_bots();
                self.publish_seats();
                return self.maybe_start().await;
            }
            return self.refuse(
                &from,
                Refusal::new(
                    ErrorCode::Seated,
                    format!("you already sit in {}", seat_name(s)),
                ),
            );
        }
        if let Err(r) = self.check_invite(invite.as_deref()) {
            return self.refuse(&from, r);
        }
        if !matches!(self.phase, Phase::Waiting) {
            return self.refuse(
                &from,
                Refusal::new(
                    ErrorCode::Playing,
                    "a game is being played: watch, and sit when it ends",
                ),
            );
        }
        let target = match seat {
            Some(s) if s >= self.seats.len() => {
                return self.refuse(&from, no_seat(s, self.seats.len()))
            }
            Some(s) if !self.seats[s].is_empty() => {
                return self.refuse(
                    &from,
                    Refusal::new(ErrorCode::SeatTaken, format!("{} is taken", seat_name(s))),
                )
            }
            Some(s) => s,
            None => match self.seats.iter().position(SeatState::is_empty) {
                Some(s) => s,
                None => {
                    return self.refuse(
                        &from,
                        Refusal::new(ErrorCode::TableFull, "every seat is taken"),
                    )
                }
            },
        };
        self.seats[target] = SeatState {
            person: Some(user.clone()),
            ready,
            ..SeatState::default()
        };
        if self.quick && self.fill_at.is_none() && self.seats.iter().any(SeatState::is_empty) {
            // Quick play: people have a moment to join, then computers fill the rest.
            self.fill_at = Some(Instant::now() + self.hall.config.timing.quick_play_wait);
        }
        self.subscribe(&from);
        self.save().await;
        from.out.send(&self.snapshot(Some(&user)));
        self.publish_seats();
        self.maybe_start().await;
    }

    /// Gets up between games (and stops watching, for `leave`); leaving mid-game keeps the
    /// seat, which a computer plays after the grace period.
    pub(super) async fn stand(&mut self, from: &Client, leave: bool) {
        if let Some(user) = &from.user {
            if let Some(s) = self.seat_of(user) {
                if !matches!(self.phase, Phase::Waiting) {
                    if leave {
                        // Leaving mid-game: the seat is held; a computer plays it after the
                        // grace period, as for a dropped connection.
                        self.subs.remove(&from.conn);
                        self.recount_connections();
                        self.publish_seats();
                        return;
                    }
                    return self.refuse(
                        from,
                        Refusal::new(ErrorCode::Playing, "you can stand up when the game ends"),
                    );
                }
                self.seats[s].clear();
                self.save().await;
            }
        }
        if leave {
            self.subs.remove(&from.conn);
        }
        self.recount_connections();
        self.publish_seats();
        self.close_if_abandoned().await;
    }

    /// Ready or not for the next game; the last seat ready starts it.
    pub(super) async fn ready(&mut self, from: &Client, ready: bool) {
        match self.seated(from) {
            Ok(s) => {
                self.seats[s].ready = ready;
                self.publish_seats();
                self.maybe_start().await;
            }
            Err(r) => self.refuse(from, r),
        }
    }

    /// Whether `from` opened the table (only the host seats and removes computers).
    pub(super) fn is_host(&self, from: &Client) -> bool {
        from.user.as_ref().is_some_and(|u| u.id == self.host.id)
    }

    /// The host seats a computer, by one of the game's bot names, in an empty seat.
    pub(super) async fn add_bot(&mut self, from: &Client, seat: usize, bot: String) {
        let hall = self.hall.clone();
        let Ok(game) = hall.registry.get(&self.game) else {
            return;
        };
        let refusal = if !self.is_host(from) {
            Some(Refusal::new(
                ErrorCode::NotHost,
                "only the table's host seats computers",
            ))
        } else if !self.options.computers {
            Some(Refusal::new(
                ErrorCode::NoComputers,
                "this table is for people only",
            ))
        } else if !matches!(self.phase, Phase::Waiting) {
            Some(Refusal::new(
                ErrorCode::Playing,
                "computers sit down between games",
            ))
        } else if seat >= self.seats.len() {
            Some(no_seat(seat, self.seats.len()))
        } else if !self.seats[seat].is_empty() {
            Some(Refusal::new(
                ErrorCode::SeatTaken,
                format!("{} is taken", seat_name(seat)),
            ))
        } else if !game.bot_names().contains(&bot.as_str()) {
            Some(Refusal::new(
                ErrorCode::UnknownBot,
                format!(
                    "{} has no bot '{bot}' (bots: {})",
                    self.game,
                    game.bot_names().join(", ")
                ),
            ))
        } else {
            None
        };
        if let Some(r) = refusal {
            return self.refuse(from, r);
        }
        self.seats[seat] = SeatState {
            bot: Some(bot),
            ready: true,
            ..SeatState::default()
        };
        self.save().await;
        self.publish_seats();
        self.maybe_start().await;
    }

    /// The host gets a computer up between games.
    pub(super) async fn remove_bot(&mut self, from: &Client, seat: usize) {
        if !self.is_host(from) {
            return self.refuse(
                from,
                Refusal::new(
                    ErrorCode::NotHost,
                    "only the table's host removes computers",
                ),
            );
        }
        if !matches!(self.phase, Phase::Waiting) {
            return self.refuse(
                from,
                Refusal::new(ErrorCode::Playing, "computers get up between games"),
            );
        }
        match self.seats.get_mut(seat) {
            Some(s) if s.bot.is_some() => s.clear(),
            _ => {
                return self.refuse(
                    from,
                    Refusal::new(
                        ErrorCode::NoBot,
                        format!("no computer sits in {}", seat_name(seat)),
                    ),
                )
            }
        }
        self.save().await;
        self.publish_seats();
    }

    /// 托管 on or off: a computer plays the person's seat until they take it back.
    pub(super) async fn auto(&mut self, from: &Client, on: bool) {
        match self.seated(from) {
            Ok(s) => {
                self.seats[s].auto = on.then_some(Auto::Asked);
                self.seats[s].timeouts = 0;
                self.sync_auto_bots();
                self.publish_seats();
                self.schedule().await;
            }
            Err(r) => self.refuse(from, r),
        }
    }
}

/// The refusal of a seat past the table's end, with the seats there are: people count
/// them from 1, and whoever asked for seat 4 at a table of three learns which to ask for.
fn no_seat(seat: usize, seats: usize) -> Refusal {
    Refusal::new(
        ErrorCode::NoSeat,
        format!(
            "there is no seat {} (seats 1 to {seats})",
            seat_number(seat)
        ),
    )
}
