//! The computers' strength at a table (a level of the game's, in the table's options and
//! in quick play), a player's record against each level over HTTP, and the rating change
//! each rated player is told at the end of a rated game.

use crate::common::{
    create_table, get, guest, open_table, play_game, registry, send, until, Connection, Seen,
    TestServer, WAIT,
};
use server::protocol::{request, ClientMessage, ServerMessage, TableOptions};

/// The bots seated at a table as its last `Seats` or `Table` message said.
fn seated_bots(m: &ServerMessage) -> Option<Vec<Option<String>>> {
    match m {
        ServerMessage::Seats { info, .. } | ServerMessage::Table { info, .. } => {
            Some(info.seats.iter().map(|s| s.bot.clone()).collect())
        }
        _ => None,
    }
}

/// Quick play at a level seats that level's bot, even in a hall of quick computers; a
/// level the game does not offer is refused with `unknown_bot`, in quick play and when a
/// table is opened; and `/api/games` lists each game's levels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_s_level_chooses_its_computers_and_an_unknown_level_is_refused() {
    let server = TestServer::fresh("levels").await;
    let (mut c, _) = guest(&server.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "gomoku".into(),
        level: Some("L3".into()),
    };
    let (table, mut seen) = open_table(&mut c, quick).await;
    let filled = until(&mut c, &table, &mut seen, |m| {
        seated_bots(m).is_some_and(|b| b.iter().any(Option::is_some))
    })
    .await;
    let bots = seated_bots(&filled).expect("seats");
    assert!(
        bots.contains(&Some("engine:L3".into())),
        "level L3 seats engine:L3, not the quick bot: {bots:?}"
    );
    for bad in [
        ClientMessage::QuickPlay {
            game: "doudizhu".into(),
            level: Some("godlike".into()),
        },
        ClientMessage::CreateTable {
            game: "doudizhu".into(),
            options: TableOptions {
                level: Some("L3".into()),
                ..TableOptions::default()
            },
        },
    ] {
        send(&mut c, bad).await;
        let refused = until(&mut c, &table, &mut seen, |m| {
            matches!(m, ServerMessage::Error { .. })
        })
        .await;
        let ServerMessage::Error { code, message, .. } = refused else {
            unreachable!()
        };
        assert_eq!(code.as_str(), "unknown_bot", "{message}");
        assert!(message.contains("easy"), "the levels are named: {message}");
    }
    let (status, body) = get(&server.addr, "/api/games").await;
    assert_eq!(status, 200);
    let games: serde_json::Value = serde_json::from_str(&body).expect("json");
    let dou = games
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == "doudizhu"))
        .expect("doudizhu");
    let names: Vec<&str> = dou["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .filter_map(|l| l["name"].as_str())
        .collect();
    assert_eq!(names, ["easy", "normal", "strong"], "{dou}");
    assert_eq!(dou["default_level"], "normal", "{dou}");
    server.stop().await;
}

/// A table opened at a level keeps it in its options, and the record of a player against
/// computers counts the game at that level over HTTP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_counts_games_against_each_level() {
    let server = TestServer::fresh("level-record").await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    c.session(ClientMessage::Register {
        name: "lena".into(),
        password: "lena's password".into(),
    })
    .await
    .expect("registers");
    let options = TableOptions {
        level: Some("L1".into()),
        ..TableOptions::default()
    };
    let (table, mut seen) = create_table(&mut c, "gomoku", options).await;
    let ServerMessage::Table { info, .. } = &seen.messages[0] else {
        panic!("a table first")
    };
    assert_eq!(info.options.level.as_deref(), Some("L1"));
    send(
        &mut c,
        ClientMessage::AddBot(request::AddBot {
            table: table.clone(),
            seat: 1,
            bot: "engine:L1".into(),
        }),
    )
    .await;
    send(
        &mut c,
        ClientMessage::Ready(request::Ready {
            table: table.clone(),
            ready: true,
        }),
    )
    .await;
    let games = registry();
    let g = games.get("gomoku").expect("gomoku");
    play_game(&mut c, &table, g, "engine:L1", &mut seen, WAIT)
        .await
        .expect("the game ends");
    let (status, body) = get(&server.addr, "/api/users/lena/games").await;
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).expect("json");
    let record = v["computers"]
        .as_array()
        .expect("a record against computers");
    assert_eq!(record.len(), 1, "{body}");
    let row = &record[0];
    assert_eq!(
        (&row["game"], &row["bot"], &row["level"], &row["played"]),
        (
            &serde_json::json!("gomoku"),
            &serde_json::json!("engine:L1"),
            &serde_json::json!("L1"),
            &serde_json::json!(1)
        ),
        "{body}"
    );
    let counted: u64 = ["won", "lost", "drawn"]
        .iter()
        .filter_map(|k| row[k].as_u64())
        .sum();
    assert_eq!(counted, 1, "{body}");
    assert_eq!(v["games"][0]["rated"], false, "{body}");
    server.stop().await;
}

/// At the end of a rated game each registered player is told their rating before and
/// after it: the winner's up, the loser's down, from the starting 1500; the history marks
/// the game rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_tells_each_player_their_rating_change() {
    let server = TestServer::fresh("rating-change").await;
    let games = registry();
    let g = games.get("gomoku").expect("gomoku");
    let mut players = Vec::new();
    for name in ["rosa", "sven"] {
        let (mut c, _, _) = Connection::open(&server.addr, None)
            .await
            .expect("connects");
        c.session(ClientMessage::Register {
            name: name.into(),
            password: "a good password".into(),
        })
        .await
        .expect("registered");
        players.push(c);
    }
    let [mut rosa, mut sven] = <[Connection; 2]>::try_from(players).ok().expect("two");
    let options = TableOptions {
        rated: true,
        computers: false,
        ..TableOptions::default()
    };
    let (table, mut sr) = create_table(&mut rosa, "gomoku", options).await;
    send(
        &mut sven,
        ClientMessage::Join(request::Join {
            table: table.clone(),
            seat: Some(1),
            invite: None,
        }),
    )
    .await;
    for c in [&mut rosa, &mut sven] {
        send(
            c,
            ClientMessage::Ready(request::Ready {
                table: table.clone(),
                ready: true,
            }),
        )
        .await;
    }
    let mut ss = Seen::default();
    let (a, b) = tokio::join!(
        play_game(&mut rosa, &table, g, "engine:L2", &mut sr, WAIT),
        play_game(&mut sven, &table, g, "random", &mut ss, WAIT)
    );
    let record: game::Record = serde_json::from_value(a.expect("rosa plays")).expect("a record");
    b.expect("sven plays");
    let outcome = record.outcome.expect("an outcome");
    let over = sr
        .messages
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMessage::GameOver { ratings, .. } => Some(ratings.clone()),
            _ => None,
        })
        .expect("a game over");
    assert_eq!(over.len(), 2, "{over:?}");
    for (seat, change) in over.iter().enumerate() {
        let change = change.expect("both players are rated");
        assert_eq!(change.before, 1500.0);
        if outcome.won[seat] {
            assert!(change.after > 1500.0, "{change:?}");
        } else if outcome.won.contains(&true) {
            assert!(change.after < 1500.0, "{change:?}");
        }
    }
    let (_, body) = get(&server.addr, "/api/users/rosa/games").await;
    let v: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(v["games"][0]["rated"], true, "{body}");
    server.stop().await;
}

/// Quick play without a level (the terminal, an older page) is quick play at the game's
/// usual level: it meets a page that names that level at the same table, and a player who
/// asks for another level gets a table of their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_play_without_a_level_meets_the_usual_level() {
    let server = TestServer::fresh("levels-usual").await;
    let quick = |level: Option<&str>| ClientMessage::QuickPlay {
        game: "doudizhu".into(),
        level: level.map(str::to_string),
    };
    let (mut terminal, _) = guest(&server.addr).await;
    let (first, _) = open_table(&mut terminal, quick(None)).await;
    let (mut page, _) = guest(&server.addr).await;
    let (second, _) = open_table(&mut page, quick(Some("normal"))).await;
    assert_eq!(first, second, "no level and the usual level meet");
    let (mut other, _) = guest(&server.addr).await;
    let (third, _) = open_table(&mut other, quick(Some("easy"))).await;
    assert_ne!(first, third, "another level is another table");
}
