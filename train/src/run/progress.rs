//! How a run shows progress: a bar of iterations and one of the games of the iteration, and a
//! log line per iteration above them (plain lines where standard error is no terminal).

use std::io::Write;

use fanorona_util::progress::{self, ProgressBar};
use indicatif::{MultiProgress, ProgressDrawTarget};

use crate::run_dir::MetricsRow;

/// The progress bars of a run: iterations, and games within the iteration.
pub(super) struct ProgressBars {
    bars: MultiProgress,
    pub iterations: ProgressBar,
    pub games: ProgressBar,
    /// Whether log lines are wanted (off with `--quiet`).
    verbose: bool,
}

impl ProgressBars {
    /// Bars at `done` of `total` iterations and of `games` games, drawn on stderr if `shown`.
    pub fn new(shown: bool, done: u64, total: u64, games: usize) -> ProgressBars {
        let bars = MultiProgress::with_draw_target(if shown {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        });
        let iterations = bars.add(progress::bar(total, "iterations").with_position(done));
        let games = bars.add(progress::bar(games as u64, "self-play games"));
        ProgressBars {
            bars,
            iterations,
            games,
            verbose: shown,
        }
    }

    /// A further bar of `unit`s below the others, of unknown length.
    pub fn bar(&self, unit: &str) -> ProgressBar {
        self.bars.add(progress::bar(0, unit))
    }

    /// The log line of the iteration `row` reports, with the iterations done of the run's
    /// total and the estimated time left (the iteration bar's estimate).
    pub fn iteration_line(&self, row: &MetricsRow) -> String {
        let eta = self.iterations.eta().as_secs();
        log_line(row, self.iterations.length().unwrap_or(0), eta)
    }

    /// Prints a log line above the bars, or plainly where stderr is no terminal (a log file).
    /// A closed or failing standard error (`fanorona train 2>&1 | head`) is ignored: the log
    /// never stops the run.
    pub fn log(&self, line: String) {
        if !self.verbose {
            return;
        }
        if self.bars.is_hidden() {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        } else {
            let _ = self.bars.println(line);
        }
    }
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
