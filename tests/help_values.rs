//! Where a help text states which values an option accepts, the parser agrees: the presets
//! that `train --preset` names are the embedded ones, and `--openings` says "file" on exactly
//! the commands whose parser takes an opening file. (docs/cli.md's reference is generated from
//! the same help texts, `src/cli_reference.rs`, so it agrees too.)

use std::process::Command;

use fanorona_train::config::PRESETS;

/// `fanorona <args> --help`.
fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .arg("--help")
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{args:?} --help failed");
    String::from_utf8(output.stdout).unwrap()
}

/// The help text of one long option in a `--help` text: its line and the indented lines
/// that continue it.
fn option_help(help: &str, option: &str) -> String {
    let mut lines = help.lines().skip_while(|l| {
        let line = l.trim_start();
        !(line.starts_with('-') && line.split([' ', ',']).any(|word| word == option))
    });
    let Some(first) = lines.next() else {
        panic!("no {option} in:\n{help}");
    };
    let mut text = first.trim().to_string();
    for line in lines.take_while(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty()) {
        text.push(' ');
        text.push_str(line.trim());
    }
    text
}

/// Whether `args` parse (`FANORONA_PARSE_ONLY=1`: clap only, nothing runs).
fn parses(args: &[&str]) -> bool {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .env("FANORONA_PARSE_ONLY", "1")
        .output()
        .expect("the binary runs")
        .status
        .success()
}

#[test]
fn train_preset_names_every_embedded_preset() {
    let text = option_help(&help(&["train"]), "--preset");
    for preset in PRESETS {
        assert!(
            text.contains(&format!("{preset} (")),
            "train --preset's help does not name the preset {preset}: {text}"
        );
    }
}

#[test]
fn openings_says_file_where_the_parser_takes_one() {
    let commands: [(&str, &[&str]); 3] = [
        ("match", &["--white", "random", "--black", "random"]),
        (
            "gauntlet",
            &["--agent", "random", "--vs", "greedy", "--out", "x"],
        ),
        ("eval", &["--run", "x", "--vs", "random"]),
    ];
    for (command, required) in commands {
        let text = option_help(&help(&[command]), "--openings");
        let says_file = text.contains("opening file");
        let mut with_file = vec![command];
        with_file.extend_from_slice(required);
        with_file.extend_from_slice(&["--openings", "openings.txt"]);
        let mut with_number = with_file.clone();
        *with_number.last_mut().unwrap() = "4";
        assert!(parses(&with_number), "{command} --openings 4 is refused");
        assert_eq!(
            parses(&with_file),
            says_file,
            "{command} --openings FILE: the help says {text:?}"
        );
    }
    // The lookup of an option's text itself.
    let sample =
        "Options:\n      --a <A>\n          first\n          more\n      --b\n          second\n";
    assert_eq!(option_help(sample, "--a"), "--a <A> first more");
    assert_eq!(option_help(sample, "--b"), "--b second");
}
