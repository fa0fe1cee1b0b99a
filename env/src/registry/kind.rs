//! An agent kind: its name, options and factory, as a crate registers it.

use super::{AgentOptions, OptionDef, SpecError};
use crate::{Agent, Fanorona};

/// Builds an agent from checked options; the seed is the caller's (a specification's `seed`
/// option, where the kind has one, takes precedence).
pub type Factory = fn(&AgentOptions, u64) -> Result<Box<dyn Agent<Fanorona>>, SpecError>;

/// One kind of agent in the [`Registry`](super::Registry).
#[derive(Clone, Copy, Debug)]
pub struct AgentKind {
    /// The name specifications start with (`minimax`), lower case.
    pub name: &'static str,
    /// What the agent does, in one short line.
    pub summary: &'static str,
    /// The options it takes.
    pub options: &'static [OptionDef],
    /// File extensions (without the dot) whose bare path means `NAME:path=PATH`; the kind
    /// then declares a `path` option.
    pub path_extensions: &'static [&'static str],
    /// Builds the agent.
    pub factory: Factory,
}

impl AgentKind {
    /// The declared option called `name`.
    pub fn option(&self, name: &str) -> Option<&OptionDef> {
        self.options.iter().find(|o| o.name == name)
    }

    /// `name: summary`, for lists of kinds.
    pub fn summary_line(&self) -> String {
        format!("{}: {}", self.name, self.summary)
    }

    /// `name: summary; options: depth=N (1-64, default 4), ...` and the path shortcut, if any.
    pub fn help_line(&self) -> String {
        let mut line = self.summary_line();
        if !self.options.is_empty() {
            let options: Vec<String> = self.options.iter().map(OptionDef::usage).collect();
            line.push_str(&format!("; options: {}", options.join(", ")));
        }
        if !self.path_extensions.is_empty() {
            let files: Vec<String> = self
                .path_extensions
                .iter()
                .map(|e| format!("FILE.{e}"))
                .collect();
            line.push_str(&format!(
                "; a bare {} means {}:path=FILE",
                files.join(" or "),
                self.name
            ));
        }
        line
    }
}
