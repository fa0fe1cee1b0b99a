//! Exact value targets from endgame tables or a solved board: the value of a position they
//! hold (within its draw limits) as +1 a win, 0 a draw, -1 a loss for the side to move.
//! `distill` labels its positions with tables, and self-play ([`TableLabels`], opened from the run's
//! `selfplay.tables` by the roles) every recorded position the tables or the solution hold, in place of the
//! game's result and the search's value.

use std::any::Any;
use std::sync::Arc;

use fanorona_env::{Fanorona, Game, Position};
use fanorona_exact::solver::{Solution, Value};
use fanorona_exact::tables::EndgameTables;

/// The exact value target of `pos` from `tables` (+1 a win, 0 a draw, -1 a loss for the side
/// to move), where they hold it within its draw limits.
pub fn exact_value(tables: &EndgameTables, pos: &Position) -> Option<f32> {
    tables.value_under_limits(pos).map(Value::result)
}

/// Where a run's exact values come from.
#[derive(Clone, Debug)]
enum Source {
    /// Endgame tables: the positions with few pieces.
    Tables(Arc<EndgameTables>),
    /// A solved board (`fanorona solve --save`): every position reachable from the start.
    Solution(Arc<Solution>),
}

/// The endgame tables or the solved board that label a run's self-play positions.
#[derive(Clone, Debug)]
pub struct TableLabels {
    source: Source,
}

impl TableLabels {
    /// Labels from `tables`.
    pub fn new(tables: Arc<EndgameTables>) -> TableLabels {
        TableLabels {
            source: Source::Tables(tables),
        }
    }

    /// Labels from a solved board: every position it holds.
    pub fn solved(solution: Arc<Solution>) -> TableLabels {
        TableLabels {
            source: Source::Solution(solution),
        }
    }

    /// The exact value of `state` for its player to move, if it is a Fanorona position the
    /// tables or the solution hold within its draw limits.
    pub fn value<G: Game>(&self, state: &G) -> Option<f32> {
        let pos = (state as &dyn Any).downcast_ref::<Fanorona>()?.position();
        match &self.source {
            Source::Tables(tables) => exact_value(tables, pos),
            Source::Solution(solution) => solution.value_under_limits(pos).map(Value::result),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use fanorona_env::{Board, Telo};
    use fanorona_exact::tables::{BuildOptions, build};

    /// Endgame tables of `board` up to `pieces` pieces, built into a temporary directory
    /// (kept alive by the returned guard).
    pub(crate) fn built_tables(
        board: &'static Board,
        pieces: usize,
    ) -> (TableLabels, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let (tables, _) = build(board, pieces, dir.path(), &BuildOptions::default()).unwrap();
        (TableLabels::new(Arc::new(tables)), dir)
    }

    #[test]
    fn labels_are_the_tables_exact_values_within_the_draw_limits() {
        let (labels, _dir) = built_tables(Board::standard(), 3);
        let state = |fen: &str| Fanorona::new(Position::from_fen(fen).unwrap());
        // White to move wins at once; black to move loses in 2; two lone pieces draw; a loss
        // in 6 with 3 turns left before the no-capture limit may be a draw; the opening is
        // beyond the tables; Telo is another game.
        assert_eq!(labels.value(&state("9/9/3B5/9/2W1B4 w")), Some(1.0));
        assert_eq!(labels.value(&state("9/9/9/1W7/WB7 b")), Some(-1.0));
        assert_eq!(labels.value(&state("W8/9/9/9/8B b")), Some(0.0));
        assert_eq!(labels.value(&state("9/9/9/W8/1W1B5 b 94 60")), Some(-1.0));
        assert_eq!(labels.value(&state("9/9/9/W8/1W1B5 b 97 60")), None);
        assert_eq!(labels.value(&Fanorona::standard()), None);
        assert_eq!(labels.value(&Telo::new()), None);
    }
}
