//! 记牌器 (the card counter) is a table option: the host's choice reaches every client in
//! the table's description, so everyone at the table gets the same aid.

use crate::common::{create_table, enter, guest, TestServer};
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_counter_option_reaches_everyone_at_the_table() {
    let server = TestServer::fresh("card-counter").await;
    let (mut host, _) = guest(&server.addr).await;
    let (table, seen) = create_table(
        &mut host,
        "doudizhu",
        TableOptions {
            card_counter: true,
            ..TableOptions::default()
        },
    )
    .await;
    let Some(ServerMessage::Table { info, .. }) = seen.messages.last() else {
        panic!("the host's snapshot: {:?}", seen.messages);
    };
    assert!(info.options.card_counter, "the host's table says so");
    let (mut other, _) = guest(&server.addr).await;
    let (snapshot, _) = enter(
        &mut other,
        &table,
        ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: None,
        }),
    )
    .await;
    let ServerMessage::Table { info, .. } = &snapshot else {
        panic!("a snapshot: {snapshot:?}");
    };
    assert!(
        info.options.card_counter,
        "another at the table sees it too"
    );
    let wire = serde_json::to_value(&snapshot).expect("serializes");
    assert_eq!(wire["info"]["options"]["card_counter"], true, "{wire}");
    // Off, it is not said at all (as `spectators`): older clients see what they saw.
    let off = serde_json::to_value(TableOptions::default()).expect("serializes");
    assert!(off.get("card_counter").is_none(), "{off}");
    server.stop().await;
}
