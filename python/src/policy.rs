//! `fanorona.Policy`: an exported policy file (or a checkpoint's network) run on batches of
//! observations from Python.

use std::path::PathBuf;
use std::sync::Mutex;

use fanorona_env::Wdl;
use fanorona_train::config::ValueHead;
use fanorona_train::io::{PolicyMeta, load_policy};
use fanorona_train::model::PolicyValueNet;
use numpy::PyArrayDyn;
use pyo3::prelude::*;

use crate::arrays;
use crate::errors::value_error;
use crate::locks::lock;

/// What evaluating returns: logits and values.
type Outputs<'py> = (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<f32>>);

/// A trained network: `Policy.load(path)`, then `policy(obs, mask=None)`.
///
/// Observations are float32 `[N, 18, H, W]` (or one `[18, H, W]`) as the environments give them;
/// the logits are over actions in the frame of the player to act (`VecEnv(mover_frame=True)`
/// gives masks in that frame), and values are the expected result for that player in [-1, 1].
/// Any thread may call it; calls run one at a time, waiting without the GIL.
#[pyclass(module = "fanorona", frozen)]
pub struct Policy {
    net: Mutex<PolicyValueNet>,
    meta: PolicyMeta,
}

#[pymethods]
impl Policy {
    /// Loads a policy file written by `fanorona export` (or a training checkpoint). A missing
    /// or corrupt file raises ValueError naming it.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Policy> {
        let loaded = py.detach(|| load_policy(&path)).map_err(value_error)?;
        Ok(Policy {
            net: Mutex::new(loaded.net),
            meta: loaded.meta,
        })
    }

    /// Runs the network; returns (logits float32 [N, num_actions], values float32 [N]), or
    /// ([num_actions], a 0-d value) for one observation. With `mask` (int8 or bool, same leading
    /// shape), illegal actions' logits are -inf. Wrong shapes or dtypes raise
    /// TypeError/ValueError.
    #[pyo3(signature = (obs, mask=None))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        obs: &Bound<'py, PyAny>,
        mask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Outputs<'py>> {
        let [p, h, w] = self.observation_shape_array();
        let (values_in, batch) = arrays::observations(obs, [p, h, w])?;
        let n = batch.unwrap_or(1);
        let num_actions = self.meta.network.num_actions;
        let legal = mask
            .map(|m| arrays::mask(m, batch, num_actions))
            .transpose()?;
        let mut logits = vec![0.0f32; n * num_actions];
        let mut values = vec![0.0f32; n];
        if n > 0 {
            let net = lock(py, &self.net, "policy")?;
            let net = &*net;
            py.detach(|| net.infer(&values_in, &mut logits, &mut values));
        }
        if let Some(legal) = legal {
            for (logit, ok) in logits.iter_mut().zip(legal) {
                if !ok {
                    *logit = f32::NEG_INFINITY;
                }
            }
        }
        Ok(match batch {
            Some(n) => (
                arrays::copy(py, &logits, vec![n, num_actions]),
                arrays::copy(py, &values, vec![n]),
            ),
            None => (
                arrays::copy(py, &logits, vec![num_actions]),
                arrays::copy(py, &values, Vec::<usize>::new()),
            ),
        })
    }

    /// The value head's win, draw and loss probabilities for the player to act: float32
    /// [N, 3] (or [3] for one observation), each row summing to 1. A scalar head's value v
    /// reads as (max(v, 0), 1 - |v|, max(-v, 0)).
    fn wdl<'py>(
        &self,
        py: Python<'py>,
        obs: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let [p, h, w] = self.observation_shape_array();
        let (values_in, batch) = arrays::observations(obs, [p, h, w])?;
        let n = batch.unwrap_or(1);
        let mut logits = vec![0.0f32; n * self.meta.network.num_actions];
        let mut wdl = vec![Wdl::default(); n];
        if n > 0 {
            let net = lock(py, &self.net, "policy")?;
            let net = &*net;
            py.detach(|| net.infer_wdl(&values_in, &mut logits, &mut wdl));
        }
        let flat: Vec<f32> = wdl.iter().flat_map(Wdl::as_array).collect();
        Ok(match batch {
            Some(n) => arrays::copy(py, &flat, vec![n, 3]),
            None => arrays::copy(py, &flat, vec![3]),
        })
    }

    /// What the value head predicts: "scalar" (one value) or "wdl" (win/draw/loss).
    #[getter]
    fn value_head(&self) -> &'static str {
        match self.meta.network.value_head {
            ValueHead::Scalar => "scalar",
            ValueHead::Wdl => "wdl",
        }
    }

    /// The game and board it was trained for, e.g. "fanorona 9x5".
    #[getter]
    fn game(&self) -> String {
        self.meta.game.to_string()
    }

    /// The board size as (width, height).
    #[getter]
    fn board(&self) -> (usize, usize) {
        (self.meta.network.width, self.meta.network.height)
    }

    /// The rules it was trained under.
    #[getter]
    fn rules(&self) -> String {
        self.meta.rules.clone()
    }

    /// Learner steps it was trained for.
    #[getter]
    fn step(&self) -> u64 {
        self.meta.step
    }

    /// The size of its action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.meta.network.num_actions
    }

    /// The observation shape it takes: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.observation_shape_array();
        (p, h, w)
    }

    fn __repr__(&self) -> String {
        format!("Policy(game={:?}, step={})", self.game(), self.meta.step)
    }
}

impl Policy {
    /// The observation shape as an array.
    fn observation_shape_array(&self) -> [usize; 3] {
        let n = &self.meta.network;
        [n.planes, n.height, n.width]
    }
}
