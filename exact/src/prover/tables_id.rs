//! Which endgame tables a proof file was made with: its certificates lean on their values, so
//! it checks only with the same tables (or tables of more pieces that agree with them).

use fanorona_env::Board;

use crate::tables::EndgameTables;

/// The endgame tables of a proof run: their piece count (0: no tables) and their checksum
/// up to that count ([`EndgameTables::checksum`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablesId {
    /// The most pieces of the positions they value; 0 for a run without tables.
    pub pieces: usize,
    /// Their checksum up to `pieces` (0 without tables).
    pub checksum: u32,
}

impl TablesId {
    /// No tables.
    pub const NONE: TablesId = TablesId {
        pieces: 0,
        checksum: 0,
    };

    /// The identity of `tables` (or of none).
    pub fn of(tables: Option<&EndgameTables>) -> TablesId {
        match tables {
            Some(t) => TablesId {
                pieces: t.pieces(),
                checksum: t
                    .checksum(t.pieces())
                    .expect("the tables hold their own pieces"),
            },
            None => TablesId::NONE,
        }
    }

    /// Whether `tables` hold these: every class up to `pieces`, with the same values.
    pub fn held_by(&self, tables: Option<&EndgameTables>) -> bool {
        self.pieces == 0 || tables.and_then(|t| t.checksum(self.pieces)) == Some(self.checksum)
    }

    /// These tables in words, for messages.
    pub fn describe(&self, board: &Board) -> String {
        if self.pieces == 0 {
            "no endgame tables".into()
        } else {
            format!(
                "the endgame tables of {board} up to {} pieces (checksum {:08x})",
                self.pieces, self.checksum
            )
        }
    }
}
