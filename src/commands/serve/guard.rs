//! What every request goes through: its body read whole before any handler, within a size
//! limit (a `Content-Length` over it is answered 413 at once, before reading) and a time
//! limit (408); and every error answer made JSON, `{"error": "..."}`, whatever produced it
//! (a handler, an extractor, the router's 404 and 405).

use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 8 * 1024;

/// The largest error text kept from a non-JSON error answer, in bytes.
const MAX_ERROR_TEXT: usize = 4 * 1024;

/// The middleware: reads the body (see the module's description), runs the handler and
/// makes its error answer JSON. `read_timeout` bounds the body's reading.
pub async fn guard(State(read_timeout): State<Duration>, request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let request = match read_body(request, read_timeout).await {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    let response = next.run(request).await;
    json_error(response, &method, &uri).await
}

/// The request with its body read whole, or why not.
async fn read_body(request: Request, read_timeout: Duration) -> Result<Request, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is over {MAX_BODY} bytes"),
        )
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(read_timeout, to_bytes(body, MAX_BODY)).await {
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} ms",
                    read_timeout.as_millis()
                ),
            ));
        }
        Ok(Err(e)) if is_length_limit(&e) => return Err(too_large()),
        Ok(Err(e)) => {
            return Err(ApiError::bad_request(format!(
                "cannot read the request body: {e}"
            )));
        }
        Ok(Ok(bytes)) => bytes,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// Whether reading a body failed on the size limit.
fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// `response`, an error answer in JSON if it is one and is not JSON yet.
async fn json_error(response: Response, method: &Method, uri: &Uri) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = to_bytes(body, MAX_ERROR_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match status {
        StatusCode::NOT_FOUND => format!("nothing at {}", uri.path()),
        // The router adds the Allow header after this middleware.
        StatusCode::METHOD_NOT_ALLOWED => format!(
            "{} does not accept {method} (the Allow header lists what it accepts)",
            uri.path()
        ),
        _ if !text.is_empty() => text,
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    let json = ApiError::new(status, message).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, json.into_body())
}
