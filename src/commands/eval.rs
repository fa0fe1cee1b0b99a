//! `fanorona eval`: a trained checkpoint (tree search with its network) against any agent in
//! an arena match.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Fanorona, GameId, Position};
use fanorona_search::SearchConfig;
use fanorona_train::io::Checkpoint;
use fanorona_train::model::{ComputeDevice, NetworkConfig};
use fanorona_train::run::NetworkMatch;

use super::agent_help::agent_help;

/// Arguments of `fanorona eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The checkpoint file (a run directory's checkpoint-STEP.ckpt).
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The opponent, e.g. minimax:depth=4 or mcts:sims=400.
    #[arg(long, long_help = agent_help("The opponent."))]
    pub vs: String,
    /// Number of games; colours alternate, each pair from the same opening.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// The checkpoint's search simulations per action.
    #[arg(long, default_value_t = 800)]
    pub sims: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The board to play on; must be the checkpoint's (default: the checkpoint's).
    #[arg(long)]
    pub board: Option<String>,
    /// Random opening turns before the agents take over.
    #[arg(long, default_value_t = 2)]
    pub openings: u32,
    /// A game still going after this many turns is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_turns: usize,
    /// Where the network runs.
    #[arg(long, default_value = "flex")]
    pub device: ComputeDevice,
    /// Match seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let opponent = fanorona_train::players::registry()
        .parse(&args.vs)
        .context("bad --vs")?;
    let device = args.device.device()?;
    let checkpoint = Checkpoint::load(&args.checkpoint, &device)?;
    let Ok(GameId::Fanorona(trained)) = checkpoint.meta.game_id() else {
        bail!(
            "checkpoint {} was trained on {}; fanorona eval plays Fanorona boards only",
            args.checkpoint.display(),
            checkpoint.meta.game
        );
    };
    let board = match args.board.as_deref() {
        Some(text) => Board::parse(text).with_context(|| format!("bad board {text:?}"))?,
        None => trained,
    };
    let expected = NetworkConfig::for_game(
        &Fanorona::new(Position::initial(board)),
        checkpoint.meta.network.architecture.clone(),
    );
    checkpoint.check_matches(&args.checkpoint, GameId::Fanorona(board), &expected)?;
    let name = format!("checkpoint@{}", checkpoint.meta.step);
    let arena = NetworkMatch {
        board,
        games: args.games,
        search: SearchConfig {
            simulations: args.sims,
            ..SearchConfig::default()
        },
        threads: args.threads,
        opening_turns: args.openings,
        max_turns: args.max_turns,
        seed: args.seed,
        progress: !args.quiet,
    };
    let report = arena.run(&checkpoint.network, &name, &opponent)?;
    print!("{}", report.text());
    Ok(())
}
