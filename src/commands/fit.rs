//! `fanorona fit`: teach a new network the proven values and keeping turns of exact sets
//! (`exam --make-set --prove`), the ceiling a network of that shape reaches with perfect
//! labels (see `fanorona_train::exact_fit`). Shows a progress bar and, after each epoch, the
//! exact exam on held-out positions and on the board's built-in set; writes the metrics as
//! JSON lines and the network as a policy file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, bail};
use fanorona_env::{GameId, Position};
use fanorona_eval::exam::{ExactSet, ExamSet};
use fanorona_train::config::Architecture;
use fanorona_train::exact_fit::{FitEpoch, FitError, FitEvent, FitSettings, fit, fit_samples};
use fanorona_train::exam::{ExactScores, test_positions};
use fanorona_train::io::{PolicyMeta, export_policy};
use fanorona_util::progress;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde_json::json;

use super::distill::say;
use super::outputs::network_outputs;
use super::train::{exit_stopped, stop_on_ctrl_c, stop_on_sigterm};
use crate::output::{logln, outln};

/// Arguments of `fanorona fit`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// An exact set to learn from (`exam --make-set --prove`; repeat the flag for more), all
    /// of one board. The positions of the board's built-in exact set and their images are
    /// left out.
    #[arg(long = "set", required = true)]
    pub sets: Vec<PathBuf>,
    /// The policy file to write (atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// The network's trunk: `mlp:W-W-...`, `resnet:BLOCKSxCHANNELS` or `resmlp:BLOCKSxWIDTH`
    /// (its value head is win/draw/loss).
    #[arg(long, default_value = "mlp:256-256")]
    pub network: Architecture,
    /// Passes over the samples.
    #[arg(long, default_value_t = FitSettings::default().epochs)]
    pub epochs: usize,
    /// Samples a step.
    #[arg(long, default_value_t = FitSettings::default().batch_size)]
    pub batch: usize,
    /// The highest learning rate (Adam; warm-up, then cosine decay).
    #[arg(long, default_value_t = FitSettings::default().lr)]
    pub lr: f64,
    /// Weight of the value loss against the policy loss.
    #[arg(long, default_value_t = FitSettings::default().value_weight)]
    pub value_weight: f32,
    /// Adam's L2 weight decay.
    #[arg(long, default_value_t = FitSettings::default().weight_decay)]
    pub weight_decay: f32,
    /// Positions of the sets held out (drawn by the seed), examined after each epoch.
    #[arg(long, default_value_t = 1000)]
    pub held_out: usize,
    /// Seed of the held-out draw, the network's initial weights and the order of the samples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the metrics go (JSON lines: each epoch's losses and exams); default: OUT with the
    /// extension `.metrics.jsonl`.
    #[arg(long)]
    pub metrics: Option<PathBuf>,
}

impl Args {
    /// The settings the arguments ask for.
    fn settings(&self) -> FitSettings {
        FitSettings {
            architecture: self.network.clone(),
            epochs: self.epochs,
            batch_size: self.batch,
            lr: self.lr,
            value_weight: self.value_weight,
            weight_decay: self.weight_decay,
        }
    }

    /// The metrics file, after checking the outputs against the inputs ([`network_outputs`]).
    fn checked_outputs(&self) -> Result<PathBuf> {
        let inputs: Vec<&Path> = self.sets.iter().map(PathBuf::as_path).collect();
        network_outputs(&self.out, self.metrics.as_deref(), &inputs)
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let settings = args.settings();
    settings.validate()?;
    let metrics_path = args.checked_outputs()?;
    let mut sets = read_sets(&args.sets)?;
    let board = sets[0].board;
    let held_out = hold_out(&mut sets, args.held_out, args.seed);
    let mut test: Vec<Position> = held_out.positions.iter().map(|p| p.position).collect();
    test.extend(test_positions(board.width(), board.height()));
    let samples = fit_samples(&sets, &test);
    logln!(
        "{} samples from {} turn starts ({} left out as held-out or built-in exam positions \
         (and hard set) positions or images of them, {} repeats); {} held out",
        samples.samples.len(),
        samples.turn_starts,
        samples.left_out,
        samples.repeats,
        held_out.positions.len()
    );
    if samples.samples.is_empty() {
        return Err(FitError::NoSamples.into());
    }
    let file = File::create(&metrics_path)
        .with_context(|| format!("cannot create {}", metrics_path.display()))?;
    let mut metrics = BufWriter::new(file);
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop), "stopping the fitting")?;
    stop_on_sigterm(Arc::clone(&stop))?;
    let bar = progress::bar(0, "steps");
    let mut written: std::io::Result<()> = Ok(());
    let mut steps = 0;
    let held = (!held_out.positions.is_empty()).then_some(&held_out);
    let fitted = fit(
        board,
        &samples.samples,
        held,
        &settings,
        args.seed,
        &mut |event| match event {
            FitEvent::Step { loss, total } => {
                bar.set_length(total);
                bar.inc(1);
                bar.set_message(format!("loss {:.4}", loss.total));
            }
            FitEvent::Epoch(epoch) => {
                steps = epoch.step;
                say(&bar, epoch_line(&epoch));
                if written.is_ok() {
                    written = writeln!(metrics, "{}", json!(epoch)).and_then(|()| metrics.flush());
                }
            }
        },
        Some(&stop),
    );
    bar.finish_and_clear();
    let net = match fitted {
        Err(FitError::Stopped) => exit_stopped(format_args!("nothing written")),
        fitted => fitted?,
    };
    written.with_context(|| format!("cannot write {}", metrics_path.display()))?;
    let meta = PolicyMeta::trained(GameId::Fanorona(board), net.config().clone(), steps);
    export_policy(&net, &meta, &args.out)?;
    outln!(
        "wrote {} ({}, {steps} steps); metrics in {}",
        args.out.display(),
        net.config().architecture.describe(),
        metrics_path.display()
    )?;
    Ok(())
}

/// The exact sets of `paths`, all of one board.
fn read_sets(paths: &[PathBuf]) -> Result<Vec<ExactSet>> {
    let mut sets: Vec<ExactSet> = Vec::new();
    for path in paths {
        let set = match ExamSet::read(path)? {
            ExamSet::Exact(set) => set,
            ExamSet::Searched(_) => bail!(
                "{} is a set labelled by a search; fit learns from exact sets (exam --make-set \
                 --prove)",
                path.display()
            ),
        };
        if let Some(first) = sets.first()
            && !std::ptr::eq(first.board, set.board)
        {
            bail!(
                "{} is a set of the {} board, {} of the {} board: fit one board at a time",
                path.display(),
                set.board,
                paths[0].display(),
                first.board
            );
        }
        sets.push(set);
    }
    Ok(sets)
}

/// Takes `count` positions (drawn by `seed`) out of `sets` into a set of their own.
fn hold_out(sets: &mut [ExactSet], count: usize, seed: u64) -> ExactSet {
    let mut places: Vec<(usize, usize)> = sets
        .iter()
        .enumerate()
        .flat_map(|(s, set)| (0..set.positions.len()).map(move |i| (s, i)))
        .collect();
    places.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    places.truncate(count);
    // Taken from the back, so that the places left stay valid.
    places.sort_unstable_by(|a, b| b.cmp(a));
    let positions = places
        .into_iter()
        .map(|(s, i)| sets[s].positions.swap_remove(i))
        .collect();
    ExactSet {
        positions,
        labeller: "held out by fanorona fit".into(),
        ..sets[0].clone()
    }
}

/// The log line of an epoch.
fn epoch_line(epoch: &FitEpoch) -> String {
    let exam = |name: &str, scores: &Option<ExactScores>| {
        scores.as_ref().map_or(String::new(), |s| {
            format!(
                "; {name}: raw policy keeps {:.1}% ({} critical), value head right on {:.1}% \
                 (Brier {:.3})",
                100.0 * s.keeps,
                s.keeps_critical
                    .map_or("-".into(), |k| format!("{:.1}%", 100.0 * k)),
                100.0 * s.value_accuracy,
                s.value_brier
            )
        })
    };
    format!(
        "epoch {}: policy loss {:.4}, value loss {:.4}{}{}",
        epoch.epoch,
        epoch.policy_loss,
        epoch.value_loss,
        exam("held out", &epoch.held_out),
        exam("built-in exam", &epoch.builtin)
    )
}
