//! A guard over the memory maps of table files, so that a process never dies of a file
//! truncated under its map (as copying new files over a folder in place does): touching a
//! mapped page past the file's new end raises `SIGBUS`, which would kill the process.
//!
//! Each mapped file is registered here ([`Guard::register`]). A `SIGBUS` handler, installed
//! once, finds the map the faulting address lies in, marks it damaged and puts a page of zeros
//! in place of the missing one, so the access completes; the reader then sees the mark
//! ([`Guard::damaged`]: one atomic load) and refuses the value it read. A `SIGBUS` outside
//! every registered map is handed back to the handler that was there before (or the default
//! action), so other faults still fail as they would.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many maps can be guarded at once (a class table each); a map beyond them is left
/// unguarded.
const SLOTS: usize = 1024;

/// One registered map: its address range (`start` 0 when free) and whether a page of it went
/// missing.
struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    damaged: AtomicBool,
}

/// The registered maps, read by the signal handler without a lock.
static MAPS: [Slot; SLOTS] = [const {
    Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        damaged: AtomicBool::new(false),
    }
}; SLOTS];

/// The handler's installation: the page size and the action that was there before.
struct Installed {
    page: usize,
    previous: libc::sigaction,
}

/// Set once the handler is installed (`None` if it could not be).
static INSTALLED: OnceLock<Option<Installed>> = OnceLock::new();

/// The `SIGBUS` handler: replaces the missing page of a registered map with zeros and marks
/// the map damaged; otherwise restores the previous action, which the retried access meets.
extern "C" fn on_sigbus(_signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let Some(Some(installed)) = INSTALLED.get() else {
        // Raised while the handler was being installed: the default action takes the retry.
        // SAFETY: resetting a signal's action has no preconditions.
        unsafe { libc::signal(libc::SIGBUS, libc::SIG_DFL) };
        return;
    };
    // SAFETY: the kernel hands a valid `siginfo_t` to an `SA_SIGINFO` handler.
    let address = unsafe { (*info).si_addr() } as usize;
    for slot in &MAPS {
        let start = slot.start.load(Ordering::Acquire);
        if start == 0 || address < start || address >= slot.end.load(Ordering::Acquire) {
            continue;
        }
        slot.damaged.store(true, Ordering::Release);
        let page = address & !(installed.page - 1);
        // SAFETY: the page lies inside a live read-only map of a table file (registered until
        // it is unmapped); replacing it with zeros at the same address changes no other memory.
        let replaced = unsafe {
            libc::mmap(
                page as *mut libc::c_void,
                installed.page,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if replaced != libc::MAP_FAILED {
            return;
        }
        break;
    }
    // SAFETY: restoring the action saved at installation.
    unsafe { libc::sigaction(libc::SIGBUS, &installed.previous, std::ptr::null_mut()) };
}

/// Installs the handler, once.
fn install() -> bool {
    INSTALLED
        .get_or_init(|| {
            // SAFETY: sysconf has no preconditions.
            let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
            // SAFETY: a zeroed sigaction is valid; the handler and its mask are set below.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_SIGINFO;
            // SAFETY: a valid action; the previous one is written into `previous`.
            let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
            let done = unsafe {
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, &mut previous)
            };
            (done == 0 && page.is_power_of_two()).then_some(Installed { page, previous })
        })
        .is_some()
}

/// The registration of one map; unregisters it when dropped (before the map goes).
#[derive(Debug)]
pub(crate) struct Guard {
    slot: Option<usize>,
}

impl Guard {
    /// Registers the mapped `bytes` (unguarded if the handler cannot be installed or every
    /// slot is taken).
    pub(crate) fn register(bytes: &[u8]) -> Guard {
        if bytes.is_empty() || !install() {
            return Guard { slot: None };
        }
        let start = bytes.as_ptr() as usize;
        let slot = MAPS.iter().position(|slot| {
            slot.start
                .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        });
        if let Some(i) = slot {
            MAPS[i].damaged.store(false, Ordering::Release);
            MAPS[i].end.store(start + bytes.len(), Ordering::Release);
            MAPS[i].start.store(start, Ordering::Release);
        }
        Guard { slot }
    }

    /// Whether a page of the map went missing (its file was truncated): what was read from it
    /// may be zeros, not the table's values.
    #[inline]
    pub(crate) fn damaged(&self) -> bool {
        self.slot
            .is_some_and(|i| MAPS[i].damaged.load(Ordering::Acquire))
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            MAPS[i].start.store(usize::MAX, Ordering::Release);
            MAPS[i].end.store(0, Ordering::Release);
            MAPS[i].start.store(0, Ordering::Release);
        }
    }
}
