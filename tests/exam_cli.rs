//! End-to-end tests of `fanorona exam`.

mod common;

use common::fanorona;

/// The JSON report of `fanorona exam` with `args` (and `--json --quiet`).
fn report(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["exam", "--json", "--quiet"];
    all.extend_from_slice(args);
    let run = fanorona(all);
    serde_json::from_str(run.assert_success()).expect("a JSON report")
}

#[test]
fn the_solver_keeps_every_value_random_play_does_not() {
    let args = ["--board", "5x3", "--positions", "400", "--seed", "3"];
    let perfect = report(&[&["--agent", "solver:board=5x3"], &args[..]].concat());
    assert_eq!(perfect["positions"], 400);
    assert_eq!(perfect["keeps_value"], 1.0);
    assert_eq!(perfect["all"]["optimal_share"], 1.0);
    assert_eq!(perfect["own_games"]["positions"], 200);
    assert!(perfect["value_head"].is_null());
    let random = report(&[&["--agent", "random"], &args[..]].concat());
    let kept = random["keeps_value"].as_f64().unwrap();
    assert!(kept < 0.8, "random keeps {kept}");
    // Seeded: the same exam gives the same numbers.
    let again = report(&[&["--agent", "random"], &args[..]].concat());
    assert_eq!(again["all"], random["all"]);
}

#[test]
fn the_text_report_names_the_agent_and_the_share() {
    let run = fanorona([
        "exam",
        "--agent",
        "greedy",
        "--board",
        "3x3",
        "--positions",
        "50",
        "--quiet",
    ]);
    let text = run.assert_success();
    assert!(text.starts_with("exam of greedy on 3x3 (seed 1)"), "{text}");
    assert!(text.contains("keeps the value: "), "{text}");
}

#[test]
fn boards_and_inputs_the_exam_cannot_use_are_refused() {
    fanorona(["exam", "--agent", "random", "--board", "9x5"])
        .assert_failure("the exam solves boards of at most 21 points");
    fanorona(["exam", "--agent", "random", "--board", "4x3"]).assert_failure("odd");
    fanorona(["exam", "--agent", "random"]).assert_failure("give --board WxH");
    fanorona(["exam", "--agent", "alphabeta", "--board", "3x3"]).assert_failure("bad --agent");
    fanorona([
        "exam",
        "--agent",
        "random",
        "--board",
        "3x3",
        "--positions",
        "0",
    ])
    .assert_failure("at least 1 position");
    fanorona(["exam", "--agent", "random", "--set", "/nonexistent/set.txt"])
        .assert_failure("cannot read it");
}

#[test]
fn a_made_set_examines_its_labeller_fully() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.txt");
    let set = set.to_str().unwrap();
    let made = fanorona([
        "exam",
        "--make-set",
        set,
        "--board",
        "5x5",
        "--positions",
        "40",
        "--depth",
        "2",
        "--player",
        "random",
        "--player",
        "greedy",
        "--quiet",
    ]);
    assert!(
        made.assert_success().contains("40 positions of 5x5"),
        "{}",
        made.stdout
    );
    let text = std::fs::read_to_string(set).unwrap();
    assert!(
        text.starts_with("# fanorona exam set\n# version: 1\n# board: 5x5\n"),
        "{text}"
    );
    // The labeller itself (same depth, seed 0, fresh table) agrees on every position.
    let same = report(&["--set", set, "--agent", "minimax:depth=2,seed=0,hash=32"]);
    assert_eq!(same["positions"], 40);
    assert_eq!(same["best_turn_agreement"], 1.0);
    let random = report(&["--set", set, "--agent", "random"]);
    assert!(random["best_turn_agreement"].as_f64().unwrap() < 0.9);
}

#[test]
fn counts_beyond_memory_endless_sets_and_empty_searches_are_refused() {
    // Refused with the reason before anything is allocated: no abort, no "capacity overflow".
    for count in ["1000000000000", &u64::MAX.to_string()] {
        for mode in [
            &["--agent", "random", "--board", "3x3"][..],
            &["--make-set", "x.txt"],
        ] {
            let mut args = vec!["exam", "--positions", count];
            args.extend_from_slice(mode);
            let run = fanorona(&args);
            let stderr = run.assert_failure("bad --positions: ");
            assert!(stderr.contains("more than this machine has"), "{stderr}");
        }
    }
    assert!(!std::path::Path::new("x.txt").exists());
    fanorona(["exam", "--agent", "random", "--set", "/dev/zero"])
        .assert_failure("it is not a regular file, as an exam set is");
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.txt");
    let set_text = set.to_str().unwrap();
    fanorona([
        "exam",
        "--make-set",
        set_text,
        "--nodes",
        "0",
        "--positions",
        "2",
    ])
    .assert_failure("bad --nodes: expected at least 1 node");
    assert!(!set.exists());
    // --tables serves a test set only: beside --board it was ignored silently.
    fanorona([
        "exam", "--agent", "random", "--board", "3x3", "--tables", "/tmp",
    ])
    .assert_failure("bad --tables: endgame tables score a test set");
}

#[test]
fn an_exact_set_is_made_by_the_prover_and_scored_by_piece_count() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("exact.txt");
    let set = set.to_str().unwrap();
    let made = fanorona([
        "exam",
        "--make-set",
        set,
        "--prove",
        "--board",
        "5x3",
        "--pieces",
        "5-9",
        "--positions",
        "60",
        "--player",
        "random",
        "--player",
        "greedy",
        "--nodes",
        "200000",
        "--quiet",
    ]);
    let stdout = made.assert_success();
    assert!(stdout.contains("60 positions of 5x3"), "{stdout}");
    assert!(
        made.stderr.contains("positions by piece count: 5:"),
        "{}",
        made.stderr
    );
    let text = std::fs::read_to_string(set).unwrap();
    assert!(
        text.starts_with("# fanorona exact exam set\n# version: 1\n# board: 5x3\n"),
        "{text}"
    );
    // Perfect play keeps every proven value; random play does not.
    let perfect = report(&["--set", set, "--agent", "solver:board=5x3"]);
    assert_eq!(perfect["all"]["positions"], 60);
    assert_eq!(perfect["all"]["keeps_value"], 1.0);
    let by_pieces = perfect["by_pieces"].as_object().unwrap();
    assert!(
        by_pieces
            .keys()
            .all(|k| (5..=9).contains(&k.parse::<u32>().unwrap()))
    );
    let counted: u64 = by_pieces
        .values()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 60);
    let random = report(&["--set", set, "--agent", "random"]);
    assert!(
        random["all"]["keeps_value"].as_f64().unwrap() < 0.95,
        "{random}"
    );
    // The text report: a row per piece count and one for all.
    let run = fanorona(["exam", "--set", set, "--agent", "greedy", "--quiet"]);
    let out = run.assert_success();
    assert!(
        out.contains("exact exam of greedy") && out.contains("   all "),
        "{out}"
    );
    // An exact set takes no tables.
    fanorona([
        "exam", "--set", set, "--agent", "random", "--tables", "/tmp",
    ])
    .assert_failure("is an exact set, exact already");
}

#[test]
fn a_hard_set_holds_critical_positions_where_the_players_disagree() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("hard.txt");
    let set = set.to_str().unwrap();
    let made = fanorona([
        "exam",
        "--make-set",
        set,
        "--prove",
        "--critical",
        "--disagree",
        "--opening-turns",
        "3",
        "--board",
        "5x3",
        "--pieces",
        "5-9",
        "--positions",
        "30",
        "--player",
        "random",
        "--player",
        "greedy",
        "--nodes",
        "200000",
        "--quiet",
    ]);
    made.assert_success();
    let text = std::fs::read_to_string(set).unwrap();
    assert!(
        text.contains("settled and critical")
            && text.contains("another turn")
            && text.contains("3 to 5 random opening turns each"),
        "{text}"
    );
    // Every position is critical: the critical row counts them all, and perfect play keeps
    // every value there.
    let perfect = report(&["--set", set, "--agent", "solver:board=5x3"]);
    assert_eq!(perfect["all"]["positions"], 30);
    assert_eq!(perfect["critical"]["positions"], 30);
    assert_eq!(perfect["critical"]["keeps_value"], 1.0);
    // Disagreement needs two players.
    fanorona([
        "exam",
        "--make-set",
        set,
        "--prove",
        "--disagree",
        "--board",
        "5x3",
        "--player",
        "greedy",
    ])
    .assert_failure("bad --disagree: it compares the turns of a game's two players");
    fanorona(["exam", "--make-set", set, "--critical", "--board", "5x3"]).assert_failure("--prove");
}

#[test]
fn bad_settings_of_an_exact_set_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("exact.txt");
    let set_text = set.to_str().unwrap();
    for (args, expected) in [
        (&["--prove", "--pieces", "9-5"][..], "2 <= MIN <= MAX"),
        (
            &["--prove", "--pieces", "many"],
            "expected a number of pieces",
        ),
        (&["--pieces", "5-9"], "--prove"),
        // 5x3 starts with 14 pieces: no position has more.
        (
            &["--prove", "--pieces", "99"],
            "bad --pieces: the games on 5x3 start with 14 pieces",
        ),
        (
            &["--prove", "--pieces", "15-20"],
            "no position has 15 or more",
        ),
        (&["--tables", "/tmp"], "add --prove for an exact set"),
    ] {
        let mut all = vec!["exam", "--make-set", set_text, "--board", "5x3"];
        all.extend_from_slice(args);
        fanorona(&all).assert_failure(expected);
        assert!(!set.exists());
    }
}

/// The arguments of a small exact set of 5x5 (about 18 candidates, a few seconds) written to
/// `set`, with `seed`.
#[cfg(unix)]
fn small_exact_set<'a>(set: &'a str, seed: &'a str) -> Vec<&'a str> {
    vec![
        "exam",
        "--make-set",
        set,
        "--prove",
        "--board",
        "5x5",
        "--pieces",
        "8-20",
        "--positions",
        "6",
        "--nodes",
        "100000",
        "--player",
        "minimax:depth=2",
        "--player",
        "greedy",
        "--seed",
        seed,
    ]
}

/// Starts `args`, sends the process `signal` once the journal `partial` holds at least 3
/// records while it still runs, and returns how it ended and the records the journal kept.
#[cfg(unix)]
fn stopped_with_records(
    args: &[&str],
    partial: &std::path::Path,
    signal: libc::c_int,
) -> (std::process::ExitStatus, usize) {
    let mut child = common::command(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    let started = std::time::Instant::now();
    let records = || std::fs::read_to_string(partial).map_or(0, |t| t.lines().count() - 1);
    while records() < 3 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the labelling ended before its journal held 3 records"
        );
        assert!(started.elapsed().as_secs() < 120, "no journal records");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: the child is ours and has not been waited for, so its id names it.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let status = child.wait().unwrap();
    (status, records())
}

#[cfg(unix)]
#[test]
fn a_killed_exact_labelling_resumes_to_the_same_set_and_a_mismatched_journal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.txt");
    let whole_text = whole.to_str().unwrap();
    let run = fanorona([&small_exact_set(whole_text, "1")[..], &["--threads", "1"]].concat());
    run.assert_success();
    // Progress lines (stderr is no terminal here), and no journal left.
    assert!(
        run.stderr.contains("labelled: 6 of 6 positions settled"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("whole.txt.partial").exists());
    // Proven on two threads: the same bytes.
    let two = dir.path().join("two.txt");
    let two_text = two.to_str().unwrap();
    fanorona([&small_exact_set(two_text, "1")[..], &["--threads", "2"]].concat()).assert_success();
    assert_eq!(std::fs::read(&two).unwrap(), std::fs::read(&whole).unwrap());
    // Killed part-way on two threads, then run again on one: it resumes and writes the same
    // set.
    let cut = dir.path().join("cut.txt");
    let cut_text = cut.to_str().unwrap();
    let partial = dir.path().join("cut.txt.partial");
    let (_, records) = stopped_with_records(
        &[&small_exact_set(cut_text, "1")[..], &["--threads", "2"]].concat(),
        &partial,
        libc::SIGKILL,
    );
    assert!(!cut.exists());
    let resumed = fanorona([&small_exact_set(cut_text, "1")[..], &["--threads", "1"]].concat());
    resumed.assert_success();
    assert!(
        resumed.stderr.contains(&format!(
            "resuming from {}: {records} positions tried before",
            partial.display()
        )),
        "{}",
        resumed.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&cut).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    assert!(!partial.exists());
    // Stopped by SIGTERM: the positions being proven stop, the journal stays, status 143.
    let (status, _) =
        stopped_with_records(&small_exact_set(cut_text, "2"), &partial, libc::SIGTERM);
    assert_eq!(status.code(), Some(143));
    // A journal left by another command (another seed) is refused, and kept.
    fanorona(small_exact_set(cut_text, "1")).assert_failure(
        "the labelling journal of another command (its sources is \"games of every pair",
    );
    assert!(partial.exists());
}
