//! The shipped model (`models/fanorona-9x5.safetensors`, see `models/README.md`) and its
//! student MLP for `abnet`: the agent of `fanorona play` and `fanorona engine` when none is
//! given, and the policy `fanorona serve` offers by default.

use std::path::Path;

/// The shipped model in the source tree this binary was built from.
pub const SHIPPED_MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/fanorona-9x5.safetensors"
);

/// The shipped model's student MLP 64-32 (`fanorona distill`), the network `abnet` searches
/// with.
pub const SHIPPED_STUDENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/fanorona-9x5-64x32.safetensors"
);

/// The agent used when none is given: an alpha-beta search over the shipped student's value,
/// one second a turn (`abnet`, the strongest agent at equal time; see the README's Strength
/// section; an engine's `go` limits replace the second), or `minimax:depth=4` where the file
/// is missing.
pub fn default_agent() -> String {
    if Path::new(SHIPPED_STUDENT).is_file() {
        format!("abnet:path={SHIPPED_STUDENT},ms=1000")
    } else {
        "minimax:depth=4".to_string()
    }
}

/// The help line of an `--agent` option that defaults to [`default_agent`].
pub const DEFAULT_AGENT_HELP: &str = "default: abnet over the shipped model's student \
    (abnet:path=models/fanorona-9x5-64x32.safetensors,ms=1000), or minimax:depth=4 without it";
