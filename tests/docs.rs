//! The documentation cannot go stale silently: every `fanorona ...` command (and
//! `cargo run --release -- ...`) of README.md, models/README.md and docs/**/*.md parses
//! against the real command line, in shell code blocks, `text` blocks and inline code alike;
//! every relative link points at a file that exists (and, with `#anchor` into a markdown
//! page, at one of its headings); README's layout table names every top-level folder.
//!
//! A command is checked by running the binary with `FANORONA_PARSE_ONLY=1`, which parses the
//! arguments with clap and exits without running anything. In a block with `$ ` prompts only
//! the prompted lines are commands, the rest being output. Shell placeholders such as `$RUN`
//! stay as written in shell blocks: they parse wherever the option takes text. A `text` block
//! or inline code may be a synopsis, with capitals as placeholders (`--games N`), `[...]`
//! around optional parts or `...`: such a line is checked as a synopsis instead, its command
//! (and subcommand) existing and every `--option` it names being one of that command's.

use std::collections::HashMap;
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

/// The fenced code blocks of `markdown` whose info string `wanted` accepts: (line of each
/// line, the lines).
fn blocks(markdown: &str, wanted: fn(&str) -> bool) -> Vec<Vec<(usize, &str)>> {
    let mut blocks = Vec::new();
    let mut current: Option<(bool, Vec<(usize, &str)>)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match current.take() {
                Some((keep, lines)) => {
                    if keep {
                        blocks.push(lines);
                    }
                }
                None => current = Some((wanted(info.trim()), Vec::new())),
            }
        } else if let Some((_, lines)) = &mut current {
            lines.push((i + 1, line));
        }
    }
    blocks
}

/// The inline code spans of `markdown` outside code blocks, with the line each starts on;
/// a span may run over the lines of its paragraph.
fn inline_code(markdown: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut in_code = false;
    let mut open: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            open = None;
            continue;
        }
        if in_code {
            continue;
        }
        if line.trim().is_empty() {
            open = None; // a span does not run over a paragraph's end
            continue;
        }
        for (k, part) in line.split('`').enumerate() {
            if k > 0 {
                open = match open.take() {
                    Some((start, text)) => {
                        spans.push((start, text));
                        None
                    }
                    None => Some((i + 1, String::new())),
                };
            }
            if let Some((_, text)) = &mut open {
                if k == 0 {
                    text.push(' ');
                }
                text.push_str(part);
            }
        }
    }
    spans
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

/// The arguments after `fanorona` (or `cargo run --release --`) of a command's words, or
/// `None` when the words are not such a command.
fn fanorona_args(words: &[String]) -> Option<&[String]> {
    match words.first().map(String::as_str) {
        Some("fanorona") => Some(&words[1..]),
        Some("cargo") if words[1..].starts_with(&["run", "--release", "--"].map(String::from)) => {
            Some(&words[4..])
        }
        _ => None,
    }
}

/// A command of `file` that does not fit the command line, where it is and why: `error`.
fn failure(file: &std::path::Path, command: &DocCommand, error: &str) -> String {
    format!(
        "{}:{}: fanorona {}\n{error}",
        file.strip_prefix(ROOT).unwrap().display(),
        command.line,
        command.args.join(" ")
    )
}

/// Every `fanorona` command in the shell blocks of `markdown`.
fn commands_in(markdown: &str) -> Vec<DocCommand> {
    commands_in_blocks(blocks(markdown, is_shell))
}

/// Every `fanorona` command in the `text` blocks and the inline code of `markdown`: each may
/// be a synopsis ([`is_synopsis`]).
fn quoted_commands_in(markdown: &str) -> Vec<DocCommand> {
    let mut commands = commands_in_blocks(blocks(markdown, |info| info == "text"));
    for (line, span) in inline_code(markdown) {
        let words = shell_words(span.trim());
        // `fanorona 9x5` names a game, not a command: a command starts with a word or option.
        if let Some(args) = fanorona_args(&words)
            && args
                .first()
                .is_none_or(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '-'))
        {
            commands.push(DocCommand {
                line,
                args: args.to_vec(),
            });
        }
    }
    commands
}

/// Every `fanorona` command of these code blocks.
fn commands_in_blocks(blocks: Vec<Vec<(usize, &str)>>) -> Vec<DocCommand> {
    let mut commands = Vec::new();
    for block in blocks {
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
            let Some(args) = fanorona_args(&words) else {
                continue;
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

/// Whether `args` are a synopsis rather than a command: a placeholder in capitals (`N`,
/// `FILE`, `$RUN`, `RUN/student.safetensors`), `[` or `]` around optional parts, `...`.
fn is_synopsis(args: &[String]) -> bool {
    args.iter().any(|word| {
        word.contains('[')
            || word.contains(']')
            || word.contains("...")
            || word
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|piece| {
                    piece.starts_with(|c: char| c.is_ascii_uppercase())
                        && piece
                            .chars()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                })
    })
}

/// Whether a parse error says only that something is left out (required arguments, an
/// option's value, a subcommand: clap then prints the usage without an error line), as in a
/// mention of a command in prose (`fanorona tables`, `fanorona solve --save`): such a line
/// is checked as a synopsis.
fn is_mention(parse_error: &str) -> bool {
    parse_error.contains("required arguments were not provided")
        || parse_error.contains("a value is required for")
        || !parse_error.contains("error:")
}

/// The `--help` text of `fanorona` with these subcommand words.
fn help_of(path: &[&str], cache: &mut HashMap<String, String>) -> String {
    let key = path.join(" ");
    cache
        .entry(key)
        .or_insert_with(|| {
            let output = Command::new(env!("CARGO_BIN_EXE_fanorona"))
                .args(path)
                .arg("--help")
                .output()
                .expect("the binary runs");
            String::from_utf8_lossy(&output.stdout).into_owned()
        })
        .clone()
}

/// The long options (`--name`) that a `--help` text lists.
fn long_options(help: &str) -> Vec<String> {
    let mut options = Vec::new();
    for line in help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
    {
        let signature = line.split("  ").next().unwrap_or("");
        for word in signature.split([' ', ',', '=', '<']) {
            if word.starts_with("--") && word.len() > 2 {
                options.push(word.to_string());
            }
        }
    }
    options
}

/// The subcommands that a `--help` text lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

/// Why the synopsis `args` does not fit the command line (its command or subcommand unknown,
/// an `--option` that command does not have), or `None` when it fits.
fn synopsis_error(args: &[String], cache: &mut HashMap<String, String>) -> Option<String> {
    let mut path: Vec<&str> = Vec::new();
    let mut rest = args;
    // The command words: while the help of the path so far lists subcommands, the next word
    // must be one (or a placeholder for one, which ends the check of the path).
    loop {
        let help = help_of(&path, cache);
        let commands = subcommands(&help);
        let Some(word) = rest.first().filter(|w| !w.starts_with('-')) else {
            break;
        };
        if commands.is_empty() {
            break;
        }
        if is_synopsis(std::slice::from_ref(word)) {
            return None;
        }
        if !commands.contains(word) {
            return Some(format!(
                "no command `{word}` (after `fanorona {}`)",
                path.join(" ")
            ));
        }
        path.push(word);
        rest = &rest[1..];
    }
    let options = long_options(&help_of(&path, cache));
    for word in rest {
        let word = word
            .trim_start_matches('[')
            .trim_end_matches([']', '.', ',', ')']);
        let name = word.split(['=', '[']).next().unwrap_or(word);
        if name.starts_with("--") && name.len() > 2 && !options.iter().any(|o| o == name) {
            return Some(format!(
                "`fanorona {}` has no option {name}",
                path.join(" ")
            ));
        }
    }
    None
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
                failures.push(failure(&file, &command, &error));
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
fn every_quoted_command_and_synopsis_fits_the_command_line() {
    let mut failures = Vec::new();
    let mut cache = HashMap::new();
    let (mut commands, mut synopses) = (0, 0);
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for command in quoted_commands_in(&text) {
            let error = if is_synopsis(&command.args) {
                synopses += 1;
                synopsis_error(&command.args, &mut cache)
            } else {
                commands += 1;
                match parse_error(&command.args) {
                    // A mention of a command and some of its options, in the prose.
                    Some(e) if is_mention(&e) => synopsis_error(&command.args, &mut cache),
                    other => other,
                }
            };
            if let Some(error) = error {
                failures.push(failure(&file, &command, &error));
            }
        }
    }
    assert!(
        commands > 50 && synopses > 20,
        "only {commands} commands and {synopses} synopses found: is the search broken?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checker_finds_quoted_commands_and_synopses() {
    let sample = "Run `fanorona perft --depth 2` or `fanorona match --white random\n\
        --black random --games 2`; not `cargo build`.\n\
        ```text\n\
        fanorona eval --run PATH --vs SPEC [--sims N]\n\
        ```\n\
        ```sh\n\
        fanorona perft --depth 3\n\
        ```\n\
        `fanorona tables build --board 5x5 --pieces N --out DIR` and `fanorona help COMMAND`\n";
    let commands = quoted_commands_in(sample);
    let args: Vec<String> = commands.iter().map(|c| c.args.join(" ")).collect();
    assert_eq!(
        args,
        [
            "eval --run PATH --vs SPEC [--sims N]",
            "perft --depth 2",
            "match --white random --black random --games 2",
            "tables build --board 5x5 --pieces N --out DIR",
            "help COMMAND",
        ]
    );
    assert_eq!(
        commands.iter().map(|c| c.line).collect::<Vec<_>>(),
        [4, 1, 1, 9, 9]
    );
    let synopsis: Vec<bool> = commands.iter().map(|c| is_synopsis(&c.args)).collect();
    assert_eq!(synopsis, [true, false, false, true, true]);
    let mut cache = HashMap::new();
    for command in &commands {
        if is_synopsis(&command.args) {
            assert_eq!(
                synopsis_error(&command.args, &mut cache),
                None,
                "{command:?}"
            );
        }
    }
    let words = |text: &str| shell_words(text);
    let bad_option = synopsis_error(&words("eval --run PATH --vs SPEC [--simz N]"), &mut cache);
    assert!(bad_option.unwrap().contains("--simz"));
    let bad_sub = synopsis_error(&words("tables bild --board WxH"), &mut cache);
    assert!(bad_sub.unwrap().contains("bild"));
    let bad_command = synopsis_error(&words("evaluate --run PATH"), &mut cache);
    assert!(bad_command.unwrap().contains("evaluate"));
    // A mention leaves parts out; a wrong option or value is no mention.
    let error = |text: &str| parse_error(&words(text)).expect("refused");
    assert!(is_mention(&error("tables")));
    assert!(is_mention(&error("solve --save")));
    assert!(is_mention(&error("eval --run x")));
    assert!(!is_mention(&error("perft --dpth 2")));
    assert!(!is_mention(&error(
        "eval --run x --vs random --openings open.txt"
    )));
    // A game's name is no command.
    assert!(quoted_commands_in("the game `fanorona 9x5` and `fanorona`").len() == 1);
}

/// The top-level folders of the repository that git tracks.
fn tracked_folders() -> Vec<String> {
    let output = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(ROOT)
        .output()
        .expect("git runs (the test reads the checkout's tracked files)");
    assert!(output.status.success(), "git ls-files failed");
    let mut folders: Vec<String> = output
        .stdout
        .split(|&b| b == 0)
        .filter_map(|path| {
            let path = std::str::from_utf8(path).ok()?;
            let (first, _) = path.split_once('/')?;
            Some(first.to_string())
        })
        .collect();
    folders.sort();
    folders.dedup();
    folders
}

/// The folders the layout table of a page names (the table after its `## Layout` heading:
/// its rows' first cells, as `` `name/` ``).
fn layout_folders(readme: &str) -> Vec<String> {
    let mut folders: Vec<String> = readme
        .lines()
        .skip_while(|l| l.trim() != "## Layout")
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|row| {
            let cell = row.trim_start_matches('|').split('|').next()?.trim();
            let name = cell.strip_prefix('`')?.strip_suffix("/`")?;
            Some(name.to_string())
        })
        .collect();
    folders.sort();
    folders
}

#[test]
fn the_layout_tables_name_every_top_level_folder() {
    let tracked = tracked_folders();
    assert!(
        tracked.len() > 5,
        "only {tracked:?} tracked: is git's answer read?"
    );
    for page in ["README.md", "docs/architecture.md"] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(page)).unwrap();
        let named = layout_folders(&text);
        let missing: Vec<&String> = tracked.iter().filter(|f| !named.contains(f)).collect();
        let gone: Vec<&String> = named.iter().filter(|f| !tracked.contains(f)).collect();
        assert!(
            missing.is_empty() && gone.is_empty(),
            "{page}'s layout table lacks {missing:?} and names folders that are not there: \
             {gone:?}"
        );
    }
    let sample =
        "## Layout\n\n| path | what |\n|---|---|\n| `env/` | rules |\n| `.ci/` | ci |\n\nafter\n";
    assert_eq!(layout_folders(sample), [".ci", "env"]);
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
