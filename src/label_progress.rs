//! How `fanorona exam --make-set --prove` shows its labelling: a bar of the positions settled
//! where standard error is a terminal, else a progress line every few seconds (positions
//! tried and settled, the rate, the time left), each drawn from the [`LabelTally`] the
//! labelling reports.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fanorona_eval::exam::LabelTally;
use fanorona_util::progress::{self, ProgressBar};
use indicatif::HumanDuration;

use crate::output::logln;

/// The time between two progress lines.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// The display of one labelling.
pub struct LabelProgress {
    /// Whether anything is shown (off with `--quiet`).
    shown: bool,
    /// A bar (standard error is a terminal) or lines.
    bar: bool,
    /// The journal, named when the labelling resumes from it.
    journal: String,
    state: Mutex<State>,
}

/// What the display keeps between reports.
struct State {
    /// The first report of this sitting and when it came.
    first: Option<(LabelTally, Instant)>,
    /// When the last line was printed.
    last_line: Option<Instant>,
    /// The last report, and whether a line has shown it.
    last: Option<(LabelTally, bool)>,
    bar: Option<ProgressBar>,
}

impl LabelProgress {
    /// The display of the labelling journaled in `journal`, on standard error if `shown`.
    pub fn new(shown: bool, journal: &Path) -> LabelProgress {
        LabelProgress {
            shown,
            bar: std::io::stderr().is_terminal(),
            journal: journal.display().to_string(),
            state: Mutex::new(State {
                first: None,
                last_line: None,
                last: None,
                bar: None,
            }),
        }
    }

    /// Shows where the labelling stands: a line at its start, then the bar or a line every
    /// [`LINE_EVERY`] (and the last at [`LabelProgress::finish`]).
    pub fn show(&self, tally: &LabelTally) {
        if !self.shown {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let Some((first, started)) = state.first else {
            state.first = Some((*tally, now));
            self.start(tally, &mut state);
            return;
        };
        if let Some(bar) = &state.bar {
            bar.set_position(tally.settled.min(tally.wanted) as u64);
            bar.set_message(format!("{} of {} tried", tally.tried, tally.candidates));
            return;
        }
        let due = state.last_line.is_none_or(|t| now - t >= LINE_EVERY);
        state.last = Some((*tally, due));
        if due {
            state.last_line = Some(now);
            logln!("{}", line(tally, &first, now - started));
        }
    }

    /// The first report: what the labelling does, and the bar where there is one.
    fn start(&self, tally: &LabelTally, state: &mut State) {
        if tally.resumed > 0 {
            logln!(
                "resuming from {}: {} positions tried before, {} settled",
                self.journal,
                tally.resumed,
                tally.settled
            );
        } else {
            logln!(
                "labelling {} candidate positions until {} are settled; {} keeps them as they \
                 come: if stopped, run the same command again to go on",
                tally.candidates,
                tally.wanted,
                self.journal
            );
        }
        if self.bar {
            let settled = tally.settled.min(tally.wanted) as u64;
            state.bar = Some(progress::bar_from(
                tally.wanted as u64,
                settled,
                "positions settled",
            ));
        }
    }

    /// Clears the bar, or prints the last report's line if no line has shown it yet.
    pub fn finish(&self) {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bar) = &state.bar {
            bar.finish_and_clear();
        }
        if let (Some((first, started)), Some((last, false))) = (state.first, state.last) {
            logln!("{}", line(&last, &first, started.elapsed()));
        }
    }
}

/// A progress line: `tally` against the `first` report of this sitting, `elapsed` ago.
fn line(tally: &LabelTally, first: &LabelTally, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let tried = tally.tried - first.tried;
    let settled = tally.settled - first.settled;
    let rate = if secs > 0.0 { tried as f64 / secs } else { 0.0 };
    let left = time_left(tally, tried, settled, elapsed)
        .map_or("-".to_string(), |d| HumanDuration(d).to_string());
    format!(
        "labelled: {} of {} positions settled, {} of {} candidates tried, {rate:.1} tried/s, \
         about {left} left",
        tally.settled.min(tally.wanted),
        tally.wanted,
        tally.tried,
        tally.candidates
    )
}

/// The time left at this sitting's rates (`tried` and `settled` in `elapsed`): until the
/// positions wanted are settled, or the candidates run out if sooner; `None` before any.
fn time_left(
    tally: &LabelTally,
    tried: usize,
    settled: usize,
    elapsed: Duration,
) -> Option<Duration> {
    let candidates = progress::mean_eta(
        elapsed,
        0,
        tried as u64,
        (tried + tally.candidates - tally.tried) as u64,
    )?;
    let wanted = tally.wanted.saturating_sub(tally.settled);
    Some(
        progress::mean_eta(elapsed, 0, settled as u64, (settled + wanted) as u64)
            .map_or(candidates, |w| w.min(candidates)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(tried: usize, settled: usize) -> LabelTally {
        LabelTally {
            tried,
            settled,
            resumed: 10,
            wanted: 100,
            candidates: 300,
        }
    }

    #[test]
    fn a_line_counts_this_sitting_and_its_time_left() {
        let first = tally(10, 5);
        let s = Duration::from_secs;
        // 20 tried and 10 settled in 10 s: 85 to settle take 85 s; 270 candidates 135 s.
        let text = line(&tally(30, 15), &first, s(10));
        assert_eq!(
            text,
            "labelled: 15 of 100 positions settled, 30 of 300 candidates tried, 2.0 tried/s, \
             about 85 seconds left"
        );
        // Nothing settled yet: the candidates bound it.
        assert_eq!(time_left(&tally(30, 5), 20, 0, s(10)), Some(s(135)));
        assert_eq!(time_left(&tally(10, 5), 0, 0, s(10)), None);
    }
}
