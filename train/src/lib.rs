//! Learning to play Fanorona by self-play, by layer: `model` (the policy/value network, its
//! trainer and device), `io` (checkpoints, policy files, replay files, shards), `config` (a
//! run's configuration), `error` (what stops training), `run_dir` (a run directory's files
//! and metrics rows: [`run_dir::RunDir`]), `replay` (the window of recent games and
//! minibatches), `selfplay` (games played by tree search with the network, or by `abnet`),
//! `table_labels` (exact value targets from endgame tables), `players` (the network as an
//! evaluator and as an agent), `roles` (self-play worker, learner and gauntlet with its
//! evaluation, in one process or many), `run` (the training run in one process: the loop
//! and the events it reports, gate, student and learning curve), `distill` (a smaller network taught by a trained
//! one), `exam` (a network agent's value head for the exams) and `rng` (the seeded generator
//! every role draws from). The tree search itself is `fanorona-search`.

pub mod config;
pub mod distill;
pub mod error;
pub mod exam;
pub mod io;
pub mod model;
pub mod players;
pub mod replay;
pub mod rng;
pub mod roles;
pub mod run;
pub mod run_dir;
pub mod selfplay;
pub mod table_labels;
