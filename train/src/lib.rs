//! Learning to play Fanorona by self-play, by layer: `model` (the policy/value network, its
//! trainer and device), `selfplay` (games played by tree search with the network, or by
//! `abnet`), `replay` (the window of recent games and minibatches), `roles` (self-play worker,
//! learner and gauntlet, in one process or many), `run` (the training run: configuration,
//! loop, evaluation, metrics), `run_dir` (a run directory's files: [`run_dir::RunDir`]), `io`
//! (checkpoints, policy files, replay files), `players` (the network as an evaluator and as
//! an agent), `distill` (a smaller network taught by a trained one), `table_labels` (exact value targets from endgame tables), `exam` (a network agent's
//! value head for the exams) and `rng` (the seeded generator every role draws from). The tree
//! search itself is `fanorona-search`.

pub mod distill;
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
