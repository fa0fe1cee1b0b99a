//! A match in which one agent forfeited every game measured nothing: it fails, naming the
//! agent and why it forfeited.

use anyhow::{Result, bail};
use fanorona_eval::{MatchReport, Seat};

/// An error if one agent forfeited every game of `report`; `first` and `second` say how the
/// command line named the agents (e.g. `--white minimax:depth=2`).
pub fn refuse_all_forfeited(report: &MatchReport, first: &str, second: &str) -> Result<()> {
    if let Some((seat, reason)) = report.forfeited_every_game() {
        let agent = match seat {
            Seat::First => first,
            Seat::Second => second,
        };
        bail!(
            "{agent} forfeited all {} games; the first forfeit: {reason}",
            report.games.len()
        );
    }
    Ok(())
}
