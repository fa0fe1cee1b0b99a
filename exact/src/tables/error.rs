//! Typed errors of the endgame tables: building, files and probing.

use std::path::PathBuf;

/// Why tables could not be built, read or used.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// A material class the tables cannot hold.
    #[error(
        "class {mover}v{opponent} on {board}: each side needs at least one piece, and the two at most {max} together"
    )]
    BadClass {
        /// The side to move's pieces.
        mover: usize,
        /// The other side's pieces.
        opponent: usize,
        /// The board, `WxH`.
        board: String,
        /// The most pieces a class may hold on this board.
        max: usize,
    },
    /// A piece count the tables cannot be built for.
    #[error("{pieces} pieces: tables of {board} are built for 2 to {max} pieces")]
    BadPieces {
        /// The piece count asked for.
        pieces: usize,
        /// The board, `WxH`.
        board: String,
        /// The most pieces a build may have on this board.
        max: usize,
    },
    /// A distance to the end does not fit the file's one-byte code.
    #[error(
        "class {mover}v{opponent}: a distance to the end of {distance} turns exceeds the {max} the file format holds"
    )]
    DistanceOverflow {
        /// The side to move's pieces.
        mover: usize,
        /// The other side's pieces.
        opponent: usize,
        /// The distance found.
        distance: u16,
        /// The largest distance a file holds.
        max: u16,
    },
    /// The backward induction failed (a distance beyond the solver's 16-bit code).
    #[error(transparent)]
    Induction(#[from] crate::solver::SolverError),
    /// Reading or writing a table file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file is damaged, of another format, board or class.
    #[error("{path}: not a valid endgame table: {reason}")]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A build found a class file it would resume from, and it is damaged or of an older
    /// format: the build keeps the files it finds, so it must be deleted to be rebuilt.
    #[error(
        "{path}: not a valid endgame table: {reason}; the build keeps the class files it finds \
         instead of building them again: delete this file and run the build again to rebuild it"
    )]
    DamagedInBuild {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A folder holds no table of the board.
    #[error(
        "{dir}: no endgame tables of {board} (expected files such as {board}-1v1.egtb; build them with `fanorona tables build`)"
    )]
    NoTables {
        /// The folder.
        dir: PathBuf,
        /// The board, `WxH`.
        board: String,
    },
    /// A folder holds some classes of a piece count but not all.
    #[error(
        "{dir}: the tables of {pieces} pieces are incomplete: missing {missing} (finish them with `fanorona tables build`, or remove that piece count's files)"
    )]
    Incomplete {
        /// The folder.
        dir: PathBuf,
        /// The piece count.
        pieces: usize,
        /// The missing files.
        missing: String,
    },
    /// A piece count has none of its classes while a larger one has files: the larger tables
    /// would be left out silently.
    #[error(
        "{dir}: the tables of {pieces} pieces are missing (no {board}-MvO.egtb file with {pieces} pieces) while the folder holds tables of {found} pieces, which need them; build them with `fanorona tables build --board {board} --pieces {largest} --out {dir}` (it builds only what is missing), or remove the larger files"
    )]
    Gap {
        /// The folder.
        dir: PathBuf,
        /// The board, `WxH`.
        board: String,
        /// The piece count missing.
        pieces: usize,
        /// The larger piece counts found, e.g. `4, 5`.
        found: String,
        /// The largest of them.
        largest: usize,
    },
    /// Class files were truncated under their maps (copied over in place) while in use.
    #[error(
        "the files of classes {classes} were truncated while in use (tables must be replaced by renaming new files in, never copied over in place); open the folder again once its files are whole"
    )]
    Truncated {
        /// The classes, e.g. `2v1, 1v2`.
        classes: String,
    },
    /// Probing was asked for a position the tables cannot answer.
    #[error("the tables cannot value this position: {0}")]
    NotCovered(String),
}
