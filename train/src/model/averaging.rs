//! An exponential moving average (EMA) of a network's weights, kept beside the weights being
//! trained: after each learner step, `average = decay_t * average + (1 - decay_t) * weights`
//! with `decay_t = min(decay, (1 + t) / (10 + t))` at the `t`-th update, so that the first
//! steps, far from the random start, are not averaged with it for long. Averaged weights are
//! often a stronger player than the last step's (Polyak averaging; an EMA of the weights for
//! play, as in many AlphaZero reproductions).

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::Tensor;

use super::{PolicyValueNet, flush_denormals};

/// The moving average of a network's weights.
#[derive(Clone, Debug)]
pub struct WeightAverage {
    decay: f64,
    updates: u64,
    average: PolicyValueNet,
}

impl WeightAverage {
    /// An average that starts at `start` (an inference network, no autodiff), with `decay`
    /// in `[0, 1)`, having had `updates` updates (0 for a new one).
    pub fn new(decay: f64, start: PolicyValueNet, updates: u64) -> WeightAverage {
        WeightAverage {
            decay,
            updates,
            average: start,
        }
    }

    /// Moves the average towards `weights` (an inference network of the same architecture).
    /// Denormals are flushed: weights that decay to zero would otherwise take the average
    /// through the denormal range.
    pub fn update(&mut self, weights: &PolicyValueNet) {
        let t = self.updates as f64;
        let decay = self.decay.min((1.0 + t) / (10.0 + t));
        let blended = blend(self.average.clone(), weights, (1.0 - decay) as f32);
        self.average = flush_denormals(blended);
        self.updates += 1;
    }

    /// The averaged network.
    pub fn network(&self) -> &PolicyValueNet {
        &self.average
    }

    /// The updates made so far.
    pub fn updates(&self) -> u64 {
        self.updates
    }
}

/// `(1 - share) * base + share * other`, weight by weight; both networks must have the same
/// architecture.
fn blend(base: PolicyValueNet, other: &PolicyValueNet, share: f32) -> PolicyValueNet {
    let mut collect = Collect(Vec::new());
    other.visit(&mut collect);
    let mut mix = Mix {
        others: collect.0.into_iter(),
        share,
    };
    base.map(&mut mix)
}

/// Collects every float parameter, flattened, in visiting order.
struct Collect(Vec<Tensor<1>>);

impl ModuleVisitor for Collect {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(param.val().flatten::<1>(0, D - 1));
    }
}

/// Blends every float parameter with the next collected one.
struct Mix {
    others: std::vec::IntoIter<Tensor<1>>,
    share: f32,
}

impl ModuleMapper for Mix {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let other = self
            .others
            .next()
            .expect("networks of the same architecture have the same parameters");
        let share = self.share;
        param.map(|tensor| {
            let shape = tensor.shape();
            let other = other.reshape(shape);
            tensor.mul_scalar(1.0 - share) + other.mul_scalar(share)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig};
    use burn::tensor::Device;
    use fanorona_env::Fanorona;

    /// Every float weight of `net`, in visiting order.
    fn weights(net: &PolicyValueNet) -> Vec<f32> {
        let mut collect = Collect(Vec::new());
        net.visit(&mut collect);
        collect
            .0
            .into_iter()
            .flat_map(|t| t.into_data().try_to_vec::<f32>().unwrap())
            .collect()
    }

    fn two_networks() -> (PolicyValueNet, PolicyValueNet) {
        let config = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[8]));
        let device = Device::flex();
        let a = PolicyValueNet::init_seeded(&config, &device, 1).unwrap();
        let b = PolicyValueNet::init_seeded(&config, &device, 2).unwrap();
        (a, b)
    }

    #[test]
    fn a_blend_mixes_every_weight_by_its_share() {
        let (a, b) = two_networks();
        let (wa, wb) = (weights(&a), weights(&b));
        assert_ne!(wa, wb);
        let mixed = weights(&blend(a, &b, 0.25));
        assert_eq!(mixed.len(), wa.len());
        for ((m, x), y) in mixed.iter().zip(&wa).zip(&wb) {
            assert!((m - (0.75 * x + 0.25 * y)).abs() < 1e-6);
        }
    }

    #[test]
    fn the_average_follows_the_weights_slowly_once_warmed_up() {
        let (a, b) = two_networks();
        let (wa, wb) = (weights(&a), weights(&b));
        let mut average = WeightAverage::new(0.5, a, 0);
        // The first update moves by 1 - min(0.5, 1/10) = 0.9 of the way.
        average.update(&b);
        let first = weights(average.network());
        for ((m, x), y) in first.iter().zip(&wa).zip(&wb) {
            assert!((m - (0.1 * x + 0.9 * y)).abs() < 1e-5);
        }
        for _ in 0..20 {
            average.update(&b);
        }
        assert_eq!(average.updates(), 21);
        // Later updates keep half: the distance to b halves each time.
        let close = weights(average.network());
        for ((m, x), y) in close.iter().zip(&wa).zip(&wb) {
            assert!((m - y).abs() <= 1e-3 * (x - y).abs().max(1e-3));
        }
    }
}
