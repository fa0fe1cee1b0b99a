//! `fanorona eval`: a trained network (tree search with it), from a checkpoint, a run
//! directory's latest checkpoint or an exported policy file, against any agent in an arena
//! match.

use fanorona_util::progress;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, GameId};
use fanorona_search::SearchConfig;
use fanorona_train::config::ComputeDevice;
use fanorona_train::io::{FileKind, load_policy_on};
use fanorona_train::roles::NetworkMatch;
use fanorona_train::run_dir::find_checkpoint;

use super::agent_arg::agent_spec;
use super::agent_help::agent_help;
use super::forfeits::refuse_all_forfeited;
use super::match_args::MatchArgs;
use super::run_arg::run_or_deprecated;
use crate::output::out;

/// Arguments of `fanorona eval`: `--openings` takes a number of random turns only, checked
/// by the parser and said by the help.
#[derive(clap::Args, Debug)]
#[command(mut_arg("openings", |arg| arg
    .help("Openings: a number of random opening turns (no file here); the two games of a \
           pair (colours swapped) share one")
    .value_parser(random_turns)))]
pub struct Args {
    /// The network: a run directory (its latest checkpoint), a checkpoint file
    /// (checkpoint-STEP.ckpt) or an exported policy file (.safetensors).
    #[arg(
        long,
        required_unless_present = "checkpoint",
        conflicts_with = "checkpoint"
    )]
    pub run: Option<PathBuf>,
    /// The former name of --run (deprecated).
    #[arg(long, hide = true)]
    pub checkpoint: Option<PathBuf>,
    /// The opponent, e.g. minimax:depth=4 or mcts:sims=400.
    #[arg(long, long_help = agent_help("The opponent."))]
    pub vs: String,
    /// Number of games; colours alternate, each pair from the same opening.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// The network's search simulations per action.
    #[arg(long, default_value_t = 800)]
    pub sims: u32,
    /// The board to play on; must be the network's (default: the network's).
    #[arg(long)]
    pub board: Option<String>,
    /// Where the network runs.
    #[arg(long, default_value = "flex")]
    pub device: ComputeDevice,
    #[command(flatten)]
    pub play: MatchArgs,
}

/// `--openings` of `eval`: a number of random opening turns, kept as the text `MatchArgs` holds.
fn random_turns(text: &str) -> Result<String, String> {
    text.parse::<u32>()
        .map(|_| text.to_string())
        .map_err(|_| "this command takes a number of random opening turns, not a file".into())
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let network = run_or_deprecated(
        args.run.clone(),
        args.checkpoint.clone(),
        "eval",
        "--checkpoint",
    )
    .context("give --run")?;
    let registry = fanorona_train::players::registry();
    let opponent = agent_spec(&registry, &args.vs, "vs")?;
    let opening_turns = args.play.random_turns()?;
    let device = args.device.device()?;
    if !network.exists() {
        bail!(
            "no checkpoint found at {}: expected a checkpoint file, a run directory or a policy \
             file",
            network.display()
        );
    }
    let path = find_checkpoint(&network)?;
    let loaded = load_policy_on(&path, &device)?;
    let Some(trained) = loaded.meta.game.fanorona_board() else {
        bail!(
            "{} holds a network for {}; fanorona eval plays Fanorona boards only",
            path.display(),
            loaded.meta.game
        );
    };
    let board = match args.board.as_deref() {
        Some(text) => Board::parse(text).context("bad --board")?,
        None => trained,
    };
    if GameId::Fanorona(board) != loaded.meta.game {
        bail!(
            "{} holds a network for {}, not for --board {board} (leave --board out to play on \
             {trained})",
            path.display(),
            loaded.meta.game
        );
    }
    let source = match loaded.source {
        FileKind::Checkpoint => "checkpoint",
        _ => "policy",
    };
    let name = format!("{source}@{}", loaded.meta.step);
    let arena = NetworkMatch {
        board,
        games: args.games,
        search: SearchConfig {
            simulations: args.sims,
            ..SearchConfig::default()
        },
        threads: args.play.threads,
        opening_turns,
        max_turns: args.play.max_turns,
        seed: args.play.seed,
        progress: progress::bar_if(!args.play.quiet, 0, "games"),
    };
    let report = arena.run(&loaded.net, &name, &opponent)?;
    out!("{}", report.text())?;
    refuse_all_forfeited(&report, &name, &format!("--vs {}", args.vs))
}
