//! How long one decision of a searching agent may search: simulations, time, or both, the
//! search ending at whichever runs out first.

use std::time::Duration;

use fanorona_env::SearchLimits;

/// The most simulations of one decision, whatever was asked (a search without a simulation
/// limit, e.g. under a time limit or `go infinite`, stops here at the latest).
pub const SIMULATION_CAP: u32 = 10_000_000;

/// A decision's search budget. Neither limit set means [`SIMULATION_CAP`] simulations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Simulations per decision.
    pub simulations: Option<u32>,
    /// Time per turn: the steps of a capture chain share it (the first step gets what it
    /// needs, the later ones decide mostly from the tree it kept).
    pub time: Option<Duration>,
}

impl Budget {
    /// The budget a caller's `limits` set (an engine protocol's `go movetime`, `go nodes`, the
    /// clocks), replacing `configured` when it gives a time or a node count; `configured`
    /// otherwise.
    pub fn under(limits: &SearchLimits, configured: Budget) -> Budget {
        if !limits.replace_own(false) {
            return configured;
        }
        Budget {
            simulations: limits
                .nodes
                .map(|n| n.clamp(1, SIMULATION_CAP as u64) as u32),
            time: limits.movetime,
        }
    }

    /// The simulation limit of a search: the given one, else `planned` for a search that must
    /// plan its simulations ahead (Gumbel's sequential halving), else [`SIMULATION_CAP`].
    pub fn simulation_limit(&self, plans_ahead: bool, planned: u32) -> u32 {
        match self.simulations {
            Some(n) => n.min(SIMULATION_CAP),
            None if plans_ahead => planned,
            None => SIMULATION_CAP,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_limits_replace_the_configured_budget_only_when_given() {
        let configured = Budget {
            simulations: Some(800),
            time: Some(Duration::from_millis(100)),
        };
        assert_eq!(
            Budget::under(&SearchLimits::default(), configured),
            configured
        );
        let depth_only = SearchLimits {
            depth: Some(3),
            ..SearchLimits::default()
        };
        assert_eq!(Budget::under(&depth_only, configured), configured);
        let movetime = SearchLimits {
            movetime: Some(Duration::from_millis(7)),
            ..SearchLimits::default()
        };
        assert_eq!(
            Budget::under(&movetime, configured),
            Budget {
                simulations: None,
                time: Some(Duration::from_millis(7))
            }
        );
        let infinite = SearchLimits {
            nodes: Some(u64::MAX),
            ..SearchLimits::default()
        };
        assert_eq!(
            Budget::under(&infinite, configured).simulations,
            Some(SIMULATION_CAP)
        );
    }

    #[test]
    fn the_simulation_limit_falls_back_to_the_plan_or_the_cap() {
        let timed = Budget {
            simulations: None,
            time: Some(Duration::from_millis(5)),
        };
        assert_eq!(timed.simulation_limit(false, 800), SIMULATION_CAP);
        assert_eq!(timed.simulation_limit(true, 800), 800);
        let both = Budget {
            simulations: Some(64),
            ..timed
        };
        assert_eq!(both.simulation_limit(true, 800), 64);
    }
}
