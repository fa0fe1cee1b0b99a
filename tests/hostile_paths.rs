//! Hostile output paths: every option of every command that writes a file, listed from the
//! clap definitions (`FANORONA_PATH_OPTIONS`), is given a device, a named pipe, a symbolic
//! link, a folder and one of the command's own inputs as its target. Each must be refused with
//! the reason, and nothing may change. Folder outputs get a device, a pipe and a regular file.
//! An option that takes a path and is in no table below fails the test: a new one cannot be
//! left out.

#![cfg(unix)]

mod common;

use std::collections::BTreeSet;
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};

use common::{ERROR_CODE, command, fanorona};

/// The arguments that make a command write `target` through the option, in the folder `dir`
/// (where it first makes the inputs it needs).
type Scenario = fn(dir: &Path, target: &Path) -> Vec<String>;

/// A file output: how to write it, and how to make in `dir` the one of the scenario's inputs
/// that is then given as its target.
struct FileOutput {
    option: &'static str,
    write: Scenario,
    input: fn(dir: &Path) -> PathBuf,
}

/// A class file inside the tables folder `dir/tables` (an input of the commands that read
/// tables).
fn class_file_in_tables(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("tables")).unwrap();
    file(&dir.join("tables"), "3x3-1v1.egtb", b"a class file")
}

/// Strings of the arguments.
fn args(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// `path` as text.
fn text(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}

/// A file at `dir/name` holding `contents`.
fn file(dir: &Path, name: &str, contents: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The small shipped model, copied into `dir` (an input agents read).
fn model(dir: &Path) -> PathBuf {
    let path = dir.join("model.safetensors");
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/fanorona-9x5-64x32.safetensors");
    std::fs::copy(shipped, &path).unwrap();
    path
}

/// A run folder with a metrics file (what `rate --curve` reads).
fn run_with_metrics(dir: &Path) -> PathBuf {
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    file(&run, "metrics.csv", b"iteration\n")
}

/// An empty folder of games, for `rate` and `audit`.
fn games(dir: &Path) -> String {
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    text(&games)
}

/// `rate` with a learning curve of a run in `dir`, writing `target` through `flag`.
fn rate_with_curve(dir: &Path, flag: &str, target: &Path) -> Vec<String> {
    let run = text(run_with_metrics(dir).parent().unwrap());
    args(&["rate", &games(dir), "--curve", &run, flag, &text(target)])
}

/// The teacher of `distill` in `dir`, and its student there.
fn teacher_and_student(dir: &Path) -> [String; 2] {
    [text(&model(dir)), text(&dir.join("student.safetensors"))]
}

/// A small exact 5x5 set in `dir` (what `fit` learns from).
fn exact_set(dir: &Path) -> PathBuf {
    file(
        dir,
        "set.txt",
        b"# fanorona exact exam set\n# version: 1\n# board: 5x5\n# labeller: test\n\
          # sources: test\nB1BBB/B2BB/5/2B2/3W1 w 0 1 ; loss ; d1d2 d1e1 d1c1\n",
    )
}

/// Every option that writes a file.
fn file_outputs() -> Vec<FileOutput> {
    vec![
        FileOutput {
            option: "solve --save",
            write: |dir, t| {
                let metrics = text(&dir.join("metrics.jsonl"));
                args(&[
                    "solve",
                    "--board",
                    "3x3",
                    "--metrics",
                    &metrics,
                    "--save",
                    &text(t),
                ])
            },
            // The other output, as an input would be.
            input: |dir| file(dir, "metrics.jsonl", b"old"),
        },
        FileOutput {
            option: "solve --metrics",
            write: |dir, t| {
                let table = text(&file(dir, "table.bin", b"a solved table"));
                args(&["solve", "--load", &table, "--metrics", &text(t)])
            },
            input: |dir| file(dir, "table.bin", b"a solved table"),
        },
        FileOutput {
            option: "prove --proof",
            write: |dir, t| {
                let tables = text(&dir.join("tables"));
                let prove = ["prove", "--board", "3x3", "--quiet", "--tables"];
                let mut all = args(&prove);
                all.extend(args(&[&tables, "--proof", &text(t)]));
                all
            },
            input: class_file_in_tables,
        },
        FileOutput {
            option: "tables build --metrics",
            write: |dir, t| {
                let out = text(&dir.join("tables"));
                let build = [
                    "tables", "build", "--board", "3x3", "--pieces", "2", "--quiet",
                ];
                let mut all = args(&build);
                all.extend(args(&["--out", &out, "--metrics", &text(t)]));
                all
            },
            input: class_file_in_tables,
        },
        FileOutput {
            option: "exam --make-set",
            write: |dir, t| {
                let player = format!("abnet:path={}", text(&model(dir)));
                let set = ["exam", "--positions", "2", "--depth", "1", "--quiet"];
                let mut all = args(&set);
                all.extend(args(&["--player", &player, "--player", "random"]));
                all.extend(args(&["--make-set", &text(t)]));
                all
            },
            // The model a player loads.
            input: model,
        },
        FileOutput {
            option: "audit --json",
            write: |dir, t| {
                let tables = text(&dir.join("tables"));
                args(&[
                    "audit",
                    &games(dir),
                    "--tables",
                    &tables,
                    "--json",
                    &text(t),
                ])
            },
            input: class_file_in_tables,
        },
        FileOutput {
            option: "rate --json",
            write: |dir, t| rate_with_curve(dir, "--json", t),
            input: run_with_metrics,
        },
        FileOutput {
            option: "rate --curve-csv",
            write: |dir, t| rate_with_curve(dir, "--curve-csv", t),
            input: run_with_metrics,
        },
        FileOutput {
            option: "rate --curve-png",
            write: |dir, t| rate_with_curve(dir, "--curve-png", t),
            input: run_with_metrics,
        },
        FileOutput {
            option: "export --out",
            write: |dir, t| {
                let checkpoint = text(&file(dir, "run.ckpt", b"a checkpoint"));
                args(&["export", "--run", &checkpoint, "--out", &text(t)])
            },
            input: |dir| file(dir, "run.ckpt", b"a checkpoint"),
        },
        FileOutput {
            option: "distill --out",
            write: |dir, t| {
                let [teacher, _] = teacher_and_student(dir);
                args(&["distill", "--teacher", &teacher, "--out", &text(t)])
            },
            input: model,
        },
        FileOutput {
            option: "fit --out",
            write: |dir, t| {
                let set = text(&exact_set(dir));
                args(&["fit", "--set", &set, "--out", &text(t)])
            },
            input: exact_set,
        },
        FileOutput {
            option: "fit --metrics",
            write: |dir, t| {
                let set = text(&exact_set(dir));
                let out = text(&dir.join("fitted.safetensors"));
                args(&["fit", "--set", &set, "--out", &out, "--metrics", &text(t)])
            },
            input: exact_set,
        },
        FileOutput {
            option: "distill --metrics",
            write: |dir, t| {
                let [teacher, out] = teacher_and_student(dir);
                let metrics = text(t);
                args(&[
                    "distill",
                    "--teacher",
                    &teacher,
                    "--out",
                    &out,
                    "--metrics",
                    &metrics,
                ])
            },
            input: model,
        },
    ]
}

/// Every option that names a folder the command writes files into, with the arguments that
/// make it write into `target`.
fn folder_outputs() -> Vec<(&'static str, Scenario)> {
    // (gauntlet --run writes gauntlet.csv into a run whose configuration it reads first.)
    vec![
        ("match --out", |_, t| {
            args(&[
                "match",
                "--white",
                "random",
                "--black",
                "random",
                "--games",
                "2",
                "--quiet",
                "--out",
                &text(t),
            ])
        }),
        ("gauntlet --out", |_, t| {
            args(&[
                "gauntlet",
                "--agent",
                "random",
                "--vs",
                "greedy",
                "--games",
                "2",
                "--quiet",
                "--out",
                &text(t),
            ])
        }),
        ("train --run", |_, t| {
            args(&[
                "train",
                "--preset",
                "tiny",
                "--iterations",
                "1",
                "--quiet",
                "--run",
                &text(t),
            ])
        }),
        ("selfplay --run", |_, t| {
            args(&["selfplay", "--wait", "1", "--quiet", "--run", &text(t)])
        }),
        ("learn --run", |_, t| {
            args(&["learn", "--preset", "tiny", "--quiet", "--run", &text(t)])
        }),
        ("gauntlet --run", |_, t| {
            args(&["gauntlet", "--run", &text(t)])
        }),
        ("tables build --out", |_, t| {
            args(&[
                "tables",
                "build",
                "--board",
                "3x3",
                "--pieces",
                "2",
                "--quiet",
                "--out",
                &text(t),
            ])
        }),
    ]
}

/// Options that take a path and only read it (`train --out` is `--run`'s former name).
const READ_ONLY_OR_RUNS: &[&str] = &[
    "exam --table",
    "exam --set",
    "exam --tables",
    "solve --load",
    "tables probe --tables",
    "train --config",
    "train --out",
    "train --tables",
    "train --init",
    "eval --run",
    "eval --checkpoint",
    "export --run",
    "export --checkpoint",
    "distill --teacher",
    "distill --tables",
    "fit --set",
    "review file",
    "rate dirs",
    "rate --curve",
    "serve --tables",
    "learn --config",
    "prove --tables",
    "audit games",
    "audit --tables",
];

/// The options that take a path, as the binary's clap definitions list them.
fn listed_path_options() -> BTreeSet<String> {
    let output = command(std::iter::empty::<&str>())
        .env("FANORONA_PATH_OPTIONS", "1")
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn every_path_option_is_covered() {
    let mut covered: BTreeSet<String> = READ_ONLY_OR_RUNS.iter().map(|s| s.to_string()).collect();
    covered.extend(file_outputs().iter().map(|o| o.option.to_string()));
    covered.extend(folder_outputs().iter().map(|(o, _)| o.to_string()));
    let listed = listed_path_options();
    let missing: Vec<_> = listed.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "path options in no table of this test: {missing:?}"
    );
    let stale: Vec<_> = covered.difference(&listed).collect();
    assert!(
        stale.is_empty(),
        "options in this test that the binary lacks: {stale:?}"
    );
}

/// A character device that is not the system's: as root a node of /dev/null's kind in `dir`
/// (so that a wrong rename would not replace the real one), else /dev/null (which nobody else
/// can replace).
fn device(dir: &Path) -> PathBuf {
    if unsafe { libc::geteuid() } != 0 {
        return PathBuf::from("/dev/null");
    }
    let path = dir.join("null");
    let name = std::ffi::CString::new(text(&path)).unwrap();
    let made = unsafe { libc::mknod(name.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
    assert_eq!(made, 0, "mknod");
    path
}

/// A named pipe at `dir/pipe`.
fn pipe(dir: &Path) -> PathBuf {
    let path = dir.join("pipe");
    let name = std::ffi::CString::new(text(&path)).unwrap();
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0, "mkfifo");
    path
}

/// What a path is, to compare before and after: its type, a link's target, a file's bytes or
/// a folder's entries.
fn state(path: &Path) -> String {
    let meta = std::fs::symlink_metadata(path).expect("the target still exists");
    let kind = meta.file_type();
    if kind.is_symlink() {
        let target = std::fs::read_link(path).unwrap();
        return format!(
            "link to {} holding {:?}",
            target.display(),
            std::fs::read(path).ok()
        );
    }
    if kind.is_dir() {
        let mut names: Vec<_> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        return format!("folder {names:?}");
    }
    if kind.is_char_device() {
        return "character device".into();
    }
    if kind.is_fifo() {
        return "named pipe".into();
    }
    format!("file {:?}", std::fs::read(path).unwrap())
}

/// Runs the command and checks it refused `target` with `reason` and left it as it was.
#[track_caller]
fn assert_refused(case: &str, arguments: &[String], target: &Path, reason: &str) {
    let before = state(target);
    let run = fanorona(arguments);
    assert_eq!(
        run.status.code(),
        Some(ERROR_CODE),
        "{case}: {arguments:?}\nstdout: {}\nstderr: {}",
        run.stdout,
        run.stderr
    );
    assert!(
        run.stderr.contains(reason),
        "{case}: no {reason:?} in {}",
        run.stderr
    );
    assert_eq!(state(target), before, "{case}: the target changed");
}

#[test]
fn every_file_output_refuses_special_files_links_folders_and_its_inputs() {
    for output in file_outputs() {
        let flag = output.option.rsplit(' ').next().unwrap();
        let refused = format!("bad {flag}: cannot write");
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let linked = file(dir, "linked.txt", b"kept");
        let link = dir.join("link");
        symlink(&linked, &link).unwrap();
        let folder = dir.join("folder");
        std::fs::create_dir(&folder).unwrap();
        file(&folder, "inside.txt", b"kept");
        for (what, target, reason) in [
            ("device", device(dir), "it is a character device"),
            ("pipe", pipe(dir), "it is a named pipe"),
            ("link", link.clone(), "it is a symbolic link"),
            ("folder", folder.clone(), "it is a folder"),
        ] {
            let case = format!("{} {what}", output.option);
            let arguments = (output.write)(dir, &target);
            assert_refused(&case, &arguments, &target, reason);
            assert!(
                fanorona(&arguments).stderr.contains(&refused),
                "{case}: no {refused:?}"
            );
        }
        assert_eq!(std::fs::read(&linked).unwrap(), b"kept");
        let input_dir = tempfile::tempdir().unwrap();
        let (input_dir, case) = (input_dir.path(), format!("{} own input", output.option));
        let target = (output.input)(input_dir);
        let arguments = (output.write)(input_dir, &target);
        let before = state(&target);
        let run = fanorona(&arguments);
        assert_eq!(
            run.status.code(),
            Some(ERROR_CODE),
            "{case}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("an input of the command") || run.stderr.contains("is also the"),
            "{case}: {}",
            run.stderr
        );
        assert_eq!(state(&target), before, "{case}: the input changed");
    }
}

#[test]
fn every_folder_output_refuses_special_files_and_files() {
    for (option, write) in folder_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let regular = file(dir, "regular.txt", b"kept");
        for (what, target) in [
            ("device", device(dir)),
            ("pipe", pipe(dir)),
            ("file", regular),
        ] {
            let case = format!("{option} {what}");
            // "it is not a folder", or for gauntlet --run "... is not a run directory".
            assert_refused(&case, &write(dir, &target), &target, "not a ");
        }
    }
}
