//! The value head of a network agent, for the exams of `fanorona_eval::exam`: the network a
//! `net` or `abnet` specification names, and its values of positions (for the side to move,
//! in `[-1, 1]`), to be scored against solved or proven values or a test set's labels; and a
//! training run's exam of its network on the exact 9x5 set built into the binary
//! ([`builtin_exact_exam`]).

use std::ops::RangeInclusive;
use std::sync::OnceLock;

use fanorona_env::{AgentSpec, Board, Fanorona, Game, Position, Registry, SpecError};
use fanorona_eval::Built;
use fanorona_eval::exam::{ExactSet, KeepTally, examine_exact};
use fanorona_search::Evaluator;
use fanorona_util::progress::ProgressBar;

use crate::model::PolicyValueNet;
use crate::players::{ABNET_KIND, NET_KIND, NetworkEvaluator, PolicyAgent, load_fanorona_net};

/// The versioned exact 9x5 set (`data/exam-9x5-exact.txt`), built in.
const EXACT_9X5: &str = include_str!("../../data/exam-9x5-exact.txt");

/// The built-in exact 9x5 set, read once.
fn builtin_set() -> &'static ExactSet {
    static SET: OnceLock<ExactSet> = OnceLock::new();
    SET.get_or_init(|| ExactSet::parse(EXACT_9X5).expect("the built-in exact 9x5 set parses"))
}

/// The phases of the built-in exact set by pieces on the board: its three bands.
pub const EXACT_PHASES: [RangeInclusive<u32>; 3] = [8..=10, 11..=13, 14..=16];

/// A network's figures on the built-in exact 9x5 set.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactScores {
    /// Of the won and drawn positions, the share where the raw policy keeps the proven value.
    pub keeps: f64,
    /// The same in each of [`EXACT_PHASES`] (`None` for a band without such positions).
    pub keeps_by_phase: [Option<f64>; 3],
    /// The share of positions whose proven value (win, draw, loss) the value head gets right
    /// (the nearest of +1, 0, -1).
    pub value_accuracy: f64,
}

/// `net` on the built-in exact 9x5 set (positions of 8 to 16 pieces from strong agents'
/// games, each with its proven value and the turns that keep it): where its raw policy (the
/// legal action of highest logit, step after step) keeps the value, overall and by phase,
/// and its value head's accuracy. `None` for a network of another board. Deterministic.
pub fn builtin_exact_exam(net: &PolicyValueNet) -> Result<Option<ExactScores>, String> {
    let set = builtin_set();
    if !net
        .config()
        .fits(&Fanorona::new(Position::initial(Board::standard())))
    {
        return Ok(None);
    }
    let raw_policy = |_seed| -> Built {
        Ok(Box::new(PolicyAgent::new(
            NetworkEvaluator::<Fanorona>::new(net),
            "network".into(),
        )))
    };
    let mut report =
        examine_exact(&raw_policy, set, 0, &ProgressBar::hidden()).map_err(|e| e.to_string())?;
    let positions: Vec<Position> = set.positions.iter().map(|p| p.position).collect();
    report.score_values(set, &value_head(net, &positions)?);
    let keeps_by_phase = EXACT_PHASES.map(|phase| {
        let mut tally = KeepTally::default();
        for (_, t) in report.by_pieces.range(phase) {
            tally.merge(t);
        }
        tally.keeps_value()
    });
    Ok(Some(ExactScores {
        keeps: report.all.keeps_value().unwrap_or(f64::NAN),
        keeps_by_phase,
        value_accuracy: report
            .value_head
            .and_then(|v| v.accuracy())
            .unwrap_or(f64::NAN),
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
    use crate::config::{Architecture, NetworkConfig};
    use crate::players::registry;
    use burn::tensor::Device;
    use fanorona_env::Board;

    #[test]
    fn values_are_the_evaluators_and_other_boards_are_refused() {
        let board = Board::new(5, 3).unwrap();
        let game = Fanorona::new(Position::initial(board));
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[16]));
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 3).unwrap();
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
    fn the_builtin_exact_exam_scores_a_9x5_network_and_skips_others() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[8]));
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 3).unwrap();
        let scores = builtin_exact_exam(&net).unwrap().unwrap();
        for share in [scores.keeps, scores.value_accuracy]
            .into_iter()
            .chain(scores.keeps_by_phase.into_iter().flatten())
        {
            assert!((0.0..=1.0).contains(&share), "{scores:?}");
        }
        // An untrained network does not keep every value.
        assert!(scores.keeps < 1.0, "{scores:?}");
        // Every band of the set has won or drawn positions.
        assert!(
            scores.keeps_by_phase.iter().all(Option::is_some),
            "{scores:?}"
        );
        // Deterministic: the same network, the same figures.
        assert_eq!(builtin_exact_exam(&net).unwrap(), Some(scores));
        let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let other = NetworkConfig::for_game(&small, Architecture::mlp(&[8]));
        let net = PolicyValueNet::init_seeded(&other, &Device::flex(), 3).unwrap();
        assert_eq!(builtin_exact_exam(&net).unwrap(), None);
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
