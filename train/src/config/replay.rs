//! How the replay window keeps and samples positions (the run configuration's `[replay]`
//! section).

use serde::{Deserialize, Serialize};

/// How the replay buffer keeps and samples positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayConfig {
    /// The number of most recent games kept.
    pub window_games: usize,
    /// Whether sampled positions go through a random board symmetry.
    #[serde(default = "default_augment")]
    pub augment: bool,
    /// The weight of the search's root value in the value target, from 0 (the game's result
    /// alone, as in AlphaZero) to 1 (the root value alone): the target is
    /// `(1 - w) * result + w * root value`.
    #[serde(default)]
    pub root_value_weight: f32,
}

fn default_augment() -> bool {
    true
}
