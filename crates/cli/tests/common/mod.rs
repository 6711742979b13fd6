//! Driving the real `qipai` binary as a user or a tool would: a process, its pipes.

// Each test binary uses some of these helpers, not all.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

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
