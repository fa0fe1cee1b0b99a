//! The configuration of self-play: the search of each move with its temperature schedule and
//! playout cap (the run config's `[mcts]` section), and the games (`[selfplay]`).

use std::path::PathBuf;

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
/// side by side with self-play's temperature schedule and playout cap. The default (the
/// search's defaults, no temperature, no cap) stands in for the section in `abnet` runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Endgame tables (a directory of `fanorona tables build` for the run's board) or a
    /// solved board (the file of `fanorona solve --save`): every
    /// recorded position they hold within its draw limits takes their exact value (+1, 0, -1)
    /// as its value target, in place of the game's result and the search's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<PathBuf>,
    /// The share of each value target taken by the game's final score from the mover's view
    /// (`Game::score`; Fanorona: the piece difference), the rest being its result: the result
    /// target becomes `(1 - w) * result + w * score`, an auxiliary target as KataGo's score
    /// that tells a drawn game with more pieces from one with fewer. 0 (the result alone) by
    /// default.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub score_weight: f32,
    /// Random turns at the start of each game, from 0 up to this many (uniformly), played
    /// before the search takes over and not recorded: games start from many positions, not
    /// one. 0 (every game from the start) by default.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub random_opening: u32,
    /// Exact targets from the prover (Fanorona only): turn starts it settles take their
    /// proven value and, as an option, a policy target over the turns that keep it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prover: Option<ProverTargets>,
}

/// Exact targets from the df-pn prover (`[selfplay.prover]`): a share of the recorded turn
/// starts is proven with a small node budget (the run's `tables` at its leaves); a position
/// it settles takes its proven value (+1, 0, -1) as its value target and, with `policy`, the
/// turns that keep that value as its policy target: their first steps at the turn start,
/// their later steps in mid-chain, each chosen step with equal probability. Positions of the
/// built-in exact exam sets (and their symmetric images) are never labelled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProverTargets {
    /// Nodes the prover may expand on one position (value and turns together).
    pub nodes: u64,
    /// The share of turn starts proven (chosen by a hash of the position, so the same
    /// position is always in or out).
    #[serde(default = "all")]
    pub share: f64,
    /// Whether settled positions take the keeping turns as their policy target.
    #[serde(default = "yes")]
    pub policy: bool,
}

/// Every position.
fn all() -> f64 {
    1.0
}

/// True.
fn yes() -> bool {
    true
}

/// Whether a count is zero (its key is then left out of a written configuration).
fn is_zero_u32(count: &u32) -> bool {
    *count == 0
}

/// Whether a weight is zero (its key is then left out of a written configuration).
fn is_zero(weight: &f32) -> bool {
    *weight == 0.0
}

/// Self-play by the `abnet` agent (the `[abnet]` section): expert iteration with an
/// alpha-beta search over the network's value as the expert, as NNUE engines train on
/// search-scored games. Each game begins with a random number of random turns, then plays the
/// search's turn (or, with a small probability, a random one); each turn start is kept with
/// the search's score as its root value and its turn's first action as the policy target.
/// A new generation replaces the best network only if it wins a gate match against it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaBetaConfig {
    /// The network the run starts from: `student` (the shipped MLP 64-32 that `abnet` plays
    /// by default), `fresh` (seeded random weights) or the path of a policy file.
    pub start: String,
    /// Nodes of each self-play search (iterative deepening stops there; a budget of nodes,
    /// not of depth, so that a network whose searches grow pays for it).
    pub nodes: u64,
    /// Random turns at the start of each game: from 0 up to this many.
    pub random_opening: u32,
    /// Chance that a turn after the opening is random rather than the search's.
    pub random_turn: f64,
    /// Games of each gate match (colours alternate; pairs share a random opening).
    pub gate_games: usize,
    /// Nodes of both players' searches in the gate match: at equal nodes, a new generation
    /// whose searches need more nodes to the same depth has to win anyway.
    pub gate_nodes: u64,
    /// The score above which the new generation replaces the best network.
    pub gate_threshold: f64,
}
