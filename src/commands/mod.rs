//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod moves;
pub mod perft;
pub mod position_args;
pub mod show;
pub mod solve;
