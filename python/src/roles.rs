//! The training roles for the Ray driver (`python -m fanorona.ray`): a self-play worker that
//! turns model bytes into shard bytes, and the learner of a run directory that ingests shard
//! bytes and publishes model bytes. Both release the GIL while they work.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use fanorona_train::config::RunConfig;
use fanorona_train::roles::{self, DEFAULT_REPLAY_RATIO, LearnLimits};
use fanorona_train::run_dir::RunDir;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::errors::value_error;
use crate::index::Whole;
use crate::json::{from_py, to_py};
use crate::locks::lock;

/// A resolved run configuration as a dict (the sections and keys of the TOML file): an
/// embedded preset, a TOML file, or the configuration a run directory `run` was started with,
/// with `iterations` (model versions) overriding the run's length when given.
#[pyfunction]
#[pyo3(signature = (preset=None, path=None, iterations=None, run=None))]
pub fn run_config<'py>(
    py: Python<'py>,
    preset: Option<&str>,
    path: Option<PathBuf>,
    iterations: Option<Whole<u64>>,
    run: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut config = match (preset, path, run) {
        (Some(name), None, None) => RunConfig::preset(name).map_err(value_error)?,
        (None, Some(path), None) => RunConfig::load(&path).map_err(value_error)?,
        (None, None, Some(run)) => {
            let run = RunDir::new(run);
            if !run.has_config() {
                return Err(value_error(format!(
                    "{} is not a run directory yet: it has no configuration",
                    run.path().display()
                )));
            }
            run.load_config().map_err(value_error)?
        }
        _ => return Err(value_error("give exactly one of preset, path and run")),
    };
    if let Some(Whole(iterations)) = iterations {
        config.run.iterations = iterations;
        config.validate().map_err(value_error)?;
    }
    config_dict(py, &config)
}

/// A run configuration as a dict.
fn config_dict<'py>(py: Python<'py>, config: &RunConfig) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &serde_json::to_value(config).map_err(value_error)?)
}

/// Reads a run configuration given as a dict (as `run_config` returns it) or as TOML text;
/// either is checked as a configuration file is.
fn parse_config(config: &Bound<'_, PyAny>) -> PyResult<RunConfig> {
    if let Ok(text) = config.cast::<PyString>() {
        return RunConfig::from_toml(&text.to_cow()?, "the run configuration").map_err(value_error);
    }
    let parsed: RunConfig = serde_json::from_value(from_py(config)?)
        .map_err(|e| value_error(format!("the run configuration: {e}")))?;
    parsed.validate().map_err(value_error)?;
    Ok(parsed)
}

/// A self-play worker: SelfPlayWorker(config, name) (a dict of `run_config`, or TOML text); `set_model(bytes, version)`, then
/// `play_shard(sequence)` returns a shard's bytes (`games_per_iteration` games). Shards are
/// known by worker name and sequence: a worker that restarts takes a new name. Any thread may
/// call it; calls run one at a time, waiting without the GIL.
#[pyclass(module = "fanorona", frozen)]
pub struct SelfPlayWorker {
    inner: Mutex<roles::SelfPlayWorker>,
}

#[pymethods]
impl SelfPlayWorker {
    #[new]
    fn new(config: &Bound<'_, PyAny>, name: &str) -> PyResult<SelfPlayWorker> {
        let actor = roles::SelfPlayWorker::new(parse_config(config)?, name).map_err(value_error)?;
        Ok(SelfPlayWorker {
            inner: Mutex::new(actor),
        })
    }

    /// Plays with the model of these policy-file bytes (model `version`) from now on.
    fn set_model(&self, py: Python<'_>, model: &[u8], version: Whole<u64>) -> PyResult<()> {
        let Whole(version) = version;
        let mut actor = lock(py, &self.inner, "SelfPlayWorker")?;
        let actor = &mut *actor;
        py.detach(|| actor.set_model(model, version))
            .map_err(value_error)
    }

    /// The version of the model it plays with (None before `set_model`).
    #[getter]
    fn model_version(&self, py: Python<'_>) -> PyResult<Option<u64>> {
        Ok(lock(py, &self.inner, "SelfPlayWorker")?.model_version())
    }

    /// Plays shard `sequence` with the current model; returns its bytes.
    fn play_shard<'py>(
        &self,
        py: Python<'py>,
        sequence: Whole<u64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let Whole(sequence) = sequence;
        let mut actor = lock(py, &self.inner, "SelfPlayWorker")?;
        if actor.model_version().is_none() {
            return Err(value_error("no model yet: call set_model first"));
        }
        let actor = &mut *actor;
        let bytes = py
            .detach(|| actor.play_shard_bytes(sequence))
            .map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// The learner of a run directory: Learner(run_dir, config=None, replay_ratio=4.0) (config: a dict of `run_config`, or TOML text) opens a
/// new run or resumes the latest checkpoint (holding the directory's lock) and publishes model
/// version 0. `ingest(shard)` stores a shard in `games/` and adds it to the replay window;
/// `train(limit)` takes the learner steps earned; `publish()` makes the next model version;
/// `advance(target)` does both until no step is earned (what the Ray learner calls).
/// Any thread may call it; calls run one at a time, waiting without the GIL.
#[pyclass(module = "fanorona", frozen)]
pub struct Learner {
    inner: Mutex<roles::Learner>,
}

#[pymethods]
impl Learner {
    #[new]
    #[pyo3(signature = (run_dir, config=None, replay_ratio=DEFAULT_REPLAY_RATIO))]
    fn new(
        py: Python<'_>,
        run_dir: PathBuf,
        config: Option<&Bound<'_, PyAny>>,
        replay_ratio: f64,
    ) -> PyResult<Learner> {
        let config = config.map(parse_config).transpose()?;
        let actor = py
            .detach(|| roles::Learner::open(config, &run_dir, replay_ratio))
            .map_err(value_error)?;
        Ok(Learner {
            inner: Mutex::new(actor),
        })
    }

    /// The run's configuration as a dict.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let config = lock(py, &self.inner, "Learner")?.config().clone();
        config_dict(py, &config)
    }

    /// The run's length in model versions (its configuration's `iterations`).
    #[getter]
    fn iterations(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(lock(py, &self.inner, "Learner")?.config().run.iterations)
    }

    /// The latest model version published.
    #[getter]
    fn model_version(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(lock(py, &self.inner, "Learner")?.model_version())
    }

    /// Learner steps taken.
    #[getter]
    fn step(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(lock(py, &self.inner, "Learner")?.step())
    }

    /// The latest model version and its policy-file bytes.
    fn model<'py>(&self, py: Python<'py>) -> PyResult<(u64, Bound<'py, PyBytes>)> {
        let actor = lock(py, &self.inner, "Learner")?;
        Ok((
            actor.model_version(),
            PyBytes::new(py, &actor.model_bytes()),
        ))
    }

    /// Stores shard bytes in the run's `games/` folder and ingests them; returns
    /// {games, positions, staleness, seconds}, or None for a shard consumed before.
    fn ingest<'py>(&self, py: Python<'py>, shard: &[u8]) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mut actor = lock(py, &self.inner, "Learner")?;
        let actor = &mut *actor;
        let ingested = py
            .detach(|| actor.ingest_and_store(shard))
            .map_err(value_error)?;
        ingested
            .map(|i| {
                let dict = PyDict::new(py);
                dict.set_item("games", i.games)?;
                dict.set_item("positions", i.positions)?;
                dict.set_item("staleness", i.staleness)?;
                dict.set_item("seconds", i.seconds)?;
                Ok(dict)
            })
            .transpose()
    }

    /// Ingests the shards of the run's `games/` folder not consumed yet (after a restart);
    /// returns how many. Damaged shards are skipped.
    fn ingest_stored(&self, py: Python<'_>) -> PyResult<usize> {
        let mut actor = lock(py, &self.inner, "Learner")?;
        let actor = &mut *actor;
        py.detach(|| actor.ingest_stored(|_| {}))
            .map_err(value_error)
    }

    /// Takes the learner steps earned, at most `limit` and up to the next model version;
    /// returns how many.
    #[pyo3(signature = (limit=Whole(usize::MAX)))]
    fn train(&self, py: Python<'_>, limit: Whole<usize>) -> PyResult<usize> {
        let Whole(limit) = limit;
        let mut actor = lock(py, &self.inner, "Learner")?;
        let actor = &mut *actor;
        py.detach(|| actor.train_earned(limit)).map_err(value_error)
    }

    /// Takes the steps earned, publishing each model version they complete, until no step is
    /// earned, model version `target` or learner step `max_steps` (when given); returns the
    /// `learner.csv` rows of the versions published, as dicts. The step of `fanorona learn`'s
    /// loop, which the Ray learner takes after each shard.
    #[pyo3(signature = (target=None, max_steps=None))]
    fn advance<'py>(
        &self,
        py: Python<'py>,
        target: Option<Whole<u64>>,
        max_steps: Option<Whole<u64>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let limits = LearnLimits {
            versions: target.map_or(u64::MAX, |Whole(v)| v),
            steps: max_steps.map_or(u64::MAX, |Whole(s)| s),
        };
        let mut actor = lock(py, &self.inner, "Learner")?;
        let actor = &mut *actor;
        let never = AtomicBool::new(false);
        let rows = py
            .detach(|| actor.advance(limits, &never))
            .map_err(value_error)?;
        rows.iter()
            .map(|row| to_py(py, &serde_json::to_value(row).map_err(value_error)?))
            .collect()
    }

    /// Learner steps still to take before the next model version.
    #[getter]
    fn steps_to_next_version(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(lock(py, &self.inner, "Learner")?.steps_to_next_version())
    }

    /// Publishes the next model version (into `models/`, a row of `learner.csv`, a checkpoint
    /// when due); returns (version, policy-file bytes).
    fn publish<'py>(&self, py: Python<'py>) -> PyResult<(u64, Bound<'py, PyBytes>)> {
        let mut actor = lock(py, &self.inner, "Learner")?;
        let actor = &mut *actor;
        let (version, bytes) = py.detach(|| actor.publish()).map_err(value_error)?;
        Ok((version, PyBytes::new(py, &bytes)))
    }

    /// Writes a checkpoint now (publishing the steps taken since the last version first);
    /// returns its path.
    fn checkpoint(&self, py: Python<'_>) -> PyResult<PathBuf> {
        let mut actor = lock(py, &self.inner, "Learner")?;
        let actor = &mut *actor;
        py.detach(|| actor.checkpoint()).map_err(value_error)
    }

    /// The `learner.csv` row of the last version this learner published, as a dict (None
    /// before the first).
    fn last_row<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let actor = lock(py, &self.inner, "Learner")?;
        actor
            .last_row()
            .map(|row| to_py(py, &serde_json::to_value(row).map_err(value_error)?))
            .transpose()
    }
}
