//! The `abnet` agent kind: the minimax baseline's alpha-beta search (iterative deepening,
//! transposition table, quiescence over the compulsory captures) with a trained MLP's value
//! at its leaves in place of the hand-made evaluation, as NNUE engines put a network inside
//! an alpha-beta. [`NetValue`] is that evaluation: the position's observation through
//! [`MlpInference`], no policy logits computed.

use fanorona_env::fanorona::observation::{NUM_PLANES, write_observation};
use fanorona_env::registry::{OptionDefault, SEED, ValueType};
use fanorona_env::{Agent, AgentKind, AgentOptions, Fanorona, OptionDef, Position, SpecError};
use fanorona_eval::kinds::{AB_DEPTH, AB_HASH, AB_MS, AB_NODES, minimax_limits};
use fanorona_eval::minimax::evaluate::{StaticEvaluation, evaluate};
use fanorona_eval::minimax::player::score_of_value;
use fanorona_eval::{MinimaxChooser, TurnAgent};

use crate::model::{MlpInference, MlpScratch};
use crate::players::NetAgent;
use crate::players::net_kind::{PATH, WEIGHTS, load_fanorona_net};

/// Entries of a [`NetValue`]'s cache (a power of two).
const CACHE_ENTRIES: usize = 1 << 18;

/// A position's value by an MLP, in hundredths of a piece on the minimax scale
/// ([`score_of_value`]). Values are remembered in a direct-mapped cache, since a search meets
/// the same leaf by many move orders.
#[derive(Clone, Debug)]
pub struct NetValue {
    mlp: MlpInference,
    scratch: MlpScratch,
    observation: Vec<f32>,
    /// (key, score) pairs, indexed by the key's low bits; key 0 marks an empty entry.
    cache: Vec<(u64, i32)>,
    /// Weight of the hand-made evaluation added to the network's score.
    handcrafted: f32,
}

impl NetValue {
    /// The evaluation by `mlp`, plus `handcrafted` times the hand-made evaluation.
    pub fn new(mlp: MlpInference, handcrafted: f32) -> NetValue {
        NetValue {
            mlp,
            scratch: MlpScratch::default(),
            observation: Vec::new(),
            cache: vec![(0, 0); CACHE_ENTRIES],
            handcrafted,
        }
    }

    /// The network's score of `pos`, without the cache.
    fn compute(&mut self, pos: &Position) -> i32 {
        self.observation
            .resize(NUM_PLANES * pos.board().points(), 0.0);
        // A turn start met once: the search scores repetitions as draws before asking.
        write_observation(pos, 1, &mut self.observation);
        let value = self
            .mlp
            .evaluate(&mut self.scratch, &self.observation, &[], &mut []);
        score_of_value(value) + (self.handcrafted * evaluate(pos) as f32).round() as i32
    }
}

/// The cache key of `pos`: its Zobrist key (pieces, side to move) with the no-capture
/// counter, which the network sees too; never 0.
fn cache_key(pos: &Position) -> u64 {
    let counter = u64::from(pos.no_capture_turns()) + 1;
    (pos.key() ^ counter.wrapping_mul(0x9E37_79B9_7F4A_7C15)).max(1)
}

impl StaticEvaluation for NetValue {
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = cache_key(pos);
        let slot = key as usize & (CACHE_ENTRIES - 1);
        let (stored, score) = self.cache[slot];
        if stored == key {
            return score;
        }
        let score = self.compute(pos);
        self.cache[slot] = (key, score);
        score
    }
}

/// The `abnet` kind.
pub const ABNET_KIND: AgentKind = AgentKind {
    name: "abnet",
    summary: "alpha-beta search over complete turns with a trained MLP's value at its leaves",
    options: &[
        PATH,
        WEIGHTS,
        AB_DEPTH,
        AB_MS,
        AB_NODES,
        AB_HASH,
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
        SEED,
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
    let chooser = MinimaxChooser::with_evaluation(
        spec.to_string(),
        minimax_limits(options),
        options.whole("hash").expect("hash has a default"),
        options.seed_or(seed),
        NetValue::new(
            mlp,
            options.real("material").expect("material has a default") as f32,
        ),
    );
    Ok(Box::new(NetAgent::new(
        Box::new(TurnAgent::new(chooser)),
        net.config().clone(),
        meta.game.to_string(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Architecture, NetworkConfig};
    use crate::players::net_kind::tests::exported_with;
    use burn::tensor::Device;
    use fanorona_env::{Game, History};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

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
        let net = config.init_seeded(&Device::flex(), 9).unwrap();
        let mut net_value = NetValue::new(net.mlp_inference().unwrap(), 0.0);
        let mut observation = vec![0.0; config.observation_len()];
        let mut logits = vec![0.0; config.num_actions];
        let mut scores = Vec::new();
        for pos in positions() {
            let mut value = [0.0];
            write_observation(&pos, 1, &mut observation);
            net.infer(&observation, &mut logits, &mut value);
            let score = net_value.evaluate(&pos);
            // Burn's dense pass and the sparse one agree up to rounding.
            assert!(
                (score - score_of_value(value[0])).abs() <= 1,
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
        let fresh = |pos: &Position| NetValue::new(net.mlp_inference().unwrap(), 0.0).compute(pos);
        assert_eq!(net_value.evaluate(&early), fresh(&early));
        assert_eq!(net_value.evaluate(&late), fresh(&late));
        // material=W adds W times the hand-made evaluation.
        let mut mixed = NetValue::new(net.mlp_inference().unwrap(), 0.5);
        for pos in &positions()[..10] {
            let handcrafted = (0.5 * evaluate(pos) as f32).round() as i32;
            assert_eq!(mixed.evaluate(pos), fresh(pos) + handcrafted);
        }
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
            "nodes=500,seed=2",
            "depth=1,material=0.5",
        ] {
            let spec = format!("abnet:path={},{options}", path.display());
            let mut agent = create(&spec).unwrap();
            assert_eq!(agent.name(), spec);
            assert!(game.is_legal(agent.act(&game).unwrap()));
            assert!(agent.last_info().unwrap().nodes > 0);
        }
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
}
