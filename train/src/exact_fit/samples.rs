//! The training samples of exact sets: each proven turn start, and each position along the
//! chains of its keeping turns, with the proven value and the actions that keep it (none for a
//! lost position: every turn keeps a loss, so it teaches the value only). The positions of a
//! test set (and their images under the board's symmetries and the swap of colours) are left
//! out.

use std::collections::HashSet;

use fanorona_env::Position;
use fanorona_eval::exam::ExactSet;
use fanorona_exact::prover::Key;

use crate::prover_targets::{ProvenTurn, images};

/// A position to learn: its exact value and the actions that keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSample {
    /// The position (a turn start, or a position in the middle of a keeping chain).
    pub position: Position,
    /// Its value for the side to move: +1, 0 or -1.
    pub value: f32,
    /// The absolute actions that keep the value here (empty: no policy target).
    pub actions: Vec<usize>,
}

/// The samples of a set of proven positions.
#[derive(Clone, Debug, Default)]
pub struct FitSamples {
    /// The samples, turn starts and mid-chain positions in the order of their sets.
    pub samples: Vec<FitSample>,
    /// Turn starts taken from the sets.
    pub turn_starts: usize,
    /// Turn starts left out: test-set positions or images of them.
    pub left_out: usize,
    /// Turn starts left out as repeats of an earlier one (or an image of one).
    pub repeats: usize,
}

/// The samples of `sets` (of one board), without the positions of `test` and their images,
/// and each turn start once up to its images.
pub fn fit_samples(sets: &[ExactSet], test: &[Position]) -> FitSamples {
    let excluded: HashSet<Key> = test.iter().flat_map(images).collect();
    let mut seen: HashSet<Key> = HashSet::new();
    let mut out = FitSamples::default();
    for proven in sets.iter().flat_map(|s| &s.positions) {
        let pos = proven.position;
        if excluded.contains(&Key::of(&pos)) {
            out.left_out += 1;
            continue;
        }
        let keys = images(&pos);
        if keys.iter().any(|k| seen.contains(k)) {
            out.repeats += 1;
            continue;
        }
        seen.extend(keys);
        out.turn_starts += 1;
        let value = proven.value.result();
        if value < 0.0 {
            out.samples.push(FitSample {
                position: pos,
                value,
                actions: Vec::new(),
            });
            continue;
        }
        let turn = ProvenTurn::new(&pos, value, &proven.keeps);
        for (position, actions) in turn.positions() {
            out.samples.push(FitSample {
                position,
                value,
                actions,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::action::step_to_action;
    use fanorona_env::{Board, Symmetry};

    fn set(text: &str) -> ExactSet {
        ExactSet::parse(&format!(
            "# fanorona exact exam set\n# version: 1\n# board: 5x5\n# labeller: test\n\
             # sources: test\n{text}"
        ))
        .unwrap()
    }

    #[test]
    fn a_won_turn_start_teaches_its_keeping_first_steps_and_the_chains_after_them() {
        let set = set(
            "B1BBB/B2BB/3BW/3W1/W2W1 b 0 1 ; win ; d3c3Wb2A d3c3Wb2Ac2A d3c3Wb4W\n\
             B1BBB/B2BB/5/2B2/3W1 w 0 1 ; loss ; d1d2 d1e1 d1c1\n",
        );
        let out = fit_samples(std::slice::from_ref(&set), &[]);
        assert_eq!((out.turn_starts, out.left_out, out.repeats), (2, 0, 0));
        let board = Board::new(5, 5).unwrap();
        let won = &set.positions[0];
        // The turn start: one first step (d3c3 by withdrawal) begins all three keeping turns.
        let first = &out.samples[0];
        assert_eq!(first.position, won.position);
        assert_eq!(first.value, 1.0);
        let d3c3 = step_to_action(board, won.keeps[0].moves(board)[0]);
        assert_eq!(first.actions, vec![d3c3]);
        // After d3c3 the chain goes on by b2 or b4: both are taught there.
        let mut after = won.position;
        after.play_step_unchecked(won.keeps[0].moves(board)[0]);
        let middle = out.samples.iter().find(|s| s.position == after).unwrap();
        assert_eq!(middle.actions.len(), 2, "{middle:?}");
        assert!(
            out.samples
                .iter()
                .all(|s| s.value == 1.0 || s.actions.is_empty())
        );
        // The lost position teaches its value only.
        let lost = out.samples.last().unwrap();
        assert_eq!((lost.value, lost.actions.len()), (-1.0, 0));
    }

    #[test]
    fn test_positions_their_images_and_repeats_are_left_out() {
        let text = "B1BBB/B2BB/5/2B2/3W1 w 0 1 ; loss ; d1d2 d1e1 d1c1\n";
        let board = Board::new(5, 5).unwrap();
        let test = set(text).positions[0].position;
        let mirror = |set: u64| Symmetry::MirrorLeftRight.bitboard(board, set);
        let image = Position::from_pieces(
            board,
            [
                mirror(test.pieces(fanorona_env::Color::White)),
                mirror(test.pieces(fanorona_env::Color::Black)),
            ],
            test.side_to_move(),
            *test.rules(),
        )
        .unwrap();
        let other = "B1BBB/B2BB/3BW/3W1/W2W1 b 0 1 ; win ; d3c3Wb2A d3c3Wb2Ac2A d3c3Wb4W\n";
        let sets = [set(&format!("{text}{other}")), set(other)];
        let out = fit_samples(&sets, &[image]);
        assert_eq!((out.turn_starts, out.left_out, out.repeats), (1, 1, 1));
        assert!(out.samples.iter().all(|s| s.position != test));
    }
}
