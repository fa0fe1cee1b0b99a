//! The replay buffer: a window of the most recent self-play games. Each position keeps its
//! mover-frame observation, its legal actions with the search's target probabilities (mover
//! frame), the final result and the search's root value from the mover's view, and whether its
//! policy target is to be trained on (playout-cap randomisation). The value target is the result,
//! or a mix of the result and the root value (`root_value_weight`). Minibatches are sampled uniformly over the window's
//! positions, each mapped through a random board symmetry. The window can be saved with a
//! checkpoint and loaded to resume a run.

mod batch;
mod trajectory;

pub use batch::{Batch, PositionRef};
pub use trajectory::{Trajectory, TrajectoryMeta, TrajectoryRecorder};

use std::collections::VecDeque;

use fanorona_env::Game;
use rand::Rng;

use crate::config::ReplayConfig;

/// A window of recent games to sample training positions from.
#[derive(Clone, Debug)]
pub struct ReplayBuffer<G: Game> {
    config: ReplayConfig,
    pub(crate) prototype: G,
    pub(crate) planes: usize,
    pub(crate) cells: usize,
    pub(crate) num_actions: usize,
    pub(crate) games: VecDeque<Trajectory>,
    positions: usize,
    pub(crate) games_added: u64,
}

impl<G: Game> ReplayBuffer<G> {
    /// An empty buffer for games like `prototype` (used for sizes and symmetries).
    pub fn new(config: ReplayConfig, prototype: G) -> ReplayBuffer<G> {
        let [planes, h, w] = prototype.observation_shape();
        ReplayBuffer {
            config,
            planes,
            cells: h * w,
            num_actions: prototype.num_actions(),
            prototype,
            games: VecDeque::new(),
            positions: 0,
            games_added: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ReplayConfig {
        &self.config
    }

    /// Adds a finished game, dropping the oldest beyond the window.
    pub fn add_game(&mut self, game: Trajectory) {
        self.positions += game.len();
        self.games.push_back(game);
        self.games_added += 1;
        while self.games.len() > self.config.window_games.max(1) {
            let old = self.games.pop_front().expect("window is not empty");
            self.positions -= old.len();
        }
    }

    /// Games in the window.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Positions in the window.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// Games added since the run began (the window's position in the run).
    pub fn games_added(&self) -> u64 {
        self.games_added
    }

    /// The stored games, oldest first.
    pub fn iter_games(&self) -> impl Iterator<Item = &Trajectory> {
        self.games.iter()
    }

    /// Fills `batch` with `size` positions drawn uniformly (with replacement) from the window,
    /// each through a random symmetry when augmentation is on.
    ///
    /// # Panics
    /// If the buffer is empty: check [`positions`](Self::positions) first.
    pub fn sample(&self, size: usize, rng: &mut impl Rng, batch: &mut Batch) {
        assert!(
            self.positions > 0,
            "cannot sample from an empty replay buffer"
        );
        let obs_len = self.planes * self.cells;
        batch.reset(size, obs_len, self.num_actions);
        let first_game = self.games_added - self.games.len() as u64;
        for slot in 0..size {
            let mut ply = rng.random_range(0..self.positions);
            let mut game_index = 0;
            while ply >= self.games[game_index].len() {
                ply -= self.games[game_index].len();
                game_index += 1;
            }
            let symmetry = if self.config.augment {
                rng.random_range(0..self.prototype.num_symmetries())
            } else {
                0
            };
            self.write_position(&self.games[game_index], ply, symmetry, batch, slot);
            batch.sources.push(PositionRef {
                game: first_game + game_index as u64,
                ply,
                symmetry,
            });
        }
    }

    fn write_position(
        &self,
        game: &Trajectory,
        ply: usize,
        symmetry: usize,
        batch: &mut Batch,
        slot: usize,
    ) {
        let obs_len = self.planes * self.cells;
        let out = &mut batch.observations[slot * obs_len..(slot + 1) * obs_len];
        if symmetry == 0 {
            game.write_observation(ply, self.planes, self.cells, out);
        } else {
            game.write_observation(ply, self.planes, self.cells, &mut batch.scratch);
            self.prototype
                .transform_observation(symmetry, &batch.scratch, out);
        }
        let row = slot * self.num_actions;
        let (actions, targets) = game.targets(ply);
        for (&action, &target) in actions.iter().zip(targets) {
            let action = self.prototype.transform_action(symmetry, action as usize);
            batch.mask[row + action] = 1.0;
            batch.policy[row + action] = target;
        }
        batch.values[slot] = game.value_target(ply, self.config.root_value_weight);
        batch.policy_weights[slot] = game.policy_weight(ply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::TrainRng;
    use fanorona_env::Fanorona;
    use rand::{Rng, SeedableRng};

    #[test]
    fn exact_values_replace_the_result_and_root_value_of_their_positions_only() {
        let state = Fanorona::standard();
        let target = vec![0.0; state.num_actions()];
        let mut recorder = TrajectoryRecorder::new(&state);
        recorder.record_exact(0.5); // nothing recorded yet: no effect
        for ply in 0..4 {
            recorder.record(&state, &target, 0.25, true);
            if ply % 2 == 1 {
                recorder.record_exact(-1.0);
            }
        }
        assert_eq!(recorder.exact_positions(), 2);
        // White moves at every recorded position (the same state) and won.
        let game = recorder.finish(TrajectoryMeta::default(), [1.0, -1.0]);
        assert_eq!(game.values(), &[1.0, -1.0, 1.0, -1.0]);
        assert_eq!(game.root_values, vec![0.25, -1.0, 0.25, -1.0]);
        for weight in [0.0, 0.5, 1.0] {
            assert_eq!(game.value_target(1, weight), -1.0);
            assert_eq!(game.value_target(0, weight), 1.0 - 0.75 * weight);
        }
    }

    #[test]
    fn compact_observations_decode_exactly() {
        let mut state = Fanorona::standard();
        let mut recorder = TrajectoryRecorder::new(&state);
        let mut expected = Vec::new();
        let mut legal = Vec::new();
        let mut rng = TrainRng::seed_from_u64(4);
        let target = vec![0.0; state.num_actions()];
        while !state.is_terminal() && recorder.len() < 80 {
            let mut obs = vec![0.0; 18 * 45];
            state.write_observation(&mut obs);
            expected.push(obs);
            recorder.record(&state, &target, 0.0, true);
            state.legal_actions(&mut legal);
            state
                .apply(legal[rng.random_range(0..legal.len())])
                .unwrap();
        }
        let game = recorder.finish(TrajectoryMeta::default(), state.returns());
        let mut out = vec![0.0; 18 * 45];
        for (ply, obs) in expected.iter().enumerate() {
            game.write_observation(ply, 18, 45, &mut out);
            assert_eq!(&out, obs, "position {ply}");
        }
        // Fanorona's counters and flags are constant planes: far fewer floats are stored.
        assert!(game.obs_values.len() < game.len() * 18 * 45 / 3);
    }
}
