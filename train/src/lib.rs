//! Learning to play Fanorona by self-play. Its public modules are its layers, each type at one
//! path: `config` (the bottom layer: every settings type, from the network's and the device's
//! to a run's whole configuration), `model` (the policy/value network and its trainer), `io`
//! (checkpoints, policy files, replay files, shards), `replay` (the window of recent games and
//! minibatches), `players` (the network as an evaluator and as an agent), `selfplay` (games
//! played by tree search with the network, or by `abnet`), `distill` (a smaller network taught
//! by a trained one), `exact_fit` (a network taught by exact sets, above the exams), `exam` (a network agent's value head for the exams), `run_dir` (a run
//! directory's files and metrics rows: [`run_dir::RunDir`]), `roles` (self-play worker,
//! learner and gauntlet, and their loops over a shared run directory) and `run` (the training
//! run in one process: the loop and the events it reports, gate, student and learning curve).
//! At the root: [`TrainError`] (what stops training) and the seeded generator every role draws
//! from ([`TrainRng`], [`RngState`]). Exact value targets from endgame tables (`table_labels`)
//! stay inside. The tree search itself is `fanorona-search`; the layers' order is checked by
//! `tests/layers.rs`.

pub mod config;
pub mod distill;
mod error;
pub mod exact_fit;
pub mod exam;
pub mod io;
pub mod model;
pub mod players;
pub mod prover_targets;
pub mod replay;
mod rng;
pub mod roles;
pub mod run;
pub mod run_dir;
pub mod selfplay;
mod table_labels;

pub use error::TrainError;
pub use rng::{RngState, RngStateError, TrainRng};
