//! The shipped model of the board being played: a `net` or `abnet` agent given neither `path`
//! nor `model` plays the shipped model made for the board it is asked to play
//! ([`ShippedModel::for_board`], e.g. the 5x5 network on 5x5), and its kind's default model
//! elsewhere. The agent is built for the default at once (so a bad specification fails when
//! it is made) and rebuilt, with `model=NAME`, the first time it meets a board with a model of
//! its own.

use fanorona_env::{
    Agent, AgentError, AgentOptions, AgentSpec, Board, Fanorona, GameId, SearchInfo, SearchLimits,
};

use crate::io::ShippedModel;

/// `agent`, built from `options` with `seed`, made to play each board's shipped model where
/// the specification names neither a file nor a model; as it is otherwise.
pub fn with_board_models(
    options: &AgentOptions,
    seed: u64,
    agent: Box<dyn Agent<Fanorona>>,
) -> Box<dyn Agent<Fanorona>> {
    if names_its_network(options.spec()) {
        return agent;
    }
    let default = options.text("model").expect("model has a default");
    Box::new(BoardModelAgent {
        spec: options.spec().clone(),
        default: default.to_string(),
        seed,
        inner: agent,
        model: None,
        limits: None,
    })
}

/// The specification `spec` of a network kind as it plays on `board`: with `model=NAME` of
/// the board's shipped model where `spec` names neither a file nor a model and the board has
/// one; `spec` itself otherwise.
pub fn board_spec(spec: &AgentSpec, board: &Board) -> AgentSpec {
    match ShippedModel::for_board(board) {
        Some(model) if !names_its_network(spec) => spec.with_option("model", Some(model.name())),
        _ => spec.clone(),
    }
}

/// Whether `spec` names the network it plays: a file (`path`) or a shipped model (`model`).
fn names_its_network(spec: &AgentSpec) -> bool {
    spec.option("path").is_some() || spec.option("model").is_some()
}

/// A network agent that plays the shipped model of each board it is asked to play.
struct BoardModelAgent {
    spec: AgentSpec,
    /// The kind's default model, played on boards without one of their own.
    default: String,
    seed: u64,
    inner: Box<dyn Agent<Fanorona>>,
    /// The shipped model the inner agent plays (`None`: the kind's default).
    model: Option<ShippedModel>,
    limits: Option<SearchLimits>,
}

impl BoardModelAgent {
    /// Rebuilds the inner agent for `board` when it calls for another model than the inner
    /// agent's: its own shipped model, or the kind's default where it has none.
    fn fit(&mut self, board: &'static Board) -> Result<(), AgentError> {
        let model = ShippedModel::for_board(board);
        if model == self.model {
            return Ok(());
        }
        let name = match model {
            Some(model) => model.name(),
            None => self.default.as_str(),
        };
        let spec = self.spec.with_option("model", Some(name));
        let registry = crate::players::registry();
        let mut inner = registry.create(&spec, self.seed).map_err(|e| AgentError {
            agent: self.spec.to_string(),
            reason: format!("the model for {board}: {e}"),
        })?;
        if let Some(limits) = &self.limits {
            inner.set_limits(limits);
        }
        self.inner = inner;
        self.model = model;
        Ok(())
    }
}

impl Agent<Fanorona> for BoardModelAgent {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn act(&mut self, state: &Fanorona) -> Result<usize, AgentError> {
        self.fit(state.position().board())?;
        self.inner.act(state)
    }

    fn reset(&mut self) {
        self.inner.reset();
    }

    fn set_limits(&mut self, limits: &SearchLimits) {
        self.limits = Some(limits.clone());
        self.inner.set_limits(limits);
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.inner.last_info()
    }

    fn game(&self) -> Option<GameId> {
        // It plays every board: the standard one with the default model, the others with
        // theirs (or the default model's refusal).
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::{Game, Position};

    fn create(text: &str) -> Box<dyn Agent<Fanorona>> {
        let registry = crate::players::registry();
        registry.create(&registry.parse(text).unwrap(), 3).unwrap()
    }

    #[test]
    fn without_path_or_model_each_board_gets_its_shipped_model() {
        let five = Fanorona::new(Position::initial(Board::new(5, 5).unwrap()));
        let nine = Fanorona::standard();
        for kind in ["net:sims=0", "abnet:depth=1"] {
            let mut agent = create(kind);
            assert_eq!(agent.name(), kind);
            assert!(nine.is_legal(agent.act(&nine).unwrap()));
            // On 5x5 the default agent plays as the 5x5 model does, where the teacher or
            // the student would refuse the board.
            assert!(five.is_legal(agent.act(&five).unwrap()), "{kind}");
            let mut shipped = create(&format!("{kind},model=5x5"));
            let mut game = five.clone();
            for _ in 0..4 {
                if game.is_terminal() {
                    break;
                }
                let action = shipped.act(&game).unwrap();
                assert_eq!(agent.act(&game).unwrap(), action, "{kind}");
                game.apply(action).unwrap();
            }
            assert!(nine.is_legal(agent.act(&nine).unwrap()), "back on 9x5");
        }
        // A model named explicitly is played as named, and refuses a board it was not made
        // for.
        let mut teacher = create("net:sims=0,model=teacher");
        let err = teacher.act(&five).unwrap_err();
        assert!(err.reason.contains("made for fanorona 9x5"), "{err}");
        // The limits set before the switch hold after it.
        let mut timed = create("net:sims=8");
        timed.set_limits(&SearchLimits::default());
        assert!(five.is_legal(timed.act(&five).unwrap()));
        assert_eq!(timed.last_info().unwrap().nodes, 8);
    }
}
