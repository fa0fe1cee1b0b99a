//! The `abnet` agent kind (over the shipped student unless `path=FILE` or `model=` names
//! another network): the minimax baseline's alpha-beta search (iterative deepening,
//! transposition table, quiescence over the compulsory captures) with a trained MLP's value
//! at its leaves in place of the hand-made evaluation, as NNUE engines put a network inside
//! an alpha-beta. [`NetValue`] is that evaluation: the position's observation planes through
//! [`MlpValue`] (no policy head; later layers in 8-bit integers).

use fanorona_env::observation::{NUM_PLANES, Plane, observation_planes};
use fanorona_env::{
    Agent, AgentKind, AgentOptions, Fanorona, OptionDef, OptionDefault, Position, SpecError,
    ValueType,
};
use fanorona_eval::TurnAgent;
use fanorona_eval::minimax::score_of_logit;
use fanorona_eval::minimax::{StaticEvaluation, evaluate};
use fanorona_eval::{
    AB_DEPTH, AB_HASH, AB_LMR, AB_MS, AB_NODES, AB_TABLES, AB_UNFINISHED, alpha_beta_chooser,
};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::model::{MlpInference, MlpValue, MlpValueScratch};
use crate::players::NetAgent;
use crate::players::board_model::with_board_models;
use crate::players::net_kind::{MODEL, PATH, WEIGHTS, load_fanorona_net};

/// Entries of a [`NetValue`]'s cache (a power of two).
const CACHE_ENTRIES: usize = 1 << 16;

/// A position's value by an MLP, in hundredths of a piece on the minimax scale
/// ([`score_of_logit`] of the value head's output). Values are remembered in a direct-mapped
/// cache, since a search meets the same leaf by many move orders.
#[derive(Clone, Debug)]
pub struct NetValue {
    mlp: MlpValue,
    scratch: MlpValueScratch,
    /// Entries indexed by the key's low bits, each the key's high 32 bits (never 0; 0 marks
    /// an empty entry) over the score's 32: eight bytes, so that more fit in the caches.
    cache: Vec<u64>,
    /// Weight of the hand-made evaluation added to the network's score.
    handcrafted: f32,
}

impl NetValue {
    /// The evaluation by `mlp` of positions that follow from `start`, plus `handcrafted`
    /// times the hand-made evaluation.
    pub fn new(mlp: &MlpInference, start: &Position, handcrafted: f32) -> NetValue {
        NetValue {
            mlp: MlpValue::new(mlp, &sample_planes(start)),
            scratch: MlpValueScratch::default(),
            cache: vec![0; CACHE_ENTRIES],
            handcrafted,
        }
    }

    /// The network's score of `pos`, without the cache.
    fn compute(&mut self, pos: &Position) -> i32 {
        // A turn start met once: the search scores repetitions as draws before asking.
        let logit = self
            .mlp
            .logit(&mut self.scratch, &observation_planes(pos, 1));
        let score = score_of_logit(logit);
        if self.handcrafted == 0.0 {
            return score;
        }
        score + (self.handcrafted * evaluate(pos) as f32).round() as i32
    }
}

/// Positions [`MlpValue`] orders its units by.
const SAMPLES: usize = 256;

/// The observation planes of [`SAMPLES`] turn starts of games from `start` played at random
/// (seeded): what [`MlpValue::new`] orders its units by.
pub fn sample_planes(start: &Position) -> Vec<[Plane; NUM_PLANES]> {
    let mut rng = StdRng::seed_from_u64(0);
    let mut samples = Vec::with_capacity(SAMPLES);
    let mut pos = *start;
    while samples.len() < SAMPLES {
        let turns = pos.legal_turns();
        if turns.is_empty() || pos.pieces(pos.side_to_move().other()) == 0 {
            if samples.is_empty() {
                break; // a start without a game: no samples, no order
            }
            pos = *start;
            continue;
        }
        samples.push(observation_planes(&pos, 1));
        pos.play_turn_unchecked(&turns[rng.random_range(0..turns.len())]);
    }
    samples
}

/// The cache key of `pos`: its Zobrist key (pieces, side to move) with the no-capture
/// counter, which the network sees too.
fn cache_key(pos: &Position) -> u64 {
    let counter = u64::from(pos.no_capture_turns()) + 1;
    pos.key() ^ counter.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl StaticEvaluation for NetValue {
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = cache_key(pos);
        let slot = key as usize & (CACHE_ENTRIES - 1);
        let check = (key >> 32).max(1);
        let entry = self.cache[slot];
        if entry >> 32 == check {
            return entry as u32 as i32;
        }
        let score = self.compute(pos);
        self.cache[slot] = check << 32 | u64::from(score as u32);
        score
    }
}

/// The `abnet` kind.
pub const ABNET_KIND: AgentKind = AgentKind {
    name: "abnet",
    summary: "alpha-beta search over complete turns with a trained MLP's value at its leaves",
    options: &[
        PATH,
        OptionDef {
            default: OptionDefault::Value("student"),
            ..MODEL
        },
        WEIGHTS,
        AB_DEPTH,
        AB_MS,
        AB_NODES,
        AB_HASH,
        AB_TABLES,
        OptionDef {
            default: OptionDefault::Flag(true),
            ..AB_LMR
        },
        AB_UNFINISHED,
        OptionDef {
            name: "material",
            value: ValueType::Real {
                min: 0.0,
                max: 10.0,
            },
            default: OptionDefault::Value("0"),
            help: "weight of the hand-made evaluation (material, strong points, mobility) \
                   added to the network's",
        },
        OptionDef::SEED,
    ],
    path_extensions: &[],
    factory: create_abnet_agent,
};

/// The factory of [`ABNET_KIND`].
fn create_abnet_agent(
    options: &AgentOptions,
    seed: u64,
) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    let spec = options.spec();
    let (net, meta) = load_fanorona_net(options)?;
    let mlp = net.mlp_inference().ok_or_else(|| SpecError::Unavailable {
        spec: spec.to_string(),
        reason: "its network is not an MLP, and abnet evaluates MLPs only (net: plays the \
                 others)"
            .into(),
    })?;
    let value = NetValue::new(
        &mlp,
        &Position::initial(meta.game.board()),
        options.real("material").expect("material has a default") as f32,
    );
    let chooser = alpha_beta_chooser(options, seed, value)?;
    let agent = Box::new(NetAgent::new(
        Box::new(TurnAgent::new(chooser)),
        net.config().clone(),
        meta.game,
    ));
    Ok(with_board_models(options, seed, agent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig};
    use crate::model::PolicyValueNet;
    use crate::players::net_kind::tests::exported_with;
    use burn::tensor::Device;
    use fanorona_env::observation::write_observation;
    use fanorona_env::{Game, History};
    use fanorona_eval::minimax::score_of_value;

    /// Turn-start positions of a seeded random game.
    fn positions() -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(4);
        let mut history = History::new(Position::standard());
        let mut out = Vec::new();
        while history.outcome().is_none() && out.len() < 40 {
            out.push(*history.position());
            let turns = history.position().legal_turns();
            history.play_unchecked(&turns[rng.random_range(0..turns.len())]);
        }
        out
    }

    #[test]
    fn net_value_is_the_networks_value_on_the_minimax_scale_and_cached() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[32, 16]));
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 9).unwrap();
        let mut net_value =
            NetValue::new(&net.mlp_inference().unwrap(), &Position::standard(), 0.0);
        let mut observation = vec![0.0; config.observation_len()];
        let mut logits = vec![0.0; config.num_actions];
        let mut scores = Vec::new();
        for pos in positions() {
            let mut value = [0.0];
            write_observation(&pos, 1, &mut observation);
            net.infer(&observation, &mut logits, &mut value);
            let score = net_value.evaluate(&pos);
            // Burn's dense pass and the quantized one agree within 3 hundredths of a piece.
            assert!(
                (score - score_of_value(value[0])).abs() <= 3,
                "{score} {value:?}"
            );
            // From the cache: the same.
            assert_eq!(net_value.evaluate(&pos), score);
            scores.push(score);
        }
        assert!(scores.iter().any(|&s| s != scores[0]), "{scores:?}");
        // The no-capture counter is part of what the network sees, and of the cache key.
        let early = Position::from_fen("8B/9/9/9/WW7 w 0 1").unwrap();
        let late = Position::from_fen("8B/9/9/9/WW7 w 60 1").unwrap();
        assert_ne!(cache_key(&early), cache_key(&late));
        let fresh = |pos: &Position| {
            NetValue::new(&net.mlp_inference().unwrap(), &Position::standard(), 0.0).compute(pos)
        };
        assert_eq!(net_value.evaluate(&early), fresh(&early));
        assert_eq!(net_value.evaluate(&late), fresh(&late));
        // material=W adds W times the hand-made evaluation.
        let mut mixed = NetValue::new(&net.mlp_inference().unwrap(), &Position::standard(), 0.5);
        for pos in &positions()[..10] {
            let handcrafted = (0.5 * evaluate(pos) as f32).round() as i32;
            assert_eq!(mixed.evaluate(pos), fresh(pos) + handcrafted);
        }
    }

    #[test]
    fn samples_are_seeded_random_game_positions_from_the_start() {
        let start = Position::standard();
        let samples = sample_planes(&start);
        assert_eq!(samples.len(), SAMPLES);
        assert_eq!(samples[0], observation_planes(&start, 1));
        assert_eq!(samples, sample_planes(&start));
        let distinct = samples.iter().filter(|&p| p != &samples[0]).count();
        assert!(distinct > SAMPLES / 2, "{distinct}");
    }

    #[test]
    fn abnet_agents_search_legally_and_refuse_networks_other_than_mlps() {
        let registry = crate::players::registry();
        let create = |text: &str| registry.create(&registry.parse(text)?, 0);
        let (path, _) = exported_with("abnet", Architecture::mlp(&[16]));
        let game = Fanorona::standard();
        for options in [
            "depth=2",
            "ms=20",
            "ms=20,unfinished=false",
            "nodes=500,seed=2",
            "depth=1,material=0.5",
        ] {
            let spec = format!("abnet:path={},{options}", path.display());
            let mut agent = create(&spec).unwrap();
            assert_eq!(agent.name(), spec);
            assert!(game.is_legal(agent.act(&game).unwrap()));
            assert!(agent.last_info().unwrap().nodes > 0);
        }
        // Late-move reductions are on by default: a fixed-depth search of a quiet position
        // is the one of lmr=true, and it visits fewer nodes than with lmr=false.
        let fen = "BBB3BBB/9/9/9/WWW3WWW w";
        let quiet = Fanorona::new(Position::from_fen(fen).unwrap());
        let nodes = |options: &str| {
            let spec = format!("abnet:path={},depth=5{options}", path.display());
            let mut agent = create(&spec).unwrap();
            agent.act(&quiet).unwrap();
            agent.last_info().unwrap().nodes
        };
        let (default, reduced, full) = (nodes(""), nodes(",lmr=true"), nodes(",lmr=false"));
        assert_eq!(default, reduced);
        assert!(
            reduced < full,
            "{reduced} nodes with reductions, {full} without"
        );
        // With unfinished iterations a search under a time limit spends all of it (without
        // them, none starts after half the time).
        let spec = format!("abnet:path={},ms=20,unfinished=true", path.display());
        let mut timed = create(&spec).unwrap();
        timed.act(&quiet).unwrap();
        let spent = timed.last_info().unwrap().time;
        assert!(spent >= std::time::Duration::from_millis(20), "{spent:?}");
        let err = create(&format!("abnet:path={},sims=4", path.display()))
            .err()
            .unwrap();
        assert!(matches!(err, SpecError::UnknownOption { .. }), "{err}");
        let (resnet, _) = exported_with("abnet-resnet", Architecture::resnet(1, 4));
        let err = create(&format!("abnet:path={}", resnet.display()))
            .err()
            .unwrap();
        assert!(matches!(err, SpecError::Unavailable { .. }), "{err}");
        assert!(err.to_string().contains("MLPs only"), "{err}");
        for file in [path, resnet] {
            std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
        }
    }

    #[test]
    fn abnet_alone_plays_the_shipped_student_and_model_names_another() {
        let registry = crate::players::registry();
        let game = Fanorona::standard();
        for (spec, network) in [
            ("abnet:depth=2", "mlp 64-32"),
            ("abnet:depth=1,model=teacher", "mlp 256-256"),
        ] {
            let parsed = registry.parse(spec).unwrap();
            let mut agent = registry.create(&parsed, 0).unwrap();
            assert_eq!(agent.name(), spec);
            assert!(game.is_legal(agent.act(&game).unwrap()), "{spec}");
            let (net, _) = load_fanorona_net(&registry.options(&parsed).unwrap()).unwrap();
            assert_eq!(net.config().architecture.describe(), network, "{spec}");
        }
        let bare = registry
            .create(&registry.parse("abnet").unwrap(), 0)
            .unwrap();
        assert_eq!(bare.name(), "abnet");
    }
}
