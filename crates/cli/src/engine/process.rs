//! A child process we talk to by lines: started from a command, read with deadlines, and
//! always reaped.

use crate::lines::{self, Line};
use anyhow::{bail, Context, Result};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long a process that was told to stop may take to exit before it is killed.
const EXIT_WAIT: Duration = Duration::from_millis(200);

/// What the reader thread passes on: a line, or a line that was too long.
type Read = Option<String>;

/// A running engine: its input, and its output as lines through a reader thread, so that a
/// silent engine cannot hold us past a deadline.
pub(super) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Read>,
}

/// The words of `command` as a POSIX shell splits them: quotes keep spaces in a word
/// (`python3 "my bots/first.py"`), a backslash escapes the next character. Nothing else of
/// a shell is done: no variables, globs or pipes, so a command means the same on every
/// machine. For those, name a script.
fn words(command: &str) -> Result<Vec<String>> {
    shlex::split(command).with_context(|| {
        format!("cannot read the engine command '{command}': a quote is not closed, or it ends in a backslash")
    })
}

impl Process {
    /// Starts `command`, a program and its arguments split into words as a shell does
    /// ([`words`]). `logs` says where the engine's stderr goes: the terminal, where its
    /// author reads it, or nowhere.
    pub(super) fn spawn(command: &str, logs: Stdio) -> Result<Process> {
        let words = words(command)?;
        let (program, args) = words.split_first().context("--engine needs a command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(logs)
            .spawn()
            .with_context(|| format!("cannot start the engine '{command}'"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                let read = match lines::next(&mut reader, &mut buf) {
                    Ok(Line::Text(line)) => Some(line),
                    Ok(Line::TooLong) => None,
                    Ok(Line::End) | Err(_) => break,
                };
                if tx.send(read).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines,
        })
    }

    /// Writes `lines` to the engine.
    pub(super) fn send(&mut self, lines: &[String]) -> Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .context("the engine's input is closed")?;
        for l in lines {
            writeln!(stdin, "{l}").context("the engine closed its input")?;
        }
        stdin.flush().context("the engine closed its input")?;
        Ok(())
    }

    /// The engine's next line, waiting at most `wait`.
    pub(super) fn line(&mut self, wait: Duration) -> Result<String> {
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => bail!(
                "the engine wrote a line longer than {} bytes",
                lines::MAX_LINE
            ),
            Err(RecvTimeoutError::Timeout) => {
                bail!("the engine did not answer within {} ms", wait.as_millis())
            }
            Err(RecvTimeoutError::Disconnected) => bail!("the engine exited"),
        }
    }
}

impl Drop for Process {
    /// Closes the engine's input (its signal to exit), gives it a moment, then makes sure.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + EXIT_WAIT;
        while std::time::Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
