//! The [`Registry`]: the table of agent kinds, which reads specifications, checks them,
//! builds agents and writes the help.

use std::path::{Path, PathBuf};

use super::{AgentKind, AgentOptions, AgentSpec, OptionDef, OptionDefault, SpecError, ValueType};
use crate::{Agent, Fanorona};

/// Every agent kind a program can build, in the order registered.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    kinds: Vec<AgentKind>,
}

impl Registry {
    /// A registry without kinds.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds a kind. Panics (a bug in the table) if its name or a path extension is taken,
    /// if a default does not fit its option's type, or if it claims path extensions without
    /// a `path` option.
    pub fn register(&mut self, kind: AgentKind) {
        assert!(
            self.kind(kind.name).is_none(),
            "agent kind {} is registered twice",
            kind.name
        );
        for ext in kind.path_extensions {
            assert!(
                self.kind_for_path(&format!("x.{ext}")).is_none(),
                "agent kind {}: .{ext} files are already claimed",
                kind.name
            );
        }
        assert!(
            kind.path_extensions.is_empty() || kind.option("path").is_some(),
            "agent kind {} claims path extensions without a path option",
            kind.name
        );
        for def in kind.options {
            let typed = match (def.default, def.value) {
                (OptionDefault::Whole(_), ValueType::Whole { .. })
                | (OptionDefault::Real(_), ValueType::Real { .. })
                | (OptionDefault::Flag(_), ValueType::Bool) => true,
                (OptionDefault::Whole(_) | OptionDefault::Real(_) | OptionDefault::Flag(_), _) => {
                    false
                }
                _ => true,
            };
            assert!(
                typed,
                "agent kind {}: the default of {} is not of its type",
                kind.name, def.name
            );
            if let Some(value) = def.default.text()
                && let Err(expected) = def.value.read(&value)
            {
                panic!(
                    "agent kind {}: default {value:?} of {} is not {expected}",
                    kind.name, def.name
                );
            }
        }
        self.kinds.push(kind);
    }

    /// The registered kinds, in order.
    pub fn kinds(&self) -> &[AgentKind] {
        &self.kinds
    }

    /// The kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&AgentKind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// Parses a specification. A bare path (no `=`) ending in an extension a kind claims means
    /// `KIND:path=TEXT`, whether or not the file exists, so that the kind's factory can say
    /// what is wrong with it.
    pub fn parse(&self, text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        match self.kind_for_path(text) {
            Some(kind) if !text.contains('=') => Ok(AgentSpec {
                kind: kind.name.to_string(),
                options: vec![("path".into(), text.to_string())],
            }),
            _ => AgentSpec::parse(text),
        }
    }

    /// The files and folders a specification reads: the values of its options of type path
    /// (a model's `path`, the `tables` folder), the inputs a command that builds the agent
    /// must never write over. Options of an unknown kind or undeclared are left out.
    pub fn input_paths(&self, spec: &AgentSpec) -> Vec<PathBuf> {
        let Some(kind) = self.kind(&spec.kind) else {
            return Vec::new();
        };
        spec.options
            .iter()
            .filter(|(name, _)| {
                kind.option(name)
                    .is_some_and(|o| matches!(o.value, ValueType::Path))
            })
            .map(|(_, value)| PathBuf::from(value))
            .collect()
    }

    /// Checks a specification against its kind's table: the kind is registered, every option
    /// is declared, every value fits its type and range, and required options are given.
    pub fn options<'a>(&'a self, spec: &'a AgentSpec) -> Result<AgentOptions<'a>, SpecError> {
        let kind = self
            .kind(&spec.kind)
            .ok_or_else(|| SpecError::UnknownKind {
                kind: spec.kind.clone(),
                known: lines(self.kinds.iter().map(AgentKind::summary_line)),
            })?;
        for (option, value) in &spec.options {
            let def = kind
                .option(option)
                .ok_or_else(|| SpecError::UnknownOption {
                    kind: spec.kind.clone(),
                    option: option.clone(),
                    accepted: lines(kind.options.iter().map(OptionDef::help_line)),
                })?;
            def.value
                .read(value)
                .map_err(|expected| SpecError::BadValue {
                    kind: spec.kind.clone(),
                    option: option.clone(),
                    value: value.clone(),
                    expected,
                })?;
        }
        if let Some(missing) = kind
            .options
            .iter()
            .find(|d| d.default == OptionDefault::Required && spec.option(d.name).is_none())
        {
            return Err(SpecError::MissingOption {
                kind: spec.kind.clone(),
                option: missing.name.to_string(),
                usage: missing.help_line(),
            });
        }
        Ok(AgentOptions::checked(spec, kind))
    }

    /// Builds the agent of a specification; `seed` seeds its random choices unless the
    /// specification gives `seed=S`.
    pub fn create(
        &self,
        spec: &AgentSpec,
        seed: u64,
    ) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
        let options = self.options(spec)?;
        (options.kind().factory)(&options, seed)
    }

    /// One line per kind: `name: summary; options: depth=N (1-64, default 4), ...`.
    pub fn help(&self) -> String {
        self.kinds
            .iter()
            .map(AgentKind::help_line)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The kind claiming the extension of `text`, read as a path.
    fn kind_for_path(&self, text: &str) -> Option<&AgentKind> {
        let ext = Path::new(text).extension()?.to_str()?;
        self.kinds.iter().find(|k| {
            k.path_extensions
                .iter()
                .any(|claimed| claimed.eq_ignore_ascii_case(ext))
        })
    }
}

/// Items as an indented list, each on its own line.
fn lines(items: impl Iterator<Item = String>) -> String {
    items.map(|item| format!("\n  {item}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomAgent;
    use crate::registry::{OptionDef, ValueType};

    /// A kind with an option of every type, whose agent is named after the values it read.
    const TOY: AgentKind = AgentKind {
        name: "toy",
        summary: "reads every type of option",
        options: &[
            OptionDef {
                name: "depth",
                value: ValueType::Whole { min: 1, max: 64 },
                default: OptionDefault::Value("4"),
                help: "search depth",
            },
            OptionDef {
                name: "ratio",
                value: ValueType::Real { min: 0.0, max: 2.0 },
                default: OptionDefault::Value("0.25"),
                help: "a ratio",
            },
            OptionDef {
                name: "fast",
                value: ValueType::Bool,
                default: OptionDefault::Unset,
                help: "hurry",
            },
            OptionDef {
                name: "label",
                value: ValueType::Text("WORD"),
                default: OptionDefault::Unset,
                help: "a label",
            },
            OptionDef {
                name: "path",
                value: ValueType::Path,
                default: OptionDefault::Required,
                help: "its file",
            },
            OptionDef::SEED,
        ],
        path_extensions: &["toy"],
        factory: |options, seed| {
            let name = format!(
                "{:?} {:?} {:?} {:?} {:?} {}",
                options.whole::<u32>("depth"),
                options.real("ratio"),
                options.flag("fast"),
                options.text("label"),
                options.text("path"),
                options.seed_or(seed),
            );
            Ok(Box::new(RandomAgent::new(0).named(name)))
        },
    };

    fn registry() -> Registry {
        let mut registry = Registry::new();
        registry.register(crate::RandomAgent::KIND);
        registry.register(TOY);
        registry
    }

    fn create(text: &str) -> Result<String, SpecError> {
        let registry = registry();
        let spec = registry.parse(text)?;
        Ok(registry.create(&spec, 9)?.name())
    }

    #[test]
    fn factories_read_typed_values_with_the_table_defaults() {
        assert_eq!(
            create("toy:path=a.bin").unwrap(),
            "Some(4) Some(0.25) None None Some(\"a.bin\") 9"
        );
        assert_eq!(
            create("toy:depth=64,ratio=2,fast=true,label=hi,path=b,seed=3").unwrap(),
            "Some(64) Some(2.0) Some(true) Some(\"hi\") Some(\"b\") 3"
        );
        assert_eq!(create("random:seed=5").unwrap(), "random:seed=5");
    }

    #[test]
    fn a_bare_path_with_a_claimed_extension_means_its_kind() {
        let registry = registry();
        let spec = registry.parse(" runs/missing.TOY ").unwrap();
        assert_eq!(spec.to_string(), "toy:path=runs/missing.TOY");
        assert!(registry.parse("runs/agent.other").is_err());
        assert_eq!(registry.parse("toy:path=x.toy").unwrap().kind, "toy");
    }

    #[test]
    fn the_input_paths_are_the_path_options() {
        let registry = registry();
        let spec = registry.parse("toy:label=x.bin,path=m/a.toy").unwrap();
        assert_eq!(registry.input_paths(&spec), [PathBuf::from("m/a.toy")]);
        let bare = registry.parse("b.toy").unwrap();
        assert_eq!(registry.input_paths(&bare), [PathBuf::from("b.toy")]);
        assert!(
            registry
                .input_paths(&registry.parse("random").unwrap())
                .is_empty()
        );
    }

    #[test]
    fn an_unknown_kind_lists_every_registered_kind_one_line_each() {
        let e = create("alphabeta").unwrap_err();
        assert!(matches!(e, SpecError::UnknownKind { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "unknown agent kind \"alphabeta\"; known kinds:\n  \
             random: uniformly random legal steps\n  \
             toy: reads every type of option"
        );
    }

    #[test]
    fn an_unknown_option_lists_the_declared_ones() {
        let e = create("random:depth=3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "agent random: unknown option \"depth\"; accepted:\n  \
             seed=N: seed of its random choices (default: the caller's, e.g. the match seed)"
        );
        let e = create("toy:width=3,path=a").unwrap_err();
        let text = e.to_string();
        for usage in [
            "depth=N (1-64, default 4): search depth",
            "ratio=X (0-2, default 0.25): a ratio",
            "fast=true|false: hurry",
            "label=WORD: a label",
            "path=PATH (required): its file",
        ] {
            assert!(text.contains(&format!("\n  {usage}")), "{text}");
        }
    }

    #[test]
    fn values_outside_the_declared_type_or_range_are_refused() {
        let expected = |text: &str| match create(text).unwrap_err() {
            SpecError::BadValue { expected, .. } => expected,
            e => panic!("{text}: {e}"),
        };
        assert_eq!(
            expected("toy:path=a,depth=0"),
            "a whole number from 1 to 64"
        );
        assert_eq!(
            expected("toy:path=a,depth=x"),
            "a whole number from 1 to 64"
        );
        assert_eq!(expected("toy:path=a,ratio=3"), "a number from 0 to 2");
        assert_eq!(expected("toy:path=a,fast=yes"), "true or false");
        assert_eq!(expected("toy:path="), "a path");
        assert_eq!(
            expected("random:seed=-1"),
            format!("a whole number from 0 to {}", u64::MAX)
        );
        let e = create("toy:depth=3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "agent toy: option path is required: path=PATH (required): its file"
        );
    }

    #[test]
    fn help_has_one_line_per_kind() {
        let help = registry().help();
        let lines: Vec<&str> = help.lines().collect();
        assert_eq!(
            lines,
            [
                "random: uniformly random legal steps; options: seed=N",
                "toy: reads every type of option; options: depth=N (1-64, default 4), \
                 ratio=X (0-2, default 0.25), fast=true|false, label=WORD, \
                 path=PATH (required), seed=N; a bare FILE.toy means toy:path=FILE",
            ]
        );
    }

    #[test]
    #[should_panic(expected = "registered twice")]
    fn a_kind_cannot_be_registered_twice() {
        registry().register(TOY);
    }

    /// A registry of one kind, `one`, whose only option is `def`.
    fn registry_of(def: OptionDef) -> Registry {
        let options: &'static [OptionDef] = Box::leak(Box::new([def]));
        let mut registry = Registry::new();
        registry.register(AgentKind {
            name: "one",
            options,
            path_extensions: &[],
            ..TOY
        });
        registry
    }

    #[test]
    #[should_panic(expected = "default \"0\" of depth")]
    fn defaults_must_fit_their_type() {
        registry_of(OptionDef {
            default: OptionDefault::Value("0"),
            ..TOY.options[0]
        });
    }

    #[test]
    #[should_panic(expected = "the default of depth is not of its type")]
    fn typed_defaults_must_be_of_their_option_type() {
        registry_of(OptionDef {
            default: OptionDefault::Flag(true),
            ..TOY.options[0]
        });
    }

    #[test]
    fn typed_defaults_are_read_and_shown_like_written_ones() {
        let written = OptionDef {
            default: OptionDefault::Value("0.5"),
            ..TOY.options[1]
        };
        let typed = OptionDef {
            default: OptionDefault::Real(0.5),
            ..written
        };
        assert_eq!(typed.usage(), written.usage());
        for def in [written, typed] {
            let registry = registry_of(def);
            let spec = registry.parse("one").unwrap();
            assert_eq!(registry.options(&spec).unwrap().real("ratio"), Some(0.5));
        }
    }
}
