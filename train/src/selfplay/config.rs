//! The configuration of self-play: the search of each move with its temperature schedule and
//! playout cap (the run config's `[mcts]` section), and the games (`[selfplay]`).

use fanorona_search::SearchConfig;
use serde::{Deserialize, Serialize};

/// Playout-cap randomisation (KataGo): most moves get a cheap search whose result is played but
/// not trained on; a random share gets the full search and becomes a policy target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayoutCap {
    /// Simulations of the cheap search.
    pub fast_simulations: u32,
    /// Probability that a move gets the full search.
    pub full_probability: f64,
}

/// Monte Carlo tree search during self-play: the `[mcts]` section, the search's own settings
/// side by side with self-play's temperature schedule and playout cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MctsConfig {
    /// The search of a move: `simulations` (the full search under playout-cap
    /// randomisation), `gumbel`, `gumbel_considered` (formerly `gumbel_actions`), `c_puct`,
    /// Dirichlet noise, ... Its `temperature` is the temperature of move choice for the first
    /// `temperature_actions` actions of a game.
    #[serde(flatten)]
    pub search: SearchConfig,
    /// Actions played at the search's `temperature`; later ones at `final_temperature`.
    pub temperature_actions: usize,
    /// Temperature after the opening (0 = most visited).
    pub final_temperature: f32,
    /// Playout-cap randomisation, if any.
    #[serde(default)]
    pub playout_cap: Option<PlayoutCap>,
}

/// Self-play games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Games per iteration.
    pub games_per_iteration: usize,
    /// Games played at once (the network's batch is one position of each).
    pub parallel_games: usize,
    /// A game still running after this many actions is scored a draw.
    pub max_actions: usize,
}
