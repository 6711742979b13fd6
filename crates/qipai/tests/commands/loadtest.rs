//! `qipai loadtest` against the real `qipai serve`: a small load (20 clients at 5 tables,
//! one of every game, flat out, a few seconds) finishes games with no error and loses no
//! acknowledged action. No figure of speed is asserted: this checks the harness and the
//! server's correctness under concurrent tables, not the machine.

use serde_json::Value;
use std::process::Command;

#[test]
fn a_small_load_finishes_games_without_errors_or_lost_actions() {
    let dir = std::env::temp_dir().join(format!("qipai-loadtest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut server, addr) = crate::common::serve(
        &dir,
        &[
            "--messages-per-second",
            "1000",
            "--message-burst",
            "1000",
            "--api-requests-per-second",
            "0",
        ],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_qipai"))
        .args([
            "loadtest",
            "--url",
            &addr,
            "--clients",
            "20",
            "--tables",
            "5",
        ])
        .args([
            "--duration",
            "3",
            "--drain",
            "60",
            "--pace",
            "flat",
            "--json",
            "--quiet",
        ])
        .args(["--server-pid", &server.id().to_string()])
        .output()
        .expect("qipai loadtest runs");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "loadtest failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert_eq!(report["errors"], 0, "{report:#}");
    assert_eq!(report["lost"], 0, "{report:#}");
    assert_eq!(report["records"]["miscounted"], 0, "{report:#}");
    assert!(report["games_finished"].as_u64() > Some(0), "{report:#}");
    assert!(report["records"]["games"].as_u64() > Some(0), "{report:#}");
    assert!(report["latency"]["count"].as_u64() > Some(0), "{report:#}");
}
