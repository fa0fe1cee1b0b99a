//! The transposition table: a fixed-size array of entries indexed by the low bits of the
//! Zobrist key, allocated once. Each entry keeps the full key, the best turn found (as its
//! start, end and captured pieces, which identify a deduplicated turn), a score and its bound,
//! and the depth searched.

use fanorona_env::Turn;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (no move reached alpha).
    Upper,
}

/// A turn as the table stores it: enough to recognise it among the generated turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TtMove {
    /// Start point.
    pub from: u8,
    /// End point.
    pub to: u8,
    /// Captured pieces.
    pub captured: u64,
}

impl TtMove {
    /// The stored form of a turn.
    pub fn of(turn: &Turn) -> TtMove {
        TtMove {
            from: turn.from(),
            to: turn.to(),
            captured: turn.captured(),
        }
    }

    /// Whether `turn` is this move.
    #[inline]
    pub fn matches(&self, turn: &Turn) -> bool {
        self.from == turn.from() && self.to == turn.to() && self.captured == turn.captured()
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The position's key.
    pub key: u64,
    /// The best turn found.
    pub best: TtMove,
    /// The score (mate scores relative to this node).
    pub score: i32,
    /// The depth searched.
    pub depth: i8,
    /// What the score means.
    pub bound: Bound,
}

/// A fixed-size transposition table.
#[derive(Debug)]
pub struct TranspositionTable {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl TranspositionTable {
    /// A table using at most `megabytes` MiB (at least one entry), the number of entries a
    /// power of two.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let fit = (bytes / size_of::<Option<Entry>>()).max(1);
        let len = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        TranspositionTable {
            entries: vec![None; len],
            mask: len - 1,
        }
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores a result, replacing the slot's entry unless that is a deeper result for the same
    /// position.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if let Some(old) = slot
            && old.key == entry.key
            && old.depth > entry.depth
        {
            return;
        }
        *slot = Some(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: i8, score: i32) -> Entry {
        Entry {
            key,
            best: TtMove::default(),
            score,
            depth,
            bound: Bound::Exact,
        }
    }

    #[test]
    fn stores_probes_and_prefers_depth() {
        let mut tt = TranspositionTable::new(1);
        assert!(
            tt.entries.len().is_power_of_two()
                && tt.entries.len() * size_of::<Option<Entry>>() <= 1 << 20
        );
        tt.store(entry(42, 3, 10));
        assert_eq!(tt.probe(42).unwrap().score, 10);
        assert!(tt.probe(43).is_none());
        tt.store(entry(42, 2, 20));
        assert_eq!(tt.probe(42).unwrap().score, 10, "shallower result kept out");
        // Another key in the same slot replaces it.
        let other = 42 + tt.entries.len() as u64;
        tt.store(entry(other, 1, 30));
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.probe(other).unwrap().score, 30);
        tt.clear();
        assert!(tt.probe(other).is_none());
    }
}
