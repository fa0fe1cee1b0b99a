//! The options shared by the searching agent kinds, this crate's `mcts` ([`MCTS_KIND`]) and
//! `fanorona-train`'s `net`, e.g. `mcts:sims=800,cpuct=1.5,gumbel=true,seed=1`, and
//! the search settings they make.

#[cfg(doc)]
use crate::MCTS_KIND;
use std::time::Duration;

use crate::{SIMULATION_CAP, SearchConfig};
use fanorona_env::{AgentOptions, Budget};
use fanorona_env::{OptionDef, OptionDefault, ValueType};

/// The most simulations per decision.
pub const MAX_SIMS: u64 = SIMULATION_CAP as u64;

/// `sims=N` (`net` also accepts 0).
pub const SIMS: OptionDef = OptionDef {
    name: "sims",
    value: ValueType::Whole {
        min: 1,
        max: MAX_SIMS,
    },
    default: OptionDefault::Whole(SearchConfig::DEFAULT.simulations as u64),
    help: "simulations per decision (with ms: whichever runs out first)",
};

/// `ms=N`: a time limit per turn.
pub const MS: OptionDef = OptionDef {
    name: "ms",
    value: ValueType::Whole {
        min: 1,
        max: 86_400_000,
    },
    default: OptionDefault::Unset,
    help: "time per turn in milliseconds; with sims, whichever runs out first; alone, no \
           simulation limit (gumbel=true still stops at sims, which its halving plans for)",
};

/// `cpuct=X`.
pub const CPUCT: OptionDef = OptionDef {
    name: "cpuct",
    value: ValueType::Real {
        min: 0.001,
        max: 100.0,
    },
    default: OptionDefault::Real(SearchConfig::DEFAULT.c_puct as f64),
    help: "PUCT exploration constant",
};

/// `gumbel=true|false`.
pub const GUMBEL: OptionDef = OptionDef {
    name: "gumbel",
    value: ValueType::Bool,
    default: OptionDefault::Flag(SearchConfig::DEFAULT.gumbel),
    help: "Gumbel root search (sequential halving) instead of PUCT",
};

/// `considered=N`.
pub const CONSIDERED: OptionDef = OptionDef {
    name: "considered",
    value: ValueType::Whole { min: 1, max: 4096 },
    default: OptionDefault::Whole(SearchConfig::DEFAULT.gumbel_considered as u64),
    help: "root actions Gumbel search considers",
};

/// `temp=X`.
pub const TEMP: OptionDef = OptionDef {
    name: "temp",
    value: ValueType::Real {
        min: 0.0,
        max: 100.0,
    },
    default: OptionDefault::Real(SearchConfig::DEFAULT.temperature as f64),
    help: "move choice temperature (0: the most visited)",
};

/// The least `fpu` (first-play urgency reduction).
pub const FPU_MIN: f64 = 0.0;
/// The most `fpu`.
pub const FPU_MAX: f64 = 2.0;

/// `fpu=X`.
pub const FPU: OptionDef = OptionDef {
    name: "fpu",
    value: ValueType::Real {
        min: FPU_MIN,
        max: FPU_MAX,
    },
    default: OptionDefault::Real(SearchConfig::DEFAULT.fpu_reduction as f64),
    help: "first-play urgency reduction",
};

/// `batch=N` (`net` sends more by default).
pub const BATCH: OptionDef = OptionDef {
    name: "batch",
    value: ValueType::Whole {
        min: 1,
        max: 65_536,
    },
    default: OptionDefault::Value("1"),
    help: "leaves per evaluation",
};

/// The budget of checked options (a searching kind declares [`SIMS`] and [`MS`]): the
/// simulations if `sims` is given or `ms` is not, the time if `ms` is given.
pub fn search_budget(options: &AgentOptions) -> Budget {
    let time = options.whole("ms").map(Duration::from_millis);
    let nodes = (options.is_given("sims") || time.is_none())
        .then(|| options.whole("sims").expect("sims has a default"));
    Budget {
        time,
        depth: None,
        nodes,
    }
}

/// The search settings of checked options (a searching kind declares [`SIMS`], [`CPUCT`],
/// [`GUMBEL`], [`CONSIDERED`], [`TEMP`], [`FPU`] and `seed`); `seed` is used unless the
/// specification gives `seed=S`.
pub fn search_config(options: &AgentOptions, seed: u64) -> SearchConfig {
    let real = |name| options.real(name).expect("search options have defaults") as f32;
    SearchConfig {
        simulations: options.whole("sims").expect("sims has a default"),
        c_puct: real("cpuct"),
        gumbel: options.flag("gumbel").expect("gumbel has a default"),
        gumbel_considered: options
            .whole("considered")
            .expect("considered has a default"),
        temperature: real("temp"),
        fpu_reduction: real("fpu"),
        seed: options.seed_or(seed),
        ..SearchConfig::default()
    }
}
