//! An installed binary carries its agent: copied alone into an empty folder and run from
//! there, with a fresh home, `fanorona engine` and `fanorona play` without `--agent` play
//! `abnet` over the shipped student, read from the binary's own bytes: they name it
//! `abnet:ms=1000` and write no file anywhere (no cache folder either).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary copied alone into a fresh folder, with an empty home folder beside it.
struct Installed {
    dir: tempfile::TempDir,
    binary: PathBuf,
    home: PathBuf,
}

impl Installed {
    fn new() -> Installed {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("bin").join("fanorona");
        std::fs::create_dir(binary.parent().unwrap()).unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_fanorona"), &binary).unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        Installed { dir, binary, home }
    }

    /// Runs the binary with `args` from its folder, with only a home and a cache folder in
    /// its environment (both in the empty home), and `script` on stdin; asserts it succeeded.
    fn run(&self, args: &[&str], script: &str) -> Output {
        let spawn = || {
            Command::new(&self.binary)
                .args(args)
                .current_dir(self.binary.parent().unwrap())
                .env_clear()
                .env("HOME", &self.home)
                .env("XDG_CACHE_HOME", self.home.join(".cache"))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        };
        // A test running beside this one may fork while the copy's file is still open for
        // writing: its child holds that descriptor until it execs, and running the copy
        // meanwhile fails with "text file busy". That passes within moments.
        let mut tries = 0;
        let mut child = loop {
            match spawn() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                spawned => break spawned.expect("the copied binary runs"),
            }
        };
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Asserts that nothing was written: the home folder is empty and the binary alone in
    /// its folder.
    fn assert_nothing_written(&self) {
        let names = |dir: &Path| -> Vec<_> {
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect()
        };
        assert_eq!(names(&self.home), Vec::<std::ffi::OsString>::new());
        assert_eq!(names(self.binary.parent().unwrap()), ["fanorona"]);
        let mut top = names(self.dir.path());
        top.sort();
        assert_eq!(top, ["bin", "home"]);
    }
}

#[test]
fn a_copied_engine_plays_the_shipped_student_by_name_and_writes_nothing() {
    let installed = Installed::new();
    // The end of the input lets the search finish (`quit` would stop it).
    let output = installed.run(&["engine"], "uci\nposition startpos\ngo depth 2\n");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let id = stdout.lines().next().unwrap();
    assert!(
        id.starts_with("id name fanorona ") && id.ends_with(" (abnet:ms=1000)"),
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
    installed.assert_nothing_written();
}

#[test]
fn a_copied_play_greets_with_the_short_name_and_writes_nothing() {
    let installed = Installed::new();
    let output = installed.run(&["play", "--human", "black"], "resign\n");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("You play black against abnet:ms=1000. "),
        "{stdout}"
    );
    assert!(stdout.contains("abnet:ms=1000 plays "), "{stdout}");
    assert!(
        stdout.trim_end().ends_with("Result: 1-0 (black resigns)"),
        "{stdout}"
    );
    installed.assert_nothing_written();
}

#[test]
fn the_release_binary_is_at_most_40_mib() {
    // `[profile.release] debug = false` in Cargo.toml: no line tables (a 220 MB binary with
    // them); the symbols stay, so a backtrace still names its functions.
    let size = std::fs::metadata(env!("CARGO_BIN_EXE_fanorona"))
        .unwrap()
        .len();
    assert!(
        size <= 40 * 1024 * 1024,
        "target/release/fanorona is {size} bytes, over 40 MiB: see [profile.release] in Cargo.toml"
    );
}
