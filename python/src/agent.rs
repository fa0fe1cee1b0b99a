//! `fanorona.Agent`: a player of any kind of the agent registry (random, greedy, minimax,
//! solver, mcts, net, engine, or a policy file's path).

use std::sync::Mutex;

use fanorona_env::{Agent as _, Fanorona, Game, SearchInfo};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::value_error;
use crate::index::Whole;
use crate::locks::lock;
use crate::position::Position;

/// Builds the agent of a specification such as `minimax:depth=4` or `model.safetensors`.
pub fn create_agent(spec: &str, seed: u64) -> PyResult<Box<dyn fanorona_env::Agent<Fanorona>>> {
    let registry = fanorona_train::players::registry();
    let parsed = registry.parse(spec).map_err(value_error)?;
    registry.create(&parsed, seed).map_err(value_error)
}

/// The kinds of agents (what `spec` accepts), one dict each: name, summary, options (a dict
/// from option name to its usage, e.g. "depth=N (1-64, default 4)", and help), the file
/// extensions whose bare path names the kind, and the whole help line.
#[pyfunction]
pub fn agent_kinds(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let kinds = PyList::empty(py);
    for kind in fanorona_train::players::registry().kinds() {
        let options = PyDict::new(py);
        for option in kind.options {
            let entry = PyDict::new(py);
            entry.set_item("usage", option.usage())?;
            entry.set_item("help", option.help)?;
            options.set_item(option.name, entry)?;
        }
        let entry = PyDict::new(py);
        entry.set_item("name", kind.name)?;
        entry.set_item("summary", kind.summary)?;
        entry.set_item("options", options)?;
        entry.set_item("path_extensions", kind.path_extensions.to_vec())?;
        entry.set_item("help", kind.help_line())?;
        kinds.append(entry)?;
    }
    Ok(kinds)
}

/// The position an agent is asked about: a Position, or anything with a `position`
/// attribute (the environments of this package, and wrappers around them).
fn position_of(value: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(position) = value.extract::<Position>() {
        return Ok(position);
    }
    for path in [&["position"][..], &["unwrapped", "position"][..]] {
        let mut current = value.clone();
        let found = path.iter().all(|name| match current.getattr(*name) {
            Ok(next) => {
                current = next;
                true
            }
            Err(_) => false,
        });
        if found && let Ok(position) = current.extract::<Position>() {
            return Ok(position);
        }
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected a fanorona.Position or an environment with a `position`, got {}",
        value.get_type().name()?
    )))
}

/// A search's info as a dict: value, depth, nodes, time (seconds), pv, centipieces, mate_in.
pub fn info_dict<'py>(py: Python<'py>, info: &SearchInfo) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("value", info.value)?;
    dict.set_item("depth", info.depth)?;
    dict.set_item("nodes", info.nodes)?;
    dict.set_item("time", info.time.as_secs_f64())?;
    dict.set_item("pv", info.pv.clone())?;
    dict.set_item("centipieces", info.centipieces)?;
    dict.set_item("mate_in", info.mate_in)?;
    Ok(dict)
}

/// A player built from a specification, e.g. Agent("minimax:depth=4"), Agent("mcts:sims=400"),
/// Agent("net:path=model.safetensors,sims=200") or Agent("model.safetensors").
/// `fanorona.agent_kinds()` lists every kind and option. Any thread may call it; a call
/// waits (without the GIL) while another thread's call runs.
#[pyclass(module = "fanorona", frozen)]
pub struct Agent {
    inner: Mutex<Box<dyn fanorona_env::Agent<Fanorona>>>,
    name: String,
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, seed=Whole(0)))]
    fn new(spec: &str, seed: Whole<u64>) -> PyResult<Agent> {
        let Whole(seed) = seed;
        let agent = create_agent(spec, seed)?;
        Ok(Agent {
            name: agent.name(),
            inner: Mutex::new(agent),
        })
    }

    /// The agent's name, e.g. "minimax:depth=4".
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Chooses a legal action id (one step) for the side to act in `state`: a Position or an
    /// environment of this package. The GIL is released while it searches.
    fn act(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<usize> {
        let position = position_of(state)?;
        let game = position.game().clone();
        if game.is_terminal() {
            return Err(PyValueError::new_err(
                "the game is over: there is nothing to choose",
            ));
        }
        let mut agent = lock(py, &self.inner, "agent")?;
        let agent = &mut *agent;
        py.detach(|| agent.act(&game))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// What the last decision was based on (a dict: value, depth, nodes, time, pv,
    /// centipieces, mate_in), or None for agents that do not search.
    fn last_info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let info = lock(py, &self.inner, "agent")?.last_info();
        info.map(|i| info_dict(py, &i)).transpose()
    }

    /// Forgets the current game (call before a new one).
    fn reset(&self, py: Python<'_>) -> PyResult<()> {
        lock(py, &self.inner, "agent")?.reset();
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.name)
    }
}
