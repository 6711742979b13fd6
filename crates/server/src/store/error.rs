//! Why a store operation failed, with the failure beneath it kept whole.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// Why a store operation failed.
///
/// Every variant but [`StoreError::NameTaken`] keeps what failed beneath it as its
/// [`source`](Error::source) — the driver's `sqlx::Error`, the file system's
/// `io::Error`, the JSON decoder's error — so an `anyhow` chain reaches it and a caller
/// may downcast to it. The message says its words too, because the hall's logs print the
/// message alone.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// The name belongs to another account.
    #[error("the name '{0}' is taken")]
    NameTaken(String),
    /// The database failed; the operation did not happen.
    #[error("storage failed: {0}")]
    Database(#[source] Cause),
    /// The database could not be reached (the connection broke, the server restarted):
    /// the operation may or may not have happened, and may be tried again.
    #[error("storage failed, the database is out of reach: {0}")]
    Unavailable(#[source] Cause),
    /// A row with this key is stored already. Tried again after [`StoreError::Unavailable`],
    /// an insert meeting its own earlier attempt says this.
    #[error("stored already: {0}")]
    Exists(#[source] Cause),
    /// Stored data did not read back (a bug or a damaged file).
    #[error("stored data is damaged: {0}")]
    Corrupt(#[source] Cause),
    /// A write for a table carried a lease epoch that is no longer the table's current
    /// one: another claim (by another node, or by this node after a restart) came since.
    /// Nothing was written. The writer no longer owns the table and must stop serving it;
    /// the write is not to be tried again.
    #[error("table {table}: fenced: epoch {epoch} is no longer current (now {})",
        current.map_or_else(|| "none".to_string(), |c| c.to_string()))]
    Fenced {
        /// The table.
        table: String,
        /// The epoch the write carried.
        epoch: u64,
        /// The table's current epoch, if it has a lease at all.
        current: Option<u64>,
    },
    /// A claim of a table whose lease another node holds and has not let expire.
    #[error("table {table} is held by node {node} until {expires_at} ms")]
    LeaseHeld {
        /// The table.
        table: String,
        /// The node that holds it.
        node: String,
        /// When its lease expires, in Unix milliseconds.
        expires_at: i64,
    },
}

/// What went wrong beneath a [`StoreError`]: the error of the layer below, words saying
/// what the store was doing, or both.
///
/// The error is shared (an `Arc`) so that one failed commit can fail every write of its
/// batch with the same cause, and a [`StoreError`] can be cloned.
#[derive(Debug, Clone)]
pub struct Cause {
    doing: Option<String>,
    error: Option<Arc<dyn Error + Send + Sync + 'static>>,
}

impl Cause {
    /// The error of the layer below, as it is.
    pub fn new(error: impl Error + Send + Sync + 'static) -> Cause {
        Cause {
            doing: None,
            error: Some(Arc::new(error)),
        }
    }

    /// `error`, with what the store was doing when it happened (`cannot open
    /// /srv/qipai/qipai.lock`), for errors whose own words do not say it.
    pub fn context(doing: impl Into<String>, error: impl Error + Send + Sync + 'static) -> Cause {
        Cause {
            doing: Some(doing.into()),
            error: Some(Arc::new(error)),
        }
    }

    /// A failure the store found itself, with no error beneath it (an update that
    /// matched no row, a second hall on the same data).
    pub fn message(text: impl Into<String>) -> Cause {
        Cause {
            doing: Some(text.into()),
            error: None,
        }
    }

    /// The error beneath, if any, for a caller that acts on its type.
    pub fn error(&self) -> Option<&(dyn Error + Send + Sync + 'static)> {
        self.error.as_deref()
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.doing, &self.error) {
            (Some(doing), Some(error)) => write!(f, "{doing}: {error}"),
            (Some(doing), None) => f.write_str(doing),
            (None, Some(error)) => write!(f, "{error}"),
            (None, None) => f.write_str("no cause given"),
        }
    }
}

impl Error for Cause {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.error.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cause_is_kept_and_said() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let e = StoreError::Database(Cause::context("cannot open /x/qipai.lock", io));
        assert_eq!(
            e.to_string(),
            "storage failed: cannot open /x/qipai.lock: denied"
        );
        let cause = e.source().expect("a cause");
        let beneath = cause.source().expect("the io error");
        assert_eq!(
            beneath
                .downcast_ref::<std::io::Error>()
                .map(std::io::Error::kind),
            Some(std::io::ErrorKind::PermissionDenied)
        );
        let json = serde_json::from_str::<u8>("x").unwrap_err();
        let e = StoreError::Corrupt(Cause::new(json));
        assert!(
            e.to_string()
                .starts_with("stored data is damaged: expected value"),
            "{e}"
        );
        let clone = e.clone();
        assert_eq!(clone.to_string(), e.to_string());
        let e = StoreError::Database(Cause::message("no such guest"));
        assert_eq!(e.to_string(), "storage failed: no such guest");
        assert!(e.source().and_then(Error::source).is_none());
    }
}
