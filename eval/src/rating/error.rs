//! Why ratings cannot be computed.

use std::path::PathBuf;

use crate::record::RecordError;
use fanorona_env::Excerpt;

/// Ratings that cannot be computed: unreadable game folders, no games, an anchor that did
/// not play, players the games do not connect, ratings without a finite maximum.
#[derive(Debug, thiserror::Error)]
pub enum RatingError {
    /// A folder or record cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A path given is not a folder.
    #[error(
        "{0} is not a folder (expected a folder of game records, e.g. from fanorona gauntlet --out or match --out)"
    )]
    NotAFolder(PathBuf),
    /// A file named like a game record is not one.
    #[error("bad game record {path}: {source}")]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// Why.
        source: RecordError,
    },
    /// No finished game was found.
    #[error(
        "no finished games in {folders}: expected game records (*.pgn) with a result, as fanorona gauntlet --out or match --out writes them"
    )]
    NoGames {
        /// The folders searched.
        folders: String,
    },
    /// The anchor agent played no game.
    #[error("the anchor {} played no game here; the players are: {players}", Excerpt(.anchor))]
    UnknownAnchor {
        /// The anchor asked for.
        anchor: String,
        /// The players found, comma-separated.
        players: String,
    },
    /// The games fall apart into groups that never met, whose ratings cannot be compared.
    #[error(
        "the players fall into groups that never played each other, so their ratings cannot be compared: {groups}"
    )]
    Disconnected {
        /// The groups, each as `{a, b}`.
        groups: String,
    },
    /// Without a prior, a group that won (or lost) every game against the rest has no finite
    /// rating.
    #[error(
        "{players} scored every point (or none) against the others, so their maximum-likelihood ratings are infinite: give a prior (virtual drawn games per pair) or more games"
    )]
    Unbounded {
        /// The group, comma-separated.
        players: String,
    },
    /// Impossible settings.
    #[error("bad rating settings: {0}")]
    Settings(String),
}
