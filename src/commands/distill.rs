//! `fanorona distill`: teach a smaller MLP (the student) a trained network's (the teacher's)
//! policy and value on the leaves of alpha-beta searches, for a faster `abnet` (see
//! `fanorona_train::distill`). Shows a progress bar, writes per-step losses and per-epoch
//! errors as JSON lines, and the student as a policy file.

use std::fs::File;
use std::io::IsTerminal;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Position};
use fanorona_exact::tables::shared_tables;
use fanorona_train::config::DistillSettings;
use fanorona_train::distill::{DistillEvent, EpochReport, distill};
use fanorona_train::io::{LoadedPolicy, PolicyMeta, export_policy, load_policy};
use fanorona_util::progress::{self, ProgressBar};
use serde_json::json;

use super::outputs::network_outputs;
use crate::output::{logln, outln};

/// Steps between two loss lines of the metrics file.
const LOSS_EVERY: u64 = 20;

/// Arguments of `fanorona distill`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The teacher: a policy file or a training checkpoint.
    #[arg(long)]
    pub teacher: PathBuf,
    /// The student policy file to write (atomically; not the teacher's).
    #[arg(long)]
    pub out: PathBuf,
    /// The student MLP's hidden widths, comma-separated. Where its first equals the teacher
    /// MLP's, the student starts from the teacher's first layer.
    #[arg(long, value_delimiter = ',', default_values_t = DistillSettings::default().hidden)]
    pub hidden: Vec<usize>,
    /// Training positions (leaves of alpha-beta searches in seeded games).
    #[arg(long, default_value_t = DistillSettings::default().positions)]
    pub positions: usize,
    /// Held-out positions the student is compared with the teacher on after each epoch.
    #[arg(long, default_value_t = DistillSettings::default().held_out)]
    pub held_out: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = DistillSettings::default().epochs)]
    pub epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = DistillSettings::default().batch_size)]
    pub batch: usize,
    /// The highest learning rate (Adam; warm-up, then cosine decay).
    #[arg(long, default_value_t = DistillSettings::default().lr)]
    pub lr: f64,
    /// Weight of the value loss against the policy loss.
    #[arg(long, default_value_t = DistillSettings::default().value_weight)]
    pub value_weight: f32,
    /// Depth of the searches whose leaves are sampled, in complete turns.
    #[arg(long, default_value_t = DistillSettings::default().depth, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub depth: u32,
    /// Chance that a search's leaf is kept.
    #[arg(long, default_value_t = DistillSettings::default().keep)]
    pub keep: f64,
    /// Seed of the games, the student's initial weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the metrics go (JSON lines: losses every 20 steps, errors each epoch); default:
    /// OUT with the extension `.metrics.jsonl`.
    #[arg(long)]
    pub metrics: Option<PathBuf>,
    /// Endgame tables (fanorona tables build): the value target of a position they hold is
    /// its exact value (+1, 0, -1) instead of the teacher's.
    #[arg(long)]
    pub tables: Option<PathBuf>,
}

impl Args {
    /// The distillation settings the arguments ask for.
    fn settings(&self) -> DistillSettings {
        DistillSettings {
            hidden: self.hidden.clone(),
            positions: self.positions,
            held_out: self.held_out,
            epochs: self.epochs,
            batch_size: self.batch,
            lr: self.lr,
            value_weight: self.value_weight,
            depth: self.depth,
            keep: self.keep,
        }
    }

    /// The metrics file, after checking the outputs against the inputs ([`network_outputs`]).
    fn checked_outputs(&self) -> Result<PathBuf> {
        let inputs: Vec<&Path> = [Some(self.teacher.as_path()), self.tables.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        network_outputs(&self.out, self.metrics.as_deref(), &inputs)
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let settings = args.settings();
    settings.validate().context("bad settings")?;
    let metrics_path = args.checked_outputs()?;
    let (teacher, board) = load_teacher(&args.teacher)?;
    let tables = args
        .tables
        .as_deref()
        .map(|dir| shared_tables(dir, board))
        .transpose()
        .context("bad --tables")?;
    let file = File::create(&metrics_path)
        .with_context(|| format!("cannot create {}", metrics_path.display()))?;
    let mut metrics = BufWriter::new(file);
    logln!(
        "distilling {} into an MLP {:?}: sampling {} positions",
        args.teacher.display(),
        args.hidden,
        args.positions + args.held_out
    );
    let bar = progress::bar(0, "steps");
    let mut written: std::io::Result<()> = Ok(());
    let mut steps = 0;
    let mut record = |line: serde_json::Value| {
        if written.is_ok() {
            written = writeln!(metrics, "{line}").and_then(|()| metrics.flush());
        }
    };
    let student = distill(
        &teacher.net,
        tables.as_deref(),
        &Position::initial(board),
        &settings,
        args.seed,
        &mut |progress| match progress {
            DistillEvent::Sampled {
                train,
                held_out,
                exact,
            } => {
                let exact = tables
                    .as_ref()
                    .map(|_| format!(" ({exact} of them valued exactly by the tables)"));
                let exact = exact.unwrap_or_default();
                say(
                    &bar,
                    format!("{train} training and {held_out} held-out positions{exact}"),
                );
            }
            DistillEvent::Step { loss, total } => {
                bar.set_length(total);
                bar.inc(1);
                if loss.step.is_multiple_of(LOSS_EVERY) {
                    bar.set_message(format!("loss {:.4}", loss.total));
                    record(json!({"kind": "step", "loss": loss}));
                }
            }
            DistillEvent::Epoch(report) => {
                steps = report.step;
                say(&bar, epoch_line(&report));
                record(json!({"kind": "epoch", "report": report}));
            }
        },
        None,
    )?;
    bar.finish_and_clear();
    written.with_context(|| format!("cannot write {}", metrics_path.display()))?;
    let meta = PolicyMeta {
        network: student.config().clone(),
        step: steps,
        ..teacher.meta.clone()
    };
    export_policy(&student, &meta, &args.out)?;
    report_written(&args.out, &meta, &metrics_path)
}

/// Says where the student (of `meta`) and the metrics were written.
fn report_written(out: &Path, meta: &PolicyMeta, metrics_path: &Path) -> Result<()> {
    outln!(
        "wrote {} ({}, {} steps); metrics in {}",
        out.display(),
        meta.network.architecture.describe(),
        meta.step,
        metrics_path.display()
    )?;
    Ok(())
}

/// The teacher's network from `path`, and its board (a Fanorona network is required).
fn load_teacher(path: &Path) -> Result<(LoadedPolicy, &'static Board)> {
    let teacher =
        load_policy(path).with_context(|| format!("cannot load the teacher {}", path.display()))?;
    let Some(board) = teacher.meta.game.fanorona_board() else {
        bail!(
            "{} holds a network for {}; distill teaches Fanorona networks only",
            path.display(),
            teacher.meta.game
        );
    };
    Ok((teacher, board))
}

/// The log line of an epoch: the student against the teacher on the held-out positions.
fn epoch_line(report: &EpochReport) -> String {
    format!(
        "epoch {}: value error against the teacher on held-out positions: mean {:.4}, rms \
         {:.4}, max {:.4}; logit error: mean {:.4}; policy cross-entropy {:.4}",
        report.epoch,
        report.value_mae,
        report.value_rmse,
        report.value_max,
        report.logit_mae,
        report.policy_loss
    )
}

/// Prints `line` above the bar, or plainly where standard error is no terminal (a log file).
pub(crate) fn say(bar: &ProgressBar, line: String) {
    // Off a terminal the bar writes its own lines now and then: this one is written at once.
    if bar.is_hidden() || !std::io::stderr().is_terminal() {
        logln!("{line}");
    } else {
        bar.println(line);
    }
}
