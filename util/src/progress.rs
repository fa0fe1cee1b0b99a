//! The one look of the toolkit's progress bars. Libraries never choose to draw: they take a
//! [`ProgressBar`] from their caller (hidden by default) and only advance it; the command-line
//! tool makes the bars it shows here.

use std::time::Duration;

pub use indicatif::ProgressBar;
use indicatif::{HumanDuration, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar of `len` items counted in `unit` (e.g. "games"), drawn on standard error when it is a
/// terminal: elapsed time, the bar, done of total, time left, and a message.
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    let template = format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} (eta {{eta}}) {{msg}}"
    );
    ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template(&template)
            .expect("the progress template is valid")
            .progress_chars("=> "),
    )
}

/// The time left at the mean rate since a bar stood at `start` of `len` items, `elapsed` ago,
/// now at `pos`: `elapsed / (pos - start) * (len - pos)`; `None` before the first item.
/// Steady where items take very different times (a training run's evaluation iterations),
/// where indicatif's estimate from the last few items jumps.
pub fn mean_eta(elapsed: Duration, start: u64, pos: u64, len: u64) -> Option<Duration> {
    let done = pos.checked_sub(start).filter(|&d| d > 0)?;
    let left = len.saturating_sub(pos);
    Some(elapsed.mul_f64(left as f64 / done as f64))
}

/// A [`bar`] of `len` items that starts at `done` (a resumed run), its time left by
/// [`mean_eta`] over the items since it started.
pub fn bar_from(len: u64, done: u64, unit: &str) -> ProgressBar {
    let template = format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} (eta {{mean_eta}}) \
         {{msg}}"
    );
    let eta = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let left = mean_eta(state.elapsed(), done, state.pos(), state.len().unwrap_or(0));
        let _ = match left {
            Some(left) => write!(w, "{}", HumanDuration(left)),
            None => write!(w, "-"),
        };
    };
    ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        .with_style(
            ProgressStyle::with_template(&template)
                .expect("the progress template is valid")
                .with_key("mean_eta", eta)
                .progress_chars("=> "),
        )
        .with_position(done)
}

/// [`bar`] when `shown`, else a hidden bar that counts but never draws.
pub fn bar_if(shown: bool, len: u64, unit: &str) -> ProgressBar {
    if shown {
        bar(len, unit)
    } else {
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_count_their_items_whether_shown_or_not() {
        for shown in [true, false] {
            let bar = bar_if(shown, 10, "games");
            bar.inc(3);
            assert_eq!((bar.position(), bar.length()), (3, Some(10)));
        }
        assert!(bar_if(false, 10, "games").is_hidden());
        let resumed = bar_from(10, 4, "iterations");
        assert_eq!(resumed.position(), 4);
    }

    #[test]
    fn the_mean_eta_averages_over_the_items_since_the_start() {
        let s = Duration::from_secs;
        assert_eq!(mean_eta(s(10), 0, 0, 10), None);
        // 4 items in 40 s (one of them a slow evaluation): 6 left take 60 s.
        assert_eq!(mean_eta(s(40), 0, 4, 10), Some(s(60)));
        // Resumed at 50: only the items of this sitting count.
        assert_eq!(mean_eta(s(20), 50, 52, 60), Some(s(80)));
        assert_eq!(mean_eta(s(20), 50, 60, 60), Some(s(0)));
    }
}
