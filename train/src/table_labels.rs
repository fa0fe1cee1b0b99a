//! Exact value targets from endgame tables: the value of a position the tables hold (within
//! its draw limits) as +1 a win, 0 a draw, -1 a loss for the side to move. `distill` labels
//! its positions with it, and self-play ([`TableLabels`], the run's `selfplay.tables`) every
//! recorded position the tables hold, in place of the game's result and the search's value.

use std::any::Any;
use std::sync::Arc;

use fanorona_env::{Fanorona, Game, GameId, Position};
use fanorona_eval::solver::Value;
use fanorona_eval::tables::{EndgameTables, shared_tables};

use crate::run::{RunConfig, TrainError};

/// The exact value target of `pos` from `tables` (+1 a win, 0 a draw, -1 a loss for the side
/// to move), where they hold it within its draw limits.
pub fn exact_value(tables: &EndgameTables, pos: &Position) -> Option<f32> {
    tables.value_under_limits(pos).map(Value::result)
}

/// The endgame tables that label a run's self-play positions.
#[derive(Clone, Debug)]
pub struct TableLabels {
    tables: Arc<EndgameTables>,
}

impl TableLabels {
    /// Labels from `tables`.
    pub fn new(tables: Arc<EndgameTables>) -> TableLabels {
        TableLabels { tables }
    }

    /// The labels of a run: its `selfplay.tables` opened for its board (loaded once per
    /// process), `None` without them. Tables that cannot be opened, or a game other than
    /// Fanorona, are refused with the reason.
    pub fn for_run(config: &RunConfig) -> Result<Option<TableLabels>, TrainError> {
        let Some(dir) = &config.selfplay.tables else {
            return Ok(None);
        };
        config.validate()?;
        let GameId::Fanorona(board) = config.game.id()? else {
            unreachable!("validate refuses tables for other games");
        };
        let tables = shared_tables(dir, board).map_err(|error| TrainError::Tables {
            dir: dir.clone(),
            error,
        })?;
        Ok(Some(TableLabels::new(tables)))
    }

    /// The exact value of `state` for its player to move, if it is a Fanorona position the
    /// tables hold within its draw limits.
    pub fn value<G: Game>(&self, state: &G) -> Option<f32> {
        let game = (state as &dyn Any).downcast_ref::<Fanorona>()?;
        exact_value(&self.tables, game.position())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::selfplay::SelfPlayOutput;
    use fanorona_env::{Board, Telo};
    use fanorona_eval::tables::{BuildOptions, build};

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

    /// Checks that `labelled` is the self-play `plain` with positions labelled by tables: the
    /// same games, and where a position's value target changed, its result and root value are
    /// one exact value (+1, 0 or -1); some changed, no more than the labelled count.
    pub(crate) fn assert_labelled(plain: &SelfPlayOutput, labelled: &SelfPlayOutput) {
        let exact = labelled.stats.exact_positions;
        assert_eq!(plain.stats.exact_positions, 0);
        assert_eq!(plain.games.len(), labelled.games.len());
        let mut changed = 0;
        for (p, l) in plain.games.iter().zip(&labelled.games) {
            assert_eq!(
                (&p.meta, &p.obs_values, &p.actions, &p.targets),
                (&l.meta, &l.obs_values, &l.actions, &l.targets)
            );
            for ply in 0..p.len() {
                if (p.values[ply], p.root_values[ply]) != (l.values[ply], l.root_values[ply]) {
                    assert_eq!(l.values[ply], l.root_values[ply]);
                    assert!([-1.0, 0.0, 1.0].contains(&l.values[ply]));
                    changed += 1;
                }
            }
        }
        assert!(
            changed > 0 && changed <= exact,
            "{changed} changed, {exact} exact"
        );
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

    #[test]
    fn a_run_opens_its_tables_and_refuses_missing_ones_or_another_game() {
        let mut config = RunConfig::preset("tiny").unwrap();
        assert!(TableLabels::for_run(&config).unwrap().is_none());
        config.selfplay.tables = Some("/nonexistent/tables".into());
        let error = TableLabels::for_run(&config).unwrap_err().to_string();
        assert!(error.contains("selfplay.tables") && error.contains("/nonexistent/tables"));
        let (_, dir) = built_tables(Board::new(5, 3).unwrap(), 2);
        config.selfplay.tables = Some(dir.path().to_path_buf());
        assert!(TableLabels::for_run(&config).unwrap().is_some());
        config.game = crate::run::GameConfig::from(GameId::Telo);
        let error = TableLabels::for_run(&config).unwrap_err().to_string();
        assert!(error.contains("Fanorona positions only"), "{error}");
    }
}
