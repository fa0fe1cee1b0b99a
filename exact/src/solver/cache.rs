//! Solved tables shared within the process, so that the `solver` agent kind solves (or loads)
//! a board once however many games the arena starts.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use fanorona_env::Board;

use super::error::SolverError;
use super::solution::Solution;

/// Where a table comes from: a board solved here, or a table file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableSource {
    /// Solve this board (W x H).
    Solve(usize, usize),
    /// Load this file.
    File(PathBuf),
}

type Cache = Mutex<HashMap<TableSource, Arc<Solution>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The table from `source`, solved or loaded on first use and shared afterwards. Concurrent
/// first uses wait for one another rather than solving twice.
pub fn shared_solution(source: &TableSource) -> Result<Arc<Solution>, SolverError> {
    let mut tables = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(table) = tables.get(source) {
        return Ok(Arc::clone(table));
    }
    let table = Arc::new(match source {
        TableSource::Solve(w, h) => {
            let board = Board::new(*w, *h)?;
            Solution::solve(board)?
        }
        TableSource::File(path) => Solution::load(path)?,
    });
    tables.insert(source.clone(), Arc::clone(&table));
    Ok(table)
}
