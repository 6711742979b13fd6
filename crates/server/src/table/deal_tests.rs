//! A game can be over at its deal: it must end at once, stored and published, rather than
//! leave the table waiting for a move nobody can make.

use super::super::log::Entry;
use super::super::TableTask;
use super::Dealing;
use crate::config::ServerConfig;
use crate::hall::Hall;
use crate::metrics::Metrics;
use crate::protocol::{TableOptions, UserInfo};
use crate::store::sqlite::SqliteStore;
use crate::store::{Store, StoredSeat, StoredTable};
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
    let _ = std::fs::remove_dir_all(&dir);
    let metrics = Arc::new(Metrics::new());
    let store = Arc::new(
        SqliteStore::open(&dir, metrics.clone())
            .await
            .expect("a store"),
    );
    let config_server = ServerConfig {
        data_dir: dir.clone(),
        ..ServerConfig::default()
    };
    let hall = Hall::new(
        Registry::new().with(entry::<doudizhu5::DouDizhu5>()),
        store.clone(),
        config_server,
        metrics,
    );
    let stored = StoredTable {
        id: "t-over".into(),
        game: "doudizhu5".into(),
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
            5
        ],
        games: 0,
        totals: vec![0; 5],
        next_config: config.clone(),
        quick: false,
        epoch: 0,
        last_game: None,
    };
    let (commands, _inbox) = mpsc::channel(16);
    let mut task = TableTask::new(hall, stored, commands);
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
