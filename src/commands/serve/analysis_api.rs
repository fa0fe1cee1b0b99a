//! The analysis board's API: `GET /api/analysis` starts one on a position and streams its
//! iterations as server-sent events; `POST /api/analysis/{id}/stop` stops it, and so does
//! the client going away or the time cap. At most a fixed number run at once (one more is
//! answered 503), each on a place of the thinkers' pool.
//!
//! Events, each `event: NAME` and `data: JSON`: `start` (`id`, `fen`, `side_to_move`,
//! `agent`, `cap_ms`), then `proof` (with `--prove-nodes` above 0: see
//! [`super::proof::proof_event`]), then one `iteration` per completed iteration (see
//! [`super::analysis::Iteration`]), then `end` (`reason`: `stopped`, `time`, `complete` or
//! `failed`, and a `message`).

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use fanorona_env::{Excerpt, Game};
use serde::{Deserialize, Serialize};

use super::agents::{AgentChoice, AgentPolicy};
use super::analysis::{Deepening, End, analyse};
use super::error::ApiError;
use super::events::{self, event};
use super::position::PositionQuery;
use super::proof::proof_event;
use super::state::AppState;

/// `GET /api/analysis`'s query: the position and the agent.
#[derive(Debug, Deserialize)]
pub struct AnalysisQuery {
    /// The position.
    #[serde(flatten)]
    position: PositionQuery,
    /// The agent that analyses (default: the server's); it must search.
    agent: Option<String>,
}

/// The `start` event.
#[derive(Serialize)]
struct Start<'a> {
    id: &'a str,
    fen: String,
    side_to_move: String,
    agent: &'a str,
    cap_ms: u128,
}

/// `GET /api/analysis`: checks the position and the agent, then streams the analysis.
pub async fn start(
    State(state): State<Arc<AppState>>,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let session = query.position.session()?;
    let game = session.game().clone();
    if let Some(outcome) = game.outcome() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the game is over ({outcome}): nothing to analyse"),
        ));
    }
    let agents = &state.agents;
    let text = query
        .agent
        .as_deref()
        .unwrap_or(&agents.default_agent().name);
    let choice = agents
        .check(text, game.position())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let deepening = deepening_of(agents, &choice)?;
    let analyses = &state.analyses;
    let ticket = analyses.begin()?;
    let (events, sse) = events::stream(ticket.stop_flag());
    let first = Start {
        id: ticket.id(),
        fen: game.position().to_fen(),
        side_to_move: game.current_player().to_string(),
        agent: &choice.name,
        cap_ms: analyses.cap().as_millis(),
    };
    events
        .try_send(event("start", &first))
        .expect("the queue has room for the first event");
    let worker = state.clone();
    let cap = analyses.cap();
    tokio::spawn(async move {
        let sender = events.clone();
        let builder = worker.clone();
        let ended = worker
            .thinkers
            .run_until(ticket.stop_flag(), cap, move |stop| {
                if builder.prove_nodes > 0 {
                    let pos = game.position();
                    let tables = builder.agents.tables_of(pos.board());
                    let proof = proof_event(pos, tables.as_deref(), builder.prove_nodes, &stop);
                    if sender.blocking_send(event("proof", &proof)).is_err() {
                        return End::Stopped;
                    }
                }
                match builder.agents.build(&choice, 0) {
                    Ok(mut agent) => analyse(&mut *agent, &game, deepening, &stop, |iteration| {
                        sender.blocking_send(event("iteration", &iteration)).is_ok()
                    }),
                    Err(e) => End::Failed(e.to_string()),
                }
            })
            .await
            .unwrap_or_else(|lost| End::Failed(lost.to_string()));
        let requested = ticket.stop_requested();
        let end = end_event(ended, requested, cap);
        // The place is free before the client hears of the end, so that it may start the
        // next analysis at once; the client may be gone, with nothing to tell then.
        drop(ticket);
        let _ = events.send(event("end", &end)).await;
    });
    Ok(sse.into_response())
}

/// How the analysis of `choice` deepens: by depth or by simulations; an agent that takes
/// neither does not search and is refused.
fn deepening_of(agents: &AgentPolicy, choice: &AgentChoice) -> Result<Deepening, ApiError> {
    if agents.takes(choice, "depth") {
        Ok(Deepening::Depth)
    } else if agents.takes(choice, "sims") {
        Ok(Deepening::Simulations)
    } else {
        Err(ApiError::bad_request(format!(
            "agent {:?} does not search, so it cannot analyse; choose one that does \
             (e.g. minimax)",
            choice.name
        )))
    }
}

/// The body of the `end` event: why the analysis ended (`requested`: a stop was asked for;
/// stopped by neither a request nor the client, who hears nothing then, it is the `cap`).
fn end_event(ended: End, requested: bool, cap: Duration) -> serde_json::Value {
    let (reason, message) = match ended {
        End::Stopped if requested => ("stopped", "stopped by a request".to_string()),
        End::Stopped => (
            "time",
            format!("stopped at the server's cap of {} ms", cap.as_millis()),
        ),
        End::Complete => (
            "complete",
            "a forced result or the deepest search: deeper tells no more".to_string(),
        ),
        End::Failed(reason) => ("failed", reason),
    };
    serde_json::json!({ "reason": reason, "message": message })
}

/// `POST /api/analysis/{id}/stop`: stops a live analysis (its stream then ends).
pub async fn stop(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !state.analyses.stop(&id) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no analysis {} is running", Excerpt(&id)),
        ));
    }
    Ok(Json(serde_json::json!({ "stopped": id })))
}
