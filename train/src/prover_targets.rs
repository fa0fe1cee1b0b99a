//! Exact targets from the prover for self-play (`[selfplay.prover]`): a share of the turn
//! starts a run records is proven within a small node budget; where the value and every
//! turn's status are settled, the position takes its proven value, and the steps of the turns
//! that keep it (at the turn start and along their chains) become policy targets.
//!
//! The exam sets are test sets: the positions the labels are told to leave out (the run's
//! built-in exact set, as the run's roles give them) and their images under the board's
//! symmetries and the swap of colours are never proven here.

use std::collections::HashSet;
use std::sync::Arc;

use fanorona_env::action::step_to_action;
use fanorona_env::{Color, Position, Step, Symmetry, Turn};
use fanorona_eval::exam::{LabelBudget, prove_label};
use fanorona_exact::prover::Key;
use fanorona_exact::tables::EndgameTables;

use crate::config::ProverTargets;

/// Entries of the prover's working tables before open entries are dropped (a self-play
/// position's budget is small: this bounds memory, not the search).
const MAX_ENTRIES: usize = 1 << 22;

/// A proven turn start: its value for the side to move and, for each position along the
/// turns that keep it (the turn start, then each mid-chain position), the action played there.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenTurn {
    /// +1 a win, 0 a draw, -1 a loss for the side to move.
    pub value: f32,
    /// (position, absolute action) along the keeping turns, without repeats.
    steps: Vec<(Position, usize)>,
}

impl ProvenTurn {
    /// The turn start `pos` of value `value` (+1, 0, -1) whose turns `keeps` keep it.
    pub fn new(pos: &Position, value: f32, keeps: &[Turn]) -> ProvenTurn {
        let board = pos.board();
        let mut steps: Vec<(Position, usize)> = Vec::new();
        for turn in keeps {
            let mut at = *pos;
            // A chain stopped before its end takes a "stop" after its last step.
            let path = turn.moves(board).into_iter().chain([Step::Stop]);
            for step in path {
                if step == Step::Stop && at.is_turn_start() {
                    break;
                }
                let action = step_to_action(board, step);
                if !steps.contains(&(at, action)) {
                    steps.push((at, action));
                }
                at.play_step_unchecked(step);
            }
        }
        ProvenTurn { value, steps }
    }

    /// Each position along the keeping turns (the turn start first) with its keeping
    /// actions, each position once.
    pub fn positions(&self) -> Vec<(Position, Vec<usize>)> {
        let mut out: Vec<(Position, Vec<usize>)> = Vec::new();
        for &(pos, _) in &self.steps {
            if !out.iter().any(|(p, _)| *p == pos) {
                out.push((pos, self.keeping_actions(&pos)));
            }
        }
        out
    }

    /// The actions of keeping turns at `pos` (the turn start or a mid-chain position on one of
    /// their paths), in the order met; empty off their paths.
    pub fn keeping_actions(&self, pos: &Position) -> Vec<usize> {
        self.steps
            .iter()
            .filter(|(p, _)| p == pos)
            .map(|&(_, a)| a)
            .collect()
    }
}

/// The prover as a source of exact self-play targets for one board.
#[derive(Debug)]
pub struct ProverLabels {
    settings: ProverTargets,
    tables: Option<Arc<EndgameTables>>,
    /// Keys of the exam positions (all their images) that are never labelled.
    excluded: HashSet<Key>,
}

impl ProverLabels {
    /// Labels by the prover with `settings` and `tables` at its leaves, never of `excluded`
    /// (nor of their images).
    pub fn new(
        settings: ProverTargets,
        tables: Option<Arc<EndgameTables>>,
        excluded: &[Position],
    ) -> ProverLabels {
        ProverLabels {
            settings,
            tables,
            excluded: excluded.iter().flat_map(images).collect(),
        }
    }

    /// Whether settled positions take the keeping turns as their policy target.
    pub fn policy(&self) -> bool {
        self.settings.policy
    }

    /// Whether `pos` is one of the exam positions (or an image of one), never labelled.
    pub fn is_excluded(&self, pos: &Position) -> bool {
        self.excluded.contains(&Key::of(pos))
    }

    /// Proves the turn start `pos` if it is in the share and not an exam position: `None`
    /// when it is left out or the budget does not settle its value and every turn.
    pub fn prove(&self, pos: &Position) -> Option<ProvenTurn> {
        if !pos.is_turn_start() || !in_share(pos, self.settings.share) || self.is_excluded(pos) {
            return None;
        }
        let budget = LabelBudget {
            nodes: self.settings.nodes,
            max_entries: MAX_ENTRIES,
        };
        let proven = prove_label(pos, self.tables.as_deref(), budget, None).ok()??;
        Some(ProvenTurn::new(pos, proven.value.result(), &proven.keeps))
    }
}

/// Whether `pos` is in the proven share: a fixed hash of its pieces and side below `share`.
fn in_share(pos: &Position, share: f64) -> bool {
    if share >= 1.0 {
        return true;
    }
    let key = Key::of(pos);
    let mixed = (key.white ^ key.black.rotate_left(29) ^ u64::from(key.white_to_move))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((mixed >> 11) as f64 / (1u64 << 53) as f64) < share
}

/// The keys of `pos` under the board's four symmetries, with and without the colours
/// swapped (the swapped position seen from the other side is the same problem).
pub(crate) fn images(pos: &Position) -> Vec<Key> {
    let board = pos.board();
    let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    let white_to_move = pos.side_to_move() == Color::White;
    let mut keys = Vec::with_capacity(2 * Symmetry::ALL.len());
    for symmetry in Symmetry::ALL {
        let (w, b) = (
            symmetry.bitboard(board, white),
            symmetry.bitboard(board, black),
        );
        keys.push(Key {
            white: w,
            black: b,
            white_to_move,
        });
        keys.push(Key {
            white: b,
            black: w,
            white_to_move: !white_to_move,
        });
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::action::stop_action;
    use fanorona_env::{Board, Fanorona, Game};

    fn labels(nodes: u64, excluded: &[Position]) -> ProverLabels {
        let settings = ProverTargets {
            nodes,
            share: 1.0,
            policy: true,
        };
        ProverLabels::new(settings, None, excluded)
    }

    #[test]
    fn the_keeping_steps_are_those_of_proven_keeping_turns_and_lead_through_their_chains() {
        // 5x3 is small enough for the prover to settle its positions at once.
        let board = Board::new(5, 3).unwrap();
        let labels = labels(2_000_000, &[]);
        let start = Position::initial(board);
        let proven = labels.prove(&start).expect("the 5x3 start is settled");
        let budget = LabelBudget {
            nodes: 2_000_000,
            max_entries: MAX_ENTRIES,
        };
        let truth = prove_label(&start, None, budget, None).unwrap().unwrap();
        assert_eq!(proven.value, 1.0, "5x3 is a first-player win");
        let first = proven.keeping_actions(&start);
        assert!(!first.is_empty());
        // Every keeping action is legal and begins some keeping turn; every keeping turn's
        // first step is among them; a spoiling turn's first step is among them only if a
        // keeping turn shares it.
        let game = Fanorona::new(start);
        for &a in &first {
            assert!(game.is_legal(a));
        }
        for turn in start.legal_turns() {
            let a = step_to_action(board, turn.moves(board)[0]);
            let shared = truth
                .keeps
                .iter()
                .any(|k| step_to_action(board, k.moves(board)[0]) == a);
            assert_eq!(first.contains(&a), shared, "{}", turn.notation(board));
        }
        // Following keeping actions always ends the turn on a keeping turn.
        for keep in &truth.keeps {
            let mut at = start;
            for step in keep.moves(board) {
                assert!(
                    proven
                        .keeping_actions(&at)
                        .contains(&step_to_action(board, step))
                );
                at.play_step_unchecked(step);
            }
            if at.side_to_move() == start.side_to_move() && !at.is_turn_start() {
                assert!(proven.keeping_actions(&at).contains(&stop_action(board)));
            }
        }
    }

    #[test]
    fn excluded_positions_and_their_images_are_never_proven_and_the_share_is_fixed() {
        let board = Board::new(5, 3).unwrap();
        let start = Position::initial(board);
        let mut after = start;
        after.play_turn(&start.legal_turn_names()[0]).unwrap();
        let labels = labels(2_000_000, &[after]);
        for key in images(&after) {
            assert!(labels.excluded.contains(&key));
        }
        assert_eq!(labels.prove(&after), None);
        // The start is not excluded, and is settled.
        assert!(!labels.is_excluded(&start));
        assert!(labels.prove(&start).is_some());
        // A mirror image of an excluded position is excluded too.
        let mirror = |set: u64| Symmetry::MirrorLeftRight.bitboard(board, set);
        let mirrored = Position::from_pieces(
            board,
            [
                mirror(after.pieces(Color::White)),
                mirror(after.pieces(Color::Black)),
            ],
            after.side_to_move(),
            *after.rules(),
        )
        .unwrap();
        assert!(labels.is_excluded(&mirrored));
        // A share of a half takes about half of many positions, and always the same ones.
        let positions: Vec<Position> = (0..400u64)
            .map(|i| {
                let white = (i * 2_654_435_761) & board.all() & !0b111;
                Position::from_pieces(board, [white | 1, 0b110], Color::White, *after.rules())
                    .unwrap()
            })
            .collect();
        let taken = positions.iter().filter(|p| in_share(p, 0.5)).count();
        assert!(
            (120..280).contains(&taken),
            "{taken} of {}",
            positions.len()
        );
        assert!(positions.iter().all(|p| in_share(p, 1.0)));
        let again = positions.iter().filter(|p| in_share(p, 0.5)).count();
        assert_eq!(again, taken, "the share is a function of the position");
    }
}
