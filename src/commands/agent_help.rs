//! The long help of agent arguments (`--white`, `--black`, `--agent`, `--vs`), written from the
//! registry of every agent kind, and the agent of `play`, `engine` and `serve` when none is
//! given.

/// The agent used when none is given: the alpha-beta search over the value of the shipped
/// student, which every build carries (`abnet` alone plays it), one second a turn (the
/// strongest agent at equal time, see `models/README.md`; an engine's `go` limits replace the
/// second).
pub const DEFAULT_AGENT: &str = "abnet:ms=1000";

/// The help of an `--agent` option that defaults to [`DEFAULT_AGENT`].
pub fn default_agent_help() -> String {
    format!(
        "default: {DEFAULT_AGENT}, the alpha-beta over the shipped student, which the binary \
         carries (without a path, abnet plays the shipped student and net the shipped teacher; \
         model=student|teacher picks either)"
    )
}

/// `lead`, then the specification syntax and every agent kind, one line each.
pub fn agent_help(lead: &str) -> String {
    format!(
        "{lead}\n\nAn agent is kind[:key=value,...], e.g. minimax:depth=4,seed=1. Kinds:\n{}",
        fanorona_train::players::registry().help()
    )
}
