//! Driving the real `qipai` binary as a user or a tool would: a process, its pipes.

// Each test binary uses some of these helpers, not all.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// Runs `qipai ARGS` with `stdin` as its input and waits for it.
pub fn qipai(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qipai"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qipai runs");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("qipai finishes");
    writer.join().expect("stdin writer");
    out
}

/// Everything the process wrote, stdout then stderr.
pub fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Starts `qipai serve` on a free port over `dir` (computers move at once, quick play does
/// not wait), with `extra` options; returns the process and its `host:port`. The server's
/// log goes to `dir/server.log`.
pub fn serve(dir: &Path, extra: &[&str]) -> (Child, String) {
    serve_at(dir, "127.0.0.1:0", extra)
}

/// A PostgreSQL database for a server on `dir`, for tests that run the real binary on
/// PostgreSQL (`--database`): on the server `QIPAI_TEST_POSTGRES` names
/// (`postgres://user@host:port`; `scripts/test.sh` finds or starts one), else the
/// machine's own; one per directory, named after it, so a restart on the directory finds
/// the data (`qipai_test_…`, which `scripts/test.sh` drops before and after).
pub fn postgres_database(dir: &Path) -> String {
    let server = std::env::var("QIPAI_TEST_POSTGRES")
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432".into());
    let name: String = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let tail = name.len().saturating_sub(52);
    format!(
        "{}/qipai_test_{}",
        server.trim_end_matches('/'),
        &name[tail..]
    )
}

/// Like [`serve`], at `addr` (a restarted server where its clients look for it).
pub fn serve_at(dir: &Path, addr: &str, extra: &[&str]) -> (Child, String) {
    std::fs::create_dir_all(dir).expect("a data directory");
    let mut child = Command::new(env!("CARGO_BIN_EXE_qipai"))
        .args(["serve", "--addr", addr, "--data-dir"])
        .arg(dir)
        .args([
            "--bot-delay-ms",
            "0",
            "--quick-play-seconds",
            "0",
            "--quick-computers",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::from(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(dir.join("server.log"))
                .expect("a log file"),
        ))
        .spawn()
        .expect("qipai serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("a first line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, addr)
}

/// `GET path` of a server at `addr` over HTTP/1.0 (the body then ends with the
/// connection): the status line and the body.
pub async fn get(addr: &str, path: &str) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let request = format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("a request");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("an answer");
    let answer = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, body.to_string())
}
