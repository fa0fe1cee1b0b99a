//! Server-sent events (axum's [`Sse`]): a stream fed by a queue of events, each `event: NAME`
//! and one `data:` line of JSON, with a keep-alive comment every [`KEEP_ALIVE`] so that a
//! client gone is noticed; the stream's end (the client gone) sets a stop flag.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde::Serialize;
use tokio::sync::mpsc;

/// How often a stream gets a comment while it lives.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// Events waiting to be sent on one stream.
const QUEUED_EVENTS: usize = 16;

/// A stream: the sender of its events (dropping every sender ends it) and the response,
/// which sets `stop` when it is dropped.
pub fn stream(
    stop: Arc<AtomicBool>,
) -> (
    mpsc::Sender<Event>,
    Sse<impl Stream<Item = Result<Event, Infallible>>>,
) {
    let (events, queue) = mpsc::channel(QUEUED_EVENTS);
    let queued = stream::unfold((queue, StopOnDrop(stop)), |(mut queue, guard)| async move {
        let event = queue.recv().await?;
        Some((Ok(event), (queue, guard)))
    });
    let sse = Sse::new(queued).keep_alive(KeepAlive::new().interval(KEEP_ALIVE));
    (events, sse)
}

/// One server-sent event: its name and its data as JSON on one line.
pub fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .expect("an event serializes")
}

/// Sets its flag when dropped: the stream is dropped when the client has gone (or at its end).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;

    #[tokio::test]
    async fn events_are_their_name_and_one_line_of_json_and_the_end_sets_the_flag() {
        let stop = Arc::new(AtomicBool::new(false));
        let (events, sse) = stream(Arc::clone(&stop));
        events
            .send(event("end", &serde_json::json!({"reason": "stopped"})))
            .await
            .unwrap();
        drop(events);
        let response = sse.into_response();
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let body = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        assert_eq!(&body[..], b"event: end\ndata: {\"reason\":\"stopped\"}\n\n");
        assert!(stop.load(Ordering::Relaxed));
    }
}
