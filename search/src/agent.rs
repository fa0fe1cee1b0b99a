//! `MctsAgent`: tree search as a player, for matches, the arena and the engine protocol.

use std::time::Instant;

use fanorona_env::{Agent, AgentError, Game, SearchInfo, SearchLimits};

use crate::Evaluator;
use crate::config::SearchConfig;
use crate::driver::SearchDriver;

/// Simulations per round when a search may be cut short (a time limit or a stop flag): each
/// round goes on growing the same tree, and the search ends after the round in which the time
/// ran out or the stop flag was set.
const ROUND: u32 = 64;

/// A player that searches with an evaluator. Between its own consecutive actions (a capture
/// chain) it keeps its tree; when the opponent has moved it starts a new one.
pub struct MctsAgent<G: Game, E: Evaluator<G>> {
    config: SearchConfig,
    batch_size: usize,
    evaluator: E,
    driver: Option<SearchDriver<G>>,
    name: String,
    limits: SearchLimits,
    info: Option<SearchInfo>,
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
            limits: SearchLimits::default(),
            info: None,
        }
    }

    /// The search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Simulations for one decision: `nodes` if the caller gave it, unlimited if it gave only
    /// a time, else the configured number.
    fn budget(&self) -> u32 {
        match (self.limits.nodes, self.limits.movetime) {
            (Some(n), _) => n.clamp(1, u32::MAX as u64) as u32,
            (None, Some(_)) => u32::MAX,
            (None, None) => self.config.simulations,
        }
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
        let start = Instant::now();
        let budget = self.budget();
        let deadline = self.limits.movetime.map(|t| start + t);
        let in_rounds = deadline.is_some() || self.limits.stop.is_some();
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
        let mut done = 0u32;
        loop {
            let round = if in_rounds {
                ROUND.min(budget - done)
            } else {
                budget
            };
            driver.config_mut().simulations = round;
            driver.search(&mut self.evaluator);
            done += round;
            let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
            if done >= budget || out_of_time || self.limits.stop_requested() {
                break;
            }
        }
        let result = driver.result(0).ok_or_else(|| AgentError {
            agent: self.name.clone(),
            reason: "the search found no action".into(),
        })?;
        let action = result.action;
        self.info = Some(SearchInfo {
            value: Some(result.root_value),
            nodes: done as u64,
            time: start.elapsed(),
            pv: vec![state.action_name(action)],
            ..SearchInfo::default()
        });
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
        self.info = None;
    }

    /// Nodes set the simulations per decision; a time limit or a stop flag makes the search
    /// run in rounds that end once the time is up or the flag is set.
    fn set_limits(&mut self, limits: &SearchLimits) {
        self.limits = limits.clone();
    }

    /// The root's mean value for the player who decided, the simulations run and the action.
    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use fanorona_env::Fanorona;

    use super::*;
    use crate::UniformEvaluator;

    fn agent(simulations: u32) -> MctsAgent<Fanorona, UniformEvaluator> {
        let config = SearchConfig {
            simulations,
            ..SearchConfig::default()
        };
        MctsAgent::new(config, UniformEvaluator, 1, "mcts".into())
    }

    #[test]
    fn nodes_set_the_simulations_and_info_reports_them() {
        let game = Fanorona::standard();
        let mut player = agent(800);
        player.set_limits(&SearchLimits {
            nodes: Some(40),
            ..SearchLimits::default()
        });
        let action = player.act(&game).unwrap();
        let info = player.last_info().unwrap();
        assert_eq!(info.nodes, 40);
        assert_eq!(info.pv, vec![game.action_name(action)]);
        assert!((-1.0..=1.0).contains(&info.value.unwrap()));
        // Without caller limits the configured number applies again.
        player.set_limits(&SearchLimits::default());
        player.reset();
        player.act(&game).unwrap();
        assert_eq!(player.last_info().unwrap().nodes, 800);
    }

    #[test]
    fn time_and_stop_flag_cut_the_search_short() {
        let game = Fanorona::standard();
        let mut player = agent(800);
        player.set_limits(&SearchLimits {
            movetime: Some(Duration::from_millis(30)),
            ..SearchLimits::default()
        });
        let action = player.act(&game).unwrap();
        assert!(game.is_legal(action));
        let info = player.last_info().unwrap();
        assert!(info.nodes >= ROUND as u64 && info.nodes < u32::MAX as u64);
        assert!(info.time < Duration::from_secs(5), "{:?}", info.time);

        player.set_limits(&SearchLimits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..SearchLimits::default()
        });
        player.reset();
        assert!(game.is_legal(player.act(&game).unwrap()));
        assert_eq!(player.last_info().unwrap().nodes, ROUND as u64);
    }
}
