//! The value head of a network agent, for the exams of `fanorona_eval::exam`: the network a
//! `net` or `abnet` specification names, and its values of positions (for the side to move,
//! as win/draw/loss probabilities), to be scored against solved or proven values or a test
//! set's labels; and a training run's exam of its network on the exact set of its board built
//! into the binary, 9x5 or 5x5 ([`builtin_exact_exam`]).

use std::ops::RangeInclusive;
use std::sync::OnceLock;

use fanorona_env::{AgentSpec, Board, Fanorona, Game, Position, Registry, SpecError, Wdl};
use fanorona_eval::Built;
use fanorona_eval::exam::{ExactSet, KeepTally, examine_exact};
use fanorona_util::progress::ProgressBar;

use crate::model::PolicyValueNet;
use crate::players::{
    ABNET_KIND, NET_KIND, NetworkEvaluator, PolicyAgent, board_spec, load_fanorona_net,
};

/// An exact set built into the binary: its board, its text and its three phases by pieces on
/// the board (fewest first).
pub struct BuiltinExactSet {
    /// Board width and height.
    pub board: (usize, usize),
    /// The versioned set file's text.
    text: &'static str,
    /// The three bands of piece counts the exam reports apart.
    pub phases: [RangeInclusive<u32>; 3],
    /// The set, parsed at its first use.
    parsed: OnceLock<ExactSet>,
}

/// The built-in exact sets: `data/exam-9x5-exact.txt` and `data/exam-5x5-exact.txt`.
pub static BUILTIN_EXACT_SETS: [BuiltinExactSet; 2] = [
    BuiltinExactSet {
        board: (9, 5),
        text: include_str!("../../data/exam-9x5-exact.txt"),
        phases: [8..=10, 11..=13, 14..=16],
        parsed: OnceLock::new(),
    },
    BuiltinExactSet {
        board: (5, 5),
        text: include_str!("../../data/exam-5x5-exact.txt"),
        phases: [9..=12, 13..=16, 17..=24],
        parsed: OnceLock::new(),
    },
];

impl BuiltinExactSet {
    /// The built-in set of a `width` x `height` board, if there is one.
    pub fn of_board(width: usize, height: usize) -> Option<&'static BuiltinExactSet> {
        BUILTIN_EXACT_SETS
            .iter()
            .find(|s| s.board == (width, height))
    }

    /// The set, read once.
    pub fn set(&self) -> &ExactSet {
        self.parsed
            .get_or_init(|| ExactSet::parse(self.text).expect("a built-in exact set parses"))
    }
}

/// The hard 9x5 set (`data/exam-9x5-hard.txt`: critical positions only), a test set too.
const HARD_9X5: &str = include_str!("../../data/exam-9x5-hard.txt");

/// The positions of every exact set built into the binary for a `width` x `height` board
/// (the exam's set and, on 9x5, the hard set): test sets, which no training path may learn.
pub fn test_positions(width: usize, height: usize) -> Vec<Position> {
    let mut positions: Vec<Position> = BuiltinExactSet::of_board(width, height)
        .map(|b| b.set().positions.iter().map(|p| p.position).collect())
        .unwrap_or_default();
    if (width, height) == (9, 5) {
        let hard = ExactSet::parse(HARD_9X5).expect("the built-in hard set parses");
        positions.extend(hard.positions.iter().map(|p| p.position));
    }
    positions
}

/// A network's figures on the built-in exact set of its board.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExactScores {
    /// Of the won and drawn positions, the share where the raw policy keeps the proven value.
    pub keeps: f64,
    /// The same in each of the set's three phases ([`BuiltinExactSet::phases`], fewest pieces
    /// first; `None` for a band without such positions).
    pub keeps_by_phase: [Option<f64>; 3],
    /// The same over the critical positions only, where some legal turn spoils the value
    /// (`None` for a set without them).
    pub keeps_critical: Option<f64>,
    /// The share of positions whose proven value (win, draw, loss) the value head gets right
    /// (its most likely class; for a scalar head the nearest of +1, 0, -1).
    pub value_accuracy: f64,
    /// The value head's mean Brier score against the proven values (0 is perfect; see
    /// [`fanorona_eval::exam::ValueScore::brier`]).
    pub value_brier: f64,
}

/// `net` on the built-in exact set of its board (9x5: positions of 8 to 16 pieces; 5x5: 9 to
/// 22; from strong agents' games, each with its proven value and the turns that keep it):
/// where its raw policy (the legal action of highest logit, step after step) keeps the value,
/// overall and by phase, and its value head's accuracy and calibration. `None` for a network
/// of a board without a built-in set. Deterministic.
pub fn builtin_exact_exam(net: &PolicyValueNet) -> Result<Option<ExactScores>, String> {
    let config = net.config();
    let Some(builtin) = BuiltinExactSet::of_board(config.width, config.height) else {
        return Ok(None);
    };
    let board = Board::new(builtin.board.0, builtin.board.1).expect("a built-in set's board");
    if !config.fits(&Fanorona::new(Position::initial(board))) {
        return Ok(None);
    }
    exact_scores(net, builtin.set(), &builtin.phases).map(Some)
}

/// `net`'s raw policy and value head on the exact set `set` (of the network's board), with
/// the policy's share also by the three bands of piece counts `phases`. Deterministic.
pub fn exact_scores(
    net: &PolicyValueNet,
    set: &ExactSet,
    phases: &[RangeInclusive<u32>; 3],
) -> Result<ExactScores, String> {
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
    let keeps_by_phase = phases.clone().map(|phase| {
        let mut tally = KeepTally::default();
        for (_, t) in report.by_pieces.range(phase) {
            tally.merge(t);
        }
        tally.keeps_value()
    });
    Ok(ExactScores {
        keeps: report.all.keeps_value().unwrap_or(f64::NAN),
        keeps_by_phase,
        keeps_critical: report.critical.keeps_value(),
        value_accuracy: report
            .value_head
            .as_ref()
            .and_then(|v| v.accuracy())
            .unwrap_or(f64::NAN),
        value_brier: report
            .value_head
            .as_ref()
            .and_then(|v| v.brier())
            .unwrap_or(f64::NAN),
    })
}

/// Positions evaluated in one call.
const BATCH: usize = 256;

/// The network a `net` or `abnet` specification (checked by `registry`) plays on `board`
/// (a shipped model of the board's own where it names no file nor model); `None` for the
/// kinds without a network.
pub fn network_of(
    registry: &Registry,
    spec: &AgentSpec,
    board: &Board,
) -> Result<Option<PolicyValueNet>, SpecError> {
    if spec.kind != NET_KIND.name && spec.kind != ABNET_KIND.name {
        return Ok(None);
    }
    let spec = board_spec(spec, board);
    let options = registry.options(&spec)?;
    Ok(Some(load_fanorona_net(&options)?.0))
}

/// The value head's win/draw/loss probabilities for each of `positions` (for its side to
/// move; a scalar head's value `v` read as [`Wdl::from_value`]). An error if the network was
/// not made for their board.
pub fn value_head(net: &PolicyValueNet, positions: &[Position]) -> Result<Vec<Wdl>, String> {
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
    let len = config.observation_len();
    let mut observations = vec![0.0; BATCH * len];
    let mut policy = vec![0.0; BATCH * first.num_actions()];
    let mut values = vec![Wdl::default(); states.len()];
    for (chunk, out) in states.chunks(BATCH).zip(values.chunks_mut(BATCH)) {
        for (state, obs) in chunk.iter().zip(observations.chunks_exact_mut(len)) {
            state.write_observation(obs);
        }
        net.infer_wdl(&observations[..chunk.len() * len], &mut policy, out);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig, ValueHead};
    use crate::players::registry;
    use burn::tensor::Device;
    use fanorona_env::Board;
    use fanorona_search::Evaluator;

    #[test]
    fn the_test_positions_hold_every_built_in_set_of_the_board() {
        let hard = ExactSet::parse(HARD_9X5).unwrap();
        assert_eq!(hard.positions.len(), 500);
        assert!(hard.positions.iter().all(|p| p.is_critical()));
        let nine = test_positions(9, 5);
        let exact = BuiltinExactSet::of_board(9, 5).unwrap().set();
        assert_eq!(nine.len(), exact.positions.len() + hard.positions.len());
        assert!(hard.positions.iter().all(|p| nine.contains(&p.position)));
        assert_eq!(test_positions(5, 5).len(), 1_100);
        assert!(test_positions(7, 3).is_empty());
    }

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
        assert!((values[1].value() - one[0]).abs() < 1e-6);
        assert_eq!(values[1], Wdl::from_value(values[1].value()));
        assert!(values.iter().all(|v| (-1.0..=1.0).contains(&v.value())));
        let e = value_head(&net, &[Position::standard()]).unwrap_err();
        assert!(e.contains("not made for the 9x5 board"), "{e}");
    }

    #[test]
    fn the_builtin_exact_exam_scores_9x5_and_5x5_networks_and_skips_others() {
        for (board, value_head) in [((9, 5), ValueHead::Scalar), ((5, 5), ValueHead::Wdl)] {
            let game = Fanorona::new(Position::initial(Board::new(board.0, board.1).unwrap()));
            let config =
                NetworkConfig::for_game(&game, Architecture::mlp(&[8])).with_value_head(value_head);
            let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 3).unwrap();
            check_builtin_exam(&net);
        }
        let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let other = NetworkConfig::for_game(&small, Architecture::mlp(&[8]));
        let net = PolicyValueNet::init_seeded(&other, &Device::flex(), 3).unwrap();
        assert_eq!(builtin_exact_exam(&net).unwrap(), None);
    }

    fn check_builtin_exam(net: &PolicyValueNet) {
        let scores = builtin_exact_exam(net).unwrap().unwrap();
        assert!((0.0..=2.0).contains(&scores.value_brier), "{scores:?}");
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
        assert_eq!(builtin_exact_exam(net).unwrap(), Some(scores));
    }

    #[test]
    fn only_network_kinds_have_a_network_and_a_board_may_have_its_own() {
        let registry = registry();
        let (nine, five) = (Board::standard(), Board::new(5, 5).unwrap());
        let spec = registry.parse("minimax:depth=2").unwrap();
        assert!(network_of(&registry, &spec, nine).unwrap().is_none());
        let spec = registry
            .parse("net:path=/nonexistent/model.safetensors")
            .unwrap();
        assert!(matches!(
            network_of(&registry, &spec, nine),
            Err(SpecError::Unavailable { .. })
        ));
        // `abnet` alone plays the student on 9x5 and the 5x5 model on 5x5; a named model is
        // the one played anywhere.
        let made_for = |text: &str, board| {
            let spec = registry.parse(text).unwrap();
            let net = network_of(&registry, &spec, board).unwrap().unwrap();
            (net.config().width, net.config().height)
        };
        assert_eq!(made_for("abnet", nine), (9, 5));
        assert_eq!(made_for("abnet", five), (5, 5));
        assert_eq!(made_for("abnet:model=teacher", five), (9, 5));
    }
}
