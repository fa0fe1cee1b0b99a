//! The JSON API: create a game, read it, play steps or turns, let the agent play, undo,
//! download the record, read any position, and analyse one (see [`super::analysis_api`]). Every refusal is a 4xx with `{"error": "..."}` and changes nothing.
//! Reads never wait for an agent: an agent thinks on a copy of the game, on the thinkers'
//! pool, holding no lock, and the game is locked only to hand its turn out and back.

use std::sync::{Arc, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fanorona_env::{Color, Excerpt, SearchLimits, start_position};
use fanorona_eval::{AgentJob, AgentMove, Player, SessionError, StepInput, agent_turn};
use serde::Deserialize;

use super::agents::{AgentChoice, AgentMenu};
use super::analysis_api;
use super::assets;
use super::error::ApiError;
use super::guard::guard;
use super::position::PositionQuery;
use super::state::AppState;
use super::store::{Session, SharedSession};
use super::view::GameView;

/// A JSON body, its rejections answered as [`ApiError`]s.
type Body<T> = Result<Json<T>, JsonRejection>;

/// The router: the page, its assets and the API, behind the [`guard`] (bodies read within
/// `read_timeout`, JSON errors).
pub fn router(state: Arc<AppState>, read_timeout: Duration) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/js/{module}", get(assets::module))
        .route("/style.css", get(assets::style))
        .route("/api/agents", get(agents))
        .route("/api/position", get(position))
        .route("/api/analysis", get(analysis_api::start))
        .route("/api/analysis/{id}/stop", post(analysis_api::stop))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/steps", post(step))
        .route("/api/games/{id}/turns", post(turn))
        .route("/api/games/{id}/agent", post(agent))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/record", get(record))
        .layer(from_fn_with_state(read_timeout, guard))
        .with_state(state)
}

/// `GET /api/agents`: the agents on offer.
async fn agents(State(state): State<Arc<AppState>>) -> Json<AgentMenu> {
    Json(state.agents.menu())
}

/// `GET /api/position`: the position after some turns from a start, as a game's state
/// (with its id empty).
async fn position(
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Query(query) = query?;
    Ok(Json(GameView::of("", &query.session()?)))
}

/// `POST /api/games`: a new game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// `WxH`; default 9x5 (or the FEN's board).
    board: Option<String>,
    /// Rule settings in `--rules` syntax.
    #[serde(default)]
    rules: String,
    /// A start position.
    fen: Option<String>,
    /// `human` or an agent specification; default human.
    white: Option<String>,
    /// See `white`; default human.
    black: Option<String>,
    /// The shorthand for play: the agent's specification (default: the server's)...
    agent: Option<String>,
    /// ...and the side the person plays (`white` or `black`).
    side: Option<String>,
    /// Seed of the agents' random choices.
    seed: Option<u64>,
}

/// The players a request asks for, as specifications (`human` for a person).
fn player_specs(request: &NewGame, default_agent: &str) -> Result<[String; 2], ApiError> {
    let given = request.white.is_some() || request.black.is_some();
    let shorthand = request.agent.is_some() || request.side.is_some();
    if given && shorthand {
        return Err(ApiError::bad_request(
            "give either white/black or agent/side, not both",
        ));
    }
    if shorthand {
        let agent = request
            .agent
            .as_deref()
            .unwrap_or(default_agent)
            .to_string();
        let side = match &request.side {
            Some(text) => text.parse().map_err(ApiError::bad_request)?,
            None => Color::White,
        };
        return Ok(match side {
            Color::White => ["human".into(), agent],
            Color::Black => [agent, "human".into()],
        });
    }
    let spec = |s: &Option<String>| s.clone().unwrap_or_else(|| "human".into());
    Ok([spec(&request.white), spec(&request.black)])
}

async fn create(
    State(state): State<Arc<AppState>>,
    body: Body<NewGame>,
) -> Result<Json<GameView>, ApiError> {
    let Json(request) = body?;
    let start = start_position(
        request.fen.as_deref(),
        request.board.as_deref(),
        &request.rules,
    )
    .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let seed = request.seed.unwrap_or_else(rand::random);
    let [white, black] = player_specs(&request, &state.agents.default_agent().name)?;
    let player = |spec: String, side: u64| -> Result<Player<AgentChoice>, ApiError> {
        if spec.trim().eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        let choice = state
            .agents
            .check(&spec, &start)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Player::Agent {
            name: choice.name.clone(),
            choice,
            seed: seed.wrapping_add(side),
        })
    };
    let [white, black] = [player(white, 0)?, player(black, 1)?];
    // Each agent built once, on the thinkers' pool, to find what only building finds.
    let to_build: Vec<_> = [&white, &black]
        .into_iter()
        .filter_map(|p| match p {
            Player::Agent { choice, seed, .. } => Some((choice.clone(), *seed)),
            Player::Human => None,
        })
        .collect();
    if !to_build.is_empty() {
        let builder = state.clone();
        state
            .thinkers
            .run(move |_| {
                to_build
                    .iter()
                    .try_for_each(|(choice, seed)| builder.agents.build(choice, *seed).map(drop))
            })
            .await
            .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
    }
    let session = Session::new(start, white, black);
    let view = GameView::of("", &session);
    let id = state.store.insert(session);
    Ok(Json(GameView { id, ..view }))
}

/// The game `id`, or a 404.
fn find(state: &AppState, id: &str) -> Result<SharedSession, ApiError> {
    state.store.get(id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no game {} (only the most recent games are kept)",
                Excerpt(id)
            ),
        )
    })
}

/// The game, locked (for a moment: no lock is held while an agent thinks).
fn lock(session: &SharedSession) -> MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Does `work` on the game `id` and returns the game's state afterwards.
fn with_game(
    state: &AppState,
    id: &str,
    work: impl FnOnce(&mut Session) -> Result<(), SessionError>,
) -> Result<Json<GameView>, ApiError> {
    let shared = find(state, id)?;
    let mut session = lock(&shared);
    work(&mut session)?;
    Ok(Json(GameView::of(id, &session)))
}

async fn read(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(&state, &id, |_| Ok(()))
}

/// `POST /api/games/{id}/steps`: one step of a person's turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepRequest {
    /// In notation: `d3e3W`, `stop`.
    step: Option<String>,
    /// Or as an action index.
    action: Option<usize>,
}

async fn step(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Body<StepRequest>,
) -> Result<Json<GameView>, ApiError> {
    let Json(request) = body?;
    if request.step.is_some() == request.action.is_some() {
        return Err(ApiError::bad_request(
            "give the step as \"step\" (notation, e.g. \"d3e3W\" or \"stop\") or as \"action\" (an index), one of them",
        ));
    }
    with_game(&state, &id, |session| {
        session.play_step(match (&request.step, request.action) {
            (Some(text), _) => StepInput::Notation(text),
            (None, Some(action)) => StepInput::Action(action),
            (None, None) => unreachable!("checked above"),
        })
    })
}

/// `POST /api/games/{id}/turns`: a person's whole turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnRequest {
    /// In notation: `c1d1Ad2A`.
    turn: String,
}

async fn turn(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Body<TurnRequest>,
) -> Result<Json<GameView>, ApiError> {
    let Json(request) = body?;
    with_game(&state, &id, |session| session.play_turn(&request.turn))
}

/// `POST /api/games/{id}/agent`: the agent to move plays its turn, thinking at most the
/// server's time cap; meanwhile the game can be read and refuses changes.
async fn agent(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    let shared = find(&state, &id)?;
    let job = lock(&shared).begin_agent_turn()?;
    // On its own task: the turn is played and handed back even if the client goes away.
    let task = tokio::spawn(play_agent_turn(state.clone(), shared.clone(), job));
    task.await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    Ok(Json(GameView::of(&id, &lock(&shared))))
}

/// Builds the agent of `job` on the thinkers' pool, lets it play its turn on the copy of the
/// game, and hands the result back to the game.
async fn play_agent_turn(
    state: Arc<AppState>,
    shared: SharedSession,
    job: AgentJob<AgentChoice>,
) -> Result<(), ApiError> {
    let AgentJob {
        choice,
        seed,
        mut game,
    } = job;
    let thinker = state.clone();
    let played = state
        .thinkers
        .run(move |stop| {
            let agents = &thinker.agents;
            let mut agent = agents
                .build(&choice, seed)
                .map_err(|e| SessionError::Agent(e.to_string()))?;
            agent.set_limits(&SearchLimits {
                stop: Some(stop),
                ..SearchLimits::default()
            });
            let turn = agent_turn(&mut *agent, &mut game).map_err(|e| {
                let reason = agents.without_paths(&e.reason);
                SessionError::Agent(format!("the agent {:?} failed: {reason}", choice.name))
            })?;
            let info = agent.last_info();
            Ok(AgentMove { game, turn, info })
        })
        .await
        .unwrap_or_else(|lost| Err(SessionError::Agent(lost.to_string())));
    lock(&shared).end_agent_turn(played)?;
    Ok(())
}

async fn undo(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(&state, &id, Session::undo)
}

/// `GET /api/games/{id}/record`: the game as a PGN-like record, as a download.
async fn record(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let date = chrono::Utc::now().format("%Y.%m.%d").to_string();
    let text = lock(&find(&state, &id)?)
        .record("fanorona serve", date)
        .to_text();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"fanorona-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}
