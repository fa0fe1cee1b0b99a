//! The self-play worker of one game type: the run's search and self-play settings with a
//! model (a network and its version) in, finished games out, as a [`Shard`] that records the
//! model version that played them. `fanorona train` plays each iteration with one; the
//! [`SelfPlayWorker`](super::SelfPlayWorker) of any game holds one behind [`AnyGameWorker`].

use std::time::Instant;

use fanorona_env::{Game, GameVisitor};
use rand::SeedableRng;

use super::{run_labels, run_prover};
use crate::config::RunConfig;
use crate::error::TrainError;
use crate::io::{Shard, ShardError};
use crate::model::PolicyValueNet;
use crate::players::NetworkEvaluator;
use crate::replay::{Trajectory, TrajectoryMeta};
use crate::rng::TrainRng;
use crate::selfplay::{SelfPlay, SelfPlayOutput};

/// Plays self-play games of `G` with the current model.
pub(crate) struct GameWorker<G: Game> {
    selfplay: SelfPlay<G>,
    evaluator: NetworkEvaluator<G>,
    start: G,
    model_version: u64,
    model_step: u64,
}

impl<G: Game> GameWorker<G> {
    /// A worker playing from `start` with `config`'s search and self-play settings (and its
    /// endgame tables, if any) and `net`, model version `version` trained for `step` learner
    /// steps. Tables that cannot be opened are refused.
    pub fn new(
        config: &RunConfig,
        start: G,
        net: &PolicyValueNet,
        version: u64,
        step: u64,
    ) -> Result<GameWorker<G>, TrainError> {
        let selfplay = SelfPlay::new(start.clone(), config.mcts.clone(), config.selfplay.clone());
        Ok(GameWorker {
            selfplay: selfplay
                .with_labels(run_labels(config)?)
                .with_prover(run_prover(config)?),
            evaluator: NetworkEvaluator::new(net),
            start,
            model_version: version,
            model_step: step,
        })
    }

    /// Plays with `net` from now on: model version `version`, trained for `step` steps.
    pub fn set_model(&mut self, net: &PolicyValueNet, version: u64, step: u64) {
        self.evaluator.set_network(net);
        self.model_version = version;
        self.model_step = step;
    }

    /// The version of the model playing.
    pub fn model_version(&self) -> u64 {
        self.model_version
    }

    /// Plays one batch of games (`games_per_iteration`) drawing from `rng`; the games' metadata
    /// records `iteration` and the model's step; `on_game` is called after each finished game.
    pub fn play(
        &mut self,
        rng: &mut TrainRng,
        iteration: u64,
        on_game: impl FnMut(&Trajectory),
    ) -> SelfPlayOutput {
        let meta = TrajectoryMeta {
            iteration,
            network_step: self.model_step,
            ..TrajectoryMeta::default()
        };
        self.selfplay.play(&mut self.evaluator, rng, &meta, on_game)
    }

    /// Plays shard `sequence` of `worker` (one batch of games) with a random generator of its
    /// own, drawn from the run's `seed`, the worker and the sequence (see [`shard_rng`]).
    pub fn play_shard(
        &mut self,
        seed: u64,
        worker: &str,
        sequence: u64,
        on_game: impl FnMut(&Trajectory),
    ) -> Result<Shard, ShardError> {
        crate::io::check_worker(worker)?;
        let started = Instant::now();
        let mut rng = shard_rng(seed, worker, sequence);
        let played = self.play(&mut rng, self.model_version, on_game);
        Shard::new(
            worker,
            sequence,
            self.model_version,
            self.model_step,
            started.elapsed().as_secs_f64(),
            self.start.observation_shape(),
            self.start.num_actions(),
            played.games,
        )
    }
}

/// A [`GameWorker`] whatever its game: what the worker of a run needs of it.
pub(crate) trait AnyGameWorker: Send {
    /// See [`GameWorker::model_version`].
    fn model_version(&self) -> u64;
    /// See [`GameWorker::set_model`].
    fn set_model(&mut self, net: &PolicyValueNet, version: u64, step: u64);
    /// [`GameWorker::play_shard`] without a callback.
    fn play_shard(&mut self, seed: u64, worker: &str, sequence: u64) -> Result<Shard, ShardError>;
}

impl<G: Game> AnyGameWorker for GameWorker<G> {
    fn model_version(&self) -> u64 {
        GameWorker::model_version(self)
    }

    fn set_model(&mut self, net: &PolicyValueNet, version: u64, step: u64) {
        GameWorker::set_model(self, net, version, step)
    }

    fn play_shard(&mut self, seed: u64, worker: &str, sequence: u64) -> Result<Shard, ShardError> {
        GameWorker::play_shard(self, seed, worker, sequence, |_| {})
    }
}

/// Makes the worker of the game the registry visits ([`GameId::visit`](fanorona_env::GameId::visit)).
pub(crate) struct NewWorker<'a> {
    pub config: &'a RunConfig,
    pub net: &'a PolicyValueNet,
    pub version: u64,
    pub step: u64,
}

impl GameVisitor for NewWorker<'_> {
    type Output = Result<Box<dyn AnyGameWorker>, TrainError>;

    fn visit<G: Game>(self, start: G) -> Self::Output {
        let worker = GameWorker::new(self.config, start, self.net, self.version, self.step)?;
        Ok(Box::new(worker))
    }
}

/// The random generator of shard `sequence` of `worker` in a run of `seed`: a ChaCha8 stream
/// seeded from the run's seed and the worker's name (FNV-1a), its stream number the sequence,
/// so every shard's games differ and are reproducible.
pub fn shard_rng(seed: u64, worker: &str, sequence: u64) -> TrainRng {
    let name = worker
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3)
        });
    let mut rng = TrainRng::seed_from_u64(seed ^ name.rotate_left(17));
    rng.set_stream(sequence);
    rng
}
