//! The `Evaluator` trait: what tree search asks of a model. Given a batch of game states it
//! returns, for each, prior logits over the (absolute) action space and a value for the player
//! to act. Implementations: the uniform and random-rollout evaluators of this crate, and the
//! network evaluator of `fanorona-train`.

use fanorona_env::Game;

/// Evaluates batches of non-terminal states for search.
pub trait Evaluator<G: Game>: Send {
    /// For each of `states`, writes `num_actions` policy logits (absolute action indices; the
    /// search masks illegal ones) into `policy[i * num_actions..]` and the expected return of
    /// the player to act, in `[-1, 1]`, into `values[i]`.
    fn evaluate(&mut self, states: &[G], policy: &mut [f32], values: &mut [f32]);
}
