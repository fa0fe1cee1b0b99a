//! [`TableLeaves`]: a leaf evaluator that gives the exact value of the endgame tables to every
//! leaf they hold (within its draw limits), and the wrapped evaluator's value elsewhere; the
//! policy is always the wrapped evaluator's.

use std::path::PathBuf;
use std::sync::Arc;

use fanorona_env::Fanorona;
use fanorona_exact::tables::{EndgameTables, shared_tables};
use fanorona_search::Evaluator;

/// Wraps an evaluator: exact values where the tables hold the leaf.
pub struct TableLeaves<E> {
    inner: E,
    tables: Tables,
}

/// The tables of [`TableLeaves`]: loaded, or a folder to load them from for the board of the
/// first leaves.
enum Tables {
    Loaded(Arc<EndgameTables>),
    Folder(PathBuf),
}

impl<E> TableLeaves<E> {
    /// `inner`'s evaluations, with the values of the leaves `tables` hold made exact.
    pub fn new(inner: E, tables: Arc<EndgameTables>) -> TableLeaves<E> {
        TableLeaves {
            inner,
            tables: Tables::Loaded(tables),
        }
    }

    /// `inner`'s evaluations, made exact by the tables in `dir` for the board of the first
    /// leaves (loaded then, once per process). Tables `dir` does not hold for that board
    /// leave every value `inner`'s: give the agent to [`fanorona_eval::TablesFirst`],
    /// which refuses to play then.
    pub fn from_folder(inner: E, dir: PathBuf) -> TableLeaves<E> {
        TableLeaves {
            inner,
            tables: Tables::Folder(dir),
        }
    }

    /// The tables, loaded for the board of `state` where they are not yet.
    fn tables(&mut self, state: &Fanorona) -> Option<&EndgameTables> {
        if let Tables::Folder(dir) = &self.tables {
            let board = state.position().board();
            self.tables = Tables::Loaded(shared_tables(dir, board).ok()?);
        }
        match &self.tables {
            Tables::Loaded(tables) => Some(tables),
            Tables::Folder(_) => None,
        }
    }
}

impl<E: Evaluator<Fanorona>> Evaluator<Fanorona> for TableLeaves<E> {
    fn evaluate(&mut self, states: &[Fanorona], policy: &mut [f32], values: &mut [f32]) {
        self.inner.evaluate(states, policy, values);
        let Some(tables) = states.first().and_then(|first| self.tables(first)) else {
            return;
        };
        for (state, value) in states.iter().zip(values.iter_mut()) {
            if let Some(exact) = tables.value_under_limits(state.position()) {
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
    use fanorona_exact::tables::{BuildOptions, build};

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
        // Loaded from the folder at the first leaves: the same values; from a folder without
        // tables of the board, the evaluator's.
        let mut from_folder = TableLeaves::from_folder(Constant, dir.path().to_path_buf());
        let mut again = [0.0; 6];
        from_folder.evaluate(&states, &mut policy, &mut again);
        assert_eq!(again, values);
        let empty = tempfile::tempdir().unwrap();
        let mut without = TableLeaves::from_folder(Constant, empty.path().to_path_buf());
        without.evaluate(&states, &mut policy, &mut again);
        assert_eq!(again, [0.5; 6]);
    }
}
