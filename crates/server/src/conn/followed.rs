//! The tables one connection follows, and the bound on how many.
//!
//! Every table a connection follows (sits at, watches, resumes) sends it every change, so
//! the number of tables is what one connection can make the server send: unbounded, one
//! client watching every table of a busy hall gets as many messages as the whole hall
//! makes, and the server keeps them all queued for it. A person follows the table they
//! play at and perhaps a few they watch; [`MAX_FOLLOWED`] leaves room for that many times
//! over. At the bound, following one more table lets go of the table followed longest
//! ago that the connection only watches (a page that moved on from it never said so); a
//! connection whose every table holds its seat is refused instead.

use std::collections::VecDeque;

/// The most tables one connection follows at once.
pub const MAX_FOLLOWED: usize = 16;

/// The tables a connection follows, the one it used longest ago first.
#[derive(Debug, Default)]
pub(super) struct Followed {
    tables: VecDeque<String>,
}

impl Followed {
    /// Whether the connection follows `table`.
    pub fn contains(&self, table: &str) -> bool {
        self.tables.iter().any(|t| t == table)
    }

    /// Whether following one more table needs one let go first.
    pub fn is_full(&self) -> bool {
        self.tables.len() >= MAX_FOLLOWED
    }

    /// Records a request to `table`: it becomes the most recently used.
    pub fn touch(&mut self, table: &str) {
        self.forget(table);
        self.tables.push_back(table.to_string());
    }

    /// No longer follows `table` (left it, or it let go).
    pub fn forget(&mut self, table: &str) {
        self.tables.retain(|t| t != table);
    }

    /// The tables, the one used longest ago first: the order to ask them to let go in.
    pub fn oldest_first(&self) -> Vec<String> {
        self.tables.iter().cloned().collect()
    }

    /// Every table, for telling each that the connection closed.
    pub fn take(&mut self) -> VecDeque<String> {
        std::mem::take(&mut self.tables)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_used_again_moves_to_the_back() {
        let mut f = Followed::default();
        f.touch("a");
        f.touch("b");
        f.touch("a");
        assert_eq!(f.oldest_first(), ["b", "a"]);
        f.forget("b");
        assert_eq!(f.oldest_first(), ["a"]);
        assert!(f.contains("a") && !f.contains("b"));
    }

    #[test]
    fn full_at_the_bound() {
        let mut f = Followed::default();
        for i in 0..MAX_FOLLOWED {
            assert!(!f.is_full());
            f.touch(&i.to_string());
        }
        assert!(f.is_full());
    }
}
