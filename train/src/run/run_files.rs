//! Which files belong to a training run, so that commands writing files a user names
//! (`export`, `distill`) never write over one of them.

use std::path::{Path, PathBuf};

use super::{BEST_FILE, CONFIG_FILE, CURVES_FILE, LOCK_FILE, METRICS_FILE};
use super::{STUDENT_FILE, STUDENT_METRICS_FILE};
use crate::roles::GAUNTLET_FILE;
use crate::roles::models::MODELS_DIR;
use crate::roles::{GAMES_DIR, LEARNER_DONE_FILE, LEARNER_METRICS_FILE};

/// Files a run directory keeps under fixed names.
const FIXED: [&str; 10] = [
    CONFIG_FILE,
    BEST_FILE,
    STUDENT_FILE,
    STUDENT_METRICS_FILE,
    METRICS_FILE,
    LEARNER_METRICS_FILE,
    LEARNER_DONE_FILE,
    GAUNTLET_FILE,
    CURVES_FILE,
    LOCK_FILE,
];

/// Beginnings of the numbered files a run directory keeps: checkpoints and their replay
/// windows.
const NUMBERED: [&str; 2] = ["checkpoint-", "replay-"];

/// Whether `path` names a file a training run keeps (existing or not): its configuration,
/// metrics, lock, plot, agent files, checkpoints and replay windows in a run directory (a folder holding
/// `config.toml` or `train.lock`), and anything in such a directory's `models/` or `games/`.
pub fn is_run_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let dir = folder_of(path);
    if is_run_directory(&dir) {
        return FIXED.contains(&name) || NUMBERED.iter().any(|p| name.starts_with(p));
    }
    let inner = dir.file_name().and_then(|n| n.to_str());
    inner.is_some_and(|inner| inner == GAMES_DIR || inner == MODELS_DIR)
        && dir.parent().is_some_and(is_run_directory)
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether `dir` is a run directory.
fn is_run_directory(dir: &Path) -> bool {
    dir.join(CONFIG_FILE).is_file() || dir.join(LOCK_FILE).is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_directory_s_own_files_are_recognised_and_others_are_not() {
        let run = tempfile::tempdir().unwrap();
        let dir = run.path();
        assert!(
            !is_run_file(&dir.join("checkpoint-0000000010.ckpt")),
            "not a run yet"
        );
        std::fs::write(dir.join(CONFIG_FILE), "").unwrap();
        for name in [
            "checkpoint-0000000010.ckpt",
            "replay-0000000010.safetensors",
            "metrics.csv",
            "learner.csv",
            "config.toml",
            "train.lock",
            "models/model-0000000003.safetensors",
            "games/w1-0000000002.shard",
            "best.safetensors",
            "student.safetensors",
            "student.jsonl",
        ] {
            assert!(is_run_file(&dir.join(name)), "{name}");
        }
        for name in [
            "agent.safetensors",
            "student.metrics.jsonl",
            "eval/games.jsonl",
        ] {
            assert!(!is_run_file(&dir.join(name)), "{name}");
        }
        assert!(!is_run_file(Path::new("models/fanorona-9x5.safetensors")));
    }
}
