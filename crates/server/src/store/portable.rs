//! The statements both databases understand alike, written once.
//!
//! The two stores differ in a few statements (how JSON is read and written in place),
//! not in most: with `$N` parameters (SQLite takes them as PostgreSQL does), `TRUE`,
//! `NOT flag`, `RETURNING`, and `CAST(json AS TEXT)` for a column SQLite keeps as text
//! and PostgreSQL as `jsonb`, one statement serves both. [`portable_reads!`] expands the
//! reads for one database's pool and [`portable_writes!`] the writes for one database's
//! connection; each store invokes them once and keeps only the statements that really
//! differ, and how it commits. Macros rather than generic functions: the bounds that
//! would let one function bind and decode every column in either database would say more
//! than the SQL does.

/// Expands the portable reads as functions on a `sqlx::Pool<$db>`.
macro_rules! portable_reads {
    ($db:ty) => {
        use crate::protocol::UserInfo;
        use crate::rating::{Rating, PROVISIONAL_DEVIATION};
        use crate::store::rows;
        use crate::store::rows::{db, parse};
        use crate::store::{
            GameSummary, HistoryCursor, SeatPlayer, StoreResult, StoredTable, Unfinished,
        };
        use game::{Record, Seed};
        use sqlx::Row;

        type Pool = sqlx::Pool<$db>;

        /// The user of a live session.
        pub(crate) async fn session_user(
            pool: &Pool,
            token_hash: &str,
            now: i64,
        ) -> StoreResult<Option<UserInfo>> {
            let row = sqlx::query(
                "SELECT u.id, u.name, u.guest FROM sessions s JOIN users u ON u.id = s.user_id \
                 WHERE s.token_hash = $1 AND NOT s.revoked AND s.expires_at > $2",
            )
            .bind(token_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db)?;
            Ok(row.as_ref().map(rows::user_info))
        }

        /// The account a typed name is, by its key ([`crate::names::key`]). An account
        /// older than the keys whose key was another's (`fill_name_keys`) is reached by
        /// its exact name, which comes first.
        pub(crate) async fn user_by_name(
            pool: &Pool,
            name: &str,
        ) -> StoreResult<Option<crate::store::StoredUser>> {
            let row = sqlx::query(
                "SELECT id, name, guest, password_hash, banned FROM users \
                 WHERE name_key IN ($1, $2) ORDER BY name_key = $2 DESC LIMIT 1",
            )
            .bind(crate::names::key(name))
            .bind(rows::exact_name_key(name))
            .fetch_optional(pool)
            .await
            .map_err(db)?;
            Ok(row.as_ref().map(rows::stored_user))
        }

        /// The tables open when the hall stopped, oldest change first.
        pub(crate) async fn open_tables(pool: &Pool) -> StoreResult<Vec<StoredTable>> {
            sqlx::query(
                "SELECT CAST(state AS TEXT) AS state FROM tables WHERE open \
                 ORDER BY updated_at, id",
            )
            .fetch_all(pool)
            .await
            .map_err(db)?
            .iter()
            .map(|r| parse(r.get::<&str, _>("state")))
            .collect()
        }

        /// The open tables `node` may claim at `now` (Unix milliseconds): no lease, a
        /// lease run out, or one of `node`'s own; oldest change first, each with the
        /// lease it would take over (see `Store::free_tables`).
        pub(crate) async fn free_tables(
            pool: &Pool,
            node: &str,
            now: i64,
        ) -> StoreResult<Vec<crate::store::FreeTable>> {
            sqlx::query(
                "SELECT CAST(t.state AS TEXT) AS state, l.node, l.expires_at FROM tables t \
                 LEFT JOIN table_leases l ON l.table_id = t.id \
                 WHERE t.open AND (l.table_id IS NULL OR l.expires_at <= $1 OR l.node = $2) \
                 ORDER BY t.updated_at, t.id",
            )
            .bind(now)
            .bind(node)
            .fetch_all(pool)
            .await
            .map_err(db)?
            .iter()
            .map(|r| {
                let node: Option<String> = r.get("node");
                let expires_at: Option<i64> = r.get("expires_at");
                Ok(crate::store::FreeTable {
                    table: parse(r.get::<&str, _>("state"))?,
                    holder: node.zip(expires_at),
                })
            })
            .collect()
        }

        /// The node holding open table `table`'s live lease at `now`, and the table's
        /// game (see `Store::serving`).
        pub(crate) async fn serving(
            pool: &Pool,
            table: &str,
            now: i64,
        ) -> StoreResult<Option<crate::store::Serving>> {
            let row = sqlx::query(
                "SELECT l.node, t.game FROM table_leases l JOIN tables t ON t.id = l.table_id \
                 WHERE l.table_id = $1 AND t.open AND l.expires_at > $2",
            )
            .bind(table)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db)?;
            Ok(row.map(|r| crate::store::Serving {
                node: r.get("node"),
                game: r.get("game"),
            }))
        }

        /// A game's record from its rows: the journal (sealed forms, no seed), the seed,
        /// and whether it is finished.
        async fn load_game(pool: &Pool, id: &str) -> StoreResult<Option<(Record, Seed, bool)>> {
            let Some(row) = sqlx::query(
                "SELECT id, game, config, seats, commitment, seed, nonces, \
                 CAST(outcome AS TEXT) AS outcome FROM games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(db)?
            else {
                return Ok(None);
            };
            let actions = sqlx::query(
                "SELECT seat, public, sealed FROM actions WHERE game_id = $1 ORDER BY idx",
            )
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(db)?
            .iter()
            .map(rows::recorded_action)
            .collect::<StoreResult<Vec<_>>>()?;
            rows::game_record(&row, actions).map(Some)
        }

        /// A table's unfinished game, to resume after a restart.
        pub(crate) async fn unfinished_game(
            pool: &Pool,
            table: &str,
        ) -> StoreResult<Option<Unfinished>> {
            let id: Option<String> = sqlx::query_scalar(
                "SELECT id FROM games WHERE table_id = $1 AND finished_at IS NULL \
                 ORDER BY started_at DESC LIMIT 1",
            )
            .bind(table)
            .fetch_optional(pool)
            .await
            .map_err(db)?;
            let Some(id) = id else { return Ok(None) };
            Ok(load_game(pool, &id)
                .await?
                .map(|(journal, seed, _)| Unfinished { journal, seed }))
        }

        /// A finished game's full record, its seed revealed; `None` while it runs.
        pub(crate) async fn finished_record(pool: &Pool, id: &str) -> StoreResult<Option<Record>> {
            Ok(load_game(pool, id)
                .await?
                .and_then(|(mut record, seed, finished)| {
                    finished.then(|| {
                        record.seed = Some(seed);
                        record
                    })
                }))
        }

        /// Who played each seat of a game, in seat order.
        pub(crate) async fn game_players(pool: &Pool, id: &str) -> StoreResult<Vec<SeatPlayer>> {
            let players = sqlx::query(
                "SELECT s.game_id, s.seat, s.bot, u.id, u.name, u.guest FROM game_seats s \
                 LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = $1 ORDER BY s.seat",
            )
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(db)?;
            Ok(players.iter().map(rows::seat_player).collect())
        }

        /// A page of a player's games, newest first (see `Store::history`).
        pub(crate) async fn history(
            pool: &Pool,
            user: i64,
            limit: usize,
            with_private: bool,
            before: Option<&HistoryCursor>,
        ) -> StoreResult<Vec<GameSummary>> {
            // `$3`: true lists games at private tables too. `$4`, `$5`: only games after
            // the cursor in the order listed (started earlier, or at the same second with
            // a smaller id); none when `$4` is NULL. Ids compare byte by byte in both
            // databases (PostgreSQL's column has the "C" collation), so the order and the
            // cursor agree.
            macro_rules! page {
                () => {
                    "s.user_id = $1 AND (NOT g.private OR $3) AND ($4 IS NULL OR \
                     g.started_at < $4 OR (g.started_at = $4 AND g.id < $5)) \
                     ORDER BY g.started_at DESC, g.id DESC LIMIT $2"
                };
            }
            let (since, id) = before.map_or((None, ""), |c| (Some(c.started_at), c.id.as_str()));
            let page = sqlx::query(concat!(
                "SELECT g.id, g.game, s.seat, CAST(g.outcome AS TEXT) AS outcome, \
                 g.started_at, g.finished_at, g.private, g.rated \
                 FROM game_seats s JOIN games g ON g.id = s.game_id WHERE ",
                page!()
            ))
            .bind(user)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .bind(with_private)
            .bind(since)
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(db)?;
            // Everyone at those games, in one query rather than one a game.
            let seated = sqlx::query(concat!(
                "SELECT p.game_id, p.seat, p.bot, u.id, u.name, u.guest FROM game_seats p \
                 LEFT JOIN users u ON u.id = p.user_id WHERE p.game_id IN \
                 (SELECT g.id FROM game_seats s JOIN games g ON g.id = s.game_id WHERE ",
                page!(),
                ") ORDER BY p.game_id, p.seat"
            ))
            .bind(user)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .bind(with_private)
            .bind(since)
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(db)?;
            rows::summaries(&page, &seated)
        }

        /// A player's record against each computer (see `Store::computer_record`): a row
        /// for each computer seat at each of the player's finished games.
        pub(crate) async fn computer_record(
            pool: &Pool,
            user: i64,
            with_private: bool,
        ) -> StoreResult<Vec<crate::store::ComputerRecord>> {
            let rows = sqlx::query(
                "SELECT g.id, g.game, s.seat, CAST(g.outcome AS TEXT) AS outcome, b.bot \
                 FROM game_seats s JOIN games g ON g.id = s.game_id \
                 JOIN game_seats b ON b.game_id = g.id AND b.bot IS NOT NULL \
                 WHERE s.user_id = $1 AND (NOT g.private OR $2) AND g.outcome IS NOT NULL \
                 ORDER BY g.id, b.bot",
            )
            .bind(user)
            .bind(with_private)
            .fetch_all(pool)
            .await
            .map_err(db)?;
            rows::computer_records(&rows)
        }

        /// A player's rating at a game (the starting rating if none yet).
        pub(crate) async fn rating(pool: &Pool, user: i64, game: &str) -> StoreResult<Rating> {
            let row = sqlx::query(
                "SELECT rating, deviation, volatility, games FROM ratings \
                 WHERE user_id = $1 AND game = $2",
            )
            .bind(user)
            .bind(game)
            .fetch_optional(pool)
            .await
            .map_err(db)?;
            Ok(row.as_ref().map_or_else(Rating::default, rows::rating))
        }

        /// Every banned account, the latest ban first.
        pub(crate) async fn bans(pool: &Pool) -> StoreResult<Vec<crate::protocol::BanInfo>> {
            let rows = sqlx::query(
                "SELECT name, banned, banned_at FROM users WHERE banned IS NOT NULL \
                 ORDER BY banned_at DESC, name",
            )
            .fetch_all(pool)
            .await
            .map_err(db)?;
            Ok(rows
                .iter()
                .map(|r| crate::protocol::BanInfo {
                    user: r.get("name"),
                    reason: r.get("banned"),
                    since: r.get::<Option<i64>, _>("banned_at").unwrap_or(0),
                })
                .collect())
        }

        /// The best-rated players of a game, settled ratings first.
        pub(crate) async fn leaderboard(
            pool: &Pool,
            game: &str,
            limit: usize,
        ) -> StoreResult<Vec<(String, Rating)>> {
            let board = sqlx::query(
                "SELECT u.name, r.rating, r.deviation, r.volatility, r.games FROM ratings r \
                 JOIN users u ON u.id = r.user_id WHERE r.game = $1 \
                 ORDER BY r.deviation > $2 ASC, r.rating DESC LIMIT $3",
            )
            .bind(game)
            .bind(PROVISIONAL_DEVIATION)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(pool)
            .await
            .map_err(db)?;
            Ok(board
                .iter()
                .map(|r| (r.get("name"), rows::rating(r)))
                .collect())
        }
    };
}

/// Expands the portable writes as functions on a `&mut $conn`, in whatever transaction
/// the store runs them. `$share` ends the statement that reads a table's lease before a
/// write for it: PostgreSQL's ` FOR SHARE`, which holds off a claim until the write
/// commits; nothing for SQLite, whose one writer does one thing at a time.
macro_rules! portable_writes {
    ($conn:ty, $share:literal) => {
        use crate::protocol::UserInfo;
        use crate::store::rows::{db, json, name_error};
        use crate::store::{
            unix_now, Cause, Claim, Fence, Lease, RatingUpdate, StoreError, StoreResult,
            StoredGame,
        };

        type Conn = $conn;

        /// Milliseconds of a lease's time to live, as stored.
        fn ttl_millis(ttl: std::time::Duration) -> i64 {
            i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)
        }

        /// An epoch as stored (`BIGINT`), or as the API has it.
        fn stored_epoch(epoch: u64) -> i64 {
            i64::try_from(epoch).unwrap_or(i64::MAX)
        }

        /// A table's current epoch, if it has a lease.
        pub(crate) async fn current_epoch(conn: &mut Conn, table: &str) -> StoreResult<Option<u64>> {
            let epoch: Option<i64> =
                sqlx::query_scalar("SELECT epoch FROM table_leases WHERE table_id = $1")
                    .bind(table)
                    .fetch_optional(&mut *conn)
                    .await
                    .map_err(db)?;
            Ok(epoch.map(|e| e as u64))
        }

        /// The refusal of a write that carried `fence`, the table's epoch being `current`.
        pub(crate) fn fenced(fence: &Fence, current: Option<u64>) -> StoreError {
            StoreError::Fenced {
                table: fence.table.clone(),
                epoch: fence.epoch,
                current,
            }
        }

        /// Checks, in the caller's transaction, that `fence` is its table's current epoch
        /// and that the write is for that table (`table`); reads the lease `$share`.
        pub(crate) async fn check_fence(conn: &mut Conn, fence: &Fence, table: &str) -> StoreResult<()> {
            if fence.table != table {
                return Err(StoreError::Database(Cause::message(format!(
                    "a write for table {table} carries the fence of table {}",
                    fence.table
                ))));
            }
            let current: Option<i64> = sqlx::query_scalar(concat!(
                "SELECT epoch FROM table_leases WHERE table_id = $1",
                $share
            ))
            .bind(&fence.table)
            .fetch_optional(&mut *conn)
            .await
            .map_err(db)?;
            match current {
                Some(c) if c == stored_epoch(fence.epoch) => Ok(()),
                current => Err(fenced(fence, current.map(|c| c as u64))),
            }
        }

        /// Claims a table (see `Store::claim_table`): one statement, which makes the
        /// lease or takes it over with the next epoch, or leaves another node's live one.
        pub(crate) async fn claim_table(
            conn: &mut Conn,
            table: &str,
            node: &str,
            ttl: std::time::Duration,
            now: i64,
            claim: Claim,
        ) -> StoreResult<Lease> {
            let expires_at = now.saturating_add(ttl_millis(ttl));
            let epoch: Option<i64> = sqlx::query_scalar(
                "INSERT INTO table_leases (table_id, node, epoch, expires_at) \
                 VALUES ($1, $2, 1, $3) ON CONFLICT (table_id) DO UPDATE \
                 SET node = excluded.node, epoch = table_leases.epoch + 1, \
                 expires_at = excluded.expires_at \
                 WHERE $5 OR table_leases.expires_at <= $4 OR table_leases.node = excluded.node \
                 RETURNING epoch",
            )
            .bind(table)
            .bind(node)
            .bind(expires_at)
            .bind(now)
            .bind(claim == Claim::Takeover)
            .fetch_optional(&mut *conn)
            .await
            .map_err(db)?;
            if let Some(epoch) = epoch {
                return Ok(Lease {
                    table: table.to_string(),
                    node: node.to_string(),
                    epoch: epoch as u64,
                    expires_at,
                });
            }
            use sqlx::Row;
            let holder = sqlx::query("SELECT node, expires_at FROM table_leases WHERE table_id = $1")
                .bind(table)
                .fetch_one(&mut *conn)
                .await
                .map_err(db)?;
            Err(StoreError::LeaseHeld {
                table: table.to_string(),
                node: holder.get("node"),
                expires_at: holder.get("expires_at"),
            })
        }

        /// Renews a lease (see `Store::renew_lease`).
        pub(crate) async fn renew_lease(
            conn: &mut Conn,
            lease: &Lease,
            ttl: std::time::Duration,
            now: i64,
        ) -> StoreResult<Lease> {
            let expires_at = now.saturating_add(ttl_millis(ttl));
            set_expiry(conn, lease, expires_at).await?;
            Ok(Lease {
                expires_at,
                ..lease.clone()
            })
        }

        /// Lets go of a lease (see `Store::release_table`): it expires at once, its epoch
        /// kept, so the next claim needs no wait.
        pub(crate) async fn release_table(conn: &mut Conn, lease: &Lease) -> StoreResult<()> {
            set_expiry(conn, lease, 0).await
        }

        /// Moves the expiry of a lease that is still current; fenced if another claim came
        /// since. Renewing and releasing differ only in the time.
        async fn set_expiry(conn: &mut Conn, lease: &Lease, expires_at: i64) -> StoreResult<()> {
            let done = sqlx::query(
                "UPDATE table_leases SET expires_at = $1 \
                 WHERE table_id = $2 AND epoch = $3 AND node = $4",
            )
            .bind(expires_at)
            .bind(&lease.table)
            .bind(stored_epoch(lease.epoch))
            .bind(&lease.node)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            if done.rows_affected() != 1 {
                let current = current_epoch(conn, &lease.table).await?;
                return Err(fenced(&lease.fence(), current));
            }
            Ok(())
        }

        /// Makes an account (see `Store::create_user`).
        pub(crate) async fn create_user(
            conn: &mut Conn,
            name: &str,
            hash: Option<&str>,
            guest: bool,
        ) -> StoreResult<UserInfo> {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO users (name, name_key, password_hash, guest, created_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(name)
            .bind(crate::names::key(name))
            .bind(hash)
            .bind(guest)
            .bind(unix_now())
            .fetch_one(&mut *conn)
            .await
            .map_err(|e| name_error(e, name))?;
            Ok(UserInfo {
                id,
                name: name.to_string(),
                guest,
            })
        }

        /// Gives a guest a name and a password (see `Store::register_guest`).
        pub(crate) async fn register_guest(
            conn: &mut Conn,
            id: i64,
            name: &str,
            hash: &str,
        ) -> StoreResult<UserInfo> {
            let done = sqlx::query(
                "UPDATE users SET name = $1, name_key = $2, password_hash = $3, guest = FALSE \
                 WHERE id = $4 AND guest",
            )
            .bind(name)
            .bind(crate::names::key(name))
            .bind(hash)
            .bind(id)
            .execute(&mut *conn)
            .await
            .map_err(|e| name_error(e, name))?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Database(Cause::message("no such guest")));
            }
            Ok(UserInfo {
                id,
                name: name.to_string(),
                guest: false,
            })
        }

        /// Opens a session, storing only its token's hash.
        pub(crate) async fn create_session(
            conn: &mut Conn,
            user: i64,
            token_hash: &str,
            expires_at: i64,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(user)
            .bind(expires_at)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            Ok(())
        }

        /// Ends a session.
        pub(crate) async fn revoke_session(conn: &mut Conn, token_hash: &str) -> StoreResult<()> {
            sqlx::query("UPDATE sessions SET revoked = TRUE WHERE token_hash = $1")
                .bind(token_hash)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            Ok(())
        }

        /// Ends every live session of `user` but the one whose token hash is `keep` (`""`
        /// keeps none: no token hashes to it); returns how many it ended.
        async fn end_sessions(conn: &mut Conn, user: i64, keep: &str) -> StoreResult<u64> {
            let ended = sqlx::query(
                "UPDATE sessions SET revoked = TRUE WHERE user_id = $1 AND token_hash != $2 \
                 AND NOT revoked",
            )
            .bind(user)
            .bind(keep)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            Ok(ended.rows_affected())
        }

        /// Runs `sql`, an UPDATE of one registered account binding `value` and then its
        /// id; fails unless it changed exactly that account (a guest, or an id that is no
        /// account, is not).
        async fn update_registered(
            conn: &mut Conn,
            sql: &'static str,
            value: &str,
            user: i64,
        ) -> StoreResult<()> {
            let done = sqlx::query(sql)
                .bind(value)
                .bind(user)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Corrupt(Cause::message(format!(
                    "no registered account {user}"
                ))));
            }
            Ok(())
        }

        /// Sets a registered account's password and ends its other sessions (see
        /// `Store::set_password`); the caller's transaction makes it one write.
        pub(crate) async fn set_password(
            conn: &mut Conn,
            user: i64,
            hash: &str,
            keep: &str,
        ) -> StoreResult<u64> {
            let sql = "UPDATE users SET password_hash = $1 WHERE id = $2 AND NOT guest";
            update_registered(conn, sql, hash, user).await?;
            end_sessions(conn, user, keep).await
        }

        /// Deletes a registered account (see `Store::delete_account`).
        pub(crate) async fn delete_account(conn: &mut Conn, user: i64) -> StoreResult<UserInfo> {
            let name = format!("deleted-{user}");
            let done = sqlx::query(
                "UPDATE users SET name = $1, name_key = $2, password_hash = NULL \
                 WHERE id = $3 AND NOT guest",
            )
            .bind(&name)
            .bind(crate::names::key(&name))
            .bind(user)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Corrupt(Cause::message(format!(
                    "no registered account {user}"
                ))));
            }
            sqlx::query("DELETE FROM ratings WHERE user_id = $1")
                .bind(user)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            end_sessions(conn, user, "").await?;
            Ok(UserInfo {
                id: user,
                name,
                guest: false,
            })
        }

        /// Bans an account and ends its sessions, or lifts its ban (see
        /// `Store::set_banned`).
        pub(crate) async fn set_banned(
            conn: &mut Conn,
            user: i64,
            reason: Option<&str>,
        ) -> StoreResult<u64> {
            let done = sqlx::query("UPDATE users SET banned = $1, banned_at = $2 WHERE id = $3")
                .bind(reason)
                .bind(reason.map(|_| unix_now()))
                .bind(user)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Corrupt(Cause::message(format!(
                    "no account {user}"
                ))));
            }
            match reason {
                Some(_) => end_sessions(conn, user, "").await,
                None => Ok(0),
            }
        }

        /// Marks a table closed.
        pub(crate) async fn close_table(conn: &mut Conn, id: &str) -> StoreResult<()> {
            sqlx::query("UPDATE tables SET open = FALSE, updated_at = $1 WHERE id = $2")
                .bind(unix_now())
                .bind(id)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            Ok(())
        }

        /// Stores a game as it is dealt, and who sits where.
        pub(crate) async fn start_game(conn: &mut Conn, g: &StoredGame) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO games (id, table_id, game, config, seats, commitment, seed, \
                 nonces, rated, private, started_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(&g.id)
            .bind(&g.table)
            .bind(&g.game)
            .bind(json(&g.config)?)
            .bind(g.seats as i64)
            .bind(&g.commitment)
            .bind(g.seed.to_hex())
            .bind(json(&g.nonces)?)
            .bind(g.rated)
            .bind(g.private)
            .bind(unix_now())
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            for (seat, (user, bot)) in g.players.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO game_seats (game_id, seat, user_id, bot) VALUES ($1, $2, $3, $4)",
                )
                .bind(&g.id)
                .bind(seat as i64)
                .bind(user)
                .bind(bot)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            }
            Ok(())
        }

        /// Stores a player's new rating at a game.
        pub(crate) async fn save_rating(conn: &mut Conn, r: &RatingUpdate) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO ratings (user_id, game, rating, deviation, volatility, games) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, game) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, \
                 volatility = excluded.volatility, games = excluded.games",
            )
            .bind(r.user)
            .bind(&r.game)
            .bind(r.rating.rating)
            .bind(r.rating.deviation)
            .bind(r.rating.volatility)
            .bind(r.rating.games as i64)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            Ok(())
        }

        /// Gives every account made before names had keys (migration `name_keys`), or
        /// before the keys were skeletons (`name_skeletons`), its key, once, when the
        /// store opens: the database cannot compute it. Should two
        /// older accounts have one key ("Élise" and "élise", which SQLite's case-folding
        /// of A to Z alone told apart), the older keeps it and the other is keyed by its
        /// exact name ([`crate::store::rows::exact_name_key`]), which still logs it in.
        /// Returns how many accounts got a key.
        pub(crate) async fn fill_name_keys(conn: &mut Conn) -> StoreResult<u64> {
            use sqlx::Row;
            let unkeyed =
                sqlx::query("SELECT id, name FROM users WHERE name_key IS NULL ORDER BY id")
                    .fetch_all(&mut *conn)
                    .await
                    .map_err(db)?;
            if unkeyed.is_empty() {
                return Ok(0);
            }
            let mut taken: std::collections::HashSet<String> =
                sqlx::query_scalar("SELECT name_key FROM users WHERE name_key IS NOT NULL")
                    .fetch_all(&mut *conn)
                    .await
                    .map_err(db)?
                    .into_iter()
                    .collect();
            for row in &unkeyed {
                let (id, name): (i64, String) = (row.get("id"), row.get("name"));
                let mut key = crate::names::key(&name);
                if !taken.insert(key.clone()) {
                    tracing::warn!(
                        id,
                        name = %name,
                        "an older account's name is another's, folded: it logs in by its exact name"
                    );
                    key = crate::store::rows::exact_name_key(&name);
                }
                sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
                    .bind(key)
                    .bind(id)
                    .execute(&mut *conn)
                    .await
                    .map_err(db)?;
            }
            Ok(unkeyed.len() as u64)
        }
    };
}

pub(super) use portable_reads;
pub(super) use portable_writes;
