//! The page, embedded in the binary (it works offline and needs no build step): plain HTML,
//! CSS and JavaScript from `assets/`.

use axum::http::header;
use axum::response::{Html, IntoResponse};

/// `GET /`: the page.
pub async fn index() -> Html<&'static str> {
    Html(include_str!("assets/index.html"))
}

/// `GET /app.js`: the page's script.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("assets/app.js"),
    )
}

/// `GET /style.css`: the page's style sheet.
pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/style.css"),
    )
}
