//! One finished self-play game (a trajectory) as the replay buffer keeps it, and the recorder that collects it
//! while it is played. Observations are stored compactly: a plane whose cells are all equal
//! (Fanorona's counters and flags) keeps one value, other planes keep every cell; lossless.

use std::any::Any;
use std::sync::Arc;

use fanorona_env::{Color, Fanorona, Game};
use serde::{Deserialize, Serialize};

use crate::prover_targets::{ProvenTurn, ProverLabels};
use crate::table_labels::TableLabels;

/// Facts about a game kept with its positions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryMeta {
    /// The self-play iteration that produced the game.
    pub iteration: u64,
    /// The learner step of the network that played it.
    pub network_step: u64,
    /// The game's returns per player (indexed by `Color::index`).
    pub returns: [f32; 2],
    /// Actions played (one per stored position).
    pub length: usize,
    /// The final state in the game's text form (FEN for Fanorona), for inspection.
    pub final_state: String,
}

/// One finished game: per position a compact observation, the legal mover-frame actions with
/// their target probabilities, the result and the search's root value (both from the mover's
/// view) and the policy weight.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trajectory {
    /// The game's metadata.
    pub meta: TrajectoryMeta,
    /// Per position and plane, 1 if the plane is constant (one value stored), else 0.
    pub(crate) plane_constant: Vec<u8>,
    /// The stored plane values, position after position.
    pub(crate) obs_values: Vec<f32>,
    /// Per position, where its values start in `obs_values` (one extra entry at the end).
    pub(crate) obs_offsets: Vec<u32>,
    /// Per position, where its actions start in `actions`/`targets` (one extra at the end).
    pub(crate) action_offsets: Vec<u32>,
    /// Legal mover-frame actions.
    pub(crate) actions: Vec<u16>,
    /// Target probabilities of those actions.
    pub(crate) targets: Vec<f32>,
    /// Final result from the mover's view.
    pub(crate) values: Vec<f32>,
    /// The search's mean value at the root, from the mover's view (the result where the game
    /// was recorded without one).
    pub(crate) root_values: Vec<f32>,
    /// 1.0 if the position's policy target is trained on, else 0.0.
    pub(crate) policy_weights: Vec<f32>,
}

impl Trajectory {
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the game has no positions.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value targets (the final result from each position's mover's view).
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Appends one observation (`planes` planes of `cells` cells) in compact form.
    pub(super) fn push_observation(&mut self, obs: &[f32], planes: usize, cells: usize) {
        for plane in obs.chunks_exact(cells).take(planes) {
            let constant = plane.iter().all(|&v| v == plane[0]);
            self.plane_constant.push(constant as u8);
            if constant {
                self.obs_values.push(plane[0]);
            } else {
                self.obs_values.extend_from_slice(plane);
            }
        }
        self.obs_offsets.push(self.obs_values.len() as u32);
    }

    /// Writes position `ply`'s full observation into `out` (`planes * cells` long).
    pub(crate) fn write_observation(
        &self,
        ply: usize,
        planes: usize,
        cells: usize,
        out: &mut [f32],
    ) {
        let mut at = self.obs_offsets[ply] as usize;
        let flags = &self.plane_constant[ply * planes..(ply + 1) * planes];
        for (plane, &constant) in out.chunks_exact_mut(cells).zip(flags) {
            if constant == 1 {
                plane.fill(self.obs_values[at]);
                at += 1;
            } else {
                plane.copy_from_slice(&self.obs_values[at..at + cells]);
                at += cells;
            }
        }
    }

    /// The legal actions and targets of position `ply`.
    pub(crate) fn targets(&self, ply: usize) -> (&[u16], &[f32]) {
        let range = self.action_offsets[ply] as usize..self.action_offsets[ply + 1] as usize;
        (&self.actions[range.clone()], &self.targets[range])
    }

    /// The value target of position `ply`: the result mixed with the search's root value,
    /// `(1 - q_weight) * result + q_weight * root value`.
    pub(super) fn value_target(&self, ply: usize, q_weight: f32) -> f32 {
        (1.0 - q_weight) * self.values[ply] + q_weight * self.root_values[ply]
    }

    /// The policy weight of position `ply`.
    pub(crate) fn policy_weight(&self, ply: usize) -> f32 {
        self.policy_weights[ply]
    }
}

/// Collects the positions of one game while it is played, then becomes a [`Trajectory`].
#[derive(Clone, Debug)]
pub struct TrajectoryRecorder {
    game: Trajectory,
    movers: Vec<Color>,
    /// Per position, its exact value (mover's view) where one is known.
    exact: Vec<Option<f32>>,
    /// The endgame tables that give positions their exact values, if any.
    labels: Option<TableLabels>,
    /// The prover that gives a share of turn starts exact targets, if any.
    prover: Option<Arc<ProverLabels>>,
    /// The current turn's proof, when its turn start was proven.
    proven: Option<ProvenTurn>,
    /// Positions whose policy target is the proven keeping turns.
    exact_policies: usize,
    legal: Vec<usize>,
    scratch: Vec<f32>,
    planes: usize,
    cells: usize,
}

impl TrajectoryRecorder {
    /// A recorder for a game like `game`.
    pub fn new<G: Game>(game: &G) -> TrajectoryRecorder {
        let [planes, h, w] = game.observation_shape();
        let mut stored = Trajectory::default();
        stored.obs_offsets.push(0);
        stored.action_offsets.push(0);
        TrajectoryRecorder {
            game: stored,
            movers: Vec::new(),
            exact: Vec::new(),
            labels: None,
            prover: None,
            proven: None,
            exact_policies: 0,
            legal: Vec::new(),
            scratch: vec![0.0; planes * h * w],
            planes,
            cells: h * w,
        }
    }

    /// The same recorder, giving every position `labels` hold its exact value (see
    /// [`TrajectoryRecorder::record_exact`]).
    pub fn with_labels(self, labels: Option<TableLabels>) -> TrajectoryRecorder {
        TrajectoryRecorder { labels, ..self }
    }

    /// The same recorder, giving the turn starts `prover` settles (and the positions along
    /// their keeping turns) their exact targets (see [`TrajectoryRecorder::record`]).
    pub fn with_prover(self, prover: Option<Arc<ProverLabels>>) -> TrajectoryRecorder {
        TrajectoryRecorder { prover, ..self }
    }

    /// Records `state` (before an action is played in it) with the search's target
    /// distribution over absolute actions (`num_actions` long; only legal actions are read),
    /// the search's root value (mover's view) and whether the target is to be trained on
    /// (false for positions of a cheap search under playout-cap randomisation). A state the
    /// recorder's labels hold gets their exact value instead of the root value and result;
    /// one on a turn the prover settled gets its proven value and, with the prover's policy
    /// option, a target spread evenly over the steps of the turns that keep it (trained on
    /// whatever the search).
    pub fn record<G: Game>(
        &mut self,
        state: &G,
        target: &[f32],
        root_value: f32,
        train_policy: bool,
    ) {
        state.write_observation(&mut self.scratch);
        let g = &mut self.game;
        g.push_observation(&self.scratch, self.planes, self.cells);
        state.legal_actions(&mut self.legal);
        for &action in &self.legal {
            g.actions.push(state.to_mover_action(action) as u16);
            g.targets.push(target[action]);
        }
        g.action_offsets.push(g.actions.len() as u32);
        g.values.push(0.0);
        g.root_values.push(root_value);
        g.policy_weights.push(if train_policy { 1.0 } else { 0.0 });
        self.movers.push(state.current_player());
        self.exact.push(None);
        if let Some(exact) = self.labels.as_ref().and_then(|l| l.value(state)) {
            self.record_exact(exact);
        }
        self.record_proven(state);
    }

    /// Gives the last recorded position (`state`) the prover's targets where its turn was
    /// proven and it lies on a keeping turn.
    fn record_proven<G: Game>(&mut self, state: &G) {
        let Some(prover) = &self.prover else { return };
        let Some(pos) = (state as &dyn Any)
            .downcast_ref::<Fanorona>()
            .map(Fanorona::position)
        else {
            return;
        };
        if pos.is_turn_start() {
            self.proven = prover.prove(pos);
        }
        let Some(proven) = &self.proven else { return };
        let keeping = proven.keeping_actions(pos);
        if keeping.is_empty() {
            return;
        }
        let value = proven.value;
        if prover.policy() {
            let g = &mut self.game;
            let start = g.action_offsets[g.action_offsets.len() - 2] as usize;
            let share = 1.0 / keeping.len() as f32;
            for (i, &action) in self.legal.iter().enumerate() {
                g.targets[start + i] = if keeping.contains(&action) {
                    share
                } else {
                    0.0
                };
            }
            *g.policy_weights
                .last_mut()
                .expect("a position was recorded") = 1.0;
            self.exact_policies += 1;
        }
        if self.exact.last().is_some_and(Option::is_none) {
            self.record_exact(value);
        }
    }

    /// Gives the last recorded position its exact value (from its mover's view, e.g. from
    /// endgame tables): it becomes both its result and its root value, whatever the game's
    /// end. Nothing is recorded yet: no effect.
    pub fn record_exact(&mut self, value: f32) {
        if let (Some(exact), Some(root)) = (self.exact.last_mut(), self.game.root_values.last_mut())
        {
            *exact = Some(value);
            *root = value;
        }
    }

    /// Positions recorded with an exact value.
    pub fn exact_positions(&self) -> usize {
        self.exact.iter().flatten().count()
    }

    /// Positions recorded with the proven keeping turns as their policy target.
    pub fn exact_policy_positions(&self) -> usize {
        self.exact_policies
    }

    /// Positions recorded so far.
    pub fn len(&self) -> usize {
        self.movers.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.movers.is_empty()
    }

    /// The finished game: `returns` (per player, from `Game::returns`) become each position's
    /// value target from its mover's view, except where an exact value was recorded.
    pub fn finish(self, meta: TrajectoryMeta, returns: [f32; 2]) -> Trajectory {
        self.finish_scored(meta, returns, returns, 0.0)
    }

    /// The finished game whose value targets mix the result with the game's final `score`
    /// (per player, from `Game::score`): `(1 - score_weight) * result + score_weight * score`
    /// from each position's mover's view, except where an exact value was recorded.
    pub fn finish_scored(
        mut self,
        mut meta: TrajectoryMeta,
        returns: [f32; 2],
        score: [f32; 2],
        score_weight: f32,
    ) -> Trajectory {
        let values = self.game.values.iter_mut();
        for ((value, mover), exact) in values.zip(&self.movers).zip(&self.exact) {
            let i = mover.index();
            let target = (1.0 - score_weight) * returns[i] + score_weight * score[i];
            *value = exact.unwrap_or(target);
        }
        meta.returns = returns;
        meta.length = self.game.len();
        self.game.meta = meta;
        self.game
    }
}
