//! The thinkers: agents are built and think on a bounded pool, one place per core (at most
//! [`MAX_THINKERS`]); work beyond waits for a place. An agent lives only while it thinks, so
//! the memory of agents is bounded by the pool, whatever the number of games.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use fanorona_util::denormals;
use tokio::sync::Semaphore;

/// The most agents thinking at once, whatever the number of cores.
pub const MAX_THINKERS: usize = 16;

/// The pool's places and the think-time cap.
pub struct Thinkers {
    places: Arc<Semaphore>,
    count: usize,
    think: Duration,
}

/// Work that could not be done (the pool is closed, or the work panicked).
#[derive(Debug, thiserror::Error)]
#[error("the agent's work was lost: {0}")]
pub struct Lost(String);

impl Thinkers {
    /// A pool of `count` places (1 to [`MAX_THINKERS`]), each turn stopped after `think`.
    pub fn new(count: usize, think: Duration) -> Thinkers {
        let count = count.clamp(1, MAX_THINKERS);
        Thinkers {
            places: Arc::new(Semaphore::new(count)),
            count,
            think,
        }
    }

    /// The pool's size: one place per core, within 1 to [`MAX_THINKERS`].
    pub fn per_core(think: Duration) -> Thinkers {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Thinkers::new(cores, think)
    }

    /// How many agents may think at once.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Runs `work` when a place is free, on a blocking thread with denormals flushed; the
    /// flag it is given is set once it has worked the think-time cap.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<T, Lost> {
        self.run_until(Arc::new(AtomicBool::new(false)), self.think, work)
            .await
    }

    /// [`Thinkers::run`] with the flag `stop`, which others may set too, set after `cap`.
    pub async fn run_until<T: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        cap: Duration,
        work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<T, Lost> {
        let _place = self
            .places
            .acquire()
            .await
            .map_err(|e| Lost(e.to_string()))?;
        let timer = {
            let stop = stop.clone();
            tokio::spawn(async move {
                tokio::time::sleep(cap).await;
                stop.store(true, Ordering::Relaxed);
            })
        };
        let done = tokio::task::spawn_blocking(move || denormals::run_flushed(|| work(stop))).await;
        timer.abort();
        done.map_err(|e| Lost(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Instant;

    #[test]
    fn at_most_count_works_run_at_once_and_each_is_told_to_stop_at_the_cap() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let thinkers = Arc::new(Thinkers::new(2, Duration::from_millis(50)));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let started = Instant::now();
        runtime.block_on(async {
            let mut tasks = Vec::new();
            for _ in 0..6 {
                let (thinkers, running, most) = (thinkers.clone(), running.clone(), most.clone());
                tasks.push(tokio::spawn(async move {
                    thinkers
                        .run(move |stop| {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            // Thinks until told to stop.
                            while !stop.load(Ordering::Relaxed) {
                                std::thread::sleep(Duration::from_millis(1));
                            }
                            running.fetch_sub(1, Ordering::SeqCst);
                        })
                        .await
                        .unwrap();
                }));
            }
            for task in tasks {
                task.await.unwrap();
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 2);
        // Three rounds of two, each stopped at 50 ms.
        let elapsed = started.elapsed();
        assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
        assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
        assert_eq!(Thinkers::new(0, Duration::ZERO).count(), 1);
        assert_eq!(Thinkers::new(1000, Duration::ZERO).count(), MAX_THINKERS);
    }
}
