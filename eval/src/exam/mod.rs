//! Exams: exact, match-free measures of how well an agent plays.
//!
//! - On a board the solver solves ([`fanorona_exact::solver`]), positions are sampled (seeded) from the
//!   agent's own games and from random play ([`sample`]); the agent chooses a turn in each and
//!   the exam counts where that turn keeps the position's game-theoretic value: a win stays a
//!   win, a draw stays at least a draw ([`solved`]). A network's value head is scored against
//!   the same solved values ([`value_score`]).
//! - On boards too large to solve, a fixed set of positions labelled by a deep search
//!   ([`test_set`]) gives the agreement of the agent's turn with the label's best turn and the
//!   error of its values ([`set_exam`]); endgame tables ([`fanorona_exact::tables`]) score the
//!   positions they hold exactly.
//! - Exact sets ([`exact_set`]) hold positions of strong agents' games on boards too large to
//!   solve, each with its value and the turns that keep it, proven by the prover; the exam on
//!   them ([`exact_exam`]) counts where the agent's turn keeps the proven value, by piece count.
//!   Their labelling ([`labelling`]) keeps a journal ([`label_journal`]) to resume from.
//!
//! The solver's values are those of the game without draw limits. The exam shows each
//! position to the agent as a fresh game (no history, no-capture counter 0) under the
//! standard rules, where a win of fewer turns than the no-capture limit is still a win (the
//! winner's fastest line neither repeats a position nor lasts that long) and a draw stays a
//! draw (limits only add draws); positions whose solved distance reaches the limit are left
//! out and counted.

pub(crate) mod error;
pub(crate) mod exact_exam;
pub(crate) mod exact_set;
pub(crate) mod label_journal;
pub(crate) mod labelling;
pub(crate) mod sample;
pub(crate) mod set_exam;
pub(crate) mod set_file;
pub(crate) mod solved;
pub(crate) mod test_set;
pub(crate) mod value_score;

pub use error::ExamError;
pub use exact_exam::{ExactExamReport, examine_exact};
pub use exact_set::{ExactSet, ProvenPosition, SetSampling};
pub use label_journal::journal_path;
pub use labelling::{LabelBudget, LabelTally, Labelling, default_threads, prove_label};
pub use sample::{Sampler, Source};
pub use set_exam::{SetExamReport, exact_turn_values, examine_set};
pub use set_file::{ExamSet, MAX_SET_BYTES};
pub use solved::{ExamReport, KeepTally, Question, examine, questions};
pub use test_set::{LabelledPosition, TestSet};
pub use value_score::{ValueError, ValueScore};
