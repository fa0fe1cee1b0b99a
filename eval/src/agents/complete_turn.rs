//! A complete turn from a step-level agent: its actions are collected until the turn passes
//! (a paika step, or a capture chain to its end), for callers that speak in turns (the engine
//! protocol, the terminal game, the arena).

use fanorona_env::{
    ActionError, Agent, AgentError, Fanorona, Game, MAX_TURN_STEPS, Position, Step, Turn,
};

/// Why the actions a step-level agent chose make no turn.
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    /// The agent could not choose an action.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The rules refuse the chosen action.
    #[error(transparent)]
    Refused(#[from] ActionError),
    /// The steps go on past the longest possible turn.
    #[error("the turn does not end")]
    Endless,
    /// The steps played (in notation) make no legal turn.
    #[error("the steps {0} make no legal turn")]
    NoTurn(String),
}

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

/// Plays the actions `agent` chooses in `game` (not finished) until the turn passes, and
/// returns the turn they make. On error `game` may be left mid-turn.
pub fn play_agent_turn<A: Agent<Fanorona> + ?Sized>(
    agent: &mut A,
    game: &mut Fanorona,
) -> Result<Turn, TurnError> {
    let start = *game.position();
    let mut steps = Vec::new();
    loop {
        let action = agent.act(game)?;
        game.apply(action)?;
        steps.push(
            game.action_to_step(action)
                .expect("an applied action is a step"),
        );
        if game.position().is_turn_start() {
            break;
        }
        if steps.len() > MAX_TURN_STEPS {
            return Err(TurnError::Endless);
        }
    }
    turn_of_steps(&start, &steps).ok_or_else(|| {
        let names: Vec<String> = steps.iter().map(|&s| start.step_notation(s)).collect();
        TurnError::NoTurn(names.join(" "))
    })
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
    let mut work = game.clone();
    let turn = play_agent_turn(agent, &mut work).map_err(|e| match e {
        TurnError::Agent(e) => e,
        TurnError::Refused(ActionError::OutOfRange { action, .. }) => {
            error(format!("action {action} is outside the action space"))
        }
        TurnError::Refused(e) => error(format!("chose an illegal action: {e}")),
        other => error(other.to_string()),
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
