//! The agent kinds of this crate, for the [`Registry`]: `greedy`, `minimax`, `solver` and
//! `engine`. [`registry`] adds them to `fanorona-env`'s `random`.
//!
//! `engine:cmd=PATH[,args=A B C][,movetime=MS][,depth=N][,nodes=N][,timeout=MS]` drives an
//! external program through the engine protocol; its arguments are separated by spaces (a
//! specification cannot hold commas inside a value).

use std::path::{Path, PathBuf};
use std::time::Duration;

use fanorona_env::{
    AgentKind, AgentOptions, Board, Budget, OptionDef, OptionDefault, Registry, SpecError,
    ValueType,
};

use crate::SolverAgent;
use crate::agents::engine::{EngineAgent, EngineConfig};
use crate::agents::greedy::GreedyChooser;
use crate::agents::perfect::PerfectChooser;
use crate::agents::turn_agent::TurnAgent;
use crate::arena::Built;
use crate::minimax::player::MinimaxChooser;
use crate::minimax::search::MAX_DEPTH;
use crate::minimax::{Handcrafted, StaticEvaluation};
use fanorona_exact::solver::{TableSource, shared_solution};

/// Milliseconds: from 1 to a day.
const MILLIS: ValueType = ValueType::Whole {
    min: 1,
    max: 86_400_000,
};

/// A node count: at least 1.
const NODES: ValueType = ValueType::Whole {
    min: 1,
    max: u64::MAX,
};

/// The `greedy` kind.
pub const GREEDY: AgentKind = AgentKind {
    name: "greedy",
    summary: "the turn that captures most, ties broken at random",
    options: &[OptionDef::SEED],
    path_extensions: &[],
    factory: create_greedy,
};

/// The `depth` option of alpha-beta kinds.
pub const AB_DEPTH: OptionDef = OptionDef {
    name: "depth",
    value: ValueType::Whole {
        min: 1,
        max: MAX_DEPTH as u64,
    },
    default: OptionDefault::Value("4"),
    help: "deepest iteration in turns (with only ms or nodes given: no depth limit)",
};

/// The `ms` option of alpha-beta kinds.
pub const AB_MS: OptionDef = OptionDef {
    name: "ms",
    value: MILLIS,
    default: OptionDefault::Unset,
    help: "time per move in milliseconds",
};

/// The `nodes` option of alpha-beta kinds.
pub const AB_NODES: OptionDef = OptionDef {
    name: "nodes",
    value: NODES,
    default: OptionDefault::Unset,
    help: "nodes per move",
};

/// The `hash` option of alpha-beta kinds.
pub const AB_HASH: OptionDef = OptionDef {
    name: "hash",
    value: ValueType::Whole { min: 1, max: 4096 },
    default: OptionDefault::Value("16"),
    help: "transposition table size in MB",
};

/// The `lmr` option of alpha-beta kinds (off by default for `minimax`, the fixed yardstick).
pub const AB_LMR: OptionDef = OptionDef {
    name: "lmr",
    value: ValueType::Bool,
    default: OptionDefault::Flag(false),
    help: "late-move reductions with principal variation search: late quiet turns searched \
           less deep, confirmed where they look better",
};

/// The `unfinished` option of alpha-beta kinds (off by default).
pub const AB_UNFINISHED: OptionDef = OptionDef {
    name: "unfinished",
    value: ValueType::Bool,
    default: OptionDefault::Flag(false),
    help: "search until the time is spent and play the turn of an unfinished last iteration \
           where it beat the previous best",
};

/// The `tables` option of the kinds that probe endgame tables.
pub const AB_TABLES: OptionDef = OptionDef {
    name: "tables",
    value: ValueType::Path,
    default: OptionDefault::Unset,
    help: "a folder of endgame tables (fanorona tables build): exact values with few pieces",
};

/// The `minimax` kind.
pub const MINIMAX: AgentKind = AgentKind {
    name: "minimax",
    summary: "alpha-beta search over complete turns",
    options: &[
        AB_DEPTH,
        AB_MS,
        AB_NODES,
        AB_HASH,
        AB_TABLES,
        AB_LMR,
        AB_UNFINISHED,
        OptionDef::SEED,
    ],
    path_extensions: &[],
    factory: create_minimax,
};

/// The `solver` kind.
pub const SOLVER: AgentKind = AgentKind {
    name: "solver",
    summary: "perfect play on a small board from its solved table (give board or table)",
    options: &[
        OptionDef {
            name: "board",
            value: ValueType::Text("WxH"),
            default: OptionDefault::Unset,
            help: "the board, solved at first use (e.g. 5x3)",
        },
        OptionDef {
            name: "table",
            value: ValueType::Path,
            default: OptionDefault::Unset,
            help: "a table saved by fanorona solve --save",
        },
        OptionDef {
            help: "seed of its choice among equally good turns (default: the caller's)",
            ..OptionDef::SEED
        },
    ],
    path_extensions: &[],
    factory: create_solver,
};

/// The `perfect` kind.
pub const PERFECT: AgentKind = AgentKind {
    name: "perfect",
    summary: "a turn the prover shows to keep the value (the tables' best where they hold it); \
              a minimax search where the prover does not settle within its nodes",
    options: &[
        AB_TABLES,
        OptionDef {
            name: "nodes",
            value: NODES,
            default: OptionDefault::Value("200000"),
            help: "the prover's budget a turn, in nodes",
        },
        OptionDef {
            help: "depth of the fallback minimax search, in turns",
            ..AB_DEPTH
        },
        OptionDef::SEED,
    ],
    path_extensions: &[],
    factory: create_perfect,
};

/// The `engine` kind.
pub const ENGINE: AgentKind = AgentKind {
    name: "engine",
    summary: "an external program speaking the engine protocol",
    options: &[
        OptionDef {
            name: "cmd",
            value: ValueType::Path,
            default: OptionDefault::Required,
            help: "the program",
        },
        OptionDef {
            name: "args",
            value: ValueType::Text("ARGS"),
            default: OptionDefault::Unset,
            help: "its arguments, separated by spaces",
        },
        OptionDef {
            name: "movetime",
            value: MILLIS,
            default: OptionDefault::Unset,
            help: "go limit: milliseconds per move (none: the engine's own)",
        },
        OptionDef {
            name: "depth",
            value: ValueType::Whole { min: 1, max: 1000 },
            default: OptionDefault::Unset,
            help: "go limit: depth (none: the engine's own)",
        },
        OptionDef {
            name: "nodes",
            value: NODES,
            default: OptionDefault::Unset,
            help: "go limit: nodes (none: the engine's own)",
        },
        OptionDef {
            name: "timeout",
            value: MILLIS,
            default: OptionDefault::Value("30000"),
            help: "longest wait for an answer beyond movetime, in milliseconds",
        },
    ],
    path_extensions: &[],
    factory: create_engine,
};

/// Adds this crate's kinds to `registry`.
pub fn register(registry: &mut Registry) {
    for kind in [GREEDY, MINIMAX, SOLVER, PERFECT, ENGINE] {
        registry.register(kind);
    }
}

/// The kinds that need no network: `fanorona-env`'s `random` and this crate's.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.register(fanorona_env::RandomAgent::KIND);
    register(&mut registry);
    registry
}

/// The budget of a `minimax` specification: its depth (by default only where neither a time
/// nor a node count is given), time and nodes.
pub fn minimax_budget(options: &AgentOptions) -> Budget {
    let time = options.whole("ms").map(Duration::from_millis);
    let nodes = options.whole("nodes");
    let depth = (options.is_given("depth") || (time.is_none() && nodes.is_none()))
        .then(|| options.whole("depth").expect("depth has a default"));
    Budget { time, depth, nodes }
}

/// The program and limits of an `engine` specification.
pub fn engine_config(options: &AgentOptions) -> EngineConfig {
    EngineConfig {
        command: options.text("cmd").expect("cmd is required").to_string(),
        args: options.text("args").map_or(Vec::new(), |a| {
            a.split_whitespace().map(str::to_string).collect()
        }),
        budget: Budget {
            time: options.whole("movetime").map(Duration::from_millis),
            depth: options.whole("depth"),
            nodes: options.whole("nodes"),
        },
        timeout: Duration::from_millis(options.whole("timeout").expect("timeout has a default")),
    }
}

/// The factory of [`GREEDY`].
fn create_greedy(options: &AgentOptions, seed: u64) -> Built {
    Ok(Box::new(TurnAgent::new(GreedyChooser::new(
        options.spec().to_string(),
        options.seed_or(seed),
    ))))
}

/// The endgame table folder of a specification's `tables` option, checked to be a folder.
pub fn tables_dir(options: &AgentOptions) -> Result<Option<PathBuf>, SpecError> {
    let Some(dir) = options.text("tables") else {
        return Ok(None);
    };
    if !Path::new(dir).is_dir() {
        return Err(SpecError::Unavailable {
            spec: options.spec().to_string(),
            reason: format!("tables={dir}: not a folder (build one with `fanorona tables build`)"),
        });
    }
    Ok(Some(PathBuf::from(dir)))
}

/// The alpha-beta player of a specification with the alpha-beta options (`depth`, `ms`,
/// `nodes`, `hash`, `tables`, `lmr`, `unfinished`, `seed`; `seed` is the caller's where the
/// specification gives none), valuing its leaves with `evaluation`.
pub fn alpha_beta_chooser<E: StaticEvaluation>(
    options: &AgentOptions,
    seed: u64,
    evaluation: E,
) -> Result<MinimaxChooser<E>, SpecError> {
    Ok(MinimaxChooser::with_evaluation(
        options.spec().to_string(),
        minimax_budget(options),
        options.whole("hash").expect("hash has a default"),
        options.seed_or(seed),
        evaluation,
    )
    .with_tables(tables_dir(options)?)
    .with_reductions(options.flag("lmr").expect("lmr has a default"))
    .with_unfinished(
        options
            .flag("unfinished")
            .expect("unfinished has a default"),
    ))
}

/// The factory of [`MINIMAX`].
fn create_minimax(options: &AgentOptions, seed: u64) -> Built {
    Ok(Box::new(TurnAgent::new(alpha_beta_chooser(
        options,
        seed,
        Handcrafted,
    )?)))
}

/// The factory of [`PERFECT`].
fn create_perfect(options: &AgentOptions, seed: u64) -> Built {
    let name = options.spec().to_string();
    let tables = tables_dir(options)?;
    let depth: u32 = options.whole("depth").expect("depth has a default");
    let fallback = MinimaxChooser::new(
        format!("{name} (fallback)"),
        Budget::fixed_depth(depth),
        16,
        options.seed_or(seed),
    )
    .with_tables(tables.clone());
    let nodes: u64 = options.whole("nodes").expect("nodes has a default");
    Ok(Box::new(TurnAgent::new(PerfectChooser::new(
        name, tables, nodes, fallback,
    ))))
}

/// The factory of [`ENGINE`].
fn create_engine(options: &AgentOptions, _seed: u64) -> Built {
    let name = options.spec().to_string();
    let agent = EngineAgent::spawn(name.clone(), engine_config(options)).map_err(|e| {
        SpecError::Unavailable {
            spec: name,
            reason: e.reason,
        }
    })?;
    Ok(Box::new(agent))
}

/// The factory of [`SOLVER`].
fn create_solver(options: &AgentOptions, seed: u64) -> Built {
    let spec = options.spec();
    let source = match (options.text("board"), options.text("table")) {
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
                expected: "exactly one of board=WxH (solve it) or table=FILE (a saved table)"
                    .into(),
            });
        }
    };
    let table = shared_solution(&source).map_err(|e| SpecError::Unavailable {
        spec: spec.to_string(),
        reason: e.to_string(),
    })?;
    Ok(Box::new(SolverAgent::new(table, options.seed_or(seed))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make(text: &str) -> Result<String, SpecError> {
        let registry = registry();
        Ok(registry.create(&registry.parse(text)?, 0)?.name())
    }

    /// The checked options of `text`, for the readers of options.
    fn with_options<T>(text: &str, read: impl Fn(&AgentOptions) -> T) -> T {
        let registry = registry();
        let spec = registry.parse(text).unwrap();
        read(&registry.options(&spec).unwrap())
    }

    #[test]
    fn factory_errors_list_what_is_accepted() {
        let e = make("alphabeta").unwrap_err();
        assert!(matches!(e, SpecError::UnknownKind { .. }));
        let text = e.to_string();
        for kind in ["random", "greedy", "minimax", "solver", "perfect", "engine"] {
            assert!(text.contains(&format!("\n  {kind}: ")), "{text}");
        }
        let e = make("minimax:width=3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "agent minimax: unknown option \"width\"; accepted:\n  \
             depth=N (1-64, default 4): deepest iteration in turns (with only ms or nodes \
             given: no depth limit)\n  \
             ms=N (1-86400000): time per move in milliseconds\n  \
             nodes=N (at least 1): nodes per move\n  \
             hash=N (1-4096, default 16): transposition table size in MB\n  \
             tables=PATH: a folder of endgame tables (fanorona tables build): exact values \
             with few pieces\n  \
             lmr=true|false (default false): late-move reductions with principal variation \
             search: late quiet turns searched less deep, confirmed where they look better\n  \
             unfinished=true|false (default false): search until the time is spent and play \
             the turn of an unfinished last iteration where it beat the previous best\n  \
             seed=N: seed of its random choices (default: the caller's, e.g. the match seed)"
        );
        let e = make("minimax:depth=0").unwrap_err();
        assert!(e.to_string().contains("a whole number from 1 to 64"), "{e}");
        assert!(make("minimax:ms=fast").is_err());
        assert!(make("random:depth=3").is_err());
        assert_eq!(make("minimax:depth=3").unwrap(), "minimax:depth=3");
        assert_eq!(make("greedy:seed=5").unwrap(), "greedy:seed=5");
        assert_eq!(make("random").unwrap(), "random");
        let e = make("engine:movetime=5").unwrap_err();
        assert!(matches!(e, SpecError::MissingOption { .. }), "{e}");
        assert!(e.to_string().contains("cmd"), "{e}");
        let e = make("engine:cmd=/nonexistent/engine").unwrap_err();
        assert!(matches!(e, SpecError::Unavailable { .. }), "{e}");
    }

    #[test]
    fn solver_needs_exactly_one_source() {
        assert_eq!(make("solver:board=3x3").unwrap(), "solver:board=3x3");
        for bad in ["solver", "solver:board=3x3,table=t.bin", "solver:board=4x3"] {
            let e = make(bad).unwrap_err();
            assert!(matches!(e, SpecError::BadValue { .. }), "{bad}: {e}");
        }
        let e = make("solver:table=/nonexistent/table.bin").unwrap_err();
        assert!(matches!(e, SpecError::Unavailable { .. }), "{e}");
    }

    #[test]
    fn minimax_tables_must_be_a_folder() {
        let e = make("minimax:tables=/nonexistent/tables").unwrap_err();
        assert!(matches!(e, SpecError::Unavailable { .. }), "{e}");
        assert!(e.to_string().contains("not a folder"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let spec = format!("minimax:depth=1,tables={}", dir.path().display());
        assert_eq!(make(&spec).unwrap(), spec);
    }

    #[test]
    fn engine_options_are_read() {
        let config = with_options(
            "engine:cmd=fanorona,args=engine --agent random,movetime=50",
            engine_config,
        );
        assert_eq!(config.command, "fanorona");
        assert_eq!(config.args, ["engine", "--agent", "random"]);
        assert_eq!(
            (config.budget, config.timeout),
            (
                Budget::movetime(Duration::from_millis(50)),
                Duration::from_secs(30)
            )
        );
    }

    #[test]
    fn the_minimax_budget_follows_the_options() {
        let budget = |s: &str| with_options(s, minimax_budget);
        assert_eq!(budget("minimax"), Budget::fixed_depth(4));
        // A time or node count alone searches as deep as they allow.
        assert_eq!(
            budget("minimax:ms=50"),
            Budget::movetime(Duration::from_millis(50))
        );
        assert_eq!(
            budget("minimax:nodes=1000,depth=6"),
            Budget {
                nodes: Some(1000),
                ..Budget::fixed_depth(6)
            }
        );
    }
}
