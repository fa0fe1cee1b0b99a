//! The arguments of the role commands over a shared run directory: `fanorona learn` and
//! `fanorona selfplay` (`fanorona gauntlet --run` takes `gauntlet`'s). The commands themselves
//! are thin wrappers of the library's role loops (`learn.rs`, `selfplay.rs`).

use std::path::PathBuf;

use fanorona_train::roles::DEFAULT_REPLAY_RATIO;

/// Arguments of `fanorona learn` (the learner).
#[derive(clap::Args, Debug)]
pub struct LearnArgs {
    /// The run directory, shared with the self-play workers; an existing one is resumed.
    #[arg(long)]
    pub run: PathBuf,
    /// A run configuration file (TOML) for a new run.
    #[arg(long, conflicts_with = "preset")]
    pub config: Option<PathBuf>,
    /// An embedded preset for a new run: tiny, small, default, long, full.
    #[arg(long)]
    pub preset: Option<String>,
    /// Stop when this many model versions are published [default: the run's iterations].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this many learner steps in all.
    #[arg(long)]
    pub steps: Option<u64>,
    /// Positions sampled for training per new self-play position.
    #[arg(long, default_value_t = DEFAULT_REPLAY_RATIO)]
    pub replay_ratio: f64,
    /// Hide the log line of each model version.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `fanorona selfplay` (a self-play worker).
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The run directory, shared with `fanorona learn` (which creates it).
    #[arg(long)]
    pub run: PathBuf,
    /// The worker's name: 1 to 64 letters, digits, `-` or `_`; it names its shards, and a
    /// restarted worker of the same name goes on with its numbering [default: w + process id].
    #[arg(long)]
    pub worker: Option<String>,
    /// Stop after this many games (rounded up to whole shards of `games_per_iteration`)
    /// [default: until the learner is done].
    #[arg(long)]
    pub games: Option<u64>,
    /// Seconds to wait for the learner's first model before giving up.
    #[arg(long, default_value_t = 600)]
    pub wait: u64,
    /// Hide the log line of each shard.
    #[arg(long)]
    pub quiet: bool,
}
