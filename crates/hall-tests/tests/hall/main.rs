//! The hall's tests, in one test binary: a real server on a free port, real WebSocket and
//! HTTP clients, and the store's conformance suite on SQLite and PostgreSQL. One binary
//! instead of one a file: each would compile and link the server and its clients again,
//! which made every change to a game cost minutes of builds. Each file of this folder is the
//! module of one concern; run one with `cargo nextest run --release --workspace -E
//! 'binary(hall) and test(/^store::/)'`.

mod common;

mod abuse;
mod account_changes;
mod accounts;
mod card_counter;
mod exposure;
mod games;
mod invites;
mod leases;
mod levels;
mod logins;
mod migrations;
mod moderation;
mod postgres;
mod postgres_batches;
mod protocol_docs;
mod secrecy;
mod store;
mod store_contracts;
mod tables;
mod talk;
mod web;
mod wire;
