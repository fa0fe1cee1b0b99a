//! [`EndgameTables`]: the class tables of one board, loaded into memory, answering the exact
//! value of positions with few pieces and the value of each of their turns.

use std::path::{Path, PathBuf};

use fanorona_env::{Board, Position, Turn};
use rayon::prelude::*;

use super::error::TablesError;
use super::file::{ClassTable, class_file_name, read_class};
use super::index::{ClassIndex, MAX_TABLE_PIECES};
use crate::solver::Value;

/// Slots of the class table: one per (mover, opponent) count pair.
const SLOTS: usize = (MAX_TABLE_PIECES + 1) * (MAX_TABLE_PIECES + 1);

/// The endgame tables of one board: every class with at most [`EndgameTables::pieces`]
/// pieces. Values are for the side to move under the standard rules without draw limits
/// (see [`Value`]: distances count turns to the end of the game).
#[derive(Debug)]
pub struct EndgameTables {
    board: &'static Board,
    /// `classes[mover * (MAX_TABLE_PIECES + 1) + opponent]`.
    classes: Vec<Option<ClassTable>>,
    pieces: usize,
}

impl EndgameTables {
    /// Tables of `board` holding no class yet.
    pub(crate) fn empty(board: &'static Board) -> EndgameTables {
        EndgameTables {
            board,
            classes: (0..SLOTS).map(|_| None).collect(),
            pieces: 0,
        }
    }

    /// Opens the tables of `board` in `dir`: every class of 2 pieces, then 3, and so on for
    /// as long as the classes of a piece count are there. Every file is checked and
    /// memory-mapped (see [`super::file`]); a damaged one is refused, and so is a piece count
    /// with some of its classes missing, or with none while a larger count has files.
    pub fn open(dir: &Path, board: &'static Board) -> Result<EndgameTables, TablesError> {
        let mut tables = EndgameTables::empty(board);
        let max = MAX_TABLE_PIECES.min(board.points() - 1);
        // The class files of `n` pieces, mover 1 first (named without building an index).
        let class_paths = |n: usize| -> Vec<PathBuf> {
            (1..n)
                .map(|m| dir.join(class_file_name(board, m, n - m)))
                .collect()
        };
        'counts: for n in 2..=max {
            let paths = class_paths(n);
            let missing: Vec<String> = paths
                .iter()
                .filter(|p| !p.is_file())
                .map(|p| p.display().to_string())
                .collect();
            if missing.len() == paths.len() {
                let mut found = Vec::new();
                for larger in n + 1..=max {
                    if class_paths(larger).iter().any(|p| p.is_file()) {
                        found.push(larger);
                    }
                }
                if let Some(&largest) = found.last() {
                    return Err(TablesError::Gap {
                        dir: dir.to_path_buf(),
                        board: board.to_string(),
                        pieces: n,
                        found: found
                            .iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                        largest,
                    });
                }
                break 'counts;
            }
            if !missing.is_empty() {
                return Err(TablesError::Incomplete {
                    dir: dir.to_path_buf(),
                    pieces: n,
                    missing: missing.join(", "),
                });
            }
            let classes: Vec<ClassIndex> = (1..n)
                .map(|m| ClassIndex::new(board, m, n - m))
                .collect::<Result<_, _>>()?;
            // Each file is checked in full (a pass over its bytes): in parallel.
            let read: Vec<ClassTable> = classes
                .par_iter()
                .zip(&paths)
                .map(|(class, path)| read_class(path, board, class))
                .collect::<Result<_, _>>()?;
            for table in read {
                tables.insert(table);
            }
            tables.pieces = n;
        }
        if tables.pieces == 0 {
            return Err(TablesError::NoTables {
                dir: dir.to_path_buf(),
                board: board.to_string(),
            });
        }
        Ok(tables)
    }

    /// Adds a class table; once every class of `pieces` pieces is in, the caller raises
    /// [`EndgameTables::pieces`] with [`EndgameTables::set_pieces`].
    pub(crate) fn insert(&mut self, table: ClassTable) {
        let slot = table.index().mover() * (MAX_TABLE_PIECES + 1) + table.index().opponent();
        self.classes[slot] = Some(table);
    }

    /// Records that every class of at most `pieces` pieces is in.
    pub(crate) fn set_pieces(&mut self, pieces: usize) {
        self.pieces = pieces;
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The most pieces (both sides together) of the positions the tables value.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The checksum of the classes of at most `pieces` pieces (a CRC-32 over each class's
    /// counts and file checksum, in order): what a proof file records of the tables it was
    /// made with. `None` where the tables stop below `pieces`; 0 for `pieces` below 2.
    pub fn checksum(&self, pieces: usize) -> Option<u32> {
        if pieces > self.pieces {
            return None;
        }
        let mut crc = crc32fast::Hasher::new();
        for n in 2..=pieces {
            for mover in 1..n {
                let class = self.class(mover, n - mover)?;
                crc.update(&[mover as u8, (n - mover) as u8]);
                crc.update(&class.checksum().to_le_bytes());
            }
        }
        Some(if pieces < 2 { 0 } else { crc.finalize() })
    }

    /// The class table of `mover` and `opponent` pieces, if loaded.
    pub fn class(&self, mover: usize, opponent: usize) -> Option<&ClassTable> {
        if mover > MAX_TABLE_PIECES || opponent > MAX_TABLE_PIECES {
            return None;
        }
        self.classes[mover * (MAX_TABLE_PIECES + 1) + opponent].as_ref()
    }

    /// The value for the side to move of the turn start where it has the pieces `mover` and
    /// the other side `opponent`: a loss now without pieces, `None` where the other side has
    /// none (the game is over), the class is not loaded or its file was truncated under its
    /// map ([`EndgameTables::damaged`]).
    #[inline]
    pub fn lookup(&self, mover: u64, opponent: u64) -> Option<Value> {
        if mover == 0 {
            return Some(Value::Loss(0));
        }
        let table = self.class(mover.count_ones() as usize, opponent.count_ones() as usize)?;
        let value = table.value(table.index().rank(mover, opponent));
        (!table.damaged()).then_some(value)
    }

    /// The classes whose files were truncated under their maps (`MvO`, in order): their
    /// values are refused from then on; open the folder again once its files are whole.
    pub fn damaged(&self) -> Vec<String> {
        self.classes
            .iter()
            .flatten()
            .filter(|table| table.damaged())
            .map(|table| format!("{}v{}", table.index().mover(), table.index().opponent()))
            .collect()
    }

    /// An error naming the classes whose files were truncated under their maps, if any.
    pub fn check_whole(&self) -> Result<(), TablesError> {
        let damaged = self.damaged();
        if damaged.is_empty() {
            return Ok(());
        }
        Err(TablesError::Truncated {
            classes: damaged.join(", "),
        })
    }

    /// Why the tables cannot value positions of `pos`'s board and rules, if they cannot.
    fn check(&self, pos: &Position) -> Result<(), TablesError> {
        if !std::ptr::eq(pos.board(), self.board) {
            return Err(TablesError::NotCovered(format!(
                "it is a position of {}, the tables are of {}",
                pos.board(),
                self.board
            )));
        }
        if crate::solver::check_rules(pos.rules()).is_err() {
            return Err(TablesError::NotCovered(
                "the tables hold the standard rules only (draw limits ignored)".into(),
            ));
        }
        Ok(())
    }

    /// The value of `pos` for its side to move under perfect play, draw limits ignored (in
    /// mid-chain: the best way to finish the turn). `None` if the position has more pieces
    /// than the tables hold, is of another board or rules variant, or the game is over
    /// because the side not to move has no piece.
    #[inline]
    pub fn value(&self, pos: &Position) -> Option<Value> {
        if !self.covers(pos) {
            return None;
        }
        if pos.is_turn_start() {
            let us = pos.side_to_move();
            self.lookup(pos.pieces(us), pos.pieces(us.other()))
        } else {
            self.turn_values(pos)?.into_iter().map(|(_, v)| v).max()
        }
    }

    /// The exact value of `pos` where its draw limits cannot change it
    /// ([`Value::within_draw_limits`]). `None` where the tables do not hold the position or
    /// the limit may end the game before its distance.
    #[inline]
    pub fn value_under_limits(&self, pos: &Position) -> Option<Value> {
        self.value(pos)?.within_draw_limits(pos)
    }

    /// Whether the tables value `pos`: its board, its rules and few enough pieces.
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        pos.piece_count() as usize <= self.pieces && self.check(pos).is_ok()
    }

    /// Every legal complete turn of `pos` with its value for the side playing it, as
    /// [`crate::solver::Solution::turn_values`]. An error says why the tables cannot answer.
    pub fn turn_values(&self, pos: &Position) -> Option<Vec<(Turn, Value)>> {
        self.try_turn_values(pos).ok()
    }

    /// [`EndgameTables::turn_values`], with the reason where the tables cannot answer.
    pub fn try_turn_values(&self, pos: &Position) -> Result<Vec<(Turn, Value)>, TablesError> {
        self.check(pos)?;
        let pieces = pos.piece_count() as usize;
        if pieces > self.pieces {
            return Err(TablesError::NotCovered(format!(
                "{pieces} pieces; the tables hold at most {}",
                self.pieces
            )));
        }
        let us = pos.side_to_move();
        if pos.pieces(us.other()) == 0 {
            return Err(TablesError::NotCovered(
                "the game is over: the side not to move has no piece".into(),
            ));
        }
        let mut out = Vec::new();
        let mut missing = false;
        pos.for_each_turn(|turn| {
            let mut next = *pos;
            next.play_turn_unchecked(turn);
            let them = next.side_to_move();
            // A turn leads to a class the tables hold: `None` only if its file was truncated.
            match self.lookup(next.pieces(them), next.pieces(them.other())) {
                Some(value) => out.push((*turn, value.before_turn())),
                None => missing = true,
            }
        });
        if missing {
            self.check_whole()?;
        }
        Ok(out)
    }

    /// The best value of `pos` for its side to move and every turn that achieves it: the
    /// fastest wins, else the draws, else the slowest losses. `None` where the tables cannot
    /// answer or the side to move has no turn.
    pub fn best_turns(&self, pos: &Position) -> Option<(Value, Vec<Turn>)> {
        Value::best_turns(self.turn_values(pos)?)
    }
}
