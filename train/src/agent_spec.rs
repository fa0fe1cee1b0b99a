//! Agent specifications for every player of the project: the kinds of `fanorona-eval`
//! (`random`, `greedy`, `minimax`, ...) and this crate's searching kinds, e.g.
//! `mcts:sims=800,cpuct=1.5,gumbel=true,seed=1` (search with random-playout evaluation) and
//! `net:path=agent.safetensors,sims=200` (search with a trained network, see
//! [`crate::net_agent`]). A specification that is just the path of an existing `.safetensors`
//! file means `net:path=FILE` ([`parse_spec`]).

use fanorona_env::{Agent, Fanorona};
use fanorona_eval::{AgentSpec, SpecError};
use fanorona_search::{MctsAgent, RolloutEvaluator, SearchConfig};

/// The kinds this crate adds, with their options.
pub const KINDS: &[(&str, &str)] = &[
    (
        "mcts",
        "tree search with random-playout values; options: sims=N (default 800), cpuct=X (1.5), \
     gumbel=true|false (false), considered=N (Gumbel root actions, 16), temp=X (0), fpu=X \
     (0.25), batch=N (leaves per evaluation, 1), playouts=N (per leaf, 1), steps=N (playout \
     cap, 400), seed=S",
    ),
    crate::net_agent::KIND,
];

/// The search options shared by every searching kind.
pub const SEARCH_OPTIONS: [&str; 7] = [
    "sims",
    "cpuct",
    "gumbel",
    "considered",
    "temp",
    "fpu",
    "seed",
];

/// The search settings of a specification (defaults where an option is absent); `seed` is
/// used unless the specification gives `seed=S`.
pub fn search_config(spec: &AgentSpec, seed: u64) -> Result<SearchConfig, SpecError> {
    let mut config = SearchConfig::default();
    if let Some(sims) = spec.number_option("sims", 1..=10_000_000u32)? {
        config.simulations = sims;
    }
    if let Some(c) = spec.real_option("cpuct", 0.001..=100.0)? {
        config.c_puct = c;
    }
    if let Some(g) = spec.bool_option("gumbel")? {
        config.gumbel = g;
    }
    if let Some(m) = spec.number_option("considered", 1..=4096usize)? {
        config.gumbel_considered = m;
    }
    if let Some(t) = spec.real_option("temp", 0.0..=100.0)? {
        config.temperature = t;
    }
    if let Some(f) = spec.real_option("fpu", 0.0..=2.0)? {
        config.fpu_reduction = f;
    }
    config.seed = spec.seed_or(seed)?;
    Ok(config)
}

/// Parses an agent specification, reading the path of an existing `.safetensors` file (an
/// exported policy) as `net:path=FILE`.
pub fn parse_spec(text: &str) -> Result<AgentSpec, SpecError> {
    let trimmed = text.trim();
    let path = std::path::Path::new(trimmed);
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("safetensors"))
        && path.is_file()
    {
        return Ok(AgentSpec {
            kind: "net".into(),
            options: vec![("path".into(), trimmed.to_string())],
        });
    }
    AgentSpec::parse(text)
}

/// Builds any agent of the project: `fanorona-eval`'s kinds, then `mcts` and `net`. Unknown
/// kinds are refused with the list of all kinds.
pub fn create_agent(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    match fanorona_eval::create_agent(spec, seed) {
        Err(SpecError::UnknownKind { .. }) => {}
        built => return built,
    }
    match spec.kind.as_str() {
        "mcts" => {
            let mut accepted = SEARCH_OPTIONS.to_vec();
            accepted.extend(["batch", "playouts", "steps"]);
            spec.check_options(&accepted)?;
            let config = search_config(spec, seed)?;
            let batch = spec.number_option("batch", 1..=65_536usize)?.unwrap_or(1);
            let playouts = spec.number_option("playouts", 1..=10_000u32)?.unwrap_or(1);
            let steps = spec.number_option("steps", 1..=100_000u32)?.unwrap_or(400);
            let evaluator = RolloutEvaluator::new(playouts, steps, config.seed);
            Ok(Box::new(MctsAgent::new(
                config,
                evaluator,
                batch,
                spec.to_string(),
            )))
        }
        "net" => crate::net_agent::create_net_agent(spec, seed),
        kind => Err(SpecError::unknown_kind_among(
            kind,
            &[fanorona_eval::spec::KINDS, KINDS],
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        AgentSpec::parse(text).unwrap()
    }

    #[test]
    fn search_options_are_read_and_checked() {
        let c =
            search_config(&spec("mcts:sims=64,cpuct=2,gumbel=true,seed=5,temp=0.5"), 0).unwrap();
        assert_eq!(
            (c.simulations, c.c_puct, c.gumbel, c.seed, c.temperature),
            (64, 2.0, true, 5, 0.5)
        );
        assert_eq!(search_config(&spec("mcts"), 9).unwrap().simulations, 800);
        assert_eq!(search_config(&spec("mcts"), 9).unwrap().seed, 9);
        for bad in [
            "mcts:sims=0",
            "mcts:gumbel=yes",
            "mcts:cpuct=-1",
            "mcts:temp=nan",
        ] {
            assert!(
                matches!(
                    search_config(&spec(bad), 0),
                    Err(SpecError::BadValue { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_factory_builds_every_kind_and_lists_them_all_on_error() {
        for text in [
            "random",
            "greedy",
            "minimax:depth=2",
            "mcts:sims=16,batch=4",
        ] {
            let agent = create_agent(&spec(text), 1).unwrap();
            assert_eq!(agent.name(), text);
        }
        let err = create_agent(&spec("mcts:depth=3"), 0).err().unwrap();
        assert!(matches!(err, SpecError::UnknownOption { .. }), "{err}");
        let err = create_agent(&spec("alphabeta"), 0)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("minimax") && err.contains("mcts"), "{err}");
    }
}
