//! How `fanorona train` shows a run: a bar of iterations and one of the games of the
//! iteration, a bar of the student's steps, and a log line per iteration above them (plain
//! lines where standard error is no terminal), all drawn from the [`RunEvent`]s the run
//! reports.

use std::path::{Path, PathBuf};

use fanorona_train::distill::{DistillEvent, EpochReport};
use fanorona_train::run::{Phase, RunEvent};
use fanorona_train::run_dir::MetricsRow;
use fanorona_util::progress::{self, ProgressBar};
use indicatif::{MultiProgress, ProgressDrawTarget};

use crate::output::logln;

/// The progress display of a run in the directory `dir`: its bars once the run has started.
pub struct RunProgress {
    dir: PathBuf,
    /// Whether bars and log lines are wanted (off with `--quiet`).
    shown: bool,
    bars: Option<Bars>,
    /// The bar of the student's steps while it is taught.
    student: Option<ProgressBar>,
}

/// The bars of a started run: iterations, and games within the iteration.
struct Bars {
    all: MultiProgress,
    iterations: ProgressBar,
    /// The iteration the bar started at (0, or where a resumed run stood).
    first: u64,
    games: ProgressBar,
}

impl RunProgress {
    /// The display of the run in `dir`, drawn on standard error if `shown`.
    pub fn new(shown: bool, dir: &Path) -> RunProgress {
        RunProgress {
            dir: dir.to_path_buf(),
            shown,
            bars: None,
            student: None,
        }
    }

    /// Shows `event`: moves the bars, or prints its log line.
    pub fn show(&mut self, event: RunEvent) {
        if let RunEvent::Started { done, total, games } = event {
            self.bars = Some(Bars::new(self.shown, done, total, games));
            return;
        }
        let Some(bars) = &self.bars else {
            return;
        };
        match event {
            RunEvent::Started { .. } => {}
            RunEvent::Resumed {
                iteration,
                step,
                replay_positions,
            } => self.log(format!(
                "resumed {} at iteration {iteration}, step {step}, {replay_positions} positions \
                 in replay",
                self.dir.display()
            )),
            RunEvent::IterationStarted { .. } => bars.games.reset(),
            RunEvent::GamePlayed => bars.games.inc(1),
            RunEvent::PhaseStarted(phase) => bars.games.set_message(match phase {
                Phase::Gate => "gate match",
                Phase::Evaluation => "evaluating",
            }),
            RunEvent::PhaseEnded => bars.games.set_message(""),
            RunEvent::IterationDone(row) => {
                bars.iterations.inc(1);
                let total = bars.iterations.length().unwrap_or(0);
                let eta = progress::mean_eta(
                    bars.iterations.elapsed(),
                    bars.first,
                    bars.iterations.position(),
                    total,
                )
                .unwrap_or_default()
                .as_secs();
                self.log(log_line(&row, total, eta));
            }
            RunEvent::StudentStarted(settings) => {
                self.log(format!(
                    "teaching the network to the student MLP {:?} for abnet: {} positions, {} \
                     epochs",
                    settings.hidden, settings.positions, settings.epochs
                ));
                self.student = Some(bars.all.add(progress::bar(0, "distillation steps")));
            }
            RunEvent::Student(DistillEvent::Sampled { .. }) => {}
            RunEvent::Student(DistillEvent::Step { total, .. }) => {
                if let Some(bar) = &self.student {
                    bar.set_length(total);
                    bar.inc(1);
                }
            }
            RunEvent::Student(DistillEvent::Epoch(report)) => self.log(epoch_line(&report)),
            RunEvent::StudentEnded => {
                if let Some(bar) = self.student.take() {
                    bar.finish_and_clear();
                }
            }
            RunEvent::Finished => {
                bars.games.finish_and_clear();
                bars.iterations.finish();
            }
        }
    }

    /// Prints a log line above the bars, or plainly where stderr is no terminal (a log file).
    /// A closed or failing standard error (`fanorona train 2>&1 | head`) is ignored: the log
    /// never stops the run.
    fn log(&self, line: String) {
        if !self.shown {
            return;
        }
        match &self.bars {
            Some(bars) if !bars.all.is_hidden() => {
                let _ = bars.all.println(line);
            }
            _ => logln!("{line}"),
        }
    }
}

impl Bars {
    /// Bars at `done` of `total` iterations and of `games` games, drawn on stderr if `shown`.
    fn new(shown: bool, done: u64, total: u64, games: usize) -> Bars {
        let all = MultiProgress::with_draw_target(if shown {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        });
        let iterations = all.add(progress::bar_from(total, done, "iterations"));
        let games = all.add(progress::bar(games as u64, "self-play games"));
        Bars {
            all,
            iterations,
            first: done,
            games,
        }
    }
}

/// The log line of an epoch of the student: against the network on held-out positions.
fn epoch_line(report: &EpochReport) -> String {
    format!(
        "student epoch {}: value error against the network on held-out positions: mean {:.4}, \
         max {:.4}; policy cross-entropy {:.4}",
        report.epoch, report.value_mae, report.value_max, report.policy_loss
    )
}

/// The log line of one iteration of a run of `total` iterations, `eta_s` seconds from its end.
fn log_line(row: &MetricsRow, total: u64, eta_s: u64) -> String {
    let mut line = format!(
        "iter {:>4}/{total} eta {}m{:02}s step {:>6} | {} games, length {:.1}, {:.0} pos/s | loss {:.3} (policy {:.3} \
         value {:.3}) entropy {:.2} | replay {}",
        row.iteration,
        eta_s / 60,
        eta_s % 60,
        row.step,
        row.games,
        row.mean_game_length,
        row.positions_per_s,
        row.loss_total,
        row.loss_policy,
        row.loss_value,
        row.policy_entropy,
        row.replay_positions
    );
    if row.exact_positions > 0 {
        line.push_str(&format!(" | {} exact", row.exact_positions));
    }
    if row.exact_policy_positions > 0 {
        line.push_str(&format!(" ({} policies)", row.exact_policy_positions));
    }
    if let (Some(score), Some(low), Some(high)) =
        (row.strength_score, row.strength_low, row.strength_high)
    {
        line.push_str(&format!(" | strength {score:.2} ({low:.2}-{high:.2})"));
    }
    if let Some(keeps) = row.exact_keeps {
        line.push_str(&format!(" | exact exam {:.1}%", 100.0 * keeps));
    }
    if let (Some(gate), Some(best)) = (row.gate_score, row.best_iteration) {
        line.push_str(&format!(" | gate {gate:.3}, best: iteration {best}"));
    }
    line
}
