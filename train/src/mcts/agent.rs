//! `MctsAgent`: tree search as a player, for matches and the arena, and its options
//! (`sims=800,cpuct=1.5,gumbel=true,seed=1`) for the command line's `mcts:` agent spec.

use fanorona_env::{Agent, AgentError, Fanorona, Game};

use super::config::SearchConfig;
use super::driver::SearchDriver;
use super::evaluators::RolloutEvaluator;
use crate::evaluator::Evaluator;

/// A player that searches with an evaluator. Between its own consecutive actions (a capture
/// chain) it keeps its tree; when the opponent has moved it starts a new one.
pub struct MctsAgent<G: Game, E: Evaluator<G>> {
    config: SearchConfig,
    batch_size: usize,
    evaluator: E,
    driver: Option<SearchDriver<G>>,
    name: String,
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    /// An agent searching with `config`, asking `evaluator` for up to `batch_size` leaves at
    /// a time; `name` is what logs and game records call it.
    pub fn new(config: SearchConfig, evaluator: E, batch_size: usize, name: String) -> Self {
        MctsAgent {
            config,
            batch_size,
            evaluator,
            driver: None,
            name,
        }
    }

    /// The search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        if state.is_terminal() {
            return Err(AgentError {
                agent: self.name.clone(),
                reason: "the game is over".into(),
            });
        }
        let driver = self.driver.get_or_insert_with(|| {
            SearchDriver::new(
                self.config.clone(),
                self.batch_size,
                std::slice::from_ref(state),
            )
        });
        // Keep the tree if the state is where our last action led (a chain going on).
        if driver.state(0).to_text() != state.to_text() {
            driver.reset(0, state);
        }
        driver.search(&mut self.evaluator);
        let action = driver
            .result(0)
            .map(|r| r.action)
            .ok_or_else(|| AgentError {
                agent: self.name.clone(),
                reason: "the search found no action".into(),
            })?;
        driver.play(0, action).map_err(|e| AgentError {
            agent: self.name.clone(),
            reason: e.to_string(),
        })?;
        Ok(action)
    }

    fn reset(&mut self) {
        if let Some(driver) = &mut self.driver {
            let state = driver.state(0).clone();
            driver.reset(0, &state);
        }
    }
}

/// An option of the `mcts:` agent spec that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MctsOptionsError {
    /// An option name this agent does not have.
    #[error("unknown mcts option {name:?}; known options: {known}")]
    Unknown {
        /// The name given.
        name: String,
        /// The names accepted.
        known: String,
    },
    /// An option without `=value`.
    #[error("mcts option {name:?} needs a value: write {name}=VALUE")]
    MissingValue {
        /// The name given.
        name: String,
    },
    /// A value that does not fit its option.
    #[error("mcts option {name}={value:?}: expected {expected}")]
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: &'static str,
    },
}

/// The options of [`rollout_agent`], with what each takes.
const OPTIONS: [(&str, &str); 10] = [
    (
        "sims",
        "simulations per move, a whole number of at least 1 (default 800)",
    ),
    (
        "cpuct",
        "the PUCT exploration constant, a positive number (default 1.5)",
    ),
    (
        "gumbel",
        "Gumbel AlphaZero root search, true or false (default false)",
    ),
    (
        "considered",
        "Gumbel: actions sampled at the root, at least 1 (default 16)",
    ),
    (
        "temp",
        "move temperature, a number of at least 0 (default 0: most visited)",
    ),
    (
        "fpu",
        "first-play urgency reduction, a number of at least 0 (default 0.25)",
    ),
    ("seed", "random seed, a whole number (default 0)"),
    (
        "playouts",
        "random playouts per evaluated state, at least 1 (default 1)",
    ),
    (
        "steps",
        "action cap of one playout, at least 1 (default 400)",
    ),
    ("batch", "leaves evaluated together, at least 1 (default 1)"),
];

fn parse_value<T: std::str::FromStr>(
    name: &str,
    value: &str,
    valid: impl Fn(&T) -> bool,
) -> Result<T, MctsOptionsError> {
    let expected = OPTIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("a valid value", |(_, e)| e);
    value
        .parse::<T>()
        .ok()
        .filter(|v| valid(v))
        .ok_or_else(|| MctsOptionsError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            expected,
        })
}

/// Builds an MCTS agent for Fanorona with the random-playout evaluator from comma-separated
/// options, e.g. `sims=800,cpuct=1.5,gumbel=true,seed=1` (empty: all defaults). Options:
/// `sims`, `cpuct`, `gumbel`, `considered`, `temp`, `fpu`, `seed`, `playouts`, `steps`,
/// `batch`.
pub fn rollout_agent(
    options: &str,
) -> Result<MctsAgent<Fanorona, RolloutEvaluator>, MctsOptionsError> {
    let mut config = SearchConfig::default();
    let (mut playouts, mut steps, mut batch) = (1u32, 400u32, 1usize);
    for option in options.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let (name, value) = option
            .split_once('=')
            .map(|(n, v)| (n.trim(), v.trim()))
            .ok_or_else(|| MctsOptionsError::MissingValue {
                name: option.to_string(),
            })?;
        let finite_at_least = |min: f32| move |v: &f32| v.is_finite() && *v >= min;
        match name {
            "sims" => config.simulations = parse_value(name, value, |v: &u32| *v >= 1)?,
            "cpuct" => {
                config.c_puct = parse_value(name, value, |v: &f32| v.is_finite() && *v > 0.0)?
            }
            "gumbel" => config.gumbel = parse_value(name, value, |_: &bool| true)?,
            "considered" => {
                config.gumbel_considered = parse_value(name, value, |v: &usize| *v >= 1)?
            }
            "temp" => config.temperature = parse_value(name, value, finite_at_least(0.0))?,
            "fpu" => config.fpu_reduction = parse_value(name, value, finite_at_least(0.0))?,
            "seed" => config.seed = parse_value(name, value, |_: &u64| true)?,
            "playouts" => playouts = parse_value(name, value, |v: &u32| *v >= 1)?,
            "steps" => steps = parse_value(name, value, |v: &u32| *v >= 1)?,
            "batch" => batch = parse_value(name, value, |v: &usize| *v >= 1)?,
            _ => {
                return Err(MctsOptionsError::Unknown {
                    name: name.to_string(),
                    known: OPTIONS.map(|(n, _)| n).join(", "),
                });
            }
        }
    }
    let name = format!(
        "mcts:sims={},cpuct={},gumbel={},seed={}",
        config.simulations, config.c_puct, config.gumbel, config.seed
    );
    let evaluator = RolloutEvaluator::new(playouts, steps, config.seed);
    Ok(MctsAgent::new(config, evaluator, batch, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_checked() {
        let agent = rollout_agent("sims=64, cpuct=2,gumbel=true,seed=5,temp=0.5").unwrap();
        let c = agent.config();
        assert_eq!(
            (c.simulations, c.c_puct, c.gumbel, c.seed, c.temperature),
            (64, 2.0, true, 5, 0.5)
        );
        assert_eq!(
            Agent::<Fanorona>::name(&agent),
            "mcts:sims=64,cpuct=2,gumbel=true,seed=5"
        );
        assert_eq!(rollout_agent("").unwrap().config().simulations, 800);
        let err = rollout_agent("sims=10,depth=3").err().unwrap();
        assert!(matches!(err, MctsOptionsError::Unknown { ref name, .. } if name == "depth"));
        assert!(err.to_string().contains("sims, cpuct, gumbel"), "{err}");
        let err = rollout_agent("sims=0").err().unwrap();
        assert!(matches!(err, MctsOptionsError::BadValue { ref name, .. } if name == "sims"));
        assert!(err.to_string().contains("at least 1"), "{err}");
        assert!(matches!(
            rollout_agent("gumbel=yes"),
            Err(MctsOptionsError::BadValue { .. })
        ));
        assert!(matches!(
            rollout_agent("cpuct=-1"),
            Err(MctsOptionsError::BadValue { .. })
        ));
        assert!(matches!(
            rollout_agent("seed"),
            Err(MctsOptionsError::MissingValue { .. })
        ));
    }
}
