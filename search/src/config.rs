//! The settings of one search, the same wherever a search is set up: agent specifications,
//! the `[mcts]` section of a training run's configuration, evaluation matches.

use serde::{Deserialize, Serialize};

/// How a search explores and how it picks its move. Read from and written to configuration
/// files by serde; settings left out take their [`Default`] values, and the seed is not
/// stored (whoever runs the search seeds it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchConfig {
    /// Simulations per search (the root's own first evaluation not counted).
    pub simulations: u32,
    /// PUCT exploration constant.
    pub c_puct: f32,
    /// First-play urgency: an unvisited edge is valued at its node's mean value minus this.
    pub fpu_reduction: f32,
    /// Dirichlet noise concentration at the root (PUCT only).
    pub dirichlet_alpha: f32,
    /// Share of Dirichlet noise mixed into the root priors; 0 turns the noise off.
    pub dirichlet_fraction: f32,
    /// Move selection temperature for PUCT: 0 plays the most visited action, 1 samples in
    /// proportion to visits. Gumbel search plays its sequential-halving winner instead.
    pub temperature: f32,
    /// Use Gumbel AlphaZero root search (sequential halving) instead of PUCT at the root.
    pub gumbel: bool,
    /// Gumbel: number of root actions sampled for sequential halving (m). Configuration
    /// files written before this name used `gumbel_actions`, still accepted.
    #[serde(alias = "gumbel_actions")]
    pub gumbel_considered: usize,
    /// Gumbel: `c_visit` of sigma(q) = (c_visit + max N) * c_scale * q.
    pub c_visit: f32,
    /// Gumbel: `c_scale` of sigma(q).
    pub c_scale: f32,
    /// The value an in-flight simulation counts as for its edge (a loss: pushes other
    /// simulations of the same batch elsewhere).
    pub virtual_loss: f32,
    /// KataGo's forced playouts at a PUCT root: `k` of `sqrt(k * P * N)` playouts forced on
    /// every visited child, taken back from the visit-count policy target; 0 turns them off.
    pub forced_playouts: f32,
    /// Seed of the search's random numbers (noise, Gumbel samples, temperature).
    #[serde(skip)]
    pub seed: u64,
}

impl SearchConfig {
    /// The defaults: the one source of the search options' defaults too (`mcts` and `net`
    /// declare theirs from it).
    pub const DEFAULT: SearchConfig = SearchConfig {
        simulations: 800,
        c_puct: 1.5,
        fpu_reduction: 0.25,
        dirichlet_alpha: 0.3,
        dirichlet_fraction: 0.0,
        temperature: 0.0,
        gumbel: false,
        gumbel_considered: 16,
        c_visit: 50.0,
        c_scale: 1.0,
        virtual_loss: 1.0,
        forced_playouts: 0.0,
        seed: 0,
    };
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig::DEFAULT
    }
}
