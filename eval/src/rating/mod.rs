//! Ratings from many games between many agents: maximum-likelihood Elo under the
//! Bradley-Terry model with draws of Davidson ([`davidson`]), as Ordo and BayesElo rate
//! engines, anchored at a named agent, with bootstrap 95% intervals ([`bootstrap`]).

pub(crate) mod bootstrap;
mod cholesky;
pub(crate) mod collect;
pub(crate) mod davidson;
pub(crate) mod error;
pub(crate) mod rate;
pub(crate) mod report;
pub(crate) mod results;

pub use collect::{CollectedGames, collect_games};
pub use error::RatingError;
pub use rate::{RatingSettings, rate};
pub use report::{PlayerRating, Ratings};
pub use results::GameResults;
