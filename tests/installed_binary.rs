//! An installed binary carries its agent: copied alone into an empty folder and run from
//! there, with a fresh home and cache, `fanorona engine` without `--agent` plays `abnet` over
//! the shipped student, whose bytes it writes into its cache folder.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `binary engine` in `dir` with `cache` as its cache folder and `script` on stdin.
fn engine_in(binary: &Path, dir: &Path, cache: &Path, script: &str) -> Output {
    let mut child = Command::new(binary)
        .arg("engine")
        .current_dir(dir)
        .env_clear()
        .env("HOME", dir)
        .env("FANORONA_CACHE_DIR", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the copied binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_copied_binary_plays_the_shipped_student_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("fanorona");
    std::fs::copy(env!("CARGO_BIN_EXE_fanorona"), &binary).unwrap();
    let cache = dir.path().join("cache");
    let output = engine_in(
        &binary,
        dir.path(),
        &cache,
        // The end of the input lets the search finish (`quit` would stop it).
        "uci\nposition startpos\ngo depth 2\n",
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let id = stdout.lines().next().unwrap();
    let expected = format!("abnet:path={}/fanorona-9x5-64x32-", cache.display());
    assert!(
        id.starts_with("id name fanorona") && id.contains(&expected) && id.ends_with(",ms=1000)"),
        "{id}"
    );
    let info = stdout.lines().find(|l| l.starts_with("info")).unwrap();
    assert!(
        info.starts_with("info depth 2 ") && info.contains(" pv "),
        "{info}"
    );
    let best = stdout.lines().find(|l| l.starts_with("bestmove")).unwrap();
    let legal = ["d2e3A", "d3e3A", "d3e3W", "e2e3A", "f2e3A"];
    assert!(
        legal.iter().any(|m| best == format!("bestmove {m}")),
        "{best}"
    );
    // The file it plays is the shipped student, byte for byte.
    let written: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/fanorona-9x5-64x32.safetensors");
    assert_eq!(
        std::fs::read(&written[0]).unwrap(),
        std::fs::read(shipped).unwrap()
    );
}

#[test]
fn without_a_writable_cache_the_engine_says_so_and_plays_minimax() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let output = engine_in(
        Path::new(env!("CARGO_BIN_EXE_fanorona")),
        dir.path(),
        &file.join("cache"),
        "uci\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("id name fanorona")
            && stdout.lines().next().unwrap().contains("(minimax:depth=4)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("warning: the shipped model fanorona-9x5-64x32 is unavailable"),
        "{stderr}"
    );
}
