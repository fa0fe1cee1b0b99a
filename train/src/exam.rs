//! The value head of a network agent, for the exams of `fanorona_eval::exam`: the network a
//! `net` or `abnet` specification names, and its values of positions (for the side to move,
//! in `[-1, 1]`), to be scored against solved values or a test set's labels; and a training
//! run's exam of its network on the 9x5 test set built into the binary ([`builtin_set_exam`]).

use std::sync::OnceLock;

use fanorona_env::{AgentSpec, Board, Fanorona, Game, Position, Registry, SpecError};
use fanorona_eval::Built;
use fanorona_eval::exam::{TestSet, ValueError, examine_set};
use fanorona_search::Evaluator;
use fanorona_util::progress::ProgressBar;

use crate::model::PolicyValueNet;
use crate::players::{ABNET_KIND, NET_KIND, NetworkEvaluator, PolicyAgent, load_fanorona_net};

/// The versioned 9x5 test set (`data/exam-9x5.txt`), built in.
const SET_9X5: &str = include_str!("../../data/exam-9x5.txt");

/// The built-in 9x5 test set, read once.
fn builtin_set() -> &'static TestSet {
    static SET: OnceLock<TestSet> = OnceLock::new();
    SET.get_or_init(|| TestSet::parse(SET_9X5).expect("the built-in 9x5 test set parses"))
}

/// A network's figures on the built-in 9x5 test set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetScores {
    /// The value head's mean absolute error against the labels' values.
    pub value_error: f64,
    /// The share of positions where the raw policy (the legal action of highest logit, step
    /// after step) plays the label's best turn.
    pub agreement: f64,
}

/// `net` on the built-in 9x5 test set (3000 positions labelled by a depth-6 search): its
/// value head's mean error and its raw policy's best-turn agreement. `None` for a network of
/// another board. Seeded, so the same network gives the same figures.
pub fn builtin_set_exam(net: &PolicyValueNet) -> Result<Option<SetScores>, String> {
    let set = builtin_set();
    if !net
        .config()
        .fits(&Fanorona::new(Position::initial(Board::standard())))
    {
        return Ok(None);
    }
    let positions: Vec<Position> = set.positions.iter().map(|p| p.position).collect();
    let values = value_head(net, &positions)?;
    let mut error = ValueError::default();
    for (labelled, value) in set.positions.iter().zip(values) {
        error.add(value, labelled.value);
    }
    let raw_policy = |_seed| -> Built {
        Ok(Box::new(PolicyAgent::new(
            NetworkEvaluator::<Fanorona>::new(net),
            "network".into(),
        )))
    };
    let report = examine_set(&raw_policy, set, None, 0, &ProgressBar::hidden())
        .map_err(|e| e.to_string())?;
    Ok(Some(SetScores {
        value_error: error.mean_error().unwrap_or(f64::NAN),
        agreement: report.agreement().unwrap_or(f64::NAN),
    }))
}

/// Positions evaluated in one call.
const BATCH: usize = 256;

/// The network of a `net` or `abnet` specification (checked by `registry`); `None` for the
/// kinds without a network.
pub fn network_of(
    registry: &Registry,
    spec: &AgentSpec,
) -> Result<Option<PolicyValueNet>, SpecError> {
    if spec.kind != NET_KIND.name && spec.kind != ABNET_KIND.name {
        return Ok(None);
    }
    let options = registry.options(spec)?;
    Ok(Some(load_fanorona_net(&options)?.0))
}

/// The value head's output for each of `positions` (for its side to move, in `[-1, 1]`).
/// An error if the network was not made for their board.
pub fn value_head(net: &PolicyValueNet, positions: &[Position]) -> Result<Vec<f32>, String> {
    let states: Vec<Fanorona> = positions.iter().copied().map(Fanorona::new).collect();
    let Some(first) = states.first() else {
        return Ok(Vec::new());
    };
    let config = net.config();
    if !config.fits(first) {
        let board = first.board();
        return Err(format!(
            "the network ({} planes x {} x {}, {} actions) was not made for the {}x{} board",
            config.planes,
            config.height,
            config.width,
            config.num_actions,
            board.width(),
            board.height()
        ));
    }
    let mut evaluator = NetworkEvaluator::<Fanorona>::new(net);
    let mut policy = vec![0.0; BATCH * first.num_actions()];
    let mut values = vec![0.0; states.len()];
    for (chunk, out) in states.chunks(BATCH).zip(values.chunks_mut(BATCH)) {
        evaluator.evaluate(chunk, &mut policy, out);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Architecture, NetworkConfig};
    use crate::players::registry;
    use burn::tensor::Device;
    use fanorona_env::Board;

    #[test]
    fn values_are_the_evaluators_and_other_boards_are_refused() {
        let board = Board::new(5, 3).unwrap();
        let game = Fanorona::new(Position::initial(board));
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[16]));
        let net = config.init_seeded(&Device::flex(), 3).unwrap();
        let start = Position::initial(board);
        let mut after = start;
        after.play_turn_unchecked(&start.legal_turns()[0]);
        let values = value_head(&net, &[start, after]).unwrap();
        assert_eq!(values.len(), 2);
        let mut evaluator = NetworkEvaluator::<Fanorona>::new(&net);
        let mut policy = vec![0.0; game.num_actions()];
        let mut one = [0.0];
        evaluator.evaluate(&[Fanorona::new(after)], &mut policy, &mut one);
        assert_eq!(values[1], one[0]);
        assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
        let e = value_head(&net, &[Position::standard()]).unwrap_err();
        assert!(e.contains("not made for the 9x5 board"), "{e}");
    }

    #[test]
    fn the_builtin_set_exam_scores_a_9x5_network_and_skips_others() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[8]));
        let net = config.init_seeded(&Device::flex(), 3).unwrap();
        let scores = builtin_set_exam(&net).unwrap().unwrap();
        assert!(
            scores.value_error > 0.0 && scores.value_error < 2.0,
            "{scores:?}"
        );
        assert!((0.0..=1.0).contains(&scores.agreement), "{scores:?}");
        // Seeded: the same network, the same figures.
        assert_eq!(builtin_set_exam(&net).unwrap(), Some(scores));
        let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let other = NetworkConfig::for_game(&small, Architecture::mlp(&[8]));
        let net = other.init_seeded(&Device::flex(), 3).unwrap();
        assert_eq!(builtin_set_exam(&net).unwrap(), None);
    }

    #[test]
    fn only_network_kinds_have_a_network() {
        let registry = registry();
        let spec = registry.parse("minimax:depth=2").unwrap();
        assert!(network_of(&registry, &spec).unwrap().is_none());
        let spec = registry
            .parse("net:path=/nonexistent/model.safetensors")
            .unwrap();
        assert!(matches!(
            network_of(&registry, &spec),
            Err(SpecError::Unavailable { .. })
        ));
    }
}
