//! The one look of the toolkit's progress bars. Libraries never choose to draw: they take a
//! [`ProgressBar`] from their caller (hidden by default) and only advance it; the command-line
//! tool makes the bars it shows here.

pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressStyle};

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
    }
}
