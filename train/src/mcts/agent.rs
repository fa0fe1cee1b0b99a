//! `MctsAgent`: tree search as a player, for matches and the arena.

use fanorona_env::{Agent, AgentError, Game};

use super::config::SearchConfig;
use super::driver::SearchDriver;
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
