//! `fanorona export`: a training checkpoint's network as a portable policy file (safetensors
//! with metadata; see `fanorona_train::io::policy`).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use fanorona_train::io::export_checkpoint;
use fanorona_train::run_dir::{find_checkpoint, is_run_file};

use super::outputs::check_outputs;
use super::run_arg::run_or_deprecated;
use crate::output::outln;

/// Arguments of `fanorona export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The training checkpoint: a run directory (its latest checkpoint), or a
    /// `checkpoint-STEP.ckpt` file.
    #[arg(
        long,
        required_unless_present = "checkpoint",
        conflicts_with = "checkpoint"
    )]
    pub run: Option<PathBuf>,
    /// The former name of --run (deprecated).
    #[arg(long, hide = true)]
    pub checkpoint: Option<PathBuf>,
    /// The policy file to write (written atomically), e.g. agent.safetensors.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let run = run_or_deprecated(args.run, args.checkpoint, "export", "--checkpoint")
        .context("give --run")?;
    let checkpoint = find_checkpoint(&run)?;
    check_outputs(&[("--out", Some(&args.out))], &[&checkpoint])?;
    if is_run_file(&args.out) {
        bail!(
            "--out {} is a file of the training run (a checkpoint, model version or run \
             record): write the policy file elsewhere, e.g. --out agent.safetensors",
            args.out.display()
        );
    }
    let meta = export_checkpoint(&checkpoint, &args.out).context("export failed")?;
    outln!(
        "wrote {} from {}: {} ({}), {}, step {}, encoding version {}",
        args.out.display(),
        checkpoint.display(),
        meta.game,
        meta.rules,
        meta.network.architecture.describe(),
        meta.step,
        meta.encoding_version
    )?;
    Ok(())
}
