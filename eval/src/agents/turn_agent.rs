//! Playing complete turns one step at a time. A [`TurnChooser`] picks a whole turn (a paika
//! step or a capture chain); [`TurnAgent`] hands out its steps one by one, as the step-level
//! [`Agent`] interface asks, and plans again whenever the state is not the one it expects
//! (for instance when it is first asked in mid-chain).

use fanorona_env::{Agent, AgentError, Fanorona, Game, Position, SearchInfo, SearchLimits, Turn};

/// Something that chooses complete turns.
pub trait TurnChooser: Send {
    /// A short name for logs and records.
    fn name(&self) -> String;

    /// Chooses a legal complete turn in `game`; in mid-chain, a way to complete the chain.
    fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError>;

    /// Forgets everything about the current game.
    fn reset(&mut self) {}

    /// Sets the limits of the following choices (see [`Agent::set_limits`]).
    fn set_limits(&mut self, _limits: &SearchLimits) {}

    /// What the last choice was based on (see [`Agent::last_info`]).
    fn last_info(&self) -> Option<SearchInfo> {
        None
    }
}

/// A step-level agent driven by a [`TurnChooser`].
#[derive(Debug)]
pub struct TurnAgent<C> {
    chooser: C,
    /// The planned steps: the position each is to be played in, and its action.
    plan: Vec<(Position, usize)>,
    /// The next planned step to hand out.
    next: usize,
}

impl<C: TurnChooser> TurnAgent<C> {
    /// Wraps a chooser.
    pub fn new(chooser: C) -> TurnAgent<C> {
        TurnAgent {
            chooser,
            plan: Vec::new(),
            next: 0,
        }
    }

    /// The chooser inside.
    pub fn chooser(&self) -> &C {
        &self.chooser
    }

    fn plan_turn(&mut self, game: &Fanorona) -> Result<(), AgentError> {
        let turn = self.chooser.choose_turn(game)?;
        let mut pos = *game.position();
        self.plan.clear();
        for step in pos.turn_steps(&turn) {
            self.plan.push((pos, game.step_to_action(step)));
            pos.play_step_unchecked(step);
        }
        self.next = 0;
        Ok(())
    }
}

impl<C: TurnChooser> Agent<Fanorona> for TurnAgent<C> {
    fn name(&self) -> String {
        self.chooser.name()
    }

    fn act(&mut self, state: &Fanorona) -> Result<usize, AgentError> {
        if state.is_terminal() {
            return Err(AgentError {
                agent: self.name(),
                reason: "asked to move in a finished game".into(),
            });
        }
        let expected = self.plan.get(self.next).map(|(pos, _)| pos);
        if expected != Some(state.position()) {
            self.plan_turn(state)?;
        }
        let (_, action) = self.plan.get(self.next).ok_or_else(|| AgentError {
            agent: self.name(),
            reason: "the chosen turn has no steps".into(),
        })?;
        self.next += 1;
        Ok(*action)
    }

    fn reset(&mut self) {
        self.plan.clear();
        self.next = 0;
        self.chooser.reset();
    }

    fn set_limits(&mut self, limits: &SearchLimits) {
        self.chooser.set_limits(limits);
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.chooser.last_info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chooses the last turn generated and counts how often it was asked.
    struct LastTurn {
        calls: usize,
    }

    impl TurnChooser for LastTurn {
        fn name(&self) -> String {
            "last".into()
        }

        fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
            self.calls += 1;
            Ok(*game.position().legal_turns().last().unwrap())
        }
    }

    #[test]
    fn hands_out_a_chain_step_by_step_and_replans_in_mid_chain() {
        // White c1 captures e1 by approach (c1d1A) and goes on to take d3 (d1d2A).
        let pos = Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap();
        let mut game = Fanorona::new(pos);
        let mut agent = TurnAgent::new(LastTurn { calls: 0 });
        let turn = *pos.legal_turns().last().unwrap();
        assert_eq!(turn.notation(pos.board()), "c1d1Ad2A");
        let steps = pos.turn_steps(&turn);
        for &step in &steps {
            let action = agent.act(&game).unwrap();
            assert_eq!(action, game.step_to_action(step));
            game.apply(action).unwrap();
        }
        assert_eq!(agent.chooser().calls, 1, "one plan for the whole turn");
        assert!(game.position().is_turn_start());

        // Asked in mid-chain without a plan: it chooses among the completions.
        let mut game = Fanorona::new(pos);
        let first = pos.turn_steps(&turn)[0];
        game.apply(game.step_to_action(first)).unwrap();
        assert!(!game.position().is_turn_start());
        let mut fresh = TurnAgent::new(LastTurn { calls: 0 });
        let action = fresh.act(&game).unwrap();
        assert!(game.is_legal(action));
        assert_eq!(fresh.chooser().calls, 1);
    }
}
