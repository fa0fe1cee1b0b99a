//! Matches between two agents: openings, parallel games, Elo with a confidence interval,
//! likelihood of superiority and the sequential probability ratio test.

pub mod elo;
pub mod matches;
pub mod opening;
pub mod sprt;
