//! Fanoron-Telo (docs/rules.md, "Options and variants"): the 3 x 3 alignment game without captures.
//! Each side has three pieces. White, then black, place them one at a time on empty points;
//! once a side has placed all three it moves one piece per turn along a line of the 3 x 3
//! Fanorona board (orthogonal lines everywhere, diagonals through the strong points: the
//! corners and the centre) to an adjacent empty point. Three in a row (a row, a column or one
//! of the two diagonals) wins, during placement too.
//!
//! Two cases the rule book leaves open are settled here. Since pieces can shuffle forever, a
//! game is drawn once `max_plies` actions have been played ([`Telo::DEFAULT_MAX_PLIES`] by default,
//! `None` for no limit). A side with no legal move would lose, as in Fanorona, but with three
//! pieces each that never happens. Exhaustive retrograde analysis of all 5390 reachable
//! positions (`tests/telo.rs`) shows that white wins with perfect play, by its fifth action
//! (ply 9), well within the default limit.
//!
//! Actions: `0..9` place a piece on a point (`point = row * 3 + column`, row 0 = rank 1);
//! `9 + point * 8 + direction` moves the piece on `point` one step in `direction` (the
//! [`Direction`](crate::Direction) order); 81 in all. Notation: `b2` for a placement, `a1b2`
//! for a move. Text form: rows from the top, `W`/`B`/digits as in FEN, the side to move and
//! the plies played, e.g. `W1B/1W1/B2 w 4`.
//!
//! The observation needs no turned board: it has own and enemy planes, and the board's
//! eight symmetries (the square's rotations and mirrors, all of which keep the lines) make
//! both sides' views equivalent; mover-frame actions are the absolute ones.

mod action;
mod error;
mod game;
mod state;
mod symmetry;
mod text;

pub use error::TeloError;
pub use state::Telo;

/// Pieces each side places.
pub const TELO_PIECES: u32 = 3;

/// Number of points of the board.
const POINTS: usize = 9;

/// Size of the action space: 9 placements and 9 x 8 moves.
pub const TELO_ACTIONS: usize = action::FIRST_MOVE + POINTS * 8;

/// Number of observation planes: own pieces, enemy pieces, placement phase, plies played.
pub const TELO_PLANES: usize = 4;

/// Number of symmetries of the board: the square's four rotations, each with and without a
/// mirror.
pub const TELO_SYMMETRIES: usize = 8;
