//! docs/cli.md's reference cannot go stale: its part below the marker line is the markdown
//! that `clap-markdown` makes from the command line's clap definitions, and this test fails
//! when the checked-in file differs. `UPDATE_DOCS=1 cargo test --release --bin fanorona
//! cli_reference` rewrites that part from the code.

use clap::CommandFactory;

use crate::Cli;

/// The line of docs/cli.md after which everything is generated.
const MARKER: &str = "<!-- Generated from the clap definitions by src/cli_reference.rs: do not edit below. \
                      UPDATE_DOCS=1 cargo test --release --bin fanorona cli_reference rewrites it. -->";

/// The generated reference: every command, its arguments and options, from the clap
/// definitions.
fn reference() -> String {
    let options = clap_markdown::MarkdownOptions::new()
        .title("Reference: every command and option".to_string())
        .show_footer(false);
    clap_markdown::help_markdown_command_custom(&Cli::command(), &options)
}

/// `page` with everything after its marker line replaced by `generated`, or `None` when the
/// page has no marker line.
fn with_reference(page: &str, generated: &str) -> Option<String> {
    let at = page.find(MARKER)?;
    Some(format!("{}{MARKER}\n\n{generated}", &page[..at]))
}

#[test]
fn the_cli_reference_in_the_docs_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md");
    let page = std::fs::read_to_string(path).expect("docs/cli.md is readable");
    let expected = with_reference(&page, &reference())
        .unwrap_or_else(|| panic!("docs/cli.md lacks the marker line {MARKER}"));
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).expect("docs/cli.md is writable");
        return;
    }
    assert!(
        page == expected,
        "docs/cli.md's reference differs from the clap definitions: run \
         UPDATE_DOCS=1 cargo test --release --bin fanorona cli_reference"
    );
}

#[test]
fn the_reference_names_every_command_and_a_change_shows() {
    let generated = reference();
    for command in Cli::command().get_subcommands() {
        let heading = format!("## `fanorona {}`", command.get_name());
        assert!(generated.contains(&heading), "no {heading}");
    }
    let page = format!("intro\n{MARKER}\n\nold reference\n");
    let updated = with_reference(&page, &generated).unwrap();
    assert!(updated.starts_with("intro\n"));
    assert!(updated.ends_with(&generated));
    assert_ne!(updated, page);
    assert_eq!(with_reference("no marker here", &generated), None);
}
