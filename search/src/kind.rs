//! The `mcts` agent kind: tree search valued by random playouts
//! ([`MctsAgent`] with a [`RolloutEvaluator`]).

use fanorona_env::{
    Agent, AgentKind, AgentOptions, Fanorona, OptionDef, OptionDefault, Registry, SpecError,
    ValueType,
};

use crate::options::{
    BATCH, CONSIDERED, CPUCT, FPU, GUMBEL, MS, SIMS, TEMP, search_budget, search_config,
};
use crate::{Evaluator, MctsAgent, RolloutEvaluator};

/// The options of the `mcts` kind.
pub const MCTS_OPTIONS: [OptionDef; 11] = [
    SIMS,
    MS,
    CPUCT,
    GUMBEL,
    CONSIDERED,
    TEMP,
    FPU,
    BATCH,
    OptionDef {
        name: "playouts",
        value: ValueType::Whole {
            min: 1,
            max: 10_000,
        },
        default: OptionDefault::Value("1"),
        help: "random playouts per leaf",
    },
    OptionDef {
        name: "steps",
        value: ValueType::Whole {
            min: 1,
            max: 100_000,
        },
        default: OptionDefault::Value("400"),
        help: "longest playout, in steps",
    },
    OptionDef::SEED,
];

/// The `mcts` kind.
pub const MCTS_KIND: AgentKind = AgentKind {
    name: "mcts",
    summary: "tree search with random-playout values",
    options: &MCTS_OPTIONS,
    path_extensions: &[],
    factory: create,
};

/// The factory of [`MCTS_KIND`].
fn create(options: &AgentOptions, seed: u64) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    Ok(mcts_agent(options, seed, |playouts| playouts))
}

/// The `mcts` agent of `options` (of [`MCTS_OPTIONS`], or more), its random-playout leaf
/// values passed through `leaves` (another crate's kind may make some of them exact); `seed`
/// is used unless the options give one.
pub fn mcts_agent<E: Evaluator<Fanorona> + 'static>(
    options: &AgentOptions,
    seed: u64,
    leaves: impl FnOnce(RolloutEvaluator) -> E,
) -> Box<dyn Agent<Fanorona>> {
    let config = search_config(options, seed);
    let whole = |name| options.whole(name).expect("mcts options have defaults");
    let evaluator = RolloutEvaluator::new(whole("playouts"), whole("steps"), config.seed);
    Box::new(
        MctsAgent::new(
            config,
            leaves(evaluator),
            options.whole("batch").expect("batch has a default"),
            options.spec().to_string(),
        )
        .with_budget(search_budget(options)),
    )
}

/// Registers this crate's agent kind, `mcts`.
pub fn register(registry: &mut Registry) {
    registry.register(MCTS_KIND);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchConfig;
    use fanorona_env::Budget;

    #[test]
    fn search_options_are_read_and_checked() {
        let mut registry = Registry::new();
        register(&mut registry);
        let config = |text: &str, seed| {
            let spec = registry.parse(text).unwrap();
            registry.options(&spec).map(|o| search_config(&o, seed))
        };
        let c = config("mcts:sims=64,cpuct=2,gumbel=true,seed=5,temp=0.5", 0).unwrap();
        assert_eq!(
            (c.simulations, c.c_puct, c.gumbel, c.seed, c.temperature),
            (64, 2.0, true, 5, 0.5)
        );
        // Options left out are the search's own defaults, whatever they are.
        let c = config("mcts", 9).unwrap();
        assert_eq!(
            c,
            SearchConfig {
                seed: 9,
                ..SearchConfig::default()
            }
        );
        for bad in [
            "mcts:sims=0",
            "mcts:gumbel=yes",
            "mcts:cpuct=-1",
            "mcts:temp=nan",
        ] {
            assert!(
                matches!(config(bad, 0), Err(SpecError::BadValue { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn sims_and_ms_make_the_budget() {
        let mut registry = Registry::new();
        register(&mut registry);
        let budget = |text: &str| {
            let spec = registry.parse(text).unwrap();
            search_budget(&registry.options(&spec).unwrap())
        };
        let ms = |n| Some(std::time::Duration::from_millis(n));
        assert_eq!(budget("mcts"), Budget::node_count(800));
        assert_eq!(
            budget("mcts:ms=50"),
            Budget {
                time: ms(50),
                ..Budget::default()
            }
        );
        assert_eq!(
            budget("mcts:ms=50,sims=64"),
            Budget {
                time: ms(50),
                depth: None,
                nodes: Some(64),
            }
        );
        let spec = registry.parse("mcts:ms=0").unwrap();
        assert!(matches!(
            registry.options(&spec),
            Err(SpecError::BadValue { .. })
        ));
    }

    #[test]
    fn mcts_agents_are_built_and_unknown_options_refused() {
        let mut registry = Registry::new();
        register(&mut registry);
        let spec = registry.parse("mcts:sims=16,batch=4").unwrap();
        assert_eq!(
            registry.create(&spec, 1).unwrap().name(),
            "mcts:sims=16,batch=4"
        );
        let spec = registry.parse("mcts:depth=3").unwrap();
        let err = registry.create(&spec, 0).err().unwrap();
        assert!(matches!(err, SpecError::UnknownOption { .. }), "{err}");
    }
}
