//! No network of this crate holds denormal weights (on Intel cores they make every multiply
//! ~100x slower): not after training with weight decay on inputs that are always zero, and not
//! after loading a policy file written with some.

use std::fs;

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::{Device, Tensor};
use fanorona_env::{Fanorona, Game};
use fanorona_train::config::{
    Architecture, LrSchedule, NetworkConfig, OptimizerConfig, TrainerConfig,
};
use fanorona_train::io::{PolicyMeta, export_policy, load_policy};
use fanorona_train::model::count_denormals;
use fanorona_train::model::{PolicyValueNet, Trainer};
use fanorona_train::replay::Batch;
use rand::{Rng, SeedableRng};
use safetensors::SafeTensors;
use safetensors::tensor::TensorView;

/// `size` positions of seeded random games with uniform targets over the legal actions and
/// random results. In standard rules several observation planes (Vela, first turn,
/// mandatory chains) are always zero, and most actions are never legal.
fn random_positions(size: usize) -> Batch {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let start = Fanorona::standard();
    let [planes, height, width] = start.observation_shape();
    let (len, actions) = (planes * height * width, start.num_actions());
    let mut batch = Batch::default();
    batch.size = size;
    batch.observation_len = len;
    batch.num_actions = actions;
    let mut state = start.clone();
    let mut legal = Vec::new();
    let mut observation = vec![0.0; len];
    for _ in 0..size {
        if state.is_terminal() {
            state = start.clone();
        }
        state.legal_actions(&mut legal);
        state.write_observation(&mut observation);
        batch.observations.extend_from_slice(&observation);
        let mut policy = vec![0.0; actions];
        let mut mask = vec![0.0; actions];
        for &a in &legal {
            policy[a] = 1.0 / legal.len() as f32;
            mask[a] = 1.0;
        }
        batch.policy.extend(policy);
        batch.mask.extend(mask);
        batch.values.push(if rng.random() { 1.0 } else { -1.0 });
        batch.policy_weights.push(1.0);
        state
            .apply(legal[rng.random_range(0..legal.len())])
            .unwrap();
    }
    batch
}

/// Steps after which, without the flush, about 21,000 weights of this network are denormal
/// (none before step 1,400).
const STEPS: usize = 2000;

/// A small MLP trained `STEPS` steps with Adam and L2 weight decay, as the presets train, with
/// a moving average of its weights.
fn trained() -> Trainer {
    let device = Device::flex();
    let config = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[16]));
    let learner_config = TrainerConfig {
        optimizer: OptimizerConfig::Adam { weight_decay: 1e-4 },
        schedule: LrSchedule::Constant { lr: 1e-2 },
        value_weight: 1.0,
        ema_decay: 0.5,
    };
    let mut learner = Trainer::new(
        learner_config,
        PolicyValueNet::init_seeded(&config, &device, 1).unwrap(),
        &device,
    );
    let batch = random_positions(64);
    for _ in 0..STEPS {
        learner.train_step(&batch);
        // The average of weights that reached zero halves towards zero through the denormal
        // range a few steps behind them, unless it is flushed at every step.
        assert_eq!(count_denormals(learner.averaged_network().unwrap()), 0);
    }
    learner
}

/// Counts the weights that are exactly zero.
struct Zeros(usize);

impl ModuleVisitor for Zeros {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let data = param.val().into_data();
        self.0 += data
            .as_slice::<f32>()
            .unwrap()
            .iter()
            .filter(|&&v| v == 0.0)
            .count();
    }
}

fn zeros(net: &PolicyValueNet) -> usize {
    let mut zeros = Zeros(0);
    net.visit(&mut zeros);
    zeros.0
}

#[test]
fn training_with_weight_decay_leaves_no_denormal_weights() {
    let learner = trained();
    let net = learner.network();
    assert_eq!(count_denormals(net), 0);
    // The decayed weights did reach the denormal range: they are flushed to zero.
    assert!(zeros(net) > 10_000, "only {} zero weights", zeros(net));
    // The moving average of those weights follows them to zero.
    let averaged = learner.averaged_network().unwrap();
    assert!(
        zeros(averaged) > 10_000,
        "only {} zero weights",
        zeros(averaged)
    );
}

/// The tensor data of a safetensors file: everything after its header.
fn tensor_data(bytes: &[u8]) -> &[u8] {
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    &bytes[8 + header..]
}

#[test]
fn a_policy_file_with_denormal_weights_loads_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let device = Device::flex();
    let config = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[8]));
    let net = PolicyValueNet::init_seeded(&config, &device, 1).unwrap();
    let meta = PolicyMeta {
        game: fanorona_env::GameId::standard(),
        rules: fanorona_env::Rules::default().to_string(),
        encoding_version: fanorona_env::action::ENCODING_VERSION,
        network: config.clone(),
        step: 0,
    };
    let path = dir.path().join("agent.safetensors");
    export_policy(&net, &meta, &path).unwrap();

    // Rewrite the policy head's weights: every third one denormal, checksum renewed.
    let bytes = fs::read(&path).unwrap();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    let (_, header) = SafeTensors::read_metadata(&bytes).unwrap();
    let mut entries = header.metadata().clone().unwrap();
    let name = "body.Mlp.policy_out.weight";
    let head = file.tensor(name).unwrap();
    let planted: Vec<u8> = head
        .data()
        .chunks(4)
        .enumerate()
        .flat_map(|(i, w)| match i % 3 {
            0 => (f32::MIN_POSITIVE / (2 + i % 1000) as f32).to_le_bytes(),
            _ => w.try_into().unwrap(),
        })
        .collect();
    let planted_count = planted
        .chunks(4)
        .filter(|w| f32::from_le_bytes((*w).try_into().unwrap()).is_subnormal())
        .count();
    assert!(planted_count > 1000);
    let mut tensors = file.tensors();
    for (tensor, view) in &mut tensors {
        if tensor == name {
            *view = TensorView::new(head.dtype(), head.shape().to_vec(), &planted).unwrap();
        }
    }
    let unsigned = safetensors::serialize(tensors.clone(), Some(entries.clone())).unwrap();
    entries.insert(
        "data_crc32".into(),
        crc32fast::hash(tensor_data(&unsigned)).to_string(),
    );
    fs::write(
        &path,
        safetensors::serialize(tensors, Some(entries)).unwrap(),
    )
    .unwrap();

    let loaded = load_policy(&path).unwrap();
    assert_eq!(count_denormals(&loaded.net), 0);
    assert!(zeros(&loaded.net) >= planted_count);
    // The file was read: the other weights are the network's.
    let mut logits = [vec![0.0; config.num_actions], vec![0.0; config.num_actions]];
    let mut values = [[0.0], [0.0]];
    let mut observation = vec![0.0; config.observation_len()];
    Fanorona::standard().write_observation(&mut observation);
    net.infer(&observation, &mut logits[0], &mut values[0]);
    loaded
        .net
        .infer(&observation, &mut logits[1], &mut values[1]);
    assert_eq!(values[0], values[1], "the value head was not touched");
}
