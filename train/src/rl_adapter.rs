//! burn-rl adapter: Fanorona (any [`Game`]) as a single-agent [`burn::rl::Environment`]. The
//! learning agent plays one side against an opponent [`Agent`]; sides alternate from one
//! episode to the next. States carry the mover-frame observation and legal mask, actions are
//! mover-frame indices (the network's frame). The reward is the agent's return at the end of
//! the game (+1 win, -1 loss, 0 draw), 0 before; an illegal action ends the episode as a loss.

use burn::rl::{Environment, StepResult, ToObservation};
use burn::tensor::{Device, Tensor, TensorData};
use fanorona_env::{Agent, Color, Game};

/// What the agent sees: the observation planes and the legal actions (mover frame).
#[derive(Clone, Debug, PartialEq)]
pub struct RlState {
    /// Planes, height, width.
    pub shape: [usize; 3],
    /// The observation, `planes * height * width` floats.
    pub observation: Vec<f32>,
    /// Legal mover-frame actions.
    pub legal_mask: Vec<bool>,
}

impl ToObservation<Tensor<4>> for RlState {
    fn to_observation(&self, device: &Device) -> Tensor<4> {
        let [p, h, w] = self.shape;
        Tensor::from_data(
            TensorData::new(self.observation.clone(), [1, p, h, w]),
            device,
        )
    }
}

/// A game against a fixed opponent, seen by one player.
pub struct SingleAgentEnv<G: Game, A: Agent<G>> {
    initial: G,
    game: G,
    opponent: A,
    agent_color: Color,
    steps: usize,
    opponent_failed: bool,
}

impl<G: Game, A: Agent<G>> SingleAgentEnv<G, A> {
    /// An environment starting from `initial`, the agent playing white in the first episode.
    pub fn new(initial: G, opponent: A) -> SingleAgentEnv<G, A> {
        let mut env = SingleAgentEnv {
            game: initial.clone(),
            initial,
            opponent,
            agent_color: Color::Black,
            steps: 0,
            opponent_failed: false,
        };
        env.reset();
        env
    }

    /// The side the agent plays in this episode.
    pub fn agent_color(&self) -> Color {
        self.agent_color
    }

    /// The game in progress.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Lets the opponent act until it is the agent's turn or the game is over.
    fn play_opponent(&mut self) {
        while !self.game.is_terminal() && self.game.current_player() != self.agent_color {
            match self.opponent.act(&self.game) {
                Ok(action) if self.game.apply(action).is_ok() => {}
                _ => {
                    self.opponent_failed = true;
                    return;
                }
            }
        }
    }

    fn done(&self) -> bool {
        self.game.is_terminal() || self.opponent_failed
    }
}

impl<G: Game, A: Agent<G>> Environment for SingleAgentEnv<G, A> {
    type State = RlState;
    type Action = usize;

    const MAX_STEPS: usize = 1000;

    fn state(&self) -> RlState {
        let [p, h, w] = self.game.observation_shape();
        let mut observation = vec![0.0; p * h * w];
        self.game.write_observation(&mut observation);
        let mut legal_mask = vec![false; self.game.num_actions()];
        if !self.done() {
            let mut legal = Vec::new();
            self.game.legal_actions(&mut legal);
            for action in legal {
                legal_mask[self.game.to_mover_action(action)] = true;
            }
        }
        RlState {
            shape: [p, h, w],
            observation,
            legal_mask,
        }
    }

    fn step(&mut self, action: usize) -> StepResult<RlState> {
        self.steps += 1;
        let absolute = (!self.done() && action < self.game.num_actions())
            .then(|| self.game.mover_action_to_absolute(action))
            .filter(|&a| self.game.is_legal(a));
        let mut reward = 0.0;
        let done = if let Some(absolute) = absolute {
            self.game.apply_unchecked(absolute);
            self.play_opponent();
            if self.game.is_terminal() {
                reward = self.game.returns()[self.agent_color.index()] as f64;
            }
            self.done()
        } else {
            reward = -1.0;
            true
        };
        let truncated = !done && self.steps >= Self::MAX_STEPS;
        StepResult {
            next_state: self.state(),
            reward,
            done,
            truncated,
        }
    }

    fn reset(&mut self) {
        self.game = self.initial.clone();
        self.agent_color = self.agent_color.other();
        self.steps = 0;
        self.opponent_failed = false;
        self.opponent.reset();
        self.play_opponent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::{AgentError, Board, Fanorona, Position};

    /// Plays its first legal action.
    struct FirstLegal;

    impl Agent<Fanorona> for FirstLegal {
        fn name(&self) -> String {
            "first".into()
        }

        fn act(&mut self, state: &Fanorona) -> Result<usize, AgentError> {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            Ok(legal[0])
        }
    }

    #[test]
    fn episodes_alternate_sides_and_end_with_the_agents_return() {
        let initial = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let mut env = SingleAgentEnv::new(initial, FirstLegal);
        for episode in 0..4 {
            let expected = if episode % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(env.agent_color(), expected);
            let mut total = 0.0;
            loop {
                let state = env.state();
                assert_eq!(env.game().current_player(), expected);
                let action = state
                    .legal_mask
                    .iter()
                    .rposition(|&l| l)
                    .expect("a legal action");
                let result = env.step(action);
                total += result.reward;
                if result.done || result.truncated {
                    if result.done {
                        assert_eq!(total, env.game().returns()[expected.index()] as f64);
                    }
                    break;
                }
                assert_eq!(result.reward, 0.0);
            }
            env.reset();
        }
        // An illegal action ends the episode as a loss.
        let state = env.state();
        let illegal = state.legal_mask.iter().position(|&l| !l).unwrap();
        let result = env.step(illegal);
        assert!(result.done);
        assert_eq!(result.reward, -1.0);
        let obs: Tensor<4> = state.to_observation(&Device::flex());
        assert_eq!(obs.dims(), [1, 18, 3, 5]);
    }
}
