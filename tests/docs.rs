//! The documentation cannot go stale silently: every `fanorona ...` command (and
//! `cargo run --release -- ...`) in the shell code blocks of README.md, models/README.md and
//! docs/**/*.md parses against the real command line, and every relative link points at a
//! file that exists (and, with `#anchor` into a markdown page, at one of its headings).
//!
//! A command is checked by running the binary with `FANORONA_PARSE_ONLY=1`, which parses the
//! arguments with clap and exits without running anything. Code blocks marked `text`,
//! `rust`, `python`, `toml` and the like are not shell and are skipped (the synopsis in
//! docs/cli.md is `text`: its capitals are placeholders). In a block with `$ ` prompts only
//! the prompted lines are commands, the rest being output. Shell placeholders such as `$RUN`
//! stay as written: they parse wherever the option takes text.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One command found in a document: where it is and its arguments after `fanorona`.
#[derive(Debug, PartialEq)]
struct DocCommand {
    line: usize,
    args: Vec<String>,
}

/// The markdown files the test reads: README.md, models/README.md and docs/**/*.md.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = Path::new(ROOT);
    let mut files = vec![root.join("README.md"), root.join("models/README.md")];
    walk(&root.join("docs"), &mut files);
    files
}

/// Whether a code block with this info string holds shell commands.
fn is_shell(info: &str) -> bool {
    matches!(info, "" | "sh" | "bash" | "shell" | "console")
}

/// The fenced code blocks of `markdown` that hold shell: (line of each line, the lines).
fn shell_blocks(markdown: &str) -> Vec<Vec<(usize, &str)>> {
    let mut blocks = Vec::new();
    let mut current: Option<(bool, Vec<(usize, &str)>)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match current.take() {
                Some((shell, lines)) => {
                    if shell {
                        blocks.push(lines);
                    }
                }
                None => current = Some((is_shell(info.trim()), Vec::new())),
            }
        } else if let Some((_, lines)) = &mut current {
            lines.push((i + 1, line));
        }
    }
    blocks
}

/// Splits one shell command line into words, as far as the documentation needs: quotes,
/// `$(...)` kept inside its word, and the end of the command at an unquoted `#` comment,
/// `|`, `;`, `&` or `>`.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '$' if chars.peek() == Some(&'(') => {
                in_word = true;
                depth += 1;
                word.push(c);
                word.push(chars.next().unwrap());
            }
            ')' if depth > 0 => {
                depth -= 1;
                word.push(c);
            }
            c if depth > 0 => word.push(c),
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '|' | ';' | '&' | '>' => break,
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Every `fanorona` command in the shell blocks of `markdown`.
fn commands_in(markdown: &str) -> Vec<DocCommand> {
    let mut commands = Vec::new();
    for block in shell_blocks(markdown) {
        let prompted = block.iter().any(|(_, l)| l.trim_start().starts_with("$ "));
        let mut joined: Option<(usize, String)> = None;
        for &(number, line) in &block {
            let (start, mut text) = match joined.take() {
                Some((start, before)) => (start, before + " " + line.trim()),
                None => (number, line.trim().to_string()),
            };
            if let Some(rest) = text.strip_suffix('\\') {
                joined = Some((start, rest.to_string()));
                continue;
            }
            if prompted {
                match text.strip_prefix("$ ") {
                    Some(rest) => text = rest.to_string(),
                    None => continue,
                }
            }
            let words = shell_words(&text);
            let args = match words.first().map(String::as_str) {
                Some("fanorona") => &words[1..],
                Some("cargo")
                    if words[1..].starts_with(&["run", "--release", "--"].map(String::from)) =>
                {
                    &words[4..]
                }
                _ => continue,
            };
            commands.push(DocCommand {
                line: start,
                args: args.to_vec(),
            });
        }
    }
    commands
}

/// Why `args` do not parse against the binary's command line, or `None` when they do.
fn parse_error(args: &[String]) -> Option<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .env("FANORONA_PARSE_ONLY", "1")
        .output()
        .expect("the binary runs");
    (!output.status.success()).then(|| String::from_utf8_lossy(&output.stderr).into_owned())
}

/// The anchor GitHub gives a heading: lower case, spaces as `-`, other characters than
/// letters, digits, `-` and `_` dropped.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of the headings of `markdown` (outside code).
fn anchors(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor_of(line.trim_start_matches('#')));
        }
    }
    found
}

/// Whether `anchor` names a heading of the markdown page at `path` (any anchor of another
/// kind of file counts as found).
fn anchor_exists(path: &Path, anchor: &str) -> bool {
    if path.extension().is_none_or(|e| e != "md") {
        return true;
    }
    let page = std::fs::read_to_string(path).unwrap_or_default();
    anchors(&page).iter().any(|a| a == anchor)
}

/// The relative link targets of `markdown` (outside code) that name no existing file or
/// folder, resolved from `dir`, or an anchor that no heading of the page named (of
/// `markdown` itself, for a link to `#anchor` alone) has.
fn broken_links(markdown: &str, dir: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            let Some(end) = tail.find(')') else { break };
            let target = &tail[..end];
            rest = &tail[end..];
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let external = target.contains("://") || target.starts_with("mailto:");
            if external {
                continue;
            }
            let found = if path.is_empty() {
                anchor.is_empty() || anchors(markdown).iter().any(|a| a == anchor)
            } else {
                let file = dir.join(path);
                file.exists() && (anchor.is_empty() || anchor_exists(&file, anchor))
            };
            if !found {
                broken.push(target.to_string());
            }
        }
    }
    broken
}

#[test]
fn every_documented_command_parses() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for command in commands_in(&text) {
            checked += 1;
            if let Some(error) = parse_error(&command.args) {
                failures.push(format!(
                    "{}:{}: fanorona {}\n{error}",
                    file.strip_prefix(ROOT).unwrap().display(),
                    command.line,
                    command.args.join(" ")
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} commands found: is the search broken?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_relative_link_points_at_a_file() {
    let mut failures = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for target in broken_links(&text, file.parent().unwrap()) {
            failures.push(format!(
                "{}: {target}",
                file.strip_prefix(ROOT).unwrap().display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "broken links:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_readme_stays_short() {
    let size = std::fs::metadata(Path::new(ROOT).join("README.md"))
        .unwrap()
        .len();
    assert!(size <= 16 * 1024, "README.md is {size} bytes, over 16 KiB");
}

#[test]
fn the_checker_finds_commands_and_refuses_bad_ones() {
    let sample = "text\n\
        ```sh\n\
        fanorona match --white minimax:depth=2 --black random --games 4   # a comment\n\
        cargo run --release -- train --preset tiny --out $RUN\n\
        fanorona gauntlet --agent net:path=$c,sims=400 \\\n    --vs random --games 2 --out runs/x-$(basename $c .ckpt)\n\
        fanorona moves --fen \"9/9/9/9/8 w\" | head -4\n\
        fanorona match --white random --black random --gmaes 4\n\
        cargo bench -p fanorona-env\n\
        ```\n\
        ```text\n\
        fanorona perft --depth N\n\
        ```\n\
        ```\n\
        $ fanorona perft --depth 2\n\
        perft 2 = 39\n\
        fanorona output --that-is-not-a-command\n\
        ```\n";
    let commands = commands_in(sample);
    let args: Vec<String> = commands.iter().map(|c| c.args.join(" ")).collect();
    assert_eq!(
        args,
        [
            "match --white minimax:depth=2 --black random --games 4",
            "train --preset tiny --out $RUN",
            "gauntlet --agent net:path=$c,sims=400 --vs random --games 2 --out runs/x-$(basename $c .ckpt)",
            "moves --fen 9/9/9/9/8 w",
            "match --white random --black random --gmaes 4",
            "perft --depth 2",
        ]
    );
    assert_eq!(commands[2].line, 5);
    let verdicts: Vec<bool> = commands
        .iter()
        .map(|c| parse_error(&c.args).is_none())
        .collect();
    assert_eq!(verdicts, [true, true, true, true, false, true]);
    assert!(parse_error(&commands[4].args).unwrap().contains("--gmaes"));
    // A value of the wrong type is refused too: the parse is clap's own.
    assert!(parse_error(&["perft".into(), "--depth".into(), "N".into()]).is_some());
}

#[test]
fn the_checker_finds_broken_links() {
    let dir = Path::new(ROOT);
    let sample = "[ok](README.md), [anchor](docs/index.md#the-fanorona-book), \
        [web](https://example.com/x), ![picture](docs/serve-start.png)\n\
        [gone](docs/no-such-page.md) and [gone too](RULES.md#notation)\n\
        [a heading](docs/rules.md#a-turn), [no heading](docs/rules.md#a-move), \
        [here](#the-sample), [not here](#elsewhere)\n\
        ## The sample\n\
        ```\n[in code](not/checked.md)\n# not a heading\n```\n";
    assert_eq!(
        broken_links(sample, dir),
        [
            "docs/no-such-page.md",
            "RULES.md#notation",
            "docs/rules.md#a-move",
            "#elsewhere"
        ]
    );
    assert_eq!(
        anchor_of(" `fanorona tables`: build, probe"),
        "fanorona-tables-build-probe"
    );
    assert_eq!(anchors(sample), ["the-sample"]);
}
