//! Agent arguments (`--white`, `--black`, `--vs`): read and checked before any game is played,
//! errors naming the flag.

use anyhow::{Context, Result};
use fanorona_env::{AgentSpec, Registry};

/// Parses the agent specification `text` given to `--flag` and checks that an agent can be
/// built from it.
pub fn agent_spec(registry: &Registry, text: &str, flag: &str) -> Result<AgentSpec> {
    let spec = registry
        .parse(text)
        .with_context(|| format!("bad --{flag}"))?;
    registry
        .create(&spec, 0)
        .with_context(|| format!("bad --{flag}"))?;
    Ok(spec)
}
