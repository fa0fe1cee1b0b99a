//! README's "The tour in a minute" runs as written: its shell block, line by line, in an
//! empty folder with the built `fanorona` first on the PATH. A tiny run trains and names the
//! agent the README's comment names, `eval` plays it, one scripted game of `play` against
//! it ends, the 5x5 tables of up to 6 pieces are built, and `prove` proves 5x5 a draw with
//! them. So the tour cannot go stale silently, nor its commands fail in README order.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The repository's root.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The heading of the tour's section in README.md.
const HEADING: &str = "## The tour in a minute";

/// The command lines of the first `sh` block after `heading` in `markdown`.
fn tour(markdown: &str, heading: &str) -> Vec<String> {
    markdown
        .lines()
        .skip_while(|l| l.trim() != heading)
        .skip_while(|l| l.trim() != "```sh")
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with("```"))
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect()
}

/// The agent specification the README's comment on the `train` line names.
fn named_agent(line: &str) -> Option<&str> {
    line.split_once("its agent: ")
        .map(|(_, agent)| agent.trim())
}

#[test]
fn the_readme_tour_runs_in_an_empty_folder() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let lines = tour(&readme, HEADING);
    assert!(
        lines.len() >= 5,
        "README's {HEADING:?} has {} command lines: is its block found?",
        lines.len()
    );
    let folder = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_fanorona")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut outputs = Vec::new();
    for line in &lines {
        let started = Instant::now();
        let output = Command::new("sh")
            .args(["-c", line])
            .current_dir(folder.path())
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "README {HEADING:?}: `{line}` failed ({}):\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        eprintln!("{:>6.1} s  {line}", started.elapsed().as_secs_f64());
        outputs.push(stdout);
    }
    let train = lines
        .iter()
        .position(|l| l.contains("fanorona train"))
        .unwrap();
    let agent = named_agent(&lines[train]).expect("the train line's comment names its agent");
    assert!(
        outputs[train].contains(&format!("agent {agent}")),
        "the tiny run does not end naming {agent}:\n{}",
        outputs[train]
    );
    let play = lines
        .iter()
        .position(|l| l.contains("fanorona play"))
        .unwrap();
    assert!(
        outputs[play].contains("Result: "),
        "the scripted game does not end:\n{}",
        outputs[play]
    );
    let prove = lines
        .iter()
        .position(|l| l.contains("fanorona prove"))
        .unwrap();
    assert!(
        outputs[prove].contains("draw"),
        "prove does not find 5x5 a draw:\n{}",
        outputs[prove]
    );
}

#[test]
fn the_tour_is_read_from_its_section() {
    let sample = "## Other\n```sh\nfanorona perft\n```\n## The tour in a minute\ntext\n\
        ```sh\nfanorona train --preset tiny   # ends naming its agent: abnet:path=x\n\n\
        fanorona eval --run x\n```\n```sh\nfanorona later\n```\n";
    let lines = tour(sample, HEADING);
    assert_eq!(
        lines,
        [
            "fanorona train --preset tiny   # ends naming its agent: abnet:path=x",
            "fanorona eval --run x"
        ]
    );
    assert_eq!(named_agent(&lines[0]), Some("abnet:path=x"));
    assert_eq!(named_agent(&lines[1]), None);
}
