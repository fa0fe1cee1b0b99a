//! `fanorona export`: a training checkpoint's network as a portable policy file (safetensors
//! with metadata; see `fanorona_train::io::policy`).

use std::path::PathBuf;

use anyhow::{Context, Result};
use fanorona_train::io::export_checkpoint;

/// Arguments of `fanorona export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The training checkpoint (a `checkpoint-STEP.ckpt` file of a run directory).
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The policy file to write (written atomically), e.g. agent.safetensors.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let meta = export_checkpoint(&args.checkpoint, &args.out).context("export failed")?;
    println!(
        "wrote {}: {} ({}), {}, step {}, encoding version {}",
        args.out.display(),
        meta.game,
        meta.rules,
        meta.network.architecture.describe(),
        meta.step,
        meta.encoding_version
    );
    Ok(())
}
