//! The qipai binary's tests, in one test binary: each command run as a person or a program
//! runs it (the real `qipai` binary, through pipes and terminals), the hall served by it and
//! killed mid-game, engines in any language behind it. One binary instead of one a file, so
//! a change to a game links this once. Each file of this folder is the module of one
//! concern.

mod common;

mod chaos;
mod cli;
mod cluster;
mod cluster_limits;
mod connect;
mod crash;
mod engines;
mod fairness;
mod health;
mod loadtest;
mod nodes;
mod records;
mod terminal;
