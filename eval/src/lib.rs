//! Evaluating Fanorona agents: players that need no network (random, greedy, the minimax
//! baseline, the exact solver), the arena (matches, Elo, SPRT) and game records.

pub mod solver;
