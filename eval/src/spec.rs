//! Agent specifications: short strings such as `random`, `greedy`, `minimax:depth=4` or
//! `minimax:ms=200,seed=7`, parsed generically into a kind and `key=value` options, and the
//! factory for the kinds this crate provides. Later crates (solver, MCTS, networks, engines)
//! parse the same [`AgentSpec`] and build their own kinds when [`create_agent`] answers
//! [`SpecError::UnknownKind`].
//!
//! `engine:cmd=PATH[,args=A B C][,movetime=MS][,depth=N][,nodes=N][,timeout=MS]` drives an
//! external program through the engine protocol; its arguments are separated by spaces (a
//! specification cannot hold commas inside a value).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use fanorona_env::{Agent, Board, Fanorona};

use crate::agents::engine::{EngineAgent, EngineConfig};
use crate::agents::greedy::GreedyChooser;
use crate::agents::turn_agent::TurnAgent;
use crate::minimax::player::MinimaxChooser;
use crate::minimax::search::{Limits, MAX_DEPTH};
use crate::solver::{SolverAgent, TableSource, shared_solution};
use fanorona_env::RandomAgent;

/// The agent kinds [`create_agent`] builds, with their options, for error messages and help.
pub const KINDS: &[(&str, &str)] = &[
    ("random", "uniformly random legal steps; options: seed=S"),
    (
        "greedy",
        "the turn that captures most, ties broken at random; options: seed=S",
    ),
    (
        "minimax",
        "alpha-beta search over complete turns; options: depth=N (1-64), ms=N (time per move), \
         nodes=N (per move), hash=MB (transposition table, 1-4096, default 16), seed=S; default depth=4",
    ),
    (
        "solver",
        "perfect play on a small board from its solved table; options: board=WxH (solved at \
         first use, e.g. 5x3) or table=FILE (saved by fanorona solve --save), seed=S (choice \
         among equally good turns)",
    ),
    (
        "engine",
        "an external program speaking the engine protocol; options: cmd=PATH (required), \
         args=ARGS (space-separated), movetime=MS, depth=N, nodes=N (go limits; none: the \
         engine's own), timeout=MS (longest wait for an answer beyond movetime, default 30000)",
    ),
];

/// An agent specification that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Nothing was given.
    #[error("empty agent specification: expected kind[:key=value,...], e.g. minimax:depth=4")]
    Empty,
    /// The text is not `kind[:key=value,...]`.
    #[error("cannot read agent specification {spec:?}: {reason}")]
    Syntax {
        /// The text given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// No factory knows this kind.
    #[error("unknown agent kind {kind:?}; known kinds: {known}")]
    UnknownKind {
        /// The kind given.
        kind: String,
        /// The kinds that are known, with their options.
        known: String,
    },
    /// The kind does not take this option.
    #[error("agent {kind}: unknown option {option:?}; accepted: {accepted}")]
    UnknownOption {
        /// The agent kind.
        kind: String,
        /// The option given.
        option: String,
        /// The options the kind accepts.
        accepted: String,
    },
    /// An option appears twice.
    #[error("agent {kind}: option {option:?} is given twice")]
    DuplicateOption {
        /// The agent kind.
        kind: String,
        /// The repeated option.
        option: String,
    },
    /// The specification is valid but the agent could not be made (a program that does not
    /// start, a file that cannot be read).
    #[error("agent {spec} cannot be used: {reason}")]
    Unavailable {
        /// The specification.
        spec: String,
        /// What went wrong.
        reason: String,
    },
    /// An option's value is not acceptable.
    #[error("agent {kind}: bad value {value:?} for option {option}: expected {expected}")]
    BadValue {
        /// The agent kind.
        kind: String,
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
}

impl SpecError {
    /// The [`SpecError::UnknownKind`] error for `kind`, listing this crate's kinds.
    pub fn unknown_kind(kind: &str) -> SpecError {
        SpecError::unknown_kind_among(kind, &[KINDS])
    }

    /// The [`SpecError::UnknownKind`] error for `kind`, listing the kinds of several
    /// factories (each a list of kinds with their help).
    pub fn unknown_kind_among(kind: &str, lists: &[&[(&str, &str)]]) -> SpecError {
        SpecError::UnknownKind {
            kind: kind.to_string(),
            known: lists
                .iter()
                .flat_map(|list| list.iter())
                .map(|(k, help)| format!("{k} ({help})"))
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// A parsed agent specification: `kind[:key=value,key=value...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent kind, lower case (`random`, `greedy`, `minimax`, ...).
    pub kind: String,
    /// The options in the order given, keys lower case.
    pub options: Vec<(String, String)>,
}

impl AgentSpec {
    /// Parses `kind[:key=value,...]`. Only the syntax is checked here; each kind's factory
    /// checks its options.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SpecError::Empty);
        }
        let syntax = |reason: String| SpecError::Syntax {
            spec: text.to_string(),
            reason,
        };
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let kind = kind.trim().to_ascii_lowercase();
        if kind.is_empty() || !kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(syntax(format!(
                "the kind {kind:?} must be a word of letters, digits or '-'"
            )));
        }
        let mut options: Vec<(String, String)> = Vec::new();
        for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| syntax(format!("option {item:?} is not key=value")))?;
            let key = key.trim().to_ascii_lowercase();
            if key.is_empty() {
                return Err(syntax(format!("option {item:?} has no name")));
            }
            if options.iter().any(|(k, _)| *k == key) {
                return Err(SpecError::DuplicateOption { kind, option: key });
            }
            options.push((key, value.trim().to_string()));
        }
        Ok(AgentSpec { kind, options })
    }

    /// The value of an option, if given.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Fails on the first option not in `accepted`.
    pub fn check_options(&self, accepted: &[&str]) -> Result<(), SpecError> {
        match self
            .options
            .iter()
            .find(|(k, _)| !accepted.contains(&k.as_str()))
        {
            Some((k, _)) => Err(SpecError::UnknownOption {
                kind: self.kind.clone(),
                option: k.clone(),
                accepted: accepted.join(", "),
            }),
            None => Ok(()),
        }
    }

    /// Reads an option as a number within `range`; `None` if absent.
    pub fn number_option<T>(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<Option<T>, SpecError>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        let Some(value) = self.option(key) else {
            return Ok(None);
        };
        match value.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(SpecError::BadValue {
                kind: self.kind.clone(),
                option: key.to_string(),
                value: value.to_string(),
                expected: format!("a whole number from {} to {}", range.start(), range.end()),
            }),
        }
    }

    /// Reads an option as a finite real number within `range`; `None` if absent.
    pub fn real_option(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<f32>,
    ) -> Result<Option<f32>, SpecError> {
        let Some(value) = self.option(key) else {
            return Ok(None);
        };
        match value.parse::<f32>() {
            Ok(x) if x.is_finite() && range.contains(&x) => Ok(Some(x)),
            _ => Err(SpecError::BadValue {
                kind: self.kind.clone(),
                option: key.to_string(),
                value: value.to_string(),
                expected: format!("a number from {} to {}", range.start(), range.end()),
            }),
        }
    }

    /// Reads an option as `true` or `false`; `None` if absent.
    pub fn bool_option(&self, key: &str) -> Result<Option<bool>, SpecError> {
        match self.option(key) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(value) => Err(SpecError::BadValue {
                kind: self.kind.clone(),
                option: key.to_string(),
                value: value.to_string(),
                expected: "true or false".into(),
            }),
        }
    }

    /// The `seed` option, or `default`.
    pub fn seed_or(&self, default: u64) -> Result<u64, SpecError> {
        Ok(self.number_option("seed", 0..=u64::MAX)?.unwrap_or(default))
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse(text)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// The search limits of a `minimax` specification.
pub fn minimax_limits(spec: &AgentSpec) -> Result<Limits, SpecError> {
    let depth = spec.number_option("depth", 1..=MAX_DEPTH)?;
    let ms = spec.number_option("ms", 1..=86_400_000u64)?;
    let nodes = spec.number_option("nodes", 1..=u64::MAX)?;
    let depth = match (depth, ms, nodes) {
        (Some(d), _, _) => d,
        (None, None, None) => 4,
        _ => MAX_DEPTH,
    };
    Ok(Limits {
        depth,
        nodes,
        time: ms.map(Duration::from_millis),
    })
}

/// The program and limits of an `engine` specification.
pub fn engine_config(spec: &AgentSpec) -> Result<EngineConfig, SpecError> {
    let command = spec
        .option("cmd")
        .filter(|c| !c.is_empty())
        .ok_or_else(|| SpecError::BadValue {
            kind: spec.kind.clone(),
            option: "cmd".into(),
            value: String::new(),
            expected: "the path of a program speaking the engine protocol".into(),
        })?;
    let millis = |key| spec.number_option(key, 1..=86_400_000u64);
    Ok(EngineConfig {
        command: command.to_string(),
        args: spec.option("args").map_or(Vec::new(), |a| {
            a.split_whitespace().map(str::to_string).collect()
        }),
        movetime: millis("movetime")?.map(Duration::from_millis),
        depth: spec.number_option("depth", 1..=1000u32)?,
        nodes: spec.number_option("nodes", 1..=u64::MAX)?,
        timeout: Duration::from_millis(millis("timeout")?.unwrap_or(30_000)),
    })
}

/// Builds an agent of one of this crate's kinds ([`KINDS`]). `seed` seeds its random choices
/// unless the specification gives `seed=S`. Any other kind gives [`SpecError::UnknownKind`],
/// so callers can try other factories.
pub fn create_agent(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    let name = spec.to_string();
    match spec.kind.as_str() {
        "random" => {
            spec.check_options(&["seed"])?;
            Ok(Box::new(RandomAgent::new(spec.seed_or(seed)?).named(name)))
        }
        "greedy" => {
            spec.check_options(&["seed"])?;
            Ok(Box::new(TurnAgent::new(GreedyChooser::new(
                name,
                spec.seed_or(seed)?,
            ))))
        }
        "minimax" => {
            spec.check_options(&["depth", "ms", "nodes", "hash", "seed"])?;
            let limits = minimax_limits(spec)?;
            let hash_mb = spec.number_option("hash", 1..=4096usize)?.unwrap_or(16);
            Ok(Box::new(TurnAgent::new(MinimaxChooser::new(
                name,
                limits,
                hash_mb,
                spec.seed_or(seed)?,
            ))))
        }
        "engine" => {
            spec.check_options(&["cmd", "args", "movetime", "depth", "nodes", "timeout"])?;
            let config = engine_config(spec)?;
            let agent =
                EngineAgent::spawn(name.clone(), config).map_err(|e| SpecError::Unavailable {
                    spec: name,
                    reason: e.reason,
                })?;
            Ok(Box::new(agent))
        }
        "solver" => {
            spec.check_options(&["board", "table", "seed"])?;
            let source = match (spec.option("board"), spec.option("table")) {
                (Some(board), None) => {
                    let b = Board::parse(board).map_err(|e| SpecError::BadValue {
                        kind: spec.kind.clone(),
                        option: "board".into(),
                        value: board.into(),
                        expected: e.to_string(),
                    })?;
                    TableSource::Solve(b.width(), b.height())
                }
                (None, Some(path)) => TableSource::File(path.into()),
                _ => {
                    return Err(SpecError::BadValue {
                        kind: spec.kind.clone(),
                        option: "board/table".into(),
                        value: spec.to_string(),
                        expected:
                            "exactly one of board=WxH (solve it) or table=FILE (a saved table)"
                                .into(),
                    });
                }
            };
            let table = shared_solution(&source).map_err(|e| SpecError::Unavailable {
                spec: name.clone(),
                reason: e.to_string(),
            })?;
            Ok(Box::new(SolverAgent::new(table, spec.seed_or(seed)?)))
        }
        other => Err(SpecError::unknown_kind(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kind_and_options() {
        let spec = AgentSpec::parse(" Minimax:depth=4, seed = 7 ").unwrap();
        assert_eq!(spec.kind, "minimax");
        assert_eq!(
            spec.options,
            vec![("depth".into(), "4".into()), ("seed".into(), "7".into())]
        );
        assert_eq!(spec.to_string(), "minimax:depth=4,seed=7");
        assert_eq!(AgentSpec::parse("random").unwrap().options, vec![]);
    }

    #[test]
    fn syntax_errors_say_what_is_expected() {
        assert_eq!(AgentSpec::parse("  "), Err(SpecError::Empty));
        let e = AgentSpec::parse("minimax:depth").unwrap_err();
        assert!(e.to_string().contains("not key=value"), "{e}");
        let e = AgentSpec::parse("mini max").unwrap_err();
        assert!(matches!(e, SpecError::Syntax { .. }), "{e}");
        let e = AgentSpec::parse("minimax:depth=2,depth=3").unwrap_err();
        assert!(matches!(e, SpecError::DuplicateOption { .. }), "{e}");
    }

    #[test]
    fn factory_errors_list_what_is_accepted() {
        let make = |s: &str| create_agent(&AgentSpec::parse(s).unwrap(), 0).map(|a| a.name());
        let e = make("alphabeta").unwrap_err();
        assert!(matches!(e, SpecError::UnknownKind { .. }));
        let text = e.to_string();
        assert!(text.contains("random") && text.contains("greedy") && text.contains("minimax"));
        let e = make("minimax:width=3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "agent minimax: unknown option \"width\"; accepted: depth, ms, nodes, hash, seed"
        );
        let e = make("minimax:depth=0").unwrap_err();
        assert!(e.to_string().contains("a whole number from 1 to 64"), "{e}");
        assert!(make("minimax:ms=fast").is_err());
        assert!(make("random:depth=3").is_err());
        assert_eq!(make("minimax:depth=3").unwrap(), "minimax:depth=3");
        assert_eq!(make("greedy:seed=5").unwrap(), "greedy:seed=5");
        let e = make("engine:movetime=5").unwrap_err();
        assert!(e.to_string().contains("cmd"), "{e}");
        let e = make("engine:cmd=/nonexistent/engine").unwrap_err();
        assert!(matches!(e, SpecError::Unavailable { .. }), "{e}");
    }

    #[test]
    fn engine_options_are_read() {
        let config = engine_config(
            &AgentSpec::parse("engine:cmd=fanorona,args=engine --agent random,movetime=50")
                .unwrap(),
        )
        .unwrap();
        assert_eq!(config.command, "fanorona");
        assert_eq!(config.args, ["engine", "--agent", "random"]);
        assert_eq!(config.movetime, Some(Duration::from_millis(50)));
        assert_eq!(
            (config.depth, config.timeout),
            (None, Duration::from_secs(30))
        );
    }

    #[test]
    fn minimax_limits_follow_the_options() {
        let limits = |s: &str| minimax_limits(&AgentSpec::parse(s).unwrap()).unwrap();
        assert_eq!(limits("minimax").depth, 4);
        let l = limits("minimax:ms=50");
        assert_eq!(
            (l.depth, l.time),
            (MAX_DEPTH, Some(Duration::from_millis(50)))
        );
        let l = limits("minimax:nodes=1000,depth=6");
        assert_eq!((l.depth, l.nodes), (6, Some(1000)));
    }
}
