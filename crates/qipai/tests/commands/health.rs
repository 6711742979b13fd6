//! `/healthz` of a draining node: once `qipai serve --drain` got SIGTERM it answers
//! `503 draining`, and refuses new WebSockets, for as long as it goes on serving, so that
//! a reverse proxy's health check sends new connections to the other nodes.

use crate::common::get;
use crate::common::serve;
use server::client::{ClientError, Connection};
use std::time::{Duration, Instant};

/// A deadlock guard for every wait, not a timing claim.
const WAIT: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_node_answers_its_health_check_503() {
    let dir = std::env::temp_dir().join(format!("qipai-draining-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // A notice longer than the test: the node is still draining when it is killed.
    let (mut child, addr) = serve(&dir, &["--drain", "--drain-notice-ms", "600000"]);
    let (status, body) = get(&addr, "/healthz").await;
    assert!(status.contains("200") && body == "ok\n", "{status}: {body}");
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIGTERM sent");
    let deadline = Instant::now() + WAIT;
    let (status, body) = loop {
        let (status, body) = get(&addr, "/healthz").await;
        if !status.contains("200") || Instant::now() >= deadline {
            break (status, body);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let log = || std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    assert!(
        status.contains("503") && body == "draining\n",
        "{status}: {body}\n{}",
        log()
    );
    let refused = Connection::open(&addr, None).await.err();
    assert!(
        matches!(&refused, Some(ClientError::Connection(why)) if why.contains("503")),
        "a new WebSocket while draining: {refused:?}"
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
