//! Tables shared within the process, so that agents load a folder once however many games
//! the arena starts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use fanorona_env::Board;

use super::error::TablesError;
use super::probe::EndgameTables;

/// Loaded tables by folder and board size.
type Cache = Mutex<HashMap<(PathBuf, usize, usize), Arc<EndgameTables>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The tables of `board` in `dir`, loaded on first use and shared afterwards.
pub fn shared_tables(dir: &Path, board: &'static Board) -> Result<Arc<EndgameTables>, TablesError> {
    let key = (dir.to_path_buf(), board.width(), board.height());
    let mut tables = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = tables.get(&key) {
        return Ok(Arc::clone(t));
    }
    let loaded = Arc::new(EndgameTables::open(dir, board)?);
    tables.insert(key, Arc::clone(&loaded));
    Ok(loaded)
}
