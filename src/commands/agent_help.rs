//! The long help of agent arguments (`--white`, `--black`, `--agent`, `--vs`), written from the
//! registry of every agent kind.

/// `lead`, then the specification syntax and every agent kind, one line each.
pub fn agent_help(lead: &str) -> String {
    format!(
        "{lead}\n\nAn agent is kind[:key=value,...], e.g. minimax:depth=4,seed=1. Kinds:\n{}",
        fanorona_train::players::registry().help()
    )
}
