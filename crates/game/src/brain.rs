//! A game's own engine of a tournament protocol (Gomoku's Gomocup brain): lines in, lines
//! out, so the binary can be a tournament manager's player without knowing the game.

/// A player speaking a tournament's line protocol, as a pure state machine: the binary
/// moves the lines between it and its pipes.
pub trait Brain: Send {
    /// Handles one line from the manager; returns the lines to answer, in order.
    fn handle_line(&mut self, line: &str) -> Vec<String>;
    /// Whether the manager has ended the session: the caller should stop reading.
    fn finished(&self) -> bool;
}
