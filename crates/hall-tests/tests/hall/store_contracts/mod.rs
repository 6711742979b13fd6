//! The contracts of [`server::store::Store`] that `tests/hall/store.rs` runs on both stores,
//! each an `async fn` of a fresh store ([`fixture::Db`], a `&dyn Store`).

pub mod accounts;
pub mod commits;
pub mod computers;
pub mod fixture;
pub mod games;
pub mod leases;
pub mod reads;
