//! `fanorona serve`: play in the browser. One page (board in SVG, played by mouse or
//! keyboard, evaluation, moves, undo, new game, FEN, record download, a watch mode for two
//! agents, an analysis board) and the JSON API behind it, on axum and tokio.

mod agents;
mod analyses;
mod analysis;
mod analysis_api;
mod api;
mod assets;
mod error;
mod events;
mod guard;
mod listen;
mod position;
mod proof;
mod state;
mod store;
mod think;
mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::commands::agent_help::{DEFAULT_AGENT, default_agent_help};
use crate::output::{logln, outln};
use agents::AgentPolicy;
use analyses::Analyses;
use listen::ConnectionLimits;
use state::AppState;
use store::Store;
use think::Thinkers;

/// The most nodes `--prove-nodes` takes (about a minute of proving).
const MAX_PROVE_NODES: u64 = 20_000_000;

/// Arguments of `fanorona serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The default opponent [default: abnet:ms=1000, over the shipped student]; a network
    /// given here (net:path=FILE, abnet:model=teacher) is the one that kind plays.
    #[arg(long, long_help = format!("The default opponent; a network given here \
        (net:path=FILE, abnet:model=teacher) is the one that kind plays; {}.",
        default_agent_help()))]
    pub agent: Option<String>,
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Agent kinds a request may ask for, comma-separated [default: abnet,net,minimax,greedy,
    /// random, the network kinds when their model is known].
    #[arg(long)]
    pub allow_agents: Option<String>,
    /// A folder of endgame tables (fanorona tables build) that holds the 9x5 tables: every
    /// agent of a kind that probes them (minimax, mcts, abnet, net) plays and analyses with
    /// them, on every board the folder holds.
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Games kept at once; a new game evicts the oldest.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_games: u64,
    /// The longest an agent may think for one turn, in milliseconds.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub think_ms: u64,
    /// Agents thinking at once (the others wait) [default: one per core, at most 16].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=think::MAX_THINKERS as u64))]
    pub thinkers: Option<u64>,
    /// Analyses running at once, each holding a thinker while it runs; 0 turns analysis
    /// off [default: half the thinkers, at least one].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=think::MAX_THINKERS as u64))]
    pub max_analyses: Option<u64>,
    /// Nodes of the prover in each analysis (0: no proof): before the engine's iterations,
    /// the analysis board shows the position's proven value (win, draw or loss, draw limits
    /// ignored) and the turns that keep it, where the prover settles them within this many
    /// nodes, beside the endgame tables' answer where --tables holds the position.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(0..=MAX_PROVE_NODES))]
    pub prove_nodes: u64,
    /// The longest one analysis may run, in milliseconds.
    #[arg(long, default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
    pub analysis_ms: u64,
    /// Connections served at once (lowered to fit the limit of open files); one more is
    /// answered 503.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_connections: u64,
    /// The longest a client may take to send a request's headers, or its body, in
    /// milliseconds; an idle connection is closed after as long.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    pub read_timeout_ms: u64,
}

/// Runs the command: serves until the process is stopped.
pub fn run(args: Args) -> Result<()> {
    let agent = args.agent.as_deref().unwrap_or(DEFAULT_AGENT);
    let agents = AgentPolicy::new(
        fanorona_train::players::registry(),
        agent,
        args.allow_agents.as_deref(),
    )
    .context("bad --agent or --allow-agents")?
    .with_tables(args.tables.as_deref())
    .context("bad --tables")?;
    let think = Duration::from_millis(args.think_ms);
    let thinkers = match args.thinkers {
        Some(count) => Thinkers::new(count as usize, think),
        None => Thinkers::per_core(think),
    };
    let max_analyses = args
        .max_analyses
        .map_or((thinkers.count() / 2).max(1), |n| n as usize);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(thinkers.count())
        .build()
        .context("cannot start the server's runtime")?;
    let state = Arc::new(AppState {
        agents,
        store: Store::new(args.max_games as usize),
        thinkers,
        analyses: Analyses::new(max_analyses, Duration::from_millis(args.analysis_ms)),
        prove_nodes: args.prove_nodes,
    });
    let mut max_connections = args.max_connections;
    if let Some(fit) = listen::connections_that_fit()
        && fit < max_connections
    {
        logln!(
            "note: serving at most {fit} connections at once, not {max_connections}, to fit \
             the limit of open files (ulimit -n)"
        );
        max_connections = fit;
    }
    let limits = ConnectionLimits {
        max_connections: max_connections as usize,
        read_timeout: Duration::from_millis(args.read_timeout_ms),
    };
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        outln!("listening on http://{addr}")?;
        listen::serve(listener, api::router(state, limits.read_timeout), limits).await;
        Ok(())
    })
}
