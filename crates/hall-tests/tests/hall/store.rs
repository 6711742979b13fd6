//! The store conformance suite: every promise of the [`Store`](server::store::Store)
//! trait, checked on both of its implementations.
//!
//! The hall's own tests (accounts, tables, games, moderation…) run on SQLite, the store a
//! hall uses unless told otherwise. A hall on PostgreSQL (`qipai serve --database`) runs
//! the same code above a different store, so what makes it behave the same is that the
//! two stores keep one contract: this suite. Each test states one part of it — the doc
//! comments of the trait, and what the hall relies on beyond them (an insert repeated is
//! `Exists`, a refused write fails alone) — and runs against a fresh `SqliteStore` in a
//! temporary directory and a fresh `PostgresStore` in a database of its own on the server
//! [`crate::common::postgres`] names. The two tests of a contract are `<contract>_on_sqlite` and
//! `<contract>_on_postgres`, so a failure names the store that broke it. They talk to the
//! stores directly, with games dealt and played by the real rules: no server, no sleeps.

use crate::store_contracts::fixture::{Backend, Db};
use crate::store_contracts::{
    accounts::*, commits::*, computers::*, games::*, leases::*, reads::*,
};

/// For each `contract => on_sqlite, on_postgres`, the contract's two tests, one a store.
/// The names are written out (a macro cannot join identifiers without a crate for it);
/// each test checks that its name is its contract's.
macro_rules! on_both_stores {
    ($($contract:ident => $on_sqlite:ident, $on_postgres:ident;)*) => {$(
        #[tokio::test]
        async fn $on_sqlite() {
            let contract = stringify!($contract);
            assert_eq!(stringify!($on_sqlite), format!("{contract}_on_sqlite"));
            Db::check(Backend::Sqlite, contract, |db| Box::pin($contract(db))).await;
        }

        #[tokio::test]
        async fn $on_postgres() {
            let contract = stringify!($contract);
            assert_eq!(stringify!($on_postgres), format!("{contract}_on_postgres"));
            Db::check(Backend::Postgres, contract, |db| Box::pin($contract(db))).await;
        }
    )*};
}

on_both_stores! {
    names_are_unique_by_key =>
        names_are_unique_by_key_on_sqlite, names_are_unique_by_key_on_postgres;
    registered_guests_keep_their_history =>
        registered_guests_keep_their_history_on_sqlite,
        registered_guests_keep_their_history_on_postgres;
    sessions_expire_and_are_revoked =>
        sessions_expire_and_are_revoked_on_sqlite, sessions_expire_and_are_revoked_on_postgres;
    bans_end_sessions_and_list_latest_first =>
        bans_end_sessions_and_list_latest_first_on_sqlite,
        bans_end_sessions_and_list_latest_first_on_postgres;
    delete_account_frees_the_name_and_ends_sessions =>
        delete_account_frees_the_name_and_ends_sessions_on_sqlite,
        delete_account_frees_the_name_and_ends_sessions_on_postgres;
    set_password_ends_other_sessions =>
        set_password_ends_other_sessions_on_sqlite, set_password_ends_other_sessions_on_postgres;
    forget_idle_guests_exactly_per_its_doc =>
        forget_idle_guests_exactly_per_its_doc_on_sqlite,
        forget_idle_guests_exactly_per_its_doc_on_postgres;
    tables_are_saved_closed_and_listed_while_open =>
        tables_are_saved_closed_and_listed_while_open_on_sqlite,
        tables_are_saved_closed_and_listed_while_open_on_postgres;
    dealt_games_are_durable_and_resume =>
        dealt_games_are_durable_and_resume_on_sqlite,
        dealt_games_are_durable_and_resume_on_postgres;
    a_repeated_insert_is_exists_and_the_first_stands =>
        a_repeated_insert_is_exists_and_the_first_stands_on_sqlite,
        a_repeated_insert_is_exists_and_the_first_stands_on_postgres;
    a_refused_write_fails_alone =>
        a_refused_write_fails_alone_on_sqlite, a_refused_write_fails_alone_on_postgres;
    finish_game_stores_record_table_and_ratings_together =>
        finish_game_stores_record_table_and_ratings_together_on_sqlite,
        finish_game_stores_record_table_and_ratings_together_on_postgres;
    history_pages_newest_first_with_private_on_request =>
        history_pages_newest_first_with_private_on_request_on_sqlite,
        history_pages_newest_first_with_private_on_request_on_postgres;
    computer_record_counts_games_by_bot_and_histories_say_rated =>
        computer_record_counts_games_by_bot_and_histories_say_rated_on_sqlite,
        computer_record_counts_games_by_bot_and_histories_say_rated_on_postgres;
    stats_count_finished_games_by_game =>
        stats_count_finished_games_by_game_on_sqlite,
        stats_count_finished_games_by_game_on_postgres;
    ratings_default_update_and_rank_settled_first =>
        ratings_default_update_and_rank_settled_first_on_sqlite,
        ratings_default_update_and_rank_settled_first_on_postgres;
    a_limit_beyond_every_count_lists_them_all =>
        a_limit_beyond_every_count_lists_them_all_on_sqlite,
        a_limit_beyond_every_count_lists_them_all_on_postgres;
    close_lets_the_next_store_open_at_once =>
        close_lets_the_next_store_open_at_once_on_sqlite,
        close_lets_the_next_store_open_at_once_on_postgres;
    a_table_is_held_by_one_node_and_each_claim_is_a_new_epoch =>
        a_table_is_held_by_one_node_and_each_claim_is_a_new_epoch_on_sqlite,
        a_table_is_held_by_one_node_and_each_claim_is_a_new_epoch_on_postgres;
    a_stale_epoch_writes_nothing_and_the_holders_writes_pass =>
        a_stale_epoch_writes_nothing_and_the_holders_writes_pass_on_sqlite,
        a_stale_epoch_writes_nothing_and_the_holders_writes_pass_on_postgres;
    a_fenced_write_fails_alone =>
        a_fenced_write_fails_alone_on_sqlite,
        a_fenced_write_fails_alone_on_postgres;
    free_tables_are_the_open_ones_a_node_may_claim =>
        free_tables_are_the_open_ones_a_node_may_claim_on_sqlite,
        free_tables_are_the_open_ones_a_node_may_claim_on_postgres;
    writes_that_arrive_together_commit_together =>
        writes_that_arrive_together_commit_together_on_sqlite,
        writes_that_arrive_together_commit_together_on_postgres;
    a_fenced_write_fails_alone_in_a_shared_commit =>
        a_fenced_write_fails_alone_in_a_shared_commit_on_sqlite,
        a_fenced_write_fails_alone_in_a_shared_commit_on_postgres;
}
