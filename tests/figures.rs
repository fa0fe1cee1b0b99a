//! A figure has one home: the table of current figures in docs/performance.md. Every row of
//! the README's headline table must quote a row of that table (the same "what", the same
//! figure, the same machine and date), and every `fanorona` command in the table's command
//! column must parse against the real command line (`FANORONA_PARSE_ONLY=1`).

use std::path::Path;
use std::process::Command;

/// The repository's root.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The header of the README's headline table.
const README_HEADER: &str = "| what | figure | machine, date |";

/// The header of performance.md's table of current figures.
const PERFORMANCE_HEADER: &str = "| what | figure | machine | date | command | experiment |";

/// The cells of one markdown table row; a `|` inside backticks belongs to its cell.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut in_code = false;
    for c in inner.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                cell.push(c);
            }
            '|' if !in_code => cells.push(std::mem::take(&mut cell).trim().to_string()),
            c => cell.push(c),
        }
    }
    cells.push(cell.trim().to_string());
    cells
}

/// The body rows of the table whose header line is `header`, each split into cells; empty
/// when `markdown` has no such table.
fn table(markdown: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = markdown.lines().skip_while(|line| line.trim() != header);
    if lines.next().is_none() {
        return Vec::new();
    }
    lines
        .skip(1) // the |---| line
        .take_while(|line| line.trim_start().starts_with('|'))
        .map(cells)
        .collect()
}

/// Where the README's headline rows differ from performance.md's current figures: one line
/// per row whose "what" is missing there, or whose figure, machine or date differ.
fn differences(readme: &str, performance: &str) -> Vec<String> {
    let current = table(performance, PERFORMANCE_HEADER);
    let mut found = Vec::new();
    let headline = table(readme, README_HEADER);
    if headline.is_empty() {
        found.push(format!("the README has no table headed {README_HEADER}"));
    }
    for row in headline {
        let [what, figure, machine_date] = &row[..] else {
            found.push(format!("a headline row without 3 cells: {row:?}"));
            continue;
        };
        let Some(home) = current.iter().find(|r| r.first() == Some(what)) else {
            found.push(format!(
                "no row of performance.md's current figures is \"{what}\""
            ));
            continue;
        };
        if home.get(1) != Some(figure) {
            found.push(format!(
                "\"{what}\": the README says \"{figure}\", performance.md \"{}\"",
                home.get(1).map_or("", String::as_str)
            ));
        }
        let home_machine_date = format!(
            "{}, {}",
            home.get(2).map_or("", String::as_str),
            home.get(3).map_or("", String::as_str)
        );
        if &home_machine_date != machine_date {
            found.push(format!(
                "\"{what}\": the README says \"{machine_date}\", performance.md \"{home_machine_date}\""
            ));
        }
    }
    found
}

/// The `fanorona ...` commands (as arguments after `fanorona`) in the inline code of `cell`.
fn commands_in_cell(cell: &str) -> Vec<Vec<String>> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| code.strip_prefix("fanorona "))
        .map(|args| args.split_whitespace().map(String::from).collect())
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

#[test]
fn the_readme_headline_figures_quote_performance_md() {
    let found = differences(&read("README.md"), &read("docs/performance.md"));
    assert!(
        found.is_empty(),
        "README.md's headline table and docs/performance.md's current figures differ:\n{}",
        found.join("\n")
    );
    assert!(table(&read("README.md"), README_HEADER).len() >= 5);
}

#[test]
fn every_command_of_the_current_figures_parses() {
    let current = table(&read("docs/performance.md"), PERFORMANCE_HEADER);
    assert!(
        current.len() >= 10,
        "the table of current figures is missing"
    );
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in &current {
        assert_eq!(row.len(), 6, "a row without 6 cells: {row:?}");
        for args in commands_in_cell(&row[4]) {
            checked += 1;
            let output = Command::new(env!("CARGO_BIN_EXE_fanorona"))
                .args(&args)
                .env("FANORONA_PARSE_ONLY", "1")
                .output()
                .expect("the binary runs");
            if !output.status.success() {
                failures.push(format!(
                    "fanorona {}\n{}",
                    args.join(" "),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
        }
    }
    assert!(checked >= 10, "only {checked} commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checker_sees_a_figure_that_differs() {
    let performance = format!(
        "{PERFORMANCE_HEADER}\n|---|---|---|---|---|---|\n\
         | perft, `a|b` | 38.5 M leaves/s | 2-core AMD EPYC | 2026-11-29 | `fanorona perft --depth 6` | - |\n\
         | speed | 2 M | 2-core AMD EPYC | 2026-12-01 | - | - |\n"
    );
    let readme = |figure: &str, date: &str, what: &str| {
        format!(
            "{README_HEADER}\n|---|---|---|\n| perft, `a|b` | 38.5 M leaves/s | 2-core AMD EPYC, 2026-11-29 |\n\
             | {what} | {figure} | 2-core AMD EPYC, {date} |\n\ntext\n"
        )
    };
    assert_eq!(
        differences(&readme("2 M", "2026-12-01", "speed"), &performance),
        Vec::<String>::new()
    );
    let figure = differences(&readme("2.5 M", "2026-12-01", "speed"), &performance);
    assert_eq!(figure.len(), 1);
    assert!(figure[0].contains("2.5 M"), "{figure:?}");
    let date = differences(&readme("2 M", "2026-12-02", "speed"), &performance);
    assert_eq!(date.len(), 1);
    assert!(date[0].contains("2026-12-02"), "{date:?}");
    let missing = differences(&readme("2 M", "2026-12-01", "speed, quiet"), &performance);
    assert_eq!(missing.len(), 1);
    assert!(missing[0].contains("speed, quiet"), "{missing:?}");
    assert_eq!(differences("no table", &performance).len(), 1);
    assert_eq!(
        commands_in_cell("`fanorona perft --depth 6`, then `cargo bench` and `fanorona moves`"),
        [vec!["perft", "--depth", "6"], vec!["moves"]]
    );
}
