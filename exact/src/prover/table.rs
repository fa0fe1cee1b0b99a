//! The transposition table of one question: what the search knows of each position it has
//! met, and how it is reused.

use rustc_hash::{FxHashMap, FxHashSet};

use super::node::Key;

/// Proof and disproof numbers stand for "infinitely many" at this value (sums saturate).
pub(crate) const INFINITE: u32 = u32::MAX / 2;

/// What the search knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Not settled yet: the proof and disproof numbers of the last search of it.
    Open {
        /// Proof number: how many more leaves at least must be proven to prove it.
        pn: u32,
        /// Disproof number.
        dn: u32,
    },
    /// The attacker wins; `height` bounds the turns of the proof below it (strictly
    /// decreasing along the proof, so a proof never leans on itself).
    Proven {
        /// Height of the proof tree (0: its children are all exact).
        height: u32,
    },
    /// The attacker cannot force a win, whatever the path to it.
    Disproven,
    /// Disproven on one path, where it leaned on a repetition of a position above it. The
    /// search reuses it as a disproof (as though repetitions were draws whatever the path)
    /// unless the position is *strict*; the certificate decides what holds.
    Tentative,
}

impl Entry {
    /// The proof and disproof numbers of this entry.
    #[inline]
    pub(crate) fn numbers(self) -> (u32, u32) {
        match self {
            Entry::Open { pn, dn } => (pn, dn),
            Entry::Proven { .. } => (0, INFINITE),
            Entry::Disproven | Entry::Tentative => (INFINITE, 0),
        }
    }
}

/// The transposition table: an entry per position met, and the *strict* positions, whose
/// tentative disproofs are not reused (they once failed a certificate).
#[derive(Debug, Default)]
pub(crate) struct ProofTable {
    pub(crate) entries: FxHashMap<Key, Entry>,
    strict: FxHashSet<Key>,
}

impl ProofTable {
    /// The entry of `key`.
    #[inline]
    pub(crate) fn get(&self, key: &Key) -> Option<Entry> {
        self.entries.get(key).copied()
    }

    /// The proof and disproof numbers the search may use for `key`: its entry's, except the
    /// tentative disproof of a strict position, which holds on its own path only.
    #[inline]
    pub(crate) fn numbers(&self, key: &Key) -> Option<(u32, u32)> {
        match self.entries.get(key)? {
            Entry::Tentative if self.strict.contains(key) => None,
            entry => Some(entry.numbers()),
        }
    }

    /// Forgets the disproofs of `keys` (they did not hold together in a certificate) and
    /// makes those positions strict, so that the search does not lean on the same path-bound
    /// disproofs again.
    pub(crate) fn demote(&mut self, keys: &[Key]) {
        for key in keys {
            if let Some(e @ (Entry::Disproven | Entry::Tentative)) = self.entries.get_mut(key) {
                *e = Entry::Open { pn: 1, dn: 1 };
                self.strict.insert(*key);
            }
        }
    }

    /// Records `entry` for `key`; a proof is never replaced, nor a disproof by an open entry
    /// or a tentative disproof.
    #[inline]
    pub(crate) fn put(&mut self, key: Key, entry: Entry) {
        match self.entries.get_mut(&key) {
            Some(Entry::Proven { .. }) => {}
            Some(Entry::Disproven) if !matches!(entry, Entry::Proven { .. }) => {}
            Some(Entry::Tentative) if matches!(entry, Entry::Open { .. }) => {}
            Some(old) => *old = entry,
            None => {
                self.entries.insert(key, entry);
            }
        }
    }

    /// Drops the open entries (the solved ones and the tentative disproofs stay), when the
    /// table has grown past its budget.
    pub(crate) fn shrink(&mut self) {
        self.entries.retain(|_, e| !matches!(e, Entry::Open { .. }));
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}
