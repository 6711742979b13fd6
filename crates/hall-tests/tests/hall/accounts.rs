//! Accounts through the real server: register, log in, wrong passwords limited, logout
//! revoking the token, a guest who registers keeps the games played as a guest; and the
//! HTTP side: records that verify, replays, SGF, histories, rated games on the
//! leaderboard. No password or token is ever sent back or stored in the clear. Changing
//! a password and deleting an account are in account_changes.rs.

use crate::common::Connection;
use crate::common::{
    create_table, get, get_as, guest, play_game, quick_game, refused, registry, send, Seen,
    TestServer,
};
use game::{Record, VerifyOptions};
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_login_logout_and_limits() {
    let server = TestServer::fresh("accounts").await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    let register = |name: &str, password: &str| ClientMessage::Register {
        name: name.into(),
        password: password.into(),
    };
    assert_eq!(
        refused(c.session(register("x", "long enough")).await),
        "bad_name"
    );
    assert_eq!(
        refused(c.session(register("alice", "short")).await),
        "bad_password"
    );
    let (token, alice) = c
        .session(register("alice", "correct horse"))
        .await
        .expect("registered");
    assert!(!alice.guest);
    assert_eq!(
        refused(c.session(register("ALICE", "another one")).await),
        "name_taken"
    );
    // The token resumes the session; logout ends it.
    let (mut again, user, _) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("connects");
    assert_eq!(user.map(|u| u.name), Some("alice".into()));
    again.send(&ClientMessage::Logout).await.expect("sent");
    loop {
        if let ServerMessage::LoggedOut = again.recv_within(WAIT).await.expect("an answer") {
            break;
        }
    }
    let (_, user, _) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("connects");
    assert!(user.is_none(), "a revoked token no longer works");
    // An unknown name answers exactly as a wrong password does.
    let (mut d, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    assert_eq!(
        refused(
            d.session(ClientMessage::Login {
                name: "nobody".into(),
                password: "whatever1".into()
            })
            .await
        ),
        "wrong_password"
    );
    // Wrong passwords: refused, then limited (five for a name from one address; the
    // owner elsewhere is not held back: logins.rs).
    let login = |password: &str| ClientMessage::Login {
        name: "alice".into(),
        password: password.into(),
    };
    for _ in 0..5 {
        assert_eq!(refused(d.session(login("wrong")).await), "wrong_password");
    }
    assert_eq!(
        refused(d.session(login("correct horse")).await),
        "rate_limited"
    );
    // Neither the password nor the token is stored in the clear.
    let stored = crate::common::stored_bytes(&server).await;
    for secret in ["correct horse", token.as_str()] {
        assert!(
            !stored.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} is stored in the clear"
        );
    }
    server.stop().await;
}

/// A name is one name whatever the case of its letters, in any script, and whatever the
/// width an input method typed it in: a full-width name is kept in the usual letters, a
/// second account cannot take any form of a name, nor pass for it with a letter of another
/// script, and every form logs in; the host's moderators are matched the same way. The same on both stores (the folding is the
/// hall's, not the database's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_is_one_name_whatever_its_case_or_width() {
    let dir = crate::common::data_dir("name-keys");
    let mut config = crate::common::fast_config(dir);
    config.moderators = vec!["ＭＩＡ".into()];
    let server = TestServer::start(config).await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    let register = |name: &str| ClientMessage::Register {
        name: name.into(),
        password: "correct horse".into(),
    };
    let (_, mia) = c.session(register("ｍｉａ")).await.expect("registered");
    assert_eq!(mia.name, "mia", "kept in the usual letters");
    let (_, elise) = c.session(register("Élise")).await.expect("registered");
    assert_eq!(elise.name, "Élise");
    // A Cyrillic "і" among Latin letters passes for mia: not a name.
    assert_eq!(refused(c.session(register("mіa")).await), "bad_name");
    for taken in ["MIA", "Ｍｉａ", "ÉLISE", "e\u{301}lise", "ÉLİSE"] {
        let got = c.session(register(taken)).await;
        assert_eq!(refused(got), "name_taken", "{taken}");
    }
    for (typed, account) in [("ＭＩＡ", "mia"), ("Mia", "mia"), ("éLISE", "Élise")] {
        let (mut d, _, _) = Connection::open(&server.addr, None)
            .await
            .expect("connects");
        let (_, user) = d
            .session(ClientMessage::Login {
                name: typed.into(),
                password: "correct horse".into(),
            })
            .await
            .unwrap_or_else(|e| panic!("{typed} logs in: {e:?}"));
        assert_eq!(user.name, account);
        if account == "mia" {
            // The host named "ＭＩＡ" a moderator: that is mia.
            send(&mut d, ClientMessage::Bans).await;
            let answer = d.recv_within(WAIT).await.expect("an answer");
            assert!(
                matches!(answer, ServerMessage::Bans { .. }),
                "a moderator is answered: {answer:?}"
            );
        }
    }
    server.stop().await;
}

/// A long history is read a page at a time: each page newest first, the next one asked
/// for with the `next` the last gave, every game once, and no `next` after the last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_history_is_read_page_by_page() {
    let server = TestServer::fresh("history-pages").await;
    let (mut c, token) = guest(&server.addr).await;
    let me = server.hall.accounts.resume(&token).await.expect("a user");
    let mut played = Vec::new();
    for _ in 0..5 {
        played.push(quick_game(&mut c, "gomoku", "random").await.id);
    }
    let page = |query: String| {
        let (addr, name) = (server.addr.clone(), me.name.clone());
        async move {
            let (status, body) = get(&addr, &format!("/api/users/{name}/games{query}")).await;
            assert_eq!(status, 200, "{body}");
            let v: serde_json::Value = serde_json::from_str(&body).expect("json");
            let ids: Vec<String> = v["games"]
                .as_array()
                .expect("games")
                .iter()
                .map(|g| g["id"].as_str().expect("an id").to_string())
                .collect();
            (ids, v["next"].as_str().map(str::to_string))
        }
    };
    let (all, none) = page(String::new()).await;
    assert_eq!(none, None, "five games fit in one page of 50");
    let mut paged = Vec::new();
    let mut query = "?limit=2".to_string();
    loop {
        let (ids, next) = page(query).await;
        paged.extend(ids);
        match next {
            Some(next) => query = format!("?limit=2&before={next}"),
            None => break,
        }
    }
    assert_eq!(
        paged, all,
        "the pages, one after another, are the whole history"
    );
    let mut sorted = played.clone();
    sorted.sort();
    let mut listed = all.clone();
    listed.sort();
    assert_eq!(listed, sorted, "every game once");
    let (_, body) = get(&server.addr, &format!("/api/users/{}/games", me.name)).await;
    let v: serde_json::Value = serde_json::from_str(&body).expect("json");
    let started: Vec<i64> = v["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["started_at"].as_i64())
        .collect();
    assert_eq!(started.len(), 5, "{body}");
    // The record per game agrees with the games listed (a Gomoku score is +1 or -1).
    let scores: Vec<i64> = v["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["score"].as_i64())
        .collect();
    let won = scores.iter().filter(|&&s| s > 0).count() as u64;
    let stats = &v["stats"];
    assert_eq!(stats.as_array().map(Vec::len), Some(1), "{body}");
    assert_eq!(stats[0]["game"], "gomoku");
    assert_eq!(stats[0]["played"].as_u64(), Some(5), "{body}");
    assert_eq!(stats[0]["won"].as_u64(), Some(won), "{body}");
    assert_eq!(
        stats[0]["net"].as_i64(),
        Some(scores.iter().sum()),
        "{body}"
    );
    assert!(
        started.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {started:?}"
    );
    for bad in ["?limit=0", "?limit=many", "?before=yesterday", "?limit=101"] {
        let (status, body) = get(&server.addr, &format!("/api/users/{}/games{bad}", me.name)).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("\"error\""), "{body}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_keeps_its_games_when_registering_and_records_replay_over_http() {
    let server = TestServer::fresh("history").await;
    let (mut c, guest_token) = guest(&server.addr).await;
    let record = quick_game(&mut c, "gomoku", "engine:L1").await;
    let (_, user) = c
        .session(ClientMessage::Register {
            name: "bob".into(),
            password: "bob's password".into(),
        })
        .await
        .expect("the guest registers");
    assert!(!user.guest);
    // The guest's token ended with the guest: it does not open bob's account.
    let (other, resumed, _) = Connection::open(&server.addr, Some(&guest_token))
        .await
        .expect("connects");
    assert_eq!(resumed, None, "the guest's token still works");
    other.close().await;
    let (status, body) = get(&server.addr, "/api/users/bob/games").await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(&record.id),
        "the guest's game is bob's: {body}"
    );
    let history: serde_json::Value = serde_json::from_str(&body).expect("json");
    // Each game names who played it: bob, and the computer quick play seated.
    let players = &history["games"][0]["players"];
    assert_eq!(players[0]["user"]["name"], "bob", "{body}");
    assert_eq!(
        players[1]["bot"],
        crate::common::registry()
            .get("gomoku")
            .expect("gomoku")
            .quick_bot(),
        "{body}"
    );
    let ratings = history["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 5, "a rating for every game: {body}");
    assert!(ratings.iter().any(|r| r["game"] == "gomoku"));
    // The record over HTTP verifies; a replay steps through it; Gomoku exports SGF.
    let (status, body) = get(&server.addr, &format!("/api/games/{}", record.id)).await;
    assert_eq!(status, 200);
    let fetched: Record = serde_json::from_str(&body).expect("a record");
    let games = registry();
    games
        .get("gomoku")
        .expect("gomoku")
        .verify(&fetched, &VerifyOptions::default())
        .expect("verifies");
    let (status, body) = get(&server.addr, &format!("/api/games/{}/replay/3", record.id)).await;
    assert_eq!(status, 200, "{body}");
    let step: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(step["step"], 3);
    assert_eq!(step["seats"][0]["moves"].as_array().map(Vec::len), Some(3));
    let (status, body) = get(
        &server.addr,
        &format!("/api/games/{}/export/sgf", record.id),
    )
    .await;
    assert_eq!(status, 200);
    assert!(body.contains("GM[4]"), "{body}");
    // Who played, for the replay to name them: the guest by the name it registered, and
    // the computer quick play seated (the test hall's quick one).
    let (status, body) = get(&server.addr, &format!("/api/games/{}/players", record.id)).await;
    assert_eq!(status, 200, "{body}");
    let players: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(players["players"][0]["user"]["name"], "bob", "{body}");
    let quick = crate::common::registry()
        .get("gomoku")
        .expect("gomoku")
        .quick_bot();
    assert_eq!(players["players"][1]["bot"], quick, "{body}");
    for path in ["/api/games/nope", "/api/games/nope/players"] {
        let (status, _) = get(&server.addr, path).await;
        assert_eq!(status, 404, "{path}");
    }
    let (status, body) = get(&server.addr, "/healthz").await;
    assert_eq!((status, body.trim()), (200, "ok"));
    let (_, metrics) = get(&server.addr, "/metrics").await;
    assert!(metrics.contains("qipai_store_commit_seconds"), "{metrics}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_at_private_tables_are_listed_only_in_the_players_own_history() {
    let server = TestServer::fresh("private-history").await;
    let (mut c, _) = guest(&server.addr).await;
    let (token, _) = c
        .session(ClientMessage::Register {
            name: "dora".into(),
            password: "dora's password".into(),
        })
        .await
        .expect("registers");
    let public = quick_game(&mut c, "gomoku", "engine:L1").await;
    let options = TableOptions {
        private: true,
        ..TableOptions::default()
    };
    let (table, mut seen) = create_table(&mut c, "gomoku", options).await;
    let add = ClientMessage::AddBot(request::AddBot {
        table: table.clone(),
        seat: 1,
        bot: "engine:L1".into(),
    });
    send(&mut c, add).await;
    let ready = ClientMessage::Ready(request::Ready {
        table: table.clone(),
        ready: true,
    });
    send(&mut c, ready).await;
    let games = registry();
    let gomoku = games.get("gomoku").expect("gomoku");
    let private = play_game(&mut c, &table, gomoku, "engine:L1", &mut seen, WAIT)
        .await
        .expect("the private game finishes");
    let private: Record = serde_json::from_value(private).expect("a record");
    let (_, stranger) = guest(&server.addr).await;
    let listed = |token: Option<&str>| {
        let addr = server.addr.clone();
        let token = token.map(str::to_string);
        async move {
            let (status, body) = get_as(&addr, "/api/users/dora/games", token.as_deref()).await;
            assert_eq!(status, 200, "{body}");
            let history: serde_json::Value = serde_json::from_str(&body).expect("json");
            let games = history["games"].as_array().cloned().unwrap_or_default();
            // The record per game counts only the games listed.
            assert_eq!(
                history["stats"][0]["played"].as_u64(),
                Some(games.len() as u64),
                "{body}"
            );
            games
                .iter()
                .map(|g| {
                    (
                        g["id"].as_str().unwrap_or("").to_string(),
                        g["private"] == true,
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    // Anyone else, signed in or not, or with a token that is no session: the public game
    // only, so neither who dora met at the private table nor the way to its replay shows.
    for asking in [None, Some(stranger.as_str()), Some("not-a-token")] {
        assert_eq!(
            listed(asking).await,
            [(public.id.clone(), false)],
            "asked with {asking:?}"
        );
    }
    // Dora herself sees both, the private one marked (in either order: the two games may
    // have started in the same second, which the history orders by id).
    let mut own = listed(Some(&token)).await;
    own.sort();
    let mut both = vec![(private.id.clone(), true), (public.id.clone(), false)];
    both.sort();
    assert_eq!(own, both);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_between_registered_players_move_their_ratings() {
    let server = TestServer::fresh("rating").await;
    let games = registry();
    let g = games.get("gomoku").expect("gomoku");
    let mut players = Vec::new();
    for name in ["carol", "dave"] {
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
    let [mut carol, mut dave] = <[Connection; 2]>::try_from(players).ok().expect("two");
    carol
        .send(&ClientMessage::CreateTable {
            game: "gomoku".into(),
            options: TableOptions {
                rated: true,
                computers: false,
                ..TableOptions::default()
            },
        })
        .await
        .expect("sent");
    let mut sc = Seen::default();
    let table = loop {
        let m = carol.recv_within(WAIT).await.expect("a table");
        if let ServerMessage::Table { table, .. } = &m {
            let t = table.clone();
            sc.take(&t, &m);
            break t;
        }
    };
    dave.send(&ClientMessage::Join(request::Join {
        table: table.clone(),
        seat: Some(1),
        invite: None,
    }))
    .await
    .expect("sent");
    for c in [&mut carol, &mut dave] {
        c.send(&ClientMessage::Ready(request::Ready {
            table: table.clone(),
            ready: true,
        }))
        .await
        .expect("sent");
    }
    let mut sd = Seen::default();
    let (a, b) = tokio::join!(
        play_game(&mut carol, &table, g, "engine:L2", &mut sc, WAIT),
        play_game(&mut dave, &table, g, "random", &mut sd, WAIT)
    );
    a.expect("carol plays");
    b.expect("dave plays");
    let (status, body) = get(&server.addr, "/api/leaderboard/gomoku").await;
    assert_eq!(status, 200);
    let board: Vec<serde_json::Value> = serde_json::from_str(&body).expect("json");
    assert_eq!(board.len(), 2, "{body}");
    let ratings: Vec<f64> = board.iter().filter_map(|r| r["rating"].as_f64()).collect();
    assert!(ratings[0] > 1500.0 && ratings[1] < 1500.0, "{body}");
    // Each one's record at Gomoku: one game, won by the one rated up.
    for (row, won, net) in [(&board[0], 1, 1), (&board[1], 0, -1)] {
        let name = row["name"].as_str().expect("a name");
        let (_, body) = get(&server.addr, &format!("/api/users/{name}/games")).await;
        let v: serde_json::Value = serde_json::from_str(&body).expect("json");
        let stats = &v["stats"][0];
        assert_eq!(
            (
                stats["played"].as_u64(),
                stats["won"].as_u64(),
                stats["net"].as_i64()
            ),
            (Some(1), Some(won), Some(net)),
            "{body}"
        );
    }
    server.stop().await;
}

/// The rankings rank settled ratings: a newcomer whose one lucky game put them above
/// everyone is listed after the players whose ratings rest on many games, marked
/// provisional, and other games' ratings stay out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rankings_list_settled_ratings_first_and_provisional_ones_after() {
    let server = TestServer::fresh("rankings").await;
    // Ratings as many finished games would have left them, written beside the running
    // server.
    let mut rows = vec!["INSERT INTO users (name, guest, created_at) VALUES \
         ('ann', FALSE, 0), ('ben', FALSE, 0), ('cat', FALSE, 0), ('dan', FALSE, 0), \
         ('eve', FALSE, 0)"
        .to_string()];
    for (name, game, rating, deviation, games) in [
        ("ann", "gomoku", 1720, 300, 1),
        ("ben", "gomoku", 1600, 80, 40),
        ("cat", "gomoku", 1650, 109, 15),
        ("dan", "gomoku", 1400, 60, 90),
        ("eve", "gomoku", 1560, 111, 13),
        ("ann", "bigtwo", 1900, 50, 80),
    ] {
        rows.push(format!(
            "INSERT INTO ratings (user_id, game, rating, deviation, volatility, games) \
             SELECT id, '{game}', {rating}, {deviation}, 0.06, {games} FROM users \
             WHERE name = '{name}'"
        ));
    }
    crate::common::execute_sql(
        &server,
        &rows.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .await;
    let (status, body) = get(&server.addr, "/api/leaderboard/gomoku").await;
    assert_eq!(status, 200, "{body}");
    let board: Vec<serde_json::Value> = serde_json::from_str(&body).expect("json");
    let listed: Vec<(&str, bool)> = board
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap_or("?"),
                r["provisional"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("cat", false),
            ("ben", false),
            ("dan", false),
            ("ann", true),
            ("eve", true)
        ],
        "{body}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_that_never_played_are_forgotten_once_their_sessions_end() {
    let server = TestServer::fresh("forget-guests").await;
    let store = server.hall.store.clone();
    // Two guests who only looked (the second on the first one's connection), one who
    // played, and one who registered as carol and never played.
    let (mut idle, _) = guest(&server.addr).await;
    let (_, looked) = idle
        .session(ClientMessage::Guest)
        .await
        .expect("a second guest on the same connection");
    let (mut player, token) = guest(&server.addr).await;
    let played = server.hall.accounts.resume(&token).await.expect("a user");
    let record = quick_game(&mut player, "gomoku", "engine:L1").await;
    let (mut registered, _) = guest(&server.addr).await;
    registered
        .session(ClientMessage::Register {
            name: "carol".into(),
            password: "carol's password".into(),
        })
        .await
        .expect("registered");
    // And a guest who opened a table and sits there, waiting for players.
    let (mut host, token) = guest(&server.addr).await;
    let seated = server.hall.accounts.resume(&token).await.expect("a user");
    let waiting = TableOptions {
        computers: false,
        ..TableOptions::default()
    };
    let (table, _) = create_table(&mut host, "doudizhu", waiting).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    // While their sessions live, every guest may still come back.
    assert_eq!(store.forget_idle_guests(now).await.expect("forgets"), 0);
    // A month and a day later every session has ended: the two that only looked go; the
    // one seated at an open table stays, since a deal there would store a game naming it.
    let later = now + 31 * 24 * 3600;
    assert_eq!(store.forget_idle_guests(later).await.expect("forgets"), 2);
    let exists = |name: String| {
        let store = store.clone();
        async move { store.user_by_name(&name).await.expect("read").is_some() }
    };
    assert!(exists(seated.name.clone()).await, "a seated guest stays");
    // Once it has left and the table has closed, it goes too.
    send(&mut host, ClientMessage::Leave(request::Leave { table })).await;
    let mut left = 0;
    for _ in 0..100 {
        left = store.forget_idle_guests(later).await.expect("forgets");
        if left > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(left, 1, "the guest who left its table goes");
    assert!(!exists(seated.name.clone()).await);
    assert!(!exists(looked.name.clone()).await);
    assert!(
        exists(played.name.clone()).await,
        "a guest who played stays"
    );
    assert!(exists("carol".into()).await);
    // The player's game is still theirs, and its record still there.
    let (status, body) = get(&server.addr, &format!("/api/users/{}/games", played.name)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(&record.id), "{body}");
    let (status, _) = get(&server.addr, &format!("/api/games/{}", record.id)).await;
    assert_eq!(status, 200);
    assert_eq!(store.forget_idle_guests(later).await.expect("forgets"), 0);
    server.stop().await;
}

/// Names that look like taken ones within one script used to be registered: "a丨ice"
/// beside alice (a Chinese stroke for the l), "b〇b" (an ideographic zero), "aǀice" (a
/// click letter), "mıa" (a dotless i), "ɑlice" (a Latin alpha), Cyrillic "расо" beside
/// Latin paco, "мод1" beside "модӏ" (a Cyrillic palochka). The names' keys are their
/// confusable skeletons: each is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_that_looks_like_a_taken_one_is_taken() {
    let server = TestServer::fresh("look-alikes").await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    let register = |name: &str| ClientMessage::Register {
        name: name.into(),
        password: "correct horse".into(),
    };
    for name in ["alice", "bob", "mia", "paco", "модӏ"] {
        c.session(register(name))
            .await
            .unwrap_or_else(|e| panic!("{name} registers: {e:?}"));
    }
    for look_alike in [
        "a丨ice", "b〇b", "aǀice", "mıa", "ɑlice", "расо", "мод1", "B0B",
    ] {
        assert_eq!(
            refused(c.session(register(look_alike)).await),
            "name_taken",
            "{look_alike}"
        );
    }
    // Names that only share letters stay apart.
    for other in ["mali", "mail", "elise", "élise"] {
        c.session(register(other))
            .await
            .unwrap_or_else(|e| panic!("{other} registers: {e:?}"));
    }
    server.stop().await;
}
