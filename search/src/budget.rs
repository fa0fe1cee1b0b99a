//! How many simulations one decision of a tree search runs under its [`Budget`].

use fanorona_env::Budget;

/// The most simulations of one decision, whatever was asked (a search without a simulation
/// limit, e.g. under a time limit or `go infinite`, stops here at the latest).
pub const SIMULATION_CAP: u32 = 10_000_000;

/// The simulation limit of a search under `budget`: its node count (at least 1, at most
/// [`SIMULATION_CAP`]), else `planned` for a search that must plan its simulations ahead
/// (Gumbel's sequential halving), else [`SIMULATION_CAP`].
pub fn simulation_limit(budget: &Budget, plans_ahead: bool, planned: u32) -> u32 {
    match budget.nodes {
        Some(n) => n.clamp(1, SIMULATION_CAP as u64) as u32,
        None if plans_ahead => planned,
        None => SIMULATION_CAP,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_simulation_limit_is_the_node_count_else_the_plan_or_the_cap() {
        let timed = Budget::movetime(Duration::from_millis(5));
        assert_eq!(simulation_limit(&timed, false, 800), SIMULATION_CAP);
        assert_eq!(simulation_limit(&timed, true, 800), 800);
        let both = Budget {
            nodes: Some(64),
            ..timed
        };
        assert_eq!(simulation_limit(&both, true, 800), 64);
        let infinite = Budget::node_count(u64::MAX);
        assert_eq!(simulation_limit(&infinite, false, 800), SIMULATION_CAP);
        assert_eq!(simulation_limit(&Budget::node_count(0), false, 800), 1);
    }
}
