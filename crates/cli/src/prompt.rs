//! Reading what a person types: a line editor with history at a terminal, plain lines from
//! a pipe (tests, scripts).

use anyhow::Result;
use rustyline::error::ReadlineError;
use rustyline::DefaultEditor;
use std::io::{BufRead, IsTerminal, StdinLock};

/// The prompt of a terminal session.
pub enum Prompt {
    /// A person at a terminal: arrow keys edit the line and walk the history.
    Editor(DefaultEditor),
    /// Input from a pipe: one line at a time, the prompt echoed so transcripts read well.
    Plain(std::io::Lines<StdinLock<'static>>),
}

impl Prompt {
    /// A line editor when both ends are a terminal, plain lines otherwise.
    pub fn new() -> Prompt {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            if let Ok(editor) = DefaultEditor::new() {
                return Prompt::Editor(editor);
            }
        }
        Prompt::Plain(std::io::stdin().lock().lines())
    }

    /// The next line, trimmed; `None` at the end of input (Ctrl-D) or on Ctrl-C.
    pub fn read(&mut self, prompt: &str) -> Result<Option<String>> {
        match self {
            Prompt::Editor(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    if !line.is_empty() {
                        // History is a convenience: failing to keep it is not an error.
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    Ok(Some(line))
                }
                Err(ReadlineError::Eof | ReadlineError::Interrupted) => Ok(None),
                Err(e) => Err(e.into()),
            },
            Prompt::Plain(lines) => {
                out!("{prompt}");
                match lines.next() {
                    Some(line) => {
                        let line = line?;
                        outln!("{}", line.trim());
                        Ok(Some(line.trim().to_string()))
                    }
                    None => Ok(None),
                }
            }
        }
    }
}
