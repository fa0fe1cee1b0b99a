//! Server-sent events: a response body fed by a queue of events, each `event: NAME` and one
//! `data:` line of JSON, with a comment every [`KEEP_ALIVE`] so that a client gone is noticed;
//! the body's end (the client gone) sets a stop flag.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use hyper::body::Frame;
use serde::Serialize;
use tokio::sync::mpsc;

/// How often a stream gets a comment while its sender lives.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// Events waiting to be sent on one stream.
const QUEUED_EVENTS: usize = 16;

/// A stream: the sender of its events (dropping every sender ends it) and the response body,
/// which sets `stop` when it is dropped.
pub fn stream(stop: Arc<AtomicBool>) -> (mpsc::Sender<Bytes>, Body) {
    let (events, queue) = mpsc::channel(QUEUED_EVENTS);
    tokio::spawn(keep_alive(events.downgrade()));
    let body = EventStream {
        queue,
        _stop: StopOnDrop(stop),
    };
    (events, Body::new(body))
}

/// One server-sent event: its name and its data as JSON on one line.
pub fn event(name: &str, data: &impl Serialize) -> Bytes {
    let json = serde_json::to_string(data).expect("an event serializes");
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Sends a comment every [`KEEP_ALIVE`] while a sender of `events` lives.
async fn keep_alive(events: mpsc::WeakSender<Bytes>) {
    loop {
        tokio::time::sleep(KEEP_ALIVE).await;
        let Some(events) = events.upgrade() else {
            return;
        };
        if events
            .send(Bytes::from_static(b": keep-alive\n\n"))
            .await
            .is_err()
        {
            return;
        }
    }
}

/// Sets its flag when dropped: the body is dropped when the client has gone (or at its end).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The response body: the queued events, until every sender is dropped.
struct EventStream {
    queue: mpsc::Receiver<Bytes>,
    _stop: StopOnDrop,
}

impl hyper::body::Body for EventStream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.queue
            .poll_recv(cx)
            .map(|bytes| bytes.map(|b| Ok(Frame::data(b))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_its_name_and_one_line_of_json() {
        let text = event("end", &serde_json::json!({"reason": "stopped"}));
        assert_eq!(&text[..], b"event: end\ndata: {\"reason\":\"stopped\"}\n\n");
    }
}
