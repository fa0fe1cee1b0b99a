//! `fanorona serve`: play in the browser. One page (board in SVG, evaluation, moves, undo,
//! new game, FEN, record download, a watch mode for two agents) and the JSON API behind it,
//! on axum and tokio.

mod agents;
mod api;
mod assets;
mod session;
mod store;
mod trace;
mod view;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use tokio::sync::Semaphore;

use crate::output::outln;
use agents::AgentPolicy;
use api::AppState;
use store::Store;

/// Arguments of `fanorona serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The default opponent; a network given here (`net:path=FILE` or `FILE.safetensors`) is
    /// what `net` plays.
    #[arg(long, default_value = "minimax:depth=4")]
    pub agent: String,
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Agent kinds a request may ask for, comma-separated [default: random,greedy,minimax,
    /// and net when a policy file is known].
    #[arg(long)]
    pub allow_agents: Option<String>,
    /// Games kept at once; a new game evicts the oldest.
    #[arg(long, default_value_t = 100)]
    pub max_games: usize,
    /// The longest an agent may think for one turn, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    pub think_ms: u64,
}

/// Runs the command: serves until the process is stopped.
pub fn run(args: Args) -> Result<()> {
    let agents = AgentPolicy::new(
        fanorona_train::players::registry(),
        &args.agent,
        args.allow_agents.as_deref(),
    )
    .context("bad --agent or --allow-agents")?;
    let state = Arc::new(AppState {
        agents,
        store: Store::new(args.max_games),
        think: Duration::from_millis(args.think_ms),
        thinkers: Semaphore::new(rayon::current_num_threads().max(1)),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        outln!("listening on http://{addr}")?;
        axum::serve(listener, api::router(state))
            .await
            .context("the server stopped")
    })
}
