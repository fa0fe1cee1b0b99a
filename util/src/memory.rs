//! Whether a requested count of items fits the machine's memory, checked before anything is
//! allocated, so that `--positions 1000000000` is refused with the reason instead of aborting
//! (or panicking with "capacity overflow").

/// A count that does not fit the memory: its bytes and the machine's, for the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{count} {what} need about {} of memory (at least {each} bytes each), more than this machine has ({})",
    gib(*.bytes),
    gib(*.available)
)]
pub struct TooLarge {
    /// The count requested.
    pub count: u128,
    /// What is counted ("positions").
    pub what: String,
    /// Bytes each item needs at least.
    pub each: u64,
    /// Bytes the count needs (`u128` so that no count overflows).
    pub bytes: u128,
    /// Bytes of the machine's memory.
    pub available: u128,
}

/// A size in GiB, for messages.
fn gib(bytes: u128) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// The machine's physical memory in bytes, where the system tells it.
pub fn physical_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system constants.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page > 0 {
            return (pages as u64).checked_mul(page as u64);
        }
    }
    None
}

/// Checks that `count` items of at least `each` bytes fit this machine's memory (where it is
/// unknown, 2^64 bytes); `what` names them in the error.
pub fn check_count(count: u64, each: u64, what: &str) -> Result<(), TooLarge> {
    check_count_within(count, each, what, physical_memory().unwrap_or(u64::MAX))
}

/// [`check_count`] against `available` bytes.
pub fn check_count_within(
    count: u64,
    each: u64,
    what: &str,
    available: u64,
) -> Result<(), TooLarge> {
    let bytes = u128::from(count) * u128::from(each);
    if bytes > u128::from(available) {
        return Err(TooLarge {
            count: count.into(),
            what: what.to_string(),
            each,
            bytes,
            available: available.into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_beyond_the_memory_are_refused_without_overflow() {
        check_count_within(1000, 80, "positions", 1 << 20).unwrap();
        let e = check_count_within(u64::MAX, 80, "positions", 1 << 30).unwrap_err();
        assert_eq!(e.bytes, u128::from(u64::MAX) * 80);
        assert!(
            e.to_string()
                .starts_with(&format!("{} positions need about", u64::MAX)),
            "{e}"
        );
        assert!(e.to_string().ends_with("(1.0 GiB)"), "{e}");
        check_count(1000, 80, "positions").unwrap();
        assert!(check_count(1 << 40, 1 << 20, "positions").is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_memory_is_known_on_linux() {
        assert!(physical_memory().unwrap() > 1 << 20);
    }
}
