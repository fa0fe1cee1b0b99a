//! Tables shared within the process, so that agents load a folder once however many games
//! the arena starts. A folder is known by its canonical path (another spelling of it shares
//! the load), and is loaded again when its table files changed since: one added, removed,
//! replaced (another inode), or of another size or modification time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use fanorona_env::Board;

use super::error::TablesError;
use super::probe::EndgameTables;

/// What identifies a table file's content without reading it: name, device, inode, size,
/// modification time.
type FileStamp = (String, u64, u64, u64, Option<SystemTime>);

/// A loaded folder and the stamps of its files when it was loaded.
struct Entry {
    tables: Arc<EndgameTables>,
    stamps: Vec<FileStamp>,
}

/// Loaded tables by canonical folder and board size.
type Cache = Mutex<HashMap<(PathBuf, usize, usize), Entry>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The stamps of the table files of `board` in `dir` (names `WxH-*.egtb`), sorted by name.
fn stamps(dir: &Path, board: &Board) -> Result<Vec<FileStamp>, TablesError> {
    use std::os::unix::fs::MetadataExt;
    let io = |source| TablesError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let prefix = format!("{board}-");
    let mut stamps = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(&prefix) && name.ends_with(".egtb")) {
            continue;
        }
        // Through links, as opening does; a file gone meanwhile is left out.
        let Ok(meta) = std::fs::metadata(entry.path()) else {
            continue;
        };
        stamps.push((
            name,
            meta.dev(),
            meta.ino(),
            meta.len(),
            meta.modified().ok(),
        ));
    }
    stamps.sort();
    Ok(stamps)
}

/// The tables of `board` in `dir`, loaded on first use and shared afterwards, loaded again
/// when the folder's table files changed (and refused if they are no longer whole).
pub fn shared_tables(dir: &Path, board: &'static Board) -> Result<Arc<EndgameTables>, TablesError> {
    // A folder that cannot be resolved or listed is opened as it is, for its error.
    let Ok(folder) = std::fs::canonicalize(dir) else {
        return EndgameTables::open(dir, board).map(Arc::new);
    };
    let Ok(now) = stamps(&folder, board) else {
        return EndgameTables::open(dir, board).map(Arc::new);
    };
    let key = (folder, board.width(), board.height());
    let mut tables = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(entry) = tables.get(&key)
        && entry.stamps == now
        && entry.tables.damaged().is_empty()
    {
        return Ok(Arc::clone(&entry.tables));
    }
    tables.remove(&key);
    let loaded = Arc::new(EndgameTables::open(dir, board)?);
    let entry = Entry {
        tables: Arc::clone(&loaded),
        stamps: now,
    };
    tables.insert(key, entry);
    Ok(loaded)
}
