//! The one place that knows which games exist.

use game::{registry::entry, Registry};

/// Every game qipai offers, by id.
pub fn registry() -> Registry {
    Registry::new()
        .with(entry::<doudizhu::DouDizhu>())
        .with(entry::<doudizhu5::Doudizhu5>())
        .with(entry::<bigtwo::BigTwo>())
        .with(entry::<tenhalf::TenHalf>())
}
