//! The rules of Fanorona (docs/rules.md): geometry, positions, move generation, notation, perft.

pub mod board;
mod capture_probe;
pub mod color;
pub mod display;
pub mod error;
pub mod fen;
pub mod history;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod settings;
pub mod start;
pub mod step;
pub mod turn;
pub mod zobrist;
