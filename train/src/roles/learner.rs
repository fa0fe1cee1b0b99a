//! The learner of a run, whatever its game (the run configuration names it), taking and
//! giving bytes for drivers that pass models and games around as opaque values (`fanorona
//! learn` through a shared run directory, the Ray driver, Python's `fanorona.Learner`):
//! [`ingest_bytes`](Learner::ingest_bytes) (shard bytes in),
//! [`train_earned`](Learner::train_earned) (the learner steps the new positions earned at the
//! replay ratio), [`publish`](Learner::publish) (the next model version's bytes out, with a
//! metrics row in `learner.csv`, the model in `models/` and a checkpoint when due),
//! [`checkpoint`](Learner::checkpoint), or [`advance`](Learner::advance) for the steps earned
//! and the versions they complete at once. The loop of `fanorona learn` is
//! [`run_learner`](super::run_learner).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::game_learner::{AnyGameLearner, OpenLearner};
use super::{Ingested, LearnLimits, LossMeans};
use crate::config::{RunConfig, RunConfigError};
use crate::error::TrainError;
use crate::io::Shard;
use crate::run_dir::{MetricsWriter, Row, RunDir, RunLock, shard_name};

/// The replay ratio the learner uses unless told otherwise: positions sampled for training
/// per new self-play position. The default preset's one-process loop samples 60 x 256
/// positions per iteration of about 4,000 new ones, a ratio of about 4.
pub const DEFAULT_REPLAY_RATIO: f64 = 4.0;

/// One model version's row of the learner's metrics (`learner.csv`): what the learner ingested and trained on since
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

impl LearnerRow {
    /// The row as one log line.
    pub fn summary(&self) -> String {
        format!(
            "version {:>4} step {:>6} | {} shards, {} positions, {:.0} pos/s ingested, {:.0} \
             pos/s per worker | staleness {:.2} (max {}) | loss {:.3} (policy {:.3} value \
             {:.3}) | replay {}",
            self.version,
            self.step,
            self.shards,
            self.positions,
            self.ingest_positions_per_s,
            self.worker_positions_per_s,
            self.staleness_mean,
            self.staleness_max,
            self.loss_total,
            self.loss_policy,
            self.loss_value,
            self.replay_positions
        )
    }
}

impl Row for LearnerRow {
    fn iteration(&self) -> u64 {
        self.version
    }
}

/// The sums behind the next [`LearnerRow`].
#[derive(Default)]
struct RowSums {
    row: LearnerRow,
    staleness_sum: u64,
    worker_seconds: f64,
    /// The losses summed over steps.
    loss_sums: [f64; 4],
}

/// The learner of a run directory: ingests shards, trains, publishes model versions (into
/// `models/` and as bytes), writes `learner.csv` and checkpoints. Holds the run directory's
/// lock while it lives.
pub struct Learner {
    config: RunConfig,
    dir: RunDir,
    replay_ratio: f64,
    learner: Box<dyn AnyGameLearner>,
    metrics: MetricsWriter<LearnerRow>,
    tally: RowSums,
    since: Instant,
    started: Instant,
    /// The step and path of the last checkpoint written or resumed from.
    saved: Option<(u64, Option<PathBuf>)>,
    published: Vec<u8>,
    last_row: Option<LearnerRow>,
    _lock: RunLock,
}

impl Learner {
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
    ) -> Result<Learner, TrainError> {
        if !(replay_ratio.is_finite() && replay_ratio > 0.0) {
            return Err(RunConfigError::OutOfRange {
                key: "replay ratio",
                expected: "a finite number above 0",
                found: replay_ratio.to_string(),
            }
            .into());
        }
        let dir = RunDir::new(dir);
        let config = dir.resolve_config(config)?;
        config.validate()?;
        config.refuse_abnet()?;
        config.run.device.device()?;
        let lock = dir.lock()?;
        let learner = config.game.visit(OpenLearner {
            config: &config,
            dir: &dir,
        })?;
        dir.write_config(&config)?;
        let (version, step, resumed) = (learner.model_version(), learner.step(), learner.resumed());
        let metrics = MetricsWriter::open(&dir.learner_metrics(), version)?;
        let published = learner.model_bytes(&config)?;
        dir.remove_models_after(version)?;
        // Written again even where it exists: a copy damaged or lost since would stall every
        // self-play worker.
        dir.publish_model(version, &published)?;
        Ok(Learner {
            config,
            dir,
            replay_ratio,
            learner,
            metrics,
            tally: RowSums::default(),
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

    /// A line saying what the learner learns, where, from where and until which `limits`.
    pub fn describe(&self, limits: &LearnLimits) -> String {
        let steps = match limits.steps {
            u64::MAX => String::new(),
            steps => format!(" or step {steps}"),
        };
        format!(
            "learning {} ({}) in {} from model version {}, step {}, until version {}{steps}",
            self.config.game,
            self.config.network.describe(),
            self.dir.path().display(),
            self.model_version(),
            self.step(),
            limits.versions,
        )
    }

    /// The run directory.
    pub fn dir(&self) -> &RunDir {
        &self.dir
    }

    /// Learner steps taken.
    pub fn step(&self) -> u64 {
        self.learner.step()
    }

    /// The latest model version published.
    pub fn model_version(&self) -> u64 {
        self.learner.model_version()
    }

    /// The latest model version published, as policy-file bytes (what
    /// [`SelfPlayWorker::set_model`] takes).
    pub fn model_bytes(&self) -> Vec<u8> {
        self.published.clone()
    }

    /// Positions in the replay window.
    pub fn replay_positions(&self) -> usize {
        self.learner.replay_positions()
    }

    /// Whether the shard named `name` (`WORKER-SEQUENCE.shard`) was consumed already.
    pub fn consumed(&self, name: &str) -> bool {
        self.learner.consumed(name)
    }

    /// Records the shard named `name` as consumed without reading it (a damaged one).
    pub fn skip(&mut self, name: &str) {
        self.learner.skip(name)
    }

    /// Reads a shard from `bytes` (`label` names it in errors), checking its seal and game.
    pub fn read_shard(&self, label: &Path, bytes: &[u8]) -> Result<Shard, TrainError> {
        let (shape, actions) = self.learner.game_sizes();
        Ok(Shard::from_bytes(label, bytes, shape, actions)?)
    }

    /// Reads the shard file at `path`, checking its seal and game.
    pub fn read_shard_file(&self, path: &Path) -> Result<Shard, TrainError> {
        let (shape, actions) = self.learner.game_sizes();
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
        let name = shard_name(&shard.header);
        let ratio = self.replay_ratio;
        let ingested = self.learner.ingest(&name, shard, ratio)?;
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
        if self.consumed(&shard_name(&shard.header)) {
            return Ok(None);
        }
        self.dir.write_shard(&shard)?;
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
        for path in self.dir.list_shards()? {
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
            (a.header.model_version, shard_name(&a.header))
                .cmp(&(b.header.model_version, shard_name(&b.header)))
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
        self.learner.steps_earned()
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
            let losses = self.learner.train(steps)?;
            self.add_losses(&losses);
        }
        Ok(steps)
    }

    /// Takes the steps earned, publishing each model version they complete, until no step is
    /// earned, `limits` are reached or `stop` is set; returns the rows of the versions
    /// published. Steps beyond the last version stay unpublished until the next call or a
    /// [`checkpoint`](Self::checkpoint).
    pub fn advance(
        &mut self,
        limits: LearnLimits,
        stop: &AtomicBool,
    ) -> Result<Vec<LearnerRow>, TrainError> {
        let mut rows = Vec::new();
        while !limits.reached(self) && !stop.load(Ordering::SeqCst) {
            let limit = usize::try_from(limits.steps - self.step()).unwrap_or(usize::MAX);
            let took = self.train_earned(limit)?;
            if self.steps_to_next_version() == 0 {
                self.publish()?;
                rows.extend(self.last_row.clone());
            } else if took == 0 {
                break;
            }
        }
        Ok(rows)
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
        let version = self.learner.advance();
        self.published = self.learner.model_bytes(&self.config)?;
        self.dir.publish_model(version, &self.published)?;
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
        let path = self.learner.save(&self.config, &self.dir)?;
        self.saved = Some((self.step(), Some(path.clone())));
        Ok(path)
    }

    /// The metrics row of the last model version this learner published.
    pub fn last_row(&self) -> Option<&LearnerRow> {
        self.last_row.as_ref()
    }
}
