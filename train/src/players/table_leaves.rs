//! [`TableLeaves`]: a leaf evaluator that gives the exact value of the endgame tables to every
//! leaf they hold (within its draw limits), and the wrapped evaluator's value elsewhere; the
//! policy is always the wrapped evaluator's.

use std::sync::Arc;

use fanorona_env::Fanorona;
use fanorona_eval::tables::EndgameTables;
use fanorona_search::Evaluator;

/// Wraps an evaluator: exact values where the tables hold the leaf.
pub struct TableLeaves<E> {
    inner: E,
    tables: Arc<EndgameTables>,
}

impl<E> TableLeaves<E> {
    /// `inner`'s evaluations, with the values of the leaves `tables` hold made exact.
    pub fn new(inner: E, tables: Arc<EndgameTables>) -> TableLeaves<E> {
        TableLeaves { inner, tables }
    }
}

impl<E: Evaluator<Fanorona>> Evaluator<Fanorona> for TableLeaves<E> {
    fn evaluate(&mut self, states: &[Fanorona], policy: &mut [f32], values: &mut [f32]) {
        self.inner.evaluate(states, policy, values);
        for (state, value) in states.iter().zip(values.iter_mut()) {
            if let Some(exact) = self.tables.value_under_limits(state.position()) {
                *value = exact.result();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::alpha_beta_mix::tests::Constant;
    use fanorona_env::{Board, Game, Position};
    use fanorona_eval::tables::{BuildOptions, build};

    #[test]
    fn leaves_the_tables_hold_get_their_exact_value_and_the_policy_stays() {
        let dir = tempfile::tempdir().unwrap();
        let (tables, _) =
            build(Board::standard(), 3, dir.path(), &BuildOptions::default()).unwrap();
        let mut leaves = TableLeaves::new(Constant, Arc::new(tables));
        let state = |fen: &str| Fanorona::new(Position::from_fen(fen).unwrap());
        // White to move wins at once (c1d1Ad2A); black to move loses in 2; two lone pieces
        // draw; a loss in 6 with 3 turns left before the no-capture limit may be a draw, and
        // the opening is beyond the tables: both keep the evaluator's value.
        let states = [
            state("9/9/3B5/9/2W1B4 w"),
            state("9/9/9/1W7/WB7 b"),
            state("W8/9/9/9/8B b"),
            state("9/9/9/W8/1W1B5 b 97 60"),
            state("9/9/9/W8/1W1B5 b 94 60"),
            Fanorona::standard(),
        ];
        let n = states[0].num_actions();
        let mut policy = vec![0.0; states.len() * n];
        let mut values = [0.0; 6];
        leaves.evaluate(&states, &mut policy, &mut values);
        assert!(policy.iter().all(|&p| p == 1.0));
        assert_eq!(values, [1.0, -1.0, 0.0, 0.5, -1.0, 0.5]);
    }
}
