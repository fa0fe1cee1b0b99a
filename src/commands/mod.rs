//! One module per subcommand, each with its clap `Args` and a `run` function (the role
//! commands `learn` and `selfplay` take theirs from `role_args`), and the arguments several
//! share (`*_arg.rs`, `*_args.rs`).

pub mod agent_arg;
pub mod agent_help;
pub mod audit;
pub mod distill;
pub mod engine;
pub mod eval;
pub mod exam;
pub mod export;
pub mod fit;
pub mod forfeits;
pub mod gauntlet;
pub mod gauntlet_run;
pub mod learn;
pub mod match_args;
pub mod match_cmd;
pub mod moves;
pub mod openings_arg;
pub mod outputs;
pub mod perft;
pub mod play;
pub mod position_args;
pub mod prove;
pub mod rate;
pub mod review;
pub mod role_args;
pub mod run_arg;
pub mod selfplay;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tables;
pub mod train;
