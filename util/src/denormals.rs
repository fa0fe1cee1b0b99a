//! Denormal floats flushed to zero on every thread that does float math.
//!
//! Weights that only weight decay moves shrink geometrically into the denormal range, and on
//! Intel cores every multiply with a denormal operand takes a microcode assist (~100x slower):
//! training slowed eightfold after a few minutes. Threads of this toolkit therefore run with
//! flush-to-zero and denormals-are-zero set (MXCSR FTZ|DAZ on x86-64, FPCR.FZ on aarch64):
//! the main thread through [`run_flushed`], rayon workers through [`build_pool`] and
//! [`build_global_pool`], other threads through [`spawn`].

use std::thread::JoinHandle;

/// Runs `work` on this thread with denormal floats flushed to zero (as inputs and results);
/// the previous floating-point mode is restored afterwards. On processors other than x86-64
/// and aarch64 it just runs `work`.
pub fn run_flushed<T>(work: impl FnOnce() -> T) -> T {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        // SAFETY: only the flush-to-zero bits change, not rounding or exception masks; the
        // values computed differ from IEEE results only where those would be denormal, which
        // no code of this toolkit depends on.
        unsafe { no_denormals::no_denormals(work) }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    work()
}

/// Starts a thread that runs `work` with denormals flushed.
pub fn spawn<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> JoinHandle<T> {
    std::thread::spawn(move || run_flushed(work))
}

/// Builds the rayon pool `builder` describes, its workers running with denormals flushed.
pub fn build_pool(
    builder: rayon::ThreadPoolBuilder,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    builder.spawn_handler(spawn_worker).build()
}

/// Makes the pool `builder` describes rayon's global pool, its workers running with denormals
/// flushed. Fails if the global pool already exists (rayon builds it on first use).
pub fn build_global_pool(
    builder: rayon::ThreadPoolBuilder,
) -> Result<(), rayon::ThreadPoolBuildError> {
    builder.spawn_handler(spawn_worker).build_global()
}

/// Starts one rayon worker thread with denormals flushed.
fn spawn_worker(worker: rayon::ThreadBuilder) -> std::io::Result<()> {
    let mut thread = std::thread::Builder::new();
    if let Some(name) = worker.name() {
        thread = thread.name(name.to_owned());
    }
    if let Some(size) = worker.stack_size() {
        thread = thread.stack_size(size);
    }
    thread.spawn(move || run_flushed(|| worker.run()))?;
    Ok(())
}

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::*;
    use std::hint::black_box;

    /// Half the smallest normal float times one: denormal in IEEE arithmetic, zero when
    /// results are flushed. Also a denormal input times one: zero when inputs are flushed
    /// (x86-64 DAZ; aarch64's FZ flushes inputs too).
    fn denormal_products() -> (f32, f32) {
        let tiny = black_box(f32::MIN_POSITIVE);
        let denormal = black_box(f32::from_bits(1));
        (tiny * black_box(0.5), denormal * black_box(1.0))
    }

    #[test]
    fn run_flushed_flushes_and_then_restores() {
        let (result, input) = denormal_products();
        assert!(
            result.is_subnormal() && input.is_subnormal(),
            "IEEE mode by default"
        );
        assert_eq!(run_flushed(denormal_products), (0.0, 0.0));
        let (result, input) = denormal_products();
        assert!(
            result.is_subnormal() && input.is_subnormal(),
            "mode restored"
        );
    }

    #[test]
    fn pool_workers_and_spawned_threads_flush() {
        let pool = build_pool(rayon::ThreadPoolBuilder::new().num_threads(2)).unwrap();
        let products: Vec<(f32, f32)> = pool.broadcast(|_| denormal_products());
        assert_eq!(products, vec![(0.0, 0.0); 2]);
        assert_eq!(spawn(denormal_products).join().unwrap(), (0.0, 0.0));
    }
}
