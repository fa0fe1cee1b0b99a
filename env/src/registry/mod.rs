//! The agent registry: one table of every agent kind the project can build, in the manner of
//! OpenSpiel's bot registry. An agent is named by a specification `kind[:key=value,...]`
//! ([`AgentSpec`]); each kind ([`AgentKind`]) declares its options ([`OptionDef`]: type, range,
//! default, help) and a factory. The [`Registry`] checks a specification against the table
//! before the factory sees its typed values ([`AgentOptions`]), and writes the help and the
//! error messages from the same table. Crates register their own kinds; this crate provides
//! `random` ([`crate::RandomAgent::KIND`]).

mod error;
mod kind;
mod option;
mod options;
#[allow(clippy::module_inception)]
mod registry;
mod spec;

pub use error::SpecError;
pub use kind::{AgentKind, Factory};
pub use option::{OptionDef, OptionDefault, ValueType};
pub use options::AgentOptions;
pub use registry::Registry;
pub use spec::{AgentSpec, split_spec_list};
