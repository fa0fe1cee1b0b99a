//! `fanorona engine`: the engine protocol on stdin/stdout (see `fanorona_eval::protocol`).

use std::io;
use std::sync::Arc;

use anyhow::{Context, Result};
use fanorona_eval::protocol::Server;

use super::agent_help::{DEFAULT_AGENT, agent_help, default_agent_help};

/// Arguments of `fanorona engine`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The agent that plays (`setoption name Agent value SPEC` changes it during the session)
    /// [default: abnet:ms=1000, over the shipped student, which the binary carries].
    #[arg(
        long,
        long_help = agent_help(&format!(
            "The agent that plays (`setoption name Agent value SPEC` changes it during the \
             session); {}.",
            default_agent_help()
        ))
    )]
    pub agent: Option<String>,
}

/// Runs the command: answers protocol lines until `quit` or the end of the input.
pub fn run(args: Args) -> Result<()> {
    let registry = Arc::new(fanorona_train::players::registry());
    let spec = registry
        .parse(args.agent.as_deref().unwrap_or(DEFAULT_AGENT))
        .context("bad --agent")?;
    let mut server = Server::new(registry, spec, io::stdout()).context("bad --agent")?;
    server.run(io::stdin().lock())?;
    Ok(())
}
