//! The live analyses: at most a fixed number run at once (one more is refused with a 503),
//! each listed under its id with the flag that stops it, and each stopped after a time cap.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;

/// The live analyses and their limits.
pub struct Analyses {
    places: Arc<Semaphore>,
    max: usize,
    cap: Duration,
    live: Arc<Mutex<HashMap<String, Arc<Stop>>>>,
}

/// How a live analysis is told to stop.
#[derive(Default)]
struct Stop {
    /// Set to stop it, by anyone (a request, the client gone, the time cap).
    flag: Arc<AtomicBool>,
    /// Set when a request stopped it.
    requested: AtomicBool,
}

/// A live analysis's place: its [`Stop`] is listed under its id until it is dropped.
pub struct Ticket {
    id: String,
    stop: Arc<Stop>,
    live: Arc<Mutex<HashMap<String, Arc<Stop>>>>,
    _place: OwnedSemaphorePermit,
}

impl Ticket {
    /// The analysis's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The flag that stops the analysis, set by anyone who stops it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.flag.clone()
    }

    /// Whether a request stopped the analysis.
    pub fn stop_requested(&self) -> bool {
        self.stop.requested.load(Ordering::Relaxed)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        lock(&self.live).remove(&self.id);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Analyses {
    /// At most `max` analyses at once (0: none), each stopped after `cap`.
    pub fn new(max: usize, cap: Duration) -> Analyses {
        Analyses {
            places: Arc::new(Semaphore::new(max)),
            max,
            cap,
            live: Arc::default(),
        }
    }

    /// The longest one analysis may run.
    pub fn cap(&self) -> Duration {
        self.cap
    }

    /// A place for a new analysis, or a 503 when all are taken.
    pub fn begin(&self) -> Result<Ticket, ApiError> {
        let place = self.places.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "this server runs at most {} analyses at once; stop one or try again later",
                    self.max
                ),
            )
        })?;
        let id = format!("{:016x}", rand::random::<u64>());
        let stop = Arc::new(Stop::default());
        lock(&self.live).insert(id.clone(), stop.clone());
        Ok(Ticket {
            id,
            stop,
            live: self.live.clone(),
            _place: place,
        })
    }

    /// Stops the analysis `id`; whether it was live.
    pub fn stop(&self, id: &str) -> bool {
        lock(&self.live)
            .get(id)
            .map(|stop| {
                stop.requested.store(true, Ordering::Relaxed);
                stop.flag.store(true, Ordering::Relaxed);
            })
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_and_a_stop_reaches_the_live_analysis() {
        let analyses = Analyses::new(1, Duration::from_secs(1));
        let ticket = analyses.begin().unwrap();
        assert!(analyses.begin().is_err());
        assert!(!ticket.stop.requested.load(Ordering::Relaxed));
        assert!(analyses.stop(&ticket.id));
        assert!(ticket.stop.flag.load(Ordering::Relaxed));
        assert!(ticket.stop.requested.load(Ordering::Relaxed));
        let id = ticket.id.clone();
        drop(ticket);
        assert!(!analyses.stop(&id));
        assert!(analyses.begin().is_ok());
    }
}
