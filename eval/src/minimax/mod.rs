//! The minimax baseline: negamax alpha-beta over complete turns with iterative deepening, a
//! transposition table, move ordering, a quiescence search over compulsory captures and a
//! documented evaluation.

pub(crate) mod evaluate;
pub(crate) mod ordering;
pub(crate) mod player;
pub(crate) mod search;
pub(crate) mod tt;

pub use evaluate::{Handcrafted, MOBILITY, PIECE, STRONG_POINT, StaticEvaluation, evaluate};
pub use player::{LARGEST_LOGIT, MinimaxChooser, score_of_logit, score_of_value, value_of_score};
pub use search::{DRAW, MATE, MATE_BOUND, MAX_DEPTH, MinimaxResult, Searcher, depth_limit};
