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
    let run = fanorona(["prove", "--board", "5x3", "--proof", proof, "--check"]);
    assert!(run.assert_success().contains("every certificate checks"));
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
}
