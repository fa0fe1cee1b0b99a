//! A training minibatch laid out for the network.

/// Where a sampled position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionRef {
    /// The game's number (games are numbered from 0 in the order they were added).
    pub game: u64,
    /// The position's index within the game.
    pub ply: usize,
    /// The symmetry applied.
    pub symmetry: usize,
}

/// `size` positions: observations, dense mover-frame policy targets and legal masks
/// (`num_actions` per position), value targets and policy weights.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Positions in the batch.
    pub size: usize,
    /// Floats per observation.
    pub observation_len: usize,
    /// Actions per position.
    pub num_actions: usize,
    /// Observations, `size * observation_len`.
    pub observations: Vec<f32>,
    /// Target probabilities, `size * num_actions` (zero on illegal actions).
    pub policy: Vec<f32>,
    /// Legal masks as 1.0 / 0.0, `size * num_actions`.
    pub mask: Vec<f32>,
    /// Final results from the mover's view.
    pub values: Vec<f32>,
    /// 1.0 where the policy target is trained on, else 0.0.
    pub policy_weights: Vec<f32>,
    /// Where each position came from.
    pub sources: Vec<PositionRef>,
    /// An observation before its symmetry is applied.
    pub(super) scratch: Vec<f32>,
}

impl Batch {
    /// Empties the batch and sizes it for `size` positions.
    pub(crate) fn reset(&mut self, size: usize, observation_len: usize, num_actions: usize) {
        self.size = size;
        self.observation_len = observation_len;
        self.num_actions = num_actions;
        self.observations.resize(size * observation_len, 0.0);
        self.policy.clear();
        self.policy.resize(size * num_actions, 0.0);
        self.mask.clear();
        self.mask.resize(size * num_actions, 0.0);
        self.values.resize(size, 0.0);
        self.policy_weights.resize(size, 0.0);
        self.sources.clear();
        self.scratch.resize(observation_len, 0.0);
    }
}
