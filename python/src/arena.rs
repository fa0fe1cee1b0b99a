//! `fanorona.match`: a match between two agents in the arena, its summary as a dict.

use fanorona_env::start_position;
use fanorona_eval::{Match, MatchConfig, Openings, spec_factory};
use fanorona_util::progress::ProgressBar;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::value_error;
use crate::index::Whole;
use crate::json::to_py;

/// Plays `games` games between two agent specifications (colours alternating, each pair of
/// games from the same opening of `openings` random turns) on `threads` threads, the GIL
/// released; returns the arena's summary as a dict (what `fanorona.match` returns).
#[pyfunction]
#[pyo3(signature = (white, black, games=Whole(100), threads=Whole(2), board=None, rules="",
    fen=None, openings=Whole(4), max_turns=Whole(300), seed=Whole(1)))]
#[allow(clippy::too_many_arguments)]
pub fn match_summary<'py>(
    py: Python<'py>,
    white: &str,
    black: &str,
    games: Whole<usize>,
    threads: Whole<usize>,
    board: Option<&str>,
    rules: &str,
    fen: Option<&str>,
    openings: Whole<u32>,
    max_turns: Whole<usize>,
    seed: Whole<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (Whole(games), Whole(threads), Whole(openings)) = (games, threads, openings);
    let (Whole(max_turns), Whole(seed)) = (max_turns, seed);
    let registry = fanorona_train::players::registry();
    let first = registry.parse(white).map_err(value_error)?;
    let second = registry.parse(black).map_err(value_error)?;
    // Refuse bad options before any game starts.
    registry.options(&first).map_err(value_error)?;
    registry.options(&second).map_err(value_error)?;
    let config = MatchConfig {
        games,
        threads,
        start: start_position(fen, board, rules).map_err(value_error)?,
        openings: Openings::Random { plies: openings },
        max_turns,
        seed,
        sprt: None,
        event: "fanorona.match".into(),
        progress: ProgressBar::hidden(),
    };
    let make_first = spec_factory(&registry, &first);
    let make_second = spec_factory(&registry, &second);
    let report =
        py.detach(|| Match::new(config, &make_first, &make_second).run())
            .map_err(|e| match e {
                fanorona_eval::ArenaError::Settings(_)
                | fanorona_eval::ArenaError::Agent { .. } => value_error(e),
                e => PyRuntimeError::new_err(e.to_string()),
            })?;
    let summary: serde_json::Value =
        serde_json::from_str(&report.summary_json()).map_err(value_error)?;
    to_py(py, &summary)
}
