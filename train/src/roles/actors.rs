//! The roles as actors that take and give bytes, for drivers that pass models and games
//! around as opaque values: the Ray driver passes them through Ray's object store,
//! `fanorona selfplay` and `fanorona learn` through files of a shared run directory. Neither
//! is generic over the game: the run configuration names it.
//!
//! - [`WorkerActor`]: [`set_model`](WorkerActor::set_model) (policy-file bytes and their
//!   version), then [`play_shard_bytes`](WorkerActor::play_shard_bytes) (shard bytes out).
//! - [`LearnerActor`]: [`ingest_bytes`](LearnerActor::ingest_bytes) (shard bytes in),
//!   [`train_earned`](LearnerActor::train_earned) (the learner steps the new positions earned at
//!   the replay ratio), [`publish`](LearnerActor::publish) (the next model version's bytes out,
//!   with a metrics row in `learner.csv`, the model in `models/` and a checkpoint when due),
//!   [`checkpoint`](LearnerActor::checkpoint).

use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::tensor::Device;
use fanorona_env::{Fanorona, GameId, Position, Telo};
use serde::{Deserialize, Serialize};

use super::models::{publish_model, remove_models_after};
use super::{Ingested, LossMeans, SelfPlayWorker, ShardLearner};
use crate::io::{Shard, list_shards, policy_from_bytes};
use crate::run::lock::RunLock;
use crate::run::{MetricsWriter, Row, RunConfig, TrainError, resolve_config};

/// The folder of shards in a run directory.
pub const GAMES_DIR: &str = "games";

/// The file a learner writes into its run directory when it has reached its limit (and
/// removes when it starts): self-play workers and the evaluator stop when they see it.
pub const LEARNER_DONE_FILE: &str = "learner.done";

/// The learner's metrics file in a run directory: one [`LearnerRow`] per model version.
pub const LEARNER_METRICS_FILE: &str = "learner.csv";

/// The replay ratio the learner uses unless told otherwise: positions sampled for training
/// per new self-play position. The default preset's one-process loop samples 60 x 256
/// positions per iteration of about 4,000 new ones, a ratio of about 4.
pub const DEFAULT_REPLAY_RATIO: f64 = 4.0;

/// The game of a run, for the roles that are generic over it.
enum Either<F, T> {
    Fanorona(F),
    Telo(T),
}

/// Runs `$body` on the role inside `$either`, whatever its game.
macro_rules! each {
    ($either:expr, $role:ident => $body:expr) => {
        match $either {
            Either::Fanorona($role) => $body,
            Either::Telo($role) => $body,
        }
    };
}

/// Loads the policy-file `bytes` of model `version` onto the CPU, checking it is for the
/// run's game.
fn load_model(
    config: &RunConfig,
    bytes: &[u8],
    version: u64,
) -> Result<crate::io::LoadedPolicy, TrainError> {
    let label = PathBuf::from(format!("model version {version}"));
    let loaded = policy_from_bytes(&label, bytes.to_vec(), &Device::flex())?;
    loaded.meta.check_game(&label, config.game.id()?)?;
    Ok(loaded)
}

/// A self-play worker of a run: plays shards with the latest model it was given.
pub struct WorkerActor {
    config: RunConfig,
    name: String,
    worker: Option<Either<SelfPlayWorker<Fanorona>, SelfPlayWorker<Telo>>>,
}

impl WorkerActor {
    /// A worker named `name` (1 to 64 letters, digits, `-` or `_`; it names its shards) of
    /// the run `config`, without a model yet.
    pub fn new(config: RunConfig, name: &str) -> Result<WorkerActor, TrainError> {
        config.validate()?;
        config.refuse_abnet()?;
        crate::io::check_worker(name)?;
        Ok(WorkerActor {
            config,
            name: name.to_string(),
            worker: None,
        })
    }

    /// The version of the model it plays with, if it has one.
    pub fn model_version(&self) -> Option<u64> {
        self.worker
            .as_ref()
            .map(|w| each!(w, w => w.model_version()))
    }

    /// Plays with the model of the policy-file `bytes` (version `version`) from now on.
    pub fn set_model(&mut self, bytes: &[u8], version: u64) -> Result<(), TrainError> {
        let loaded = load_model(&self.config, bytes, version)?;
        let (net, step) = (&loaded.net, loaded.meta.step);
        match &mut self.worker {
            Some(w) => each!(w, w => w.set_model(net, version, step)),
            None => {
                let config = &self.config;
                self.worker = Some(match config.game.id()? {
                    GameId::Fanorona(board) => {
                        let start = Fanorona::new(Position::initial(board));
                        Either::Fanorona(SelfPlayWorker::new(config, start, net, version, step)?)
                    }
                    GameId::Telo => Either::Telo(SelfPlayWorker::new(
                        config,
                        Telo::new(),
                        net,
                        version,
                        step,
                    )?),
                })
            }
        }
        Ok(())
    }

    /// Plays shard `sequence` (`games_per_iteration` games) with the current model.
    ///
    /// # Panics
    /// If no model was set.
    pub fn play_shard(&mut self, sequence: u64) -> Result<Shard, TrainError> {
        let seed = self.config.run.seed;
        let worker = self.worker.as_mut().expect("set_model before play_shard");
        let name = &self.name;
        Ok(each!(worker, w => w.play_shard(seed, name, sequence, |_| {}))?)
    }

    /// Plays shard `sequence` with the current model and returns its bytes (sealed,
    /// checksummed; the learner's [`LearnerActor::ingest_bytes`] reads them).
    ///
    /// # Panics
    /// If no model was set.
    pub fn play_shard_bytes(&mut self, sequence: u64) -> Result<Vec<u8>, TrainError> {
        let shard = self.play_shard(sequence)?;
        Ok(shard.to_bytes(Path::new(&shard.file_name()))?)
    }
}

/// One model version's row of `learner.csv`: what the learner ingested and trained on since
/// the previous version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LearnerRow {
    /// The model version published.
    pub version: u64,
    /// Learner steps taken in all.
    pub step: u64,
    /// Seconds since the learner (or its resumption) started.
    pub elapsed_s: f64,
    /// Shards ingested since the previous version.
    pub shards: u64,
    /// Games ingested.
    pub games: u64,
    /// Positions ingested.
    pub positions: u64,
    /// Positions ingested per second of wall-clock time since the previous version.
    pub ingest_positions_per_s: f64,
    /// Self-play positions per second of one worker (positions over the workers' time).
    pub worker_positions_per_s: f64,
    /// Mean model staleness of the ingested shards: versions between the model that played a
    /// shard and the learner's latest when it was ingested.
    pub staleness_mean: f64,
    /// The largest staleness.
    pub staleness_max: u64,
    /// Learner steps taken since the previous version.
    pub steps: u64,
    /// Positions in the replay window.
    pub replay_positions: u64,
    /// Learning rate at the last step.
    pub lr: f64,
    /// Mean total loss over the steps.
    pub loss_total: f64,
    /// Mean policy cross-entropy.
    pub loss_policy: f64,
    /// Mean value MSE.
    pub loss_value: f64,
    /// Mean entropy of the network's policy.
    pub policy_entropy: f64,
}

impl Row for LearnerRow {
    fn iteration(&self) -> u64 {
        self.version
    }
}

/// The sums behind the next [`LearnerRow`].
#[derive(Default)]
struct Tally {
    row: LearnerRow,
    staleness_sum: u64,
    worker_seconds: f64,
    /// The losses summed over steps.
    loss_sums: [f64; 4],
}

/// The learner of a run directory: ingests shards, trains, publishes model versions (into
/// `models/` and as bytes), writes `learner.csv` and checkpoints. Holds the run directory's
/// lock while it lives.
pub struct LearnerActor {
    config: RunConfig,
    dir: PathBuf,
    replay_ratio: f64,
    learner: Either<ShardLearner<Fanorona>, ShardLearner<Telo>>,
    metrics: MetricsWriter<LearnerRow>,
    tally: Tally,
    since: Instant,
    started: Instant,
    /// The step and path of the last checkpoint written or resumed from.
    saved: Option<(u64, Option<PathBuf>)>,
    published: Vec<u8>,
    last_row: Option<LearnerRow>,
    _lock: RunLock,
}

impl LearnerActor {
    /// Opens the learner of the run directory `dir`: a new run of `config` (which must agree
    /// with the directory's `config.toml` if it has one; `None` takes that one), or the run of
    /// its latest checkpoint, with the shards it consumed. Publishes model version 0 into
    /// `dir/models/` for a new run (and the checkpoint's version for a resumed one, written
    /// again in case it was lost or damaged; versions published after that checkpoint are
    /// deleted, to be published again). `replay_ratio`: positions sampled per new position.
    pub fn open(
        config: Option<RunConfig>,
        dir: &Path,
        replay_ratio: f64,
    ) -> Result<LearnerActor, TrainError> {
        if !(replay_ratio.is_finite() && replay_ratio > 0.0) {
            return Err(crate::run::RunConfigError::OutOfRange {
                key: "replay ratio",
                expected: "a finite number above 0",
                found: replay_ratio.to_string(),
            }
            .into());
        }
        let config = resolve_config(dir, config)?;
        config.validate()?;
        config.refuse_abnet()?;
        config.run.device.device()?;
        let lock = crate::run::lock_run_directory(dir)?;
        let learner = match config.game.id()? {
            GameId::Fanorona(board) => {
                let start = Fanorona::new(Position::initial(board));
                Either::Fanorona(ShardLearner::open(&config, &start, dir)?)
            }
            GameId::Telo => Either::Telo(ShardLearner::open(&config, &Telo::new(), dir)?),
        };
        config.write_resolved(dir)?;
        let (version, step, resumed) =
            each!(&learner, l => (l.model_version(), l.step(), l.resumed()));
        let metrics = MetricsWriter::open_file(&dir.join(LEARNER_METRICS_FILE), version)?;
        let published = each!(&learner, l => l.model_bytes(&config))?;
        remove_models_after(dir, version)?;
        // Written again even where it exists: a copy damaged or lost since would stall every
        // self-play worker.
        publish_model(dir, version, &published)?;
        Ok(LearnerActor {
            config,
            dir: dir.to_path_buf(),
            replay_ratio,
            learner,
            metrics,
            tally: Tally::default(),
            since: Instant::now(),
            started: Instant::now(),
            saved: resumed.then_some((step, None)),
            published,
            last_row: None,
            _lock: lock,
        })
    }

    /// The run's configuration.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// Learner steps taken.
    pub fn step(&self) -> u64 {
        each!(&self.learner, l => l.step())
    }

    /// The latest model version published.
    pub fn model_version(&self) -> u64 {
        each!(&self.learner, l => l.model_version())
    }

    /// The latest model version published, as policy-file bytes (what
    /// [`WorkerActor::set_model`] takes).
    pub fn model_bytes(&self) -> Vec<u8> {
        self.published.clone()
    }

    /// Positions in the replay window.
    pub fn replay_positions(&self) -> usize {
        each!(&self.learner, l => l.replay_positions())
    }

    /// Whether the shard named `name` (`WORKER-SEQUENCE.shard`) was consumed already.
    pub fn consumed(&self, name: &str) -> bool {
        each!(&self.learner, l => l.consumed(name))
    }

    /// Records the shard named `name` as consumed without reading it (a damaged one).
    pub fn skip(&mut self, name: &str) {
        each!(&mut self.learner, l => l.skip(name))
    }

    /// The observation shape and action count of the run's game.
    fn game_sizes(&self) -> Result<([usize; 3], usize), TrainError> {
        fn sizes<G: fanorona_env::Game>(game: G) -> ([usize; 3], usize) {
            (game.observation_shape(), game.num_actions())
        }
        Ok(match self.config.game.id()? {
            GameId::Fanorona(board) => sizes(Fanorona::new(Position::initial(board))),
            GameId::Telo => sizes(Telo::new()),
        })
    }

    /// Reads a shard from `bytes` (`label` names it in errors), checking its seal and game.
    pub fn read_shard(&self, label: &Path, bytes: &[u8]) -> Result<Shard, TrainError> {
        let (shape, actions) = self.game_sizes()?;
        Ok(Shard::from_bytes(label, bytes, shape, actions)?)
    }

    /// Reads the shard file at `path`, checking its seal and game.
    pub fn read_shard_file(&self, path: &Path) -> Result<Shard, TrainError> {
        let (shape, actions) = self.game_sizes()?;
        Ok(Shard::read(path, shape, actions)?)
    }

    /// Ingests the shard `bytes` (see [`ingest`](Self::ingest)).
    pub fn ingest_bytes(&mut self, bytes: &[u8]) -> Result<Option<Ingested>, TrainError> {
        let shard = self.read_shard(Path::new("shard bytes"), bytes)?;
        Ok(self.ingest(shard))
    }

    /// Adds the games of `shard` to the replay window (newest last) and earns learner steps
    /// for its positions at the replay ratio; `None` if it was consumed before (a shard is
    /// known by its worker and sequence number).
    pub fn ingest(&mut self, shard: Shard) -> Option<Ingested> {
        let name = shard.file_name();
        let ratio = self.replay_ratio;
        let ingested = each!(&mut self.learner, l => l.ingest(&name, shard, ratio))?;
        let tally = &mut self.tally;
        tally.row.shards += 1;
        tally.row.games += ingested.games as u64;
        tally.row.positions += ingested.positions as u64;
        tally.staleness_sum += ingested.staleness;
        tally.row.staleness_max = tally.row.staleness_max.max(ingested.staleness);
        tally.worker_seconds += ingested.seconds;
        Some(ingested)
    }

    /// Reads shard `bytes`, writes them into the run's `games/` folder (atomically, so that a
    /// resumed learner finds them again) and ingests them; `None` if the shard was consumed
    /// before. For drivers that pass shards as values rather than files.
    pub fn ingest_and_store(&mut self, bytes: &[u8]) -> Result<Option<Ingested>, TrainError> {
        let shard = self.read_shard(Path::new("shard bytes"), bytes)?;
        if self.consumed(&shard.file_name()) {
            return Ok(None);
        }
        let games = self.dir.join(GAMES_DIR);
        std::fs::create_dir_all(&games).map_err(|error| crate::io::FileError::Io {
            kind: crate::io::FileKind::Shard,
            action: "create",
            path: games.clone(),
            error,
        })?;
        shard.write(&games)?;
        Ok(self.ingest(shard))
    }

    /// Ingests the shards in the run's `games/` folder the learner has not consumed, oldest
    /// model first (so that the newest games end up the most recent of the window); returns
    /// how many. A damaged shard (or one of another game) is passed to `on_skip` and skipped,
    /// once.
    pub fn ingest_stored(
        &mut self,
        mut on_skip: impl FnMut(&TrainError),
    ) -> Result<usize, TrainError> {
        let mut shards: Vec<Shard> = Vec::new();
        for path in list_shards(&self.dir.join(GAMES_DIR))? {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if self.consumed(name) {
                continue;
            }
            match self.read_shard_file(&path) {
                Ok(shard) => shards.push(shard),
                Err(error) => {
                    on_skip(&error);
                    self.skip(name);
                }
            }
        }
        shards.sort_by(|a, b| {
            (a.header.model_version, a.file_name()).cmp(&(b.header.model_version, b.file_name()))
        });
        let count = shards.len();
        for shard in shards {
            self.ingest(shard);
        }
        Ok(count)
    }

    /// Learner steps earned by the positions ingested and not yet taken (none until the window
    /// holds `min_replay_positions`).
    pub fn steps_earned(&self) -> usize {
        each!(&self.learner, l => l.steps_earned())
    }

    /// Learner steps still to take before the next model version (`steps_per_iteration`
    /// steps make a version).
    pub fn steps_to_next_version(&self) -> usize {
        self.config.training.steps_per_iteration - self.tally.row.steps as usize
    }

    /// Takes the steps earned, at most `limit` and up to the next model version; returns how
    /// many.
    pub fn train_earned(&mut self, limit: usize) -> Result<usize, TrainError> {
        let steps = self
            .steps_earned()
            .min(self.steps_to_next_version())
            .min(limit);
        if steps > 0 {
            let losses = each!(&mut self.learner, l => l.train(steps))?;
            self.add_losses(&losses);
        }
        Ok(steps)
    }

    /// Adds the losses of a run of steps to the tally.
    fn add_losses(&mut self, losses: &LossMeans) {
        let tally = &mut self.tally;
        let n = losses.steps as f64;
        tally.row.steps += losses.steps as u64;
        tally.row.lr = losses.lr;
        for (sum, mean) in tally.loss_sums.iter_mut().zip([
            losses.total,
            losses.policy,
            losses.value,
            losses.entropy,
        ]) {
            *sum += mean * n;
        }
    }

    /// Publishes the network as the next model version: its bytes (returned, with the
    /// version) into `models/`, a row into `learner.csv`, and a checkpoint when
    /// `checkpoint_every_steps` steps have passed since the last.
    pub fn publish(&mut self) -> Result<(u64, Vec<u8>), TrainError> {
        let version = each!(&mut self.learner, l => l.advance());
        self.published = each!(&self.learner, l => l.model_bytes(&self.config))?;
        publish_model(&self.dir, version, &self.published)?;
        let tally = std::mem::take(&mut self.tally);
        let steps = tally.row.steps.max(1) as f64;
        let [total, policy, value, entropy] = tally.loss_sums.map(|sum| sum / steps);
        let row = LearnerRow {
            version,
            step: self.step(),
            elapsed_s: self.started.elapsed().as_secs_f64(),
            ingest_positions_per_s: tally.row.positions as f64
                / self.since.elapsed().as_secs_f64().max(1e-9),
            worker_positions_per_s: tally.row.positions as f64 / tally.worker_seconds.max(1e-9),
            staleness_mean: tally.staleness_sum as f64 / tally.row.shards.max(1) as f64,
            replay_positions: self.replay_positions() as u64,
            loss_total: total,
            loss_policy: policy,
            loss_value: value,
            policy_entropy: entropy,
            ..tally.row
        };
        self.metrics.append(&row)?;
        self.last_row = Some(row);
        self.since = Instant::now();
        let every = self.config.run.checkpoint_every_steps;
        if self
            .saved
            .as_ref()
            .is_none_or(|(saved, _)| self.step() >= saved + every)
        {
            self.save()?;
        }
        Ok((version, self.published.clone()))
    }

    /// Writes a checkpoint (with the replay window and the shards consumed) now; returns its
    /// path. Steps taken since the last published version are published first, so that a
    /// checkpoint's network is always a published version.
    pub fn checkpoint(&mut self) -> Result<PathBuf, TrainError> {
        if self.tally.row.steps > 0 {
            let before = self.saved.clone();
            self.publish()?;
            // Publishing may have written one just now, of the learner as it is.
            if let Some((_, Some(path))) = &self.saved
                && self.saved != before
            {
                return Ok(path.clone());
            }
        }
        self.save()
    }

    /// Writes a checkpoint of the learner as it is.
    fn save(&mut self) -> Result<PathBuf, TrainError> {
        let path = each!(&self.learner, l => l.save(&self.config, &self.dir))?;
        self.saved = Some((self.step(), Some(path.clone())));
        Ok(path)
    }

    /// The metrics row of the last model version this learner published.
    pub fn last_row(&self) -> Option<&LearnerRow> {
        self.last_row.as_ref()
    }
}
