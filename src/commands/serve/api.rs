//! The JSON API: create a game, read it, play steps or turns, let the agent play, undo, and
//! download the record. Every refusal is a 4xx with `{"error": "..."}` and changes nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fanorona_env::{Color, denormals, start_position};
use serde::Deserialize;
use tokio::sync::Semaphore;

use super::agents::{AgentMenu, AgentPolicy};
use super::assets;
use super::session::{Player, Session, SessionError, StepInput};
use super::store::Store;
use super::view::GameView;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 8 * 1024;

/// What every request handler shares.
pub struct AppState {
    /// The agents requests may ask for.
    pub agents: AgentPolicy,
    /// The live games.
    pub store: Store,
    /// The longest an agent may think for one turn.
    pub think: Duration,
    /// Agents thinking at once (the others wait).
    pub thinkers: Semaphore,
}

/// A refused request: its status and what is wrong.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<SessionError> for ApiError {
    fn from(error: SessionError) -> ApiError {
        let status = match error {
            SessionError::Illegal(_) => StatusCode::BAD_REQUEST,
            SessionError::Agent(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::CONFLICT,
        };
        ApiError::new(status, error.to_string())
    }
}

/// A JSON body, its rejections answered as [`ApiError`]s.
type Body<T> = Result<Json<T>, JsonRejection>;

/// The router: the page, its assets and the API.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/agents", get(agents))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/steps", post(step))
        .route("/api/games/{id}/turns", post(turn))
        .route("/api/games/{id}/agent", post(agent))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/record", get(record))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// `GET /api/agents`: the agents on offer.
async fn agents(State(state): State<Arc<AppState>>) -> Json<AgentMenu> {
    Json(state.agents.menu())
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
    let [white, black] = player_specs(&request, &state.agents.menu().default_agent)?;
    let build = |spec: String, side: u64| -> Result<Player, ApiError> {
        if spec.trim().eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        let agent = state
            .agents
            .create(&spec, seed.wrapping_add(side))
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Player::Agent { spec, agent })
    };
    let session = Session::new(start, build(white, 0)?, build(black, 1)?);
    let view_session = GameView::of("", &session);
    let id = state.store.insert(session);
    Ok(Json(GameView { id, ..view_session }))
}

/// Runs `work` on the game `id` on a blocking thread (agents think there, and a request
/// waits there while another works on the same game).
async fn on_game<T: Send + 'static>(
    state: &AppState,
    id: String,
    work: impl FnOnce(&str, &mut Session) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let session = state.store.get(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no game {id:?} (only the most recent games are kept)"),
        )
    })?;
    tokio::task::spawn_blocking(move || {
        let mut session = session.lock().unwrap_or_else(PoisonError::into_inner);
        // Agents do float math here: denormals flushed, as on every thread of the toolkit.
        denormals::run_flushed(|| work(&id, &mut session))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

/// Runs `work` on the game `id` and returns the game's state afterwards.
async fn with_game(
    state: &AppState,
    id: String,
    work: impl FnOnce(&mut Session) -> Result<(), SessionError> + Send + 'static,
) -> Result<Json<GameView>, ApiError> {
    on_game(state, id, move |id, session| {
        work(session)?;
        Ok(Json(GameView::of(id, session)))
    })
    .await
}

async fn read(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(&state, id, |_| Ok(())).await
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
    with_game(&state, id, move |session| {
        match (&request.step, request.action) {
            (Some(text), _) => session.play_step(StepInput::Notation(text)),
            (None, Some(action)) => session.play_step(StepInput::Action(action)),
            (None, None) => unreachable!("checked above"),
        }
    })
    .await
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
    with_game(&state, id, move |session| session.play_turn(&request.turn)).await
}

/// The body of a request whose handler needs none (`{}` from some clients), read and
/// dropped: a body left unread can make the server close a kept-alive connection while the
/// client is about to send its next request on it.
type IgnoredBody = Result<Bytes, BytesRejection>;

/// `POST /api/games/{id}/agent`: the agent to move plays its turn, thinking at most the
/// server's time cap.
async fn agent(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    _ignored: IgnoredBody,
) -> Result<Json<GameView>, ApiError> {
    let _permit = state
        .thinkers
        .acquire()
        .await
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let timer = {
        let stop = stop.clone();
        let think = state.think;
        tokio::spawn(async move {
            tokio::time::sleep(think).await;
            stop.store(true, Ordering::Relaxed);
        })
    };
    let result = with_game(&state, id, move |session| session.agent_plays(stop)).await;
    timer.abort();
    result
}

async fn undo(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    _ignored: IgnoredBody,
) -> Result<Json<GameView>, ApiError> {
    with_game(&state, id, Session::undo).await
}

/// `GET /api/games/{id}/record`: the game as a PGN-like record, as a download.
async fn record(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let date = chrono::Utc::now().format("%Y.%m.%d").to_string();
    let (id, text) = on_game(&state, id, move |id, session| {
        Ok((id.to_string(), session.record(date).to_text()))
    })
    .await?;
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
