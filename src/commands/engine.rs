//! `fanorona engine`: the engine protocol on stdin/stdout (see `fanorona_eval::protocol`).

use std::io;

use anyhow::{Context, Result};
use fanorona_eval::protocol::Server;
use fanorona_train::agent_spec::{create_agent, parse_spec};

/// Arguments of `fanorona engine`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The agent that plays (any agent specification, or the path of an exported
    /// `.safetensors` policy; `setoption name Agent value SPEC` changes it during the session).
    #[arg(long, default_value = "minimax:depth=4")]
    pub agent: String,
}

/// Runs the command: answers protocol lines until `quit` or the end of the input.
pub fn run(args: Args) -> Result<()> {
    let spec = parse_spec(&args.agent).context("bad --agent")?;
    let mut server =
        Server::new(Box::new(create_agent), spec, io::stdout()).context("bad --agent")?;
    server.run(io::stdin().lock())?;
    Ok(())
}
