//! A game can be over at its deal: it must end at once, stored and published, rather than
//! leave the table waiting for a move nobody can make.

use super::super::log::Entry;
use super::super::{Cmd, TableTask};
use super::Dealing;
use crate::config::ServerConfig;
use crate::hall::Hall;
use crate::metrics::Metrics;
use crate::protocol::{TableOptions, UserInfo};
use crate::store::sqlite::SqliteStore;
use crate::store::{unix_millis, Claim, Store, StoredSeat, StoredTable};
use crate::table::play::Phase;
use game::registry::{entry, Registry};
use game::{fair, Seed, TableSetup};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::mpsc;

#[tokio::test]
async fn a_game_over_at_its_deal_ends_at_once() {
    // 五人斗地主 with nobody able to grab: the face-up card's holder is the landlord, and
    // a 38-card hand with no bomb (or a bomb of ten) wins before anyone acts.
    let game = entry::<doudizhu5::DouDizhu5>();
    let config = game
        .normalize_config(&serde_json::Value::Null)
        .expect("the default");
    let game_id = "t-over-1";
    let (seed, table) = (0..1_000_000)
        .find_map(|i| {
            let mut setup = TableSetup::new(game_id, config.clone(), 5, Seed::from_u64(i));
            setup.nonces = vec![None; 5];
            let table = game.new_table(&setup).ok()?;
            table.outcome().is_some().then_some((setup.seed, table))
        })
        .expect("a deal that is over at once");
    drop(table);

    let dir = std::env::temp_dir().join(format!("qipai-deal-over-{}", std::process::id()));
    let (mut task, store, _own) = computers_at("t-over", "doudizhu5", 5, &dir, &config).await;
    task.save().await;
    task.phase = Phase::Dealing(Dealing {
        game_id: game_id.into(),
        seed,
        commitment: fair::commitment("doudizhu5", game_id, 5, &config, &seed),
        config,
        nonces: vec![None; 5],
        until: Instant::now(),
    });

    let before = task.seq;
    task.deal().await;

    assert!(
        matches!(task.phase, Phase::Waiting),
        "the table waits for the next game"
    );
    assert_eq!(task.games, 1);
    assert_eq!(
        task.last_game.as_ref().map(|g| g.id.as_str()),
        Some(game_id)
    );
    let record = store
        .finished_record(game_id)
        .await
        .expect("the store answers")
        .expect("the game's end is stored");
    assert!(
        record.actions.is_empty(),
        "nobody acted: {:?}",
        record.actions
    );
    assert!(record.outcome.is_some());
    let published: Vec<&Entry> = task
        .log
        .since(before)
        .into_iter()
        .flatten()
        .map(|(_, e)| e)
        .collect();
    assert!(
        matches!(published.first(), Some(Entry::Dealt)),
        "the deal is published first"
    );
    assert!(
        published
            .iter()
            .any(|e| matches!(e, Entry::GameOver { .. })),
        "then the end"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table of `seats` computers (the `heuristic` bot) playing `game` (any of the hall's
/// games), stored in a fresh store in `dir`; with the way its computers' moves come back.
async fn computers_at(
    id: &str,
    game: &str,
    seats: usize,
    dir: &std::path::Path,
    config: &serde_json::Value,
) -> (TableTask, Arc<SqliteStore>, mpsc::UnboundedReceiver<Cmd>) {
    let _ = std::fs::remove_dir_all(dir);
    let metrics = Arc::new(Metrics::new());
    let store = Arc::new(
        SqliteStore::open(dir, metrics.clone())
            .await
            .expect("a store"),
    );
    let config_server = ServerConfig {
        data_dir: dir.to_path_buf(),
        ..ServerConfig::default()
    };
    let hall = Hall::new(
        Registry::new()
            .with(entry::<doudizhu5::DouDizhu5>())
            .with(entry::<doudizhu::DouDizhu>()),
        store.clone(),
        config_server,
        metrics,
    );
    let stored = StoredTable {
        id: id.into(),
        game: game.into(),
        options: TableOptions::default(),
        invite: None,
        host: UserInfo {
            id: 0,
            name: "host".into(),
            guest: true,
        },
        seats: vec![
            StoredSeat {
                user: None,
                bot: Some("heuristic".into()),
            };
            seats
        ],
        games: 0,
        totals: vec![0; seats],
        next_config: config.clone(),
        quick: false,
        epoch: 0,
        last_game: None,
    };
    let (own, own_inbox) = mpsc::unbounded_channel();
    let ttl = hall.config.timing.lease_ttl;
    let mut task = TableTask::new(hall, stored, own);
    task.lease = Some(
        store
            .claim_table(id, "test-node", ttl, unix_millis(), Claim::Takeover)
            .await
            .expect("the table is claimed"),
    );
    (task, store, own_inbox)
}

/// A table's own computers answer on a way of their own, not through the queue that
/// clients fill: however many requests wait, a computer's move reaches its table, which
/// would otherwise wait for it for ever (the seat "thinking", with no deadline).
#[tokio::test]
async fn a_computers_move_always_comes_back_to_its_table() {
    let game = entry::<doudizhu::DouDizhu>();
    let config = game
        .normalize_config(&serde_json::Value::Null)
        .expect("the default");
    let dir = std::env::temp_dir().join(format!("qipai-own-moves-{}", std::process::id()));
    let (mut task, _store, mut own) = computers_at("t-own", "doudizhu", 3, &dir, &config).await;
    task.save().await;
    let game_id = "t-own-1";
    let seed = Seed::from_u64(1);
    task.phase = Phase::Dealing(Dealing {
        game_id: game_id.into(),
        seed,
        commitment: fair::commitment("doudizhu", game_id, 3, &config, &seed),
        config,
        nonces: vec![None; 3],
        until: Instant::now(),
    });
    task.deal().await;
    assert!(matches!(task.phase, Phase::Playing(_)), "the game runs");
    let moved = tokio::time::timeout(std::time::Duration::from_secs(30), own.recv())
        .await
        .expect("a move within the bot's delay");
    assert!(
        matches!(moved, Some(Cmd::BotMoved { ref game_id, .. }) if game_id == "t-own-1"),
        "the computer to act answered its table"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
