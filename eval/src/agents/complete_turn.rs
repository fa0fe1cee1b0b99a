//! A complete turn from a step-level agent: its actions are collected until the turn passes
//! (a paika step, or a capture chain to its end), for callers that speak in turns (the engine
//! protocol, the terminal game).

use fanorona_env::{Agent, AgentError, Fanorona, Game, MAX_TURN_STEPS, Position, Step, Turn};

/// The legal turn of `pos` whose step sequence ([`Position::turn_steps`]) is `steps`.
pub fn turn_of_steps(pos: &Position, steps: &[Step]) -> Option<Turn> {
    let mut found = None;
    pos.for_each_turn_path(|t| {
        if found.is_none() && pos.turn_steps(t) == steps {
            found = Some(*t);
        }
    });
    found
}

/// Asks `agent` for actions in `game` until the turn passes, plays them, and returns the turn
/// they make. On error (the agent fails or chooses an illegal action) `game` is unchanged.
pub fn agent_turn<A: Agent<Fanorona> + ?Sized>(
    agent: &mut A,
    game: &mut Fanorona,
) -> Result<Turn, AgentError> {
    let name = agent.name();
    let error = |reason: String| AgentError {
        agent: name.clone(),
        reason,
    };
    if let Some(outcome) = game.outcome() {
        return Err(error(format!(
            "asked to move in a finished game: {outcome}"
        )));
    }
    let start = *game.position();
    let mut work = game.clone();
    let mut steps = Vec::new();
    loop {
        let action = agent.act(&work)?;
        let step = work
            .action_to_step(action)
            .ok_or_else(|| error(format!("action {action} is outside the action space")))?;
        work.apply(action)
            .map_err(|e| error(format!("chose an illegal action: {e}")))?;
        steps.push(step);
        if work.position().is_turn_start() {
            break;
        }
        if steps.len() > MAX_TURN_STEPS {
            return Err(error("the turn does not end".into()));
        }
    }
    let turn = turn_of_steps(&start, &steps).ok_or_else(|| {
        let names: Vec<String> = steps.iter().map(|&s| start.step_notation(s)).collect();
        error(format!("the steps {} make no legal turn", names.join(" ")))
    })?;
    *game = work;
    Ok(turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::RandomAgent;

    #[test]
    fn a_chain_is_collected_into_one_turn() {
        let pos = Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap();
        // The random agent, seeded, plays various turns; each is legal and played in full.
        for seed in 0..10 {
            let mut game = Fanorona::new(pos);
            let turn = agent_turn(&mut RandomAgent::new(seed), &mut game).unwrap();
            assert!(pos.legal_turns().iter().any(|t| t.same_result(&turn)));
            let mut expected = pos;
            expected.play_turn_unchecked(&turn);
            assert_eq!(game.position(), &expected);
        }
        let chain = pos.parse_turn("c1d1Ad2A").unwrap();
        assert_eq!(turn_of_steps(&pos, &pos.turn_steps(&chain)), Some(chain));
        assert_eq!(turn_of_steps(&pos, &[Step::Stop]), None);
    }

    /// Always answers action 0 (illegal in the initial position).
    struct Broken;

    impl Agent<Fanorona> for Broken {
        fn name(&self) -> String {
            "broken".into()
        }

        fn act(&mut self, _: &Fanorona) -> Result<usize, AgentError> {
            Ok(0)
        }
    }

    #[test]
    fn an_illegal_action_is_an_error_and_changes_nothing() {
        let mut game = Fanorona::standard();
        let err = agent_turn(&mut Broken, &mut game).unwrap_err();
        assert!(err.reason.contains("illegal action"), "{err}");
        assert_eq!(game.position(), &Position::standard());
    }
}
