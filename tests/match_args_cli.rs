//! The options of a match are defined once for `match`, `gauntlet` and `eval`: the same
//! names, help and defaults on all three (but `--openings` of `eval`, which takes only a
//! number of random openings, refused by the parser, and says so); `gauntlet --run` refuses
//! them.

mod common;

use common::fanorona;

/// The help text of `option` in `fanorona COMMAND --help`: its entry, up to the next one.
fn option_help(command: &str, option: &str) -> String {
    let help = fanorona([command, "--help"]);
    let text = help.assert_success();
    let start = text
        .find(&format!("--{option} <"))
        .or_else(|| text.find(&format!("--{option}\n")))
        .unwrap_or_else(|| panic!("no --{option} in {command} --help:\n{text}"));
    let rest = &text[start..];
    // Entries are separated by an empty line (lines inside one are indented).
    let end = rest.find("\n\n").unwrap_or(rest.len());
    rest[..end].to_string()
}

#[test]
fn match_gauntlet_and_eval_share_their_options_and_defaults() {
    for option in ["threads", "openings", "max-turns", "seed", "quiet"] {
        let in_match = option_help("match", option);
        assert_eq!(in_match, option_help("gauntlet", option), "--{option}");
        if option != "openings" {
            assert_eq!(in_match, option_help("eval", option), "--{option}");
        }
    }
    assert!(option_help("match", "openings").contains("[default: 2]"));
    let in_eval = option_help("eval", "openings");
    assert!(in_eval.contains("[default: 2]"), "{in_eval}");
    assert!(in_eval.contains("(no file here)"), "{in_eval}");
}

#[test]
fn eval_takes_a_number_of_openings_and_gauntlet_run_takes_none() {
    fanorona([
        "eval",
        "--run",
        "none",
        "--vs",
        "random",
        "--openings",
        "book.txt",
    ])
    .assert_failure(
        "invalid value 'book.txt' for '--openings <OPENINGS>': this command takes a number",
    );
    let refused = fanorona(["gauntlet", "--run", "none", "--openings", "3"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        refused.stderr.contains("cannot be used with"),
        "{}",
        refused.stderr
    );
}
