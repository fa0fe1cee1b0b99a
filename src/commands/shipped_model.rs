//! The shipped model (`models/fanorona-9x5.safetensors`, see `models/README.md`): the agent of
//! `fanorona play` and `fanorona engine` when none is given, and the policy `fanorona serve`
//! offers by default.

use std::path::Path;

/// The shipped model in the source tree this binary was built from.
pub const SHIPPED_MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/fanorona-9x5.safetensors"
);

/// The agent used when none is given: the shipped model searching with `net`'s default
/// simulations, its leaf values mixed half and half with alpha-beta probes (+67 Elo at equal
/// simulations; see the README's Strength section), or `minimax:depth=4` where the model file
/// is missing.
pub fn default_agent() -> String {
    if Path::new(SHIPPED_MODEL).is_file() {
        format!("net:path={SHIPPED_MODEL},lambda=0.5")
    } else {
        "minimax:depth=4".to_string()
    }
}

/// The help line of an `--agent` option that defaults to [`default_agent`].
pub const DEFAULT_AGENT_HELP: &str = "default: the shipped model \
    (net:path=models/fanorona-9x5.safetensors,lambda=0.5), or minimax:depth=4 without it";
