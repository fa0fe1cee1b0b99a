//! The page, embedded in the binary (it works offline and needs no build step): plain HTML,
//! CSS and JavaScript from `assets/`.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse};

use super::error::ApiError;
use fanorona_env::Excerpt;

/// `GET /`: the page.
pub async fn index() -> Html<&'static str> {
    Html(include_str!("assets/index.html"))
}

/// The page's script, as ES modules by file name.
const MODULES: [(&str, &str); 9] = [
    ("main.js", include_str!("assets/js/main.js")),
    ("state.js", include_str!("assets/js/state.js")),
    ("points.js", include_str!("assets/js/points.js")),
    ("api.js", include_str!("assets/js/api.js")),
    ("board.js", include_str!("assets/js/board.js")),
    ("keys.js", include_str!("assets/js/keys.js")),
    ("panel.js", include_str!("assets/js/panel.js")),
    ("play.js", include_str!("assets/js/play.js")),
    ("analysis.js", include_str!("assets/js/analysis.js")),
];

/// `GET /js/{module}`: one module of the page's script.
pub async fn module(Path(name): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let (_, text) = MODULES
        .iter()
        .find(|(file, _)| *file == name)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no script {}", Excerpt(&name)),
            )
        })?;
    Ok((
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        *text,
    ))
}

/// `GET /style.css`: the page's style sheet.
pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/style.css"),
    )
}
