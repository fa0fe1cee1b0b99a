//! The one look of the toolkit's progress bars. Libraries never choose to draw: they take a
//! [`ProgressBar`] from their caller (hidden by default) and only advance it; the command-line
//! tool makes the bars it shows here. Where standard error is not a terminal (a log file, a
//! batch job), a bar is written as a plain line every [`LINE_EVERY`] instead.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use indicatif::ProgressBar;
use indicatif::{HumanDuration, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

/// The time between two lines of a bar written where standard error is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// Where the bars draw: standard error when it is a terminal, else [`Lines`] on it.
fn stderr_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::term_like(Box::new(Lines::new(
            Box::new(std::io::stderr()),
            LINE_EVERY,
        )))
    }
}

/// A bar's drawing as plain lines: what the bar draws is gathered, and written as one line
/// when at least `every` has passed since the last (the first at once); the cursor
/// movements of a terminal are ignored.
pub struct Lines {
    out: Mutex<Box<dyn Write + Send>>,
    every: Duration,
    /// The text of the drawing under way, and when the last line was written.
    state: Mutex<(String, Option<Instant>)>,
}

impl Lines {
    /// Lines written to `out`, at most one every `every`.
    pub fn new(out: Box<dyn Write + Send>, every: Duration) -> Lines {
        Lines {
            out: Mutex::new(out),
            every,
            state: Mutex::new((String::new(), None)),
        }
    }
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines").field("every", &self.every).finish()
    }
}

impl TermLike for Lines {
    fn width(&self) -> u16 {
        200
    }

    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        let s = s.trim();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !state.0.is_empty() && !s.is_empty() {
            state.0.push(' ');
        }
        state.0.push_str(s);
        Ok(())
    }

    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> std::io::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let text = std::mem::take(&mut state.0);
        let due = state.1.is_none_or(|last| last.elapsed() >= self.every);
        if text.is_empty() || !due {
            return Ok(());
        }
        state.1 = Some(Instant::now());
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(out, "{text}")?;
        out.flush()
    }
}

/// A bar of `len` items counted in `unit` (e.g. "games"), drawn on standard error (as lines
/// where it is not a terminal): elapsed time, the bar, done of total, time left, and a
/// message.
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    let template = format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} (eta {{eta}}) {{msg}}"
    );
    ProgressBar::with_draw_target(Some(len), stderr_target()).with_style(
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
    ProgressBar::with_draw_target(Some(len), stderr_target())
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
    use crate::shared_output::SharedOutput;

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

    fn bar_on_lines(every: Duration) -> (ProgressBar, SharedOutput) {
        let out = SharedOutput::default();
        let lines = Lines::new(Box::new(out.clone()), every);
        let bar =
            ProgressBar::with_draw_target(Some(10), ProgressDrawTarget::term_like(Box::new(lines)))
                .with_style(ProgressStyle::with_template("{pos}/{len} games {msg}").unwrap());
        (bar, out)
    }

    #[test]
    fn a_bar_off_a_terminal_writes_plain_lines_at_most_one_each_period() {
        // Every drawing a line: each shows where the bar stands, on one line of its own.
        let (bar, out) = bar_on_lines(Duration::ZERO);
        bar.set_message("score 0.5");
        bar.inc(3);
        bar.inc(4);
        let text = out.text().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"3/10 games score 0.5"), "{lines:?}");
        assert_eq!(lines.last(), Some(&"7/10 games score 0.5"));
        assert!(lines.iter().all(|l| !l.contains('\n') && !l.contains('\r')));
        // One line a period: the first drawing only, within an hour.
        let (bar, out) = bar_on_lines(Duration::from_secs(3600));
        for _ in 0..5 {
            bar.inc(1);
        }
        let text = out.text().unwrap();
        assert_eq!(text.lines().count(), 1, "{text:?}");
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
