//! The minimax baseline: negamax alpha-beta over complete turns with iterative deepening, a
//! transposition table, move ordering, a quiescence search over compulsory captures and a
//! documented evaluation.

pub mod evaluate;
pub mod ordering;
pub mod player;
pub mod search;
pub mod tt;
