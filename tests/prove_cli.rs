//! End-to-end tests of `fanorona prove`: a value with its turns as JSON, a proof file that
//! resumes and checks again, and clear refusals.

mod common;

use common::fanorona;

#[test]
fn prove_prints_the_value_resumes_its_file_and_checks_it() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("5x3.proof");
    let proof = proof.to_str().unwrap();
    // A budget too small: unproven, and the file keeps the search.
    let run = fanorona([
        "prove", "--board", "5x3", "--nodes", "20", "--proof", proof, "--quiet",
    ]);
    let text = run.assert_success();
    assert!(text.contains("value: unproven"), "{text}");
    assert!(text.contains("turns here"), "{text}");
    // Unsettled, each first turn is shown with its numbers.
    assert!(
        text.contains("  after c1c2A: open (proof number "),
        "{text}"
    );
    // Continued: the 5x3 start is a win for white, whose first turn c1c2A keeps it.
    let run = fanorona([
        "prove", "--board", "5x3", "--turns", "--json", "--proof", proof, "--quiet",
    ]);
    let json: serde_json::Value = serde_json::from_str(run.assert_success().trim()).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["side_to_move"], "white");
    let questions = json["questions"].as_array().unwrap();
    assert_eq!(questions[0]["outcome"], "proven");
    assert!(questions[0]["nodes"].as_u64().unwrap() > 20, "{json}");
    let turns = json["turns"].as_array().unwrap();
    assert!(
        turns
            .iter()
            .any(|t| t["turn"] == "c1c2A" && t["status"] == "keeps"),
        "{json}"
    );
    assert!(turns.iter().any(|t| t["status"] == "spoils"), "{json}");
    // Its certificate holds a turn after which white wins.
    let root_turns = &questions[0]["root_turns"];
    assert_eq!(root_turns["turns"].as_u64(), Some(turns.len() as u64));
    assert!(root_turns["proven"].as_u64().unwrap() >= 1, "{json}");
    let each = root_turns["each"].as_array().unwrap();
    let named: Vec<&serde_json::Value> = each.iter().map(|t| &t["turn"]).collect();
    let listed: Vec<&serde_json::Value> = turns.iter().map(|t| &t["turn"]).collect();
    assert_eq!(named, listed);
    let proven = each.iter().filter(|t| t["state"] == "proven").count() as u64;
    assert_eq!(Some(proven), root_turns["proven"].as_u64());
    assert!(
        each.iter()
            .all(|t| t["state"] != "open" || t["pn"].as_u64() > Some(0))
    );
    let run = fanorona(["prove", "--board", "5x3", "--proof", proof, "--check"]);
    assert!(run.assert_success().contains("every record checks"));
    // A damaged proof file is refused with the reason, and a file of another board too.
    let mut bytes = std::fs::read(proof).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(proof, &bytes).unwrap();
    let run = fanorona(["prove", "--board", "5x3", "--proof", proof, "--check"]);
    run.assert_failure("not a valid proof file: checksum mismatch");
    let other = dir.path().join("3x5.proof");
    let other = other.to_str().unwrap();
    fanorona(["prove", "--board", "3x5", "--proof", other, "--quiet"]).assert_success();
    let run = fanorona(["prove", "--board", "5x3", "--proof", other, "--quiet"]);
    run.assert_failure("the proof file of 3x5");
}

#[test]
fn bad_positions_and_arguments_are_refused() {
    fanorona(["prove", "not a fen"]).assert_failure("bad FEN");
    fanorona(["prove", "--board", "4x4"]).assert_failure("bad --board");
    // The game is over: black, not to move, has no piece.
    fanorona(["prove", "5/2W2/5 w"]).assert_failure("the game is over");
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    fanorona(["prove", "--board", "5x3", "--tables", empty])
        .assert_failure("no endgame tables of 5x3");
    fanorona(["prove", "--board", "5x3", "--check"]).assert_failure("--proof");
    fanorona(["prove", "--board", "5x3", "--threads", "3"]).assert_failure("--threads");
}

#[test]
fn one_thread_or_two_prove_the_same_values() {
    // Won, drawn (two disproofs) and lost 5x3 positions: every kind of value, its two
    // questions asked at once or in turn.
    for (fen, value) in [
        ("BB3/5/3WW w", "win"),
        ("B4/5/4W w", "draw"),
        ("B3B/5/1W3 w", "loss"),
    ] {
        let values: Vec<serde_json::Value> = ["1", "2"]
            .iter()
            .map(|threads| {
                let args = ["prove", fen, "--json", "--quiet", "--threads", threads];
                let json: serde_json::Value =
                    serde_json::from_str(fanorona(args).assert_success().trim()).unwrap();
                json["value"].clone()
            })
            .collect();
        assert_eq!(values, [value, value], "{fen}");
    }
    // A loss proven with both questions at once is read back from the proof file by a
    // run asking them in turn: nothing is searched again.
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("loss.proof");
    let proof = proof.to_str().unwrap();
    for threads in ["2", "1"] {
        let args = [
            "prove",
            "B3B/5/1W3 w",
            "--json",
            "--quiet",
            "--threads",
            threads,
            "--proof",
            proof,
        ];
        let json: serde_json::Value =
            serde_json::from_str(fanorona(args).assert_success().trim()).unwrap();
        assert_eq!(json["value"], "loss");
        if threads == "1" {
            assert_eq!(json["nodes"], 0, "{json}");
        }
    }
}

/// Runs the binary with `args`, killing it (and failing) if it has not ended within `limit`:
/// a command that blocks for ever fails the test instead of hanging it.
fn fanorona_within(args: &[&str], limit: std::time::Duration) -> common::Run {
    let child = common::command(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_within(child, limit, &format!("`fanorona {}`", args.join(" ")))
}

/// Waits for `child` to end and returns its run, killing it (and failing the test, naming
/// it `what`) if it has not ended within `limit`.
fn wait_within(
    mut child: std::process::Child,
    limit: std::time::Duration,
    what: &str,
) -> common::Run {
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what} still ran after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    common::Run {
        status: output.status,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
fn seconds_out_of_range_are_refused_not_a_panic() {
    for bad in ["-1", "nan", "inf", "1e300", "1e19", "ten"] {
        let seconds = format!("--seconds={bad}");
        let run = fanorona(["prove", "--board", "5x3", &seconds, "--quiet"]);
        run.assert_failure("expected a number of seconds from 0 to 1e9");
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    let run = fanorona(["prove", "--board", "5x3", "--seconds", "1e9", "--quiet"]);
    assert!(run.assert_success().contains("value: win"));
}

#[cfg(unix)]
#[test]
fn devices_and_named_pipes_are_refused_as_proof_files_and_exam_sets() {
    let limit = std::time::Duration::from_secs(60);
    let run = fanorona_within(
        &["prove", "--board", "5x3", "--check", "--proof", "/dev/zero"],
        limit,
    );
    run.assert_failure("it is not a regular file, as a proof file is");
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe");
    let name = std::ffi::CString::new(pipe.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo(3) with a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let pipe = pipe.to_str().unwrap();
    let run = fanorona_within(
        &["prove", "--board", "5x3", "--check", "--proof", pipe],
        limit,
    );
    run.assert_failure("it is not a regular file, as a proof file is");
    let run = fanorona_within(&["prove", "--board", "5x3", "--proof", pipe], limit);
    run.assert_failure("a named pipe");
    let run = fanorona_within(&["exam", "--set", pipe, "--agent", "random"], limit);
    run.assert_failure("it is not a regular file, as an exam set is");
}

/// A proof of the 9x5 start with no budget (it runs until stopped) on `proof`.
#[cfg(unix)]
fn endless_proof(proof: &str) -> std::process::Child {
    common::command(["prove", "--proof", proof])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_second_prove_on_a_file_is_refused_and_signals_save_the_proof_file() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("9x5.proof");
    let lock = dir.path().join("9x5.proof.lock");
    let proof = proof.to_str().unwrap();
    for (signal, status) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let child = endless_proof(proof);
        let started = std::time::Instant::now();
        while !lock.exists() {
            assert!(started.elapsed().as_secs() < 60, "no lock file");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Searching now: a second run on the same file is refused at once.
        std::thread::sleep(std::time::Duration::from_millis(1000));
        let second = fanorona(["prove", "--proof", proof, "--nodes", "10"]);
        second.assert_failure("the proof file is in use by another run of the prover (process");
        // SAFETY: kill(2) with the id of our own, still unreaped, child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let run = wait_within(
            child,
            std::time::Duration::from_secs(60),
            "the stopped prover",
        );
        assert_eq!(run.status.code(), Some(status), "{}", run.stderr);
        assert!(run.stderr.contains("is saved"), "{}", run.stderr);
        assert!(run.stdout.contains("value: unproven"), "{}", run.stdout);
        // The saved search is there, and continues where it stopped.
        let check = fanorona(["prove", "--proof", proof, "--check"]);
        assert!(check.assert_success().contains("every record checks"));
        let next = fanorona([
            "prove", "--proof", proof, "--nodes", "10", "--json", "--quiet",
        ]);
        let json: serde_json::Value = serde_json::from_str(next.assert_success().trim()).unwrap();
        assert!(
            json["questions"][0]["nodes"].as_u64().unwrap() > 1000,
            "{json}"
        );
    }
}

#[test]
fn a_proof_file_made_with_tables_names_them_when_they_are_missing() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let tables = tables.to_str().unwrap();
    fanorona([
        "tables", "build", "--board", "5x3", "--pieces", "3", "--out", tables, "--quiet",
    ])
    .assert_success();
    let proof = dir.path().join("p.proof");
    let proof = proof.to_str().unwrap();
    let fen = "W3B/5/B3W w";
    fanorona([
        "prove", fen, "--tables", tables, "--proof", proof, "--quiet",
    ])
    .assert_success();
    fanorona([
        "prove", fen, "--tables", tables, "--proof", proof, "--check",
    ])
    .assert_success();
    let run = fanorona(["prove", fen, "--proof", proof, "--check"]);
    run.assert_failure("the proof file was made with the endgame tables of 5x3 up to 3 pieces");
    assert!(
        run.stderr.contains("no tables were given"),
        "{}",
        run.stderr
    );
    let run = fanorona(["prove", fen, "--proof", proof, "--quiet"]);
    run.assert_failure("give those tables");
}

#[test]
fn tables_build_over_a_damaged_class_file_says_to_delete_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out_text = out.to_str().unwrap();
    let build = || {
        fanorona([
            "tables", "build", "--board", "5x3", "--pieces", "3", "--out", out_text, "--quiet",
        ])
    };
    build().assert_success();
    let file = out.join("5x3-1v2.egtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    build().assert_failure("delete this file and run the build again to rebuild it");
    std::fs::remove_file(&file).unwrap();
    build().assert_success();
}
