//! `SolverAgent`: the perfect player of a solved board. It wins as fast as it can, loses as
//! slowly as it can, and picks at random (seeded) among the turns of equal value. It plans a
//! complete turn and hands out its steps one action at a time.

use std::collections::VecDeque;
use std::sync::Arc;

use fanorona_env::action::step_to_action;
use fanorona_env::{Agent, AgentError, Fanorona, Position, Step};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use fanorona_exact::solver::{Solution, SolveOptions, SolverError};

/// Positions an on-the-fly solve may reach before the agent gives up.
const ON_THE_FLY_LIMIT: u64 = 20_000_000;

/// A perfect player backed by a [`Solution`]; positions outside the table (e.g. a FEN from
/// elsewhere) are solved on the fly, within a limit.
pub struct SolverAgent {
    table: Arc<Solution>,
    /// The last on-the-fly solution, for positions outside the table.
    extra: Option<Solution>,
    rng: StdRng,
    /// Steps of the planned turn still to play.
    plan: VecDeque<Step>,
    /// The position in which the next planned step is to be played.
    expected: Option<Position>,
}

impl SolverAgent {
    /// A solver agent playing from `table`, breaking ties with a generator seeded by `seed`.
    pub fn new(table: Arc<Solution>, seed: u64) -> SolverAgent {
        SolverAgent {
            table,
            extra: None,
            rng: StdRng::seed_from_u64(seed),
            plan: VecDeque::new(),
            expected: None,
        }
    }

    /// The table the agent plays from.
    pub fn solution(&self) -> &Arc<Solution> {
        &self.table
    }

    fn error(&self, reason: impl std::fmt::Display) -> AgentError {
        AgentError {
            agent: Agent::<Fanorona>::name(self),
            reason: reason.to_string(),
        }
    }

    /// Chooses a turn for `pos` and returns its steps.
    fn plan_turn(&mut self, pos: &Position) -> Result<VecDeque<Step>, AgentError> {
        fanorona_exact::solver::check_rules(pos.rules()).map_err(|e| self.error(e))?;
        let mut best = self.table.best_turns(pos);
        if best.is_none() {
            best = self.extra.as_ref().and_then(|s| s.best_turns(pos));
        }
        if best.is_none() {
            let options = SolveOptions {
                max_positions: ON_THE_FLY_LIMIT,
                ..SolveOptions::default()
            };
            let (solution, _) = Solution::solve_from(&[*pos], &options)
                .map_err(|e: SolverError| self.error(format!("position outside the table: {e}")))?;
            best = solution.best_turns(pos);
            self.extra = Some(solution);
        }
        let (_, turns) = best.ok_or_else(|| self.error("no legal turn in this position"))?;
        let turn = turns[self.rng.random_range(0..turns.len())];
        Ok(pos.turn_steps(&turn).into())
    }
}

impl Agent<Fanorona> for SolverAgent {
    fn name(&self) -> String {
        let board = self.table.board();
        format!("solver:board={}x{}", board.width(), board.height())
    }

    fn act(&mut self, state: &Fanorona) -> Result<usize, AgentError> {
        let pos = state.position();
        if self.expected.as_ref() != Some(pos) || self.plan.is_empty() {
            self.plan = self.plan_turn(pos)?;
        }
        let step = self
            .plan
            .pop_front()
            .ok_or_else(|| self.error("planned an empty turn"))?;
        let mut after = *pos;
        after.play_step_unchecked(step);
        self.expected = Some(after);
        Ok(step_to_action(pos.board(), step))
    }

    fn reset(&mut self) {
        self.plan.clear();
        self.expected = None;
    }
}
