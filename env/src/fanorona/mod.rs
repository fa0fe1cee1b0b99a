//! Fanorona behind the [`crate::Game`] trait: action encoding, observation tensor,
//! symmetries and the step-level game state.

pub mod action;
pub mod observation;
pub mod state;
pub mod symmetry;

pub use state::Fanorona;
