//! `fanorona._fanorona`, the Rust core of the `fanorona` Python package: positions, the
//! two-player and single-agent environments, the batched `VecEnv`, agents of every registry
//! kind, exported policies, matches and the prover. The pure-Python modules of
//! `python/fanorona/` build the PettingZoo and Gymnasium environments on top of it.

use pyo3::prelude::*;

mod agent;
mod arena;
mod arrays;
mod env;
mod errors;
mod index;
mod json;
mod locks;
mod names;
mod policy;
mod position;
mod prove;
mod roles;
mod session;
mod single_agent;
mod single_agent_vec;
mod tables;
mod vec_env;

/// The extension module.
#[pymodule]
fn _fanorona(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // rayon's workers (VecEnv, searches) run with denormal floats flushed, as in the CLI. The
    // pool may already exist if another extension built it; then it is left as it is.
    let _ = fanorona_util::denormals::build_global_pool(rayon::ThreadPoolBuilder::new());
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_TURN_LIMIT", env::DEFAULT_TURN_LIMIT)?;
    m.add_class::<position::Position>()?;
    m.add_class::<env::Env>()?;
    m.add_class::<single_agent::SingleAgentEnv>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_class::<single_agent_vec::SingleAgentVecEnv>()?;
    m.add_class::<agent::Agent>()?;
    m.add_class::<session::GameSession>()?;
    m.add_class::<policy::Policy>()?;
    m.add_class::<tables::EndgameTables>()?;
    m.add_function(wrap_pyfunction!(arena::match_summary, m)?)?;
    m.add_function(wrap_pyfunction!(agent::agent_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(prove::prove, m)?)?;
    m.add_class::<roles::SelfPlayWorker>()?;
    m.add_class::<roles::Learner>()?;
    m.add_function(wrap_pyfunction!(roles::run_config, m)?)?;
    Ok(())
}
