//! Analysis: an agent thinks about one position ever deeper, its own search run again with
//! a larger limit (one more turn of depth, or twice the simulations), its table kept from
//! one iteration to the next, and each completed iteration is reported: the evaluation,
//! the best line and the depth. It ends when it is stopped (a request, the client gone,
//! the time cap), when deeper cannot tell more (a forced result, the largest limit), or
//! when the agent fails.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use fanorona_env::{Agent, Budget, Color, Fanorona, Game, SearchInfo, SearchLimits};
use serde::Serialize;

use super::agents::MAX_REQUEST_SIMS;

/// The deepest iteration of a search by depth, in complete turns.
pub const MAX_DEPTH: u32 = 32;

/// The simulations of the first iteration of a tree search.
const FIRST_SIMS: u64 = 64;

/// How an agent's search grows from one iteration to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deepening {
    /// One more complete turn of depth (alpha-beta: minimax, abnet).
    Depth,
    /// Twice the simulations, up to the server's cap (tree search: mcts, net).
    Simulations,
}

impl Deepening {
    /// The limits of iteration `n` (from 1), or `None` past the largest.
    fn limits(self, n: u32, stop: &Arc<AtomicBool>) -> Option<SearchLimits> {
        let budget = match self {
            Deepening::Depth => Budget::fixed_depth(Some(n).filter(|&d| d <= MAX_DEPTH)?),
            Deepening::Simulations => Budget::node_count(
                FIRST_SIMS
                    .checked_shl(n - 1)
                    .filter(|&sims| sims <= MAX_REQUEST_SIMS)?,
            ),
        };
        Some(SearchLimits {
            budget,
            stop: Some(stop.clone()),
        })
    }
}

/// One completed iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Iteration {
    /// Its number, from 1.
    pub iteration: u32,
    /// The depth the search reached, in complete turns (alpha-beta only).
    pub depth: Option<u32>,
    /// The expected result in `[-1, 1]` for the side to move.
    pub value: Option<f32>,
    /// The same for white (the value bar).
    pub white_value: Option<f32>,
    /// Material in hundredths of a piece, for the side to move.
    pub centipieces: Option<i32>,
    /// A forced result: the side to move wins in n turns (negative: loses).
    pub mate_in: Option<i32>,
    /// Positions or simulations searched in this iteration.
    pub nodes: u64,
    /// The iteration's time in milliseconds.
    pub ms: u128,
    /// The best line in notation, the best turn first.
    pub pv: Vec<String>,
    /// The evaluation in words, e.g. `white wins in 3` or `black is better`.
    pub verdict: String,
}

impl Iteration {
    /// Iteration `n`'s report, from what the search of `side`'s turn said.
    fn of(n: u32, side: Color, info: SearchInfo) -> Iteration {
        let sign = if side == Color::White { 1.0 } else { -1.0 };
        let white_value = info.value.map(|v| v * sign);
        Iteration {
            iteration: n,
            depth: info.depth,
            value: info.value,
            white_value,
            centipieces: info.centipieces,
            mate_in: info.mate_in,
            nodes: info.nodes,
            ms: info.time.as_millis(),
            verdict: verdict(side, info.mate_in, white_value),
            pv: info.pv,
        }
    }
}

/// The evaluation in words: a forced result, or who is better by how much.
fn verdict(side: Color, mate_in: Option<i32>, white_value: Option<f32>) -> String {
    if let Some(turns) = mate_in {
        let winner = if turns > 0 { side } else { side.other() };
        return format!("{winner} wins in {}", turns.unsigned_abs());
    }
    match white_value {
        None => "no evaluation".into(),
        Some(v) if v.abs() < 0.1 => "about even".into(),
        Some(v) => {
            let better = if v > 0.0 { Color::White } else { Color::Black };
            let how = if v.abs() >= 0.6 {
                "much better"
            } else {
                "better"
            };
            format!("{better} is {how}")
        }
    }
}

/// Why an analysis ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// Told to stop (a request, the client gone or the time cap).
    Stopped,
    /// A forced result was found or the largest limit reached: deeper tells no more.
    Complete,
    /// The agent failed; what it said.
    Failed(String),
}

/// Analyses `game` (not over) with `agent`, growing its search by `deepening`, until `stop`
/// is set or [`End`] says why not; each completed iteration goes to `report`, which returns
/// whether anyone still listens.
pub fn analyse(
    agent: &mut dyn Agent<Fanorona>,
    game: &Fanorona,
    deepening: Deepening,
    stop: &Arc<AtomicBool>,
    mut report: impl FnMut(Iteration) -> bool,
) -> End {
    let side = game.current_player();
    for n in 1.. {
        if stop.load(Ordering::Relaxed) {
            return End::Stopped;
        }
        let Some(limits) = deepening.limits(n, stop) else {
            return End::Complete;
        };
        agent.set_limits(&limits);
        if let Err(e) = agent.act(game) {
            return End::Failed(e.reason);
        }
        // Stopped during the iteration: its result is the one before, already reported.
        if stop.load(Ordering::Relaxed) {
            return End::Stopped;
        }
        let Some(info) = agent.last_info() else {
            return End::Failed("the agent reports no evaluation".into());
        };
        let forced = info.mate_in.is_some();
        // An alpha-beta search that stopped short of the depth asked (the endgame tables
        // hold the position) cannot go deeper.
        let shallow = deepening == Deepening::Depth && info.depth.is_some_and(|d| d < n);
        if !report(Iteration::of(n, side, info)) {
            return End::Stopped;
        }
        if forced || shallow {
            return End::Complete;
        }
    }
    unreachable!("the iterations end at the largest limit")
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Position;

    fn agent(spec: &str) -> Box<dyn Agent<Fanorona>> {
        let registry = fanorona_train::players::registry();
        registry.create(&registry.parse(spec).unwrap(), 1).unwrap()
    }

    #[test]
    fn each_deeper_iteration_is_reported_until_stopped() {
        let game = Fanorona::new(Position::standard());
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen = Vec::new();
        let end = analyse(
            &mut *agent("minimax"),
            &game,
            Deepening::Depth,
            &stop,
            |it| {
                seen.push(it);
                if seen.len() == 3 {
                    stop.store(true, Ordering::Relaxed);
                }
                true
            },
        );
        assert_eq!(end, End::Stopped);
        let depths: Vec<_> = seen.iter().map(|it| (it.iteration, it.depth)).collect();
        assert_eq!(depths, [(1, Some(1)), (2, Some(2)), (3, Some(3))]);
        assert!(
            seen.iter()
                .all(|it| !it.pv.is_empty() && it.value.is_some())
        );
        assert_eq!(seen[2].pv.len(), 3);
        // A listener gone stops it too, after the iteration it missed.
        let stop = Arc::new(AtomicBool::new(false));
        let end = analyse(
            &mut *agent("minimax"),
            &game,
            Deepening::Depth,
            &stop,
            |_| false,
        );
        assert_eq!(end, End::Stopped);
    }

    #[test]
    fn a_forced_win_ends_the_analysis_and_tree_search_doubles_its_simulations() {
        // White takes every black piece with one chain.
        let game = Fanorona::new(Position::from_fen("2B2/B4/BW1BB w 0 1").unwrap());
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen = Vec::new();
        let end = analyse(
            &mut *agent("minimax"),
            &game,
            Deepening::Depth,
            &stop,
            |it| {
                seen.push(it);
                true
            },
        );
        assert_eq!(end, End::Complete);
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].mate_in, Some(1));
        assert_eq!(seen[0].verdict, "white wins in 1");
        assert_eq!(seen[0].white_value, Some(1.0));
        assert_eq!(seen[0].pv, ["b1c1Ac2Ab2Ac3W"]);
        let limits = |n| {
            Deepening::Simulations
                .limits(n, &stop)
                .map(|l| l.budget.nodes)
        };
        assert_eq!(limits(1), Some(Some(64)));
        assert_eq!(limits(3), Some(Some(256)));
        assert_eq!(limits(20), None);
        assert!(Deepening::Depth.limits(MAX_DEPTH + 1, &stop).is_none());
        assert_eq!(verdict(Color::Black, Some(-2), None), "white wins in 2");
        assert_eq!(
            verdict(Color::White, None, Some(-0.7)),
            "black is much better"
        );
        assert_eq!(verdict(Color::White, None, Some(0.05)), "about even");
    }
}
