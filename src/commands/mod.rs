//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod agent_arg;
pub mod agent_help;
pub mod distill;
pub mod engine;
pub mod eval;
pub mod export;
pub mod forfeits;
pub mod gauntlet;
pub mod gauntlet_run;
pub mod learn;
pub mod match_cmd;
pub mod moves;
pub mod openings_arg;
pub mod perft;
pub mod play;
pub mod position_args;
pub mod rate;
pub mod replay;
pub mod selfplay;
pub mod serve;
pub mod shipped_model;
pub mod show;
pub mod solve;
pub mod tables;
pub mod train;
