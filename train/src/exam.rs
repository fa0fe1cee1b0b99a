//! The value head of a network agent, for the exams of `fanorona_eval::exam`: the network a
//! `net` or `abnet` specification names, and its values of positions (for the side to move,
//! in `[-1, 1]`), to be scored against solved values or a test set's labels.

use fanorona_env::{AgentSpec, Fanorona, Game, Position, Registry, SpecError};
use fanorona_search::Evaluator;

use crate::model::PolicyValueNet;
use crate::players::{ABNET_KIND, NET_KIND, NetworkEvaluator, load_fanorona_net};

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
