//! The hall on PostgreSQL (`qipai serve --database`), on a real server
//! ([`common::postgres`]). The rest of the server's tests run on it too with
//! `QIPAI_TEST_ON_POSTGRES=1`; these are the claims only PostgreSQL has: the database is
//! made if missing, and one hall serves a database at a time.

mod common;

use common::{data_dir, fast_config, refused, TestServer};
use server::client::Connection;
use server::protocol::ClientMessage;
use server::{Server, ServerConfig};
use std::time::Instant;

/// A configuration on a database of its own, which does not exist yet.
fn on_postgres(name: &str) -> ServerConfig {
    let dir = data_dir(name);
    let database = common::database_on(&common::postgres(), &dir);
    let mut config = fast_config(dir);
    config.database = Some(database);
    config
}

fn register(name: &str) -> ClientMessage {
    ClientMessage::Register {
        name: name.into(),
        password: "a long password".into(),
    }
}

/// A second hall on a database another serves would restore the same tables and deal
/// their games twice; it waits for the first to let go, then refuses to start, and
/// starts at once when the first has stopped, on the first's data.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_hall_serves_a_database_at_a_time() {
    let config = on_postgres("one-hall");
    let first = TestServer::start(config.clone()).await;
    let (mut c, _, _) = Connection::open(&first.addr, None).await.expect("connects");
    c.session(register("olga")).await.expect("registered");

    let tried = Instant::now();
    let second = Server::bind(common::registry(), config.clone()).await;
    let error = second
        .err()
        .expect("the second hall is refused")
        .to_string();
    assert!(error.contains("another qipai hall"), "{error}");
    assert!(
        tried.elapsed().as_secs() >= 9,
        "it waited for the first to let go"
    );

    first.stop().await;
    let tried = Instant::now();
    let second = TestServer::start(config).await;
    assert!(
        tried.elapsed().as_secs() < 5,
        "a stopped hall lets go at once"
    );
    let (mut c, _, _) = Connection::open(&second.addr, None)
        .await
        .expect("connects");
    assert_eq!(refused(c.session(register("OLGA")).await), "name_taken");
    c.session(ClientMessage::Login {
        name: "olga".into(),
        password: "a long password".into(),
    })
    .await
    .expect("the account made on the first hall");
    second.stop().await;
}

/// An address that is no database, or a server that is not there, stops the hall before
/// it listens, saying why.
#[tokio::test]
async fn a_bad_database_address_stops_the_hall() {
    for (database, says) in [
        ("mysql://somewhere/qipai", "bad database address"),
        ("postgres://postgres@127.0.0.1:1/qipai", "storage failed"),
    ] {
        let mut config = fast_config(data_dir("bad-database"));
        config.database = Some(database.into());
        let error = Server::bind(common::registry(), config)
            .await
            .err()
            .expect("refused")
            .to_string();
        assert!(error.contains(says), "{database}: {error}");
    }
}
