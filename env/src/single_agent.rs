//! `SingleAgentEnv`: a single-agent view of a two-player game. The agent (the policy being
//! trained) plays one colour, its side; an embedded opponent [`Agent`] (random now, minimax or a network later) plays the other,
//! its actions applied inside `reset` and `step`, so single-agent RL code sees only its own
//! turns and its own reward.

use crate::Color;
use crate::agent::{Agent, AgentError};
use crate::env::{Env, EnvConfig, Observation, StepInfo};
use crate::game::{ActionError, Game};

/// Resets tried (with the following seeds) when the opponent ends the game before the
/// agent could act.
const RESET_ATTEMPTS: u64 = 100;

/// What can go wrong in a single-agent episode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SingleAgentError {
    /// The agent's action cannot be played; nothing changed.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// The opponent could not choose an action.
    #[error("the opponent failed: {0}")]
    Opponent(#[from] AgentError),
    /// The opponent chose an action that cannot be played.
    #[error("the opponent {agent} chose an unplayable action: {error}")]
    OpponentAction {
        /// The opponent's name.
        agent: String,
        /// Why the action was refused.
        error: ActionError,
    },
    /// Every reset tried ended before the agent's first turn.
    #[error("the game ended before the agent's first turn in {0} resets")]
    NoLearnerTurn(u64),
}

/// The result of [`SingleAgentEnv::step`], from the agent's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SingleAgentStep<'a> {
    /// The observation when the agent acts next (or the final one).
    pub obs: &'a [f32],
    /// The agent's legal actions (all false once the episode is over).
    pub mask: &'a [bool],
    /// The agent's reward, summed over its action and the opponent's replies.
    pub reward: f32,
    /// The game is over.
    pub terminated: bool,
    /// The turn limit cut the episode.
    pub truncated: bool,
    /// Episode counters, after the opponent's replies.
    pub info: StepInfo,
}

/// A two-player game seen by one player, the other played by an embedded agent.
pub struct SingleAgentEnv<G: Game, A: Agent<G>> {
    env: Env<G>,
    opponent: A,
    side: Color,
}

impl<G: Game, A: Agent<G>> SingleAgentEnv<G, A> {
    /// A single-agent environment where the agent plays `side` against `opponent`.
    pub fn new(start: G, config: EnvConfig, opponent: A, side: Color) -> SingleAgentEnv<G, A> {
        SingleAgentEnv {
            env: Env::with_config(start, config),
            opponent,
            side,
        }
    }

    /// The colour the agent plays.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The embedded opponent.
    pub fn opponent(&self) -> &A {
        &self.opponent
    }

    /// The underlying two-player environment.
    pub fn env(&self) -> &Env<G> {
        &self.env
    }

    /// Starts an episode and lets the opponent act until it is the agent's turn. Should the
    /// game end first, the next seeds are tried.
    pub fn reset(&mut self, seed: u64) -> Result<Observation<'_>, SingleAgentError> {
        for attempt in 0..RESET_ATTEMPTS {
            self.opponent.reset();
            self.env.reset(seed.wrapping_add(attempt));
            self.play_opponent()?;
            if !self.env.is_done() {
                return Ok(self.env.observation());
            }
        }
        Err(SingleAgentError::NoLearnerTurn(RESET_ATTEMPTS))
    }

    /// Plays the opponent's actions while it is to act; returns the agent's reward from
    /// them.
    fn play_opponent(&mut self) -> Result<f32, SingleAgentError> {
        let mut reward = 0.0;
        while !self.env.is_done() && self.env.state().current_player() != self.side {
            let action = self.opponent.act(self.env.state())?;
            let action = if self.env.config().mover_frame {
                self.env.state().to_mover_action(action)
            } else {
                action
            };
            let step = self
                .env
                .step(action)
                .map_err(|error| SingleAgentError::OpponentAction {
                    agent: self.opponent.name(),
                    error,
                })?;
            reward += step.transition.rewards[self.side.index()];
        }
        Ok(reward)
    }

    /// Plays the agent's action (absolute, or in its frame if the config says so), then the
    /// opponent's replies. An unplayable agent action changes nothing; an opponent failure
    /// leaves the agent's action played.
    pub fn step(&mut self, action: usize) -> Result<SingleAgentStep<'_>, SingleAgentError> {
        let transition = self.env.step(action)?.transition;
        let mut reward = transition.rewards[self.side.index()];
        reward += self.play_opponent()?;
        let terminated = self.env.state().is_terminal();
        let observation = self.env.observation();
        Ok(SingleAgentStep {
            obs: observation.obs,
            mask: observation.mask,
            reward,
            terminated,
            truncated: self.env.is_done() && !terminated,
            info: self.env.info(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Fanorona, RandomAgent, Telo};

    #[test]
    fn the_agent_only_sees_its_own_turns() {
        for side in Color::BOTH {
            let config = EnvConfig {
                turn_limit: Some(60),
                ..EnvConfig::default()
            };
            let mut env =
                SingleAgentEnv::new(Fanorona::standard(), config, RandomAgent::new(1), side);
            let mut me = RandomAgent::new(2);
            for seed in 0..5 {
                env.reset(seed).unwrap();
                let mut total = 0.0;
                loop {
                    assert_eq!(env.env().state().current_player(), side);
                    let action = me.act(env.env().state()).unwrap();
                    let step = env.step(action).unwrap();
                    total += step.reward;
                    if step.terminated || step.truncated {
                        let expected = if step.terminated {
                            env.env().state().returns()[side.index()]
                        } else {
                            0.0
                        };
                        assert_eq!(total, expected);
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn illegal_agent_actions_change_nothing() {
        let mut env = SingleAgentEnv::new(
            Telo::new(),
            EnvConfig::default(),
            RandomAgent::new(0),
            Color::Black,
        );
        env.reset(0).unwrap();
        let before = env.env().state().to_text();
        assert_eq!(env.env().state().plies(), 1, "white placed first");
        let occupied = env.env().state().pieces(Color::White).trailing_zeros() as usize;
        assert!(matches!(
            env.step(occupied),
            Err(SingleAgentError::Action(ActionError::Illegal { .. }))
        ));
        assert_eq!(env.env().state().to_text(), before);
    }
}
