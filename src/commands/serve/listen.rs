//! The listener: HTTP/1.1 connections up to a cap (one over it is answered 503 in JSON and
//! closed), each closed when a request's headers take longer than the read timeout to
//! arrive, which also ends a connection left idle that long. Headers are bounded in size.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The largest request head (request line and headers) read, in bytes.
const MAX_HEAD: usize = 16 * 1024;

/// Connections over the cap being answered 503 at once; beyond, they are closed unanswered.
const REFUSALS: usize = 8;

/// The longest a refused connection is kept to answer it.
const REFUSAL_TIME: Duration = Duration::from_millis(250);

/// File descriptors kept for everything but connections (the listener, standard streams,
/// the runtime, network files being read, refusals).
pub const RESERVED_FILES: u64 = 32;

/// How many connections are served at once, and how long a request's head may take.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// The most connections served at once.
    pub max_connections: usize,
    /// The longest wait for a request's head (and for an idle connection's next request).
    pub read_timeout: Duration,
}

/// Serves `router` on `listener` within `limits`, until the process ends.
pub async fn serve(listener: TcpListener, router: Router, limits: ConnectionLimits) {
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let refusing = Arc::new(Semaphore::new(REFUSALS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of descriptors or a connection reset before it was accepted: the
                // waiting connections stay queued until one closes.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        match open.clone().try_acquire_owned() {
            Ok(place) => {
                tokio::spawn(connection(
                    stream,
                    router.clone(),
                    limits.read_timeout,
                    place,
                ));
            }
            Err(_) => {
                if let Ok(slot) = refusing.clone().try_acquire_owned() {
                    tokio::spawn(refuse(stream, limits.max_connections, slot));
                }
            }
        }
    }
}

/// Serves one connection while it holds its `place`.
async fn connection(
    stream: TcpStream,
    router: Router,
    read_timeout: Duration,
    _place: OwnedSemaphorePermit,
) {
    let _ = stream.set_nodelay(true);
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(router))
        .await;
    // A client that went away or was too slow: nothing to tell anyone.
    drop(served);
}

/// Answers a connection over the cap with 503 and closes it.
async fn refuse(stream: TcpStream, max_connections: usize, _slot: OwnedSemaphorePermit) {
    let body = serde_json::json!({
        "error": format!(
            "the server is busy: it serves at most {max_connections} connections at once; \
             try again in a moment"
        )
    })
    .to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        let mut unsent = answer.as_bytes();
        while !unsent.is_empty() {
            stream.writable().await?;
            match stream.try_write(unsent) {
                Ok(n) => unsent = &unsent[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        // What the client sent is read and dropped: closing with it unread would reset the
        // connection, and the client could lose the answer.
        let mut sink = [0; 1024];
        loop {
            stream.readable().await?;
            match stream.try_read(&mut sink) {
                Ok(0) => return Ok(()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    })
    .await;
}

/// The most connections that fit the process's limit of open files, if it has one.
pub fn connections_that_fit() -> Option<u64> {
    open_files_limit().map(|limit| limit.saturating_sub(RESERVED_FILES).max(1))
}

/// The soft limit of open files of this process.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux, not on every unix
fn open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given, which lives through the call.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (read == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
}

/// No limit known on this platform.
#[cfg(not(unix))]
fn open_files_limit() -> Option<u64> {
    None
}
