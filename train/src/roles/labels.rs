//! A run's exact targets: its `selfplay.tables` (endgame tables or a solved board) opened as
//! the [`TableLabels`] its self-play records with, and its `selfplay.prover` as the
//! [`ProverLabels`] (with those tables at the prover's leaves).

use std::path::Path;
use std::sync::Arc;

use fanorona_env::{Board, Position};
use fanorona_exact::solver::{TableSource, shared_solution};
use fanorona_exact::tables::{EndgameTables, shared_tables};

use crate::config::{FanoronaPart, RunConfig};
use crate::error::TrainError;
use crate::exam::BuiltinExactSet;
use crate::prover_targets::ProverLabels;
use crate::table_labels::TableLabels;

/// The labels of a run: its `selfplay.tables` (a directory of endgame tables, or the file
/// of a solved board) opened for its board (loaded once per process), `None` without
/// them. Tables or a solution that cannot be opened, of another board, or a game other
/// than Fanorona, are refused with the reason.
pub(crate) fn run_labels(config: &RunConfig) -> Result<Option<TableLabels>, TrainError> {
    let Some(path) = &config.selfplay.tables else {
        return Ok(None);
    };
    config.validate()?;
    let board = config.fanorona_board(FanoronaPart::Tables)?;
    if path.is_file() {
        return open_solution(path, board).map(Some);
    }
    Ok(Some(TableLabels::new(open_tables(path, board)?)))
}

/// The prover of a run's exact targets (`selfplay.prover`), with the run's endgame tables
/// (not a solved board) at its leaves; `None` without it.
pub(crate) fn run_prover(config: &RunConfig) -> Result<Option<Arc<ProverLabels>>, TrainError> {
    let Some(settings) = &config.selfplay.prover else {
        return Ok(None);
    };
    config.validate()?;
    let board = config.fanorona_board(FanoronaPart::Prover)?;
    let tables = match &config.selfplay.tables {
        Some(path) if !path.is_file() => Some(open_tables(path, board)?),
        _ => None,
    };
    // The exam set of the board is a test set: its positions are never labelled.
    let exam: Vec<Position> = BuiltinExactSet::of_board(board.width(), board.height())
        .map(|set| set.set().positions.iter().map(|p| p.position).collect())
        .unwrap_or_default();
    Ok(Some(Arc::new(ProverLabels::new(
        settings.clone(),
        tables,
        &exam,
    ))))
}

/// The endgame tables in `dir` for `board` (opened once per process).
fn open_tables(dir: &Path, board: &'static Board) -> Result<Arc<EndgameTables>, TrainError> {
    shared_tables(dir, board).map_err(|error| TrainError::Tables {
        dir: dir.to_path_buf(),
        error,
    })
}

/// The solved board in `path`, refused if it is not of `board`.
fn open_solution(path: &Path, board: &'static Board) -> Result<TableLabels, TrainError> {
    let solution = shared_solution(&TableSource::File(path.to_path_buf())).map_err(|error| {
        TrainError::Solution {
            path: path.to_path_buf(),
            error,
        }
    })?;
    if !std::ptr::eq(solution.board(), board) {
        return Err(TrainError::SolutionBoard {
            path: path.to_path_buf(),
            solved: solution.board().to_string(),
            run: board.to_string(),
        });
    }
    Ok(TableLabels::solved(solution))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_labels::tests::built_tables;
    use fanorona_env::{Fanorona, GameId, Position};
    use fanorona_exact::solver::{Solution, Value};

    #[test]
    fn a_runs_prover_never_labels_the_exam_positions_of_its_board() {
        let mut config = crate::config::RunConfig::preset("5x5").unwrap();
        config.selfplay.prover = Some(crate::config::ProverTargets {
            nodes: 1_000,
            share: 1.0,
            policy: true,
        });
        let prover = run_prover(&config).unwrap().unwrap();
        let set = BuiltinExactSet::of_board(5, 5).unwrap().set();
        assert!(
            set.positions
                .iter()
                .all(|p| prover.is_excluded(&p.position))
        );
        assert!(
            set.positions
                .iter()
                .all(|p| prover.prove(&p.position).is_none())
        );
        assert!(!prover.is_excluded(&Position::initial(Board::new(5, 5).unwrap())));
        // Without the key, no prover.
        config.selfplay.prover = None;
        assert!(run_prover(&config).unwrap().is_none());
    }

    #[test]
    fn a_run_opens_its_tables_and_refuses_missing_ones_or_another_game() {
        let mut config = RunConfig::preset("tiny").unwrap();
        assert!(run_labels(&config).unwrap().is_none());
        config.selfplay.tables = Some("/nonexistent/tables".into());
        let error = run_labels(&config).unwrap_err().to_string();
        assert!(error.contains("selfplay.tables") && error.contains("/nonexistent/tables"));
        let (_, dir) = built_tables(Board::new(5, 3).unwrap(), 2);
        config.selfplay.tables = Some(dir.path().to_path_buf());
        assert!(run_labels(&config).unwrap().is_some());
        config.game = GameId::Telo;
        let error = run_labels(&config).unwrap_err().to_string();
        assert!(error.contains("Fanorona positions only"), "{error}");
    }

    #[test]
    fn a_solved_board_labels_every_position_it_holds_and_another_board_is_refused() {
        let mut config = RunConfig::preset("tiny").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("solved-5x3.bin");
        let board = Board::new(5, 3).unwrap();
        let solution = Solution::solve(board).unwrap();
        solution.save(&file).unwrap();
        config.selfplay.tables = Some(file);
        let labels = run_labels(&config).unwrap().unwrap();
        // The opening, beyond any endgame table, has its solved value; so has every position.
        let start = Fanorona::new(Position::initial(board));
        let solved = solution.value(start.position()).unwrap();
        assert_eq!(labels.value(&start), Some(solved.result()));
        let mut outcomes = [0; 3];
        for (pos, value) in solution.positions().step_by(97) {
            assert_eq!(labels.value(&Fanorona::new(pos)), Some(value.result()));
            outcomes[(value.result() + 1.0) as usize] += 1;
        }
        assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
        // A win too far for the turns left before the no-capture limit is not labelled.
        let (win, n) = solution
            .positions()
            .find_map(|(pos, v)| match v {
                Value::Win(n) if n > 1 => Some((pos, n)),
                _ => None,
            })
            .unwrap();
        let rules = fanorona_env::Rules::default();
        let limit = rules.no_capture_limit.unwrap();
        let fen = win.to_fen();
        let rows_and_side: Vec<&str> = fen.split(' ').take(2).collect();
        let late = |turns: u16| {
            let fen = format!("{} {turns} 1", rows_and_side.join(" "));
            Fanorona::new(Position::from_fen_with_rules(&fen, rules).unwrap())
        };
        assert_eq!(labels.value(&late(limit - n)), Some(1.0));
        assert_eq!(labels.value(&late(limit - n + 1)), None);
        let other = dir.path().join("solved-3x3.bin");
        Solution::solve(Board::new(3, 3).unwrap())
            .unwrap()
            .save(&other)
            .unwrap();
        config.selfplay.tables = Some(other);
        let error = run_labels(&config).unwrap_err().to_string();
        assert!(error.contains("3x3") && error.contains("5x3"), "{error}");
    }
}
