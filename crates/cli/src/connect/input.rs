//! The two ends of a terminal client: lines the person types arrive on a channel from a
//! thread of their own, and whatever the server says is printed without garbling the line
//! being typed.
//!
//! At a terminal the line editor keeps the typed line below the messages (rustyline's
//! external printer); from a pipe, lines are read plainly and each is echoed when it is
//! handled, so a transcript reads in order.
//!
//! A line that asks for passwords (`password`, `delete-account`:
//! [`super::command::secret_prompts`]) has them read here, where the keyboard is: at a
//! terminal without echo, from a pipe as the next lines, never echoed either way.

use super::command::secret_prompts;
use anyhow::Result;
use rustyline::{DefaultEditor, ExternalPrinter};
use std::io::{BufRead, IsTerminal};
use tokio::sync::mpsc;

/// A typed line, with the answers to the prompts it asked for without echo.
pub struct Typed {
    /// The line.
    pub line: String,
    /// What was typed at its secret prompts, in order.
    pub secrets: Vec<String>,
}

/// Where the client's text goes.
pub enum Screen {
    /// Standard output (input from a pipe).
    Plain,
    /// Printed above the line editor's prompt.
    Above(Box<dyn ExternalPrinter + Send>),
}

impl Screen {
    /// Prints `text` (one or more lines).
    pub fn say(&mut self, text: &str) -> Result<()> {
        match self {
            Screen::Plain => {
                outln!("{text}");
            }
            Screen::Above(printer) => printer.print(for_printer(text))?,
        }
        Ok(())
    }

    /// Whether typed lines should be echoed (they are not shown by a terminal's editor
    /// after a message is printed above them).
    pub fn echoes(&self) -> bool {
        matches!(self, Screen::Plain)
    }
}

/// `text` as the external printer must get it: ending in a newline. While the editor waits
/// for a key, rustyline adds a missing newline itself; between two lines (just after Enter,
/// when the answer to that line is printed) it writes the text as it is, and the next
/// prompt is drawn over an unfinished last line — the answer to a mistyped move vanished.
fn for_printer(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

/// Starts reading what the person types; `None` arrives at the end of input or Ctrl-C.
pub fn start() -> (Screen, mpsc::UnboundedReceiver<Option<Typed>>) {
    let (tx, rx) = mpsc::unbounded_channel();
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        if let Ok(mut editor) = DefaultEditor::new() {
            if let Ok(printer) = editor.create_external_printer() {
                std::thread::spawn(move || edit(editor, tx));
                return (Screen::Above(Box::new(printer)), rx);
            }
        }
    }
    std::thread::spawn(move || {
        let mut lines = std::io::stdin().lock().lines();
        while let Some(Ok(line)) = lines.next() {
            let line = line.trim().to_string();
            let secrets = secret_prompts(&line)
                .iter()
                .map_while(|_| lines.next()?.ok())
                .collect();
            if tx.send(Some(Typed { line, secrets })).is_err() {
                return;
            }
        }
        let _ = tx.send(None);
    });
    (Screen::Plain, rx)
}

/// The line editor's loop: history with the arrow keys, Ctrl-D or Ctrl-C to leave.
fn edit(mut editor: DefaultEditor, tx: mpsc::UnboundedSender<Option<Typed>>) {
    loop {
        match editor.readline("> ") {
            Ok(line) => {
                let line = line.trim().to_string();
                if !line.is_empty() {
                    // History is a convenience: failing to keep it is not an error.
                    let _ = editor.add_history_entry(line.as_str());
                }
                // The editor is not reading now, so the terminal is free for a prompt
                // without echo; a prompt that fails (Ctrl-C) leaves the answers short,
                // and the command says nothing changed.
                let secrets = secret_prompts(&line)
                    .iter()
                    .map_while(|prompt| rpassword::prompt_password(prompt).ok())
                    .collect();
                if tx.send(Some(Typed { line, secrets })).is_err() {
                    return;
                }
            }
            Err(_) => {
                let _ = tx.send(None);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::for_printer;

    #[test]
    fn every_printed_message_ends_its_line_so_the_next_prompt_cannot_cover_it() {
        assert_eq!(
            for_printer("refused (illegal): 4 4"),
            "refused (illegal): 4 4\n"
        );
        assert_eq!(for_printer("two\nlines"), "two\nlines\n");
        assert_eq!(for_printer("done\n"), "done\n");
    }
}
