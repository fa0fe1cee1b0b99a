//! Networks initialised from a seed alone. burn draws initial weights from one generator per
//! backend, shared by the whole process and seeded from the operating system unless told
//! otherwise, and only when a parameter is first used (lazily); parameter ids, which are saved
//! in records and key the optimiser's state, are random too. [`seeded`] seeds that generator,
//! draws every weight at once in the module's order, and numbers the parameters from the seed.

use std::sync::{Mutex, PoisonError};

use burn::module::{Module, ModuleMapper, Param, ParamId};
use burn::tensor::{Device, Tensor};
use rand::{Rng, SeedableRng};

use super::{Body, PolicyValueNet};
use crate::rng::TrainRng;

/// Held while the backend's generator is seeded and drawn from, so that two networks seeded at
/// once in one process do not draw from each other's stream.
static BACKEND_RNG: Mutex<()> = Mutex::new(());

/// `net` (fresh, its parameters not yet drawn) with weights and parameter ids that depend on
/// `seed` only.
pub(super) fn seeded(net: PolicyValueNet, device: &Device, seed: u64) -> PolicyValueNet {
    let _guard = BACKEND_RNG.lock().unwrap_or_else(PoisonError::into_inner);
    device.seed(seed);
    let mut ids = Ids(TrainRng::seed_from_u64(seed));
    let mut net = net.map(&mut ids);
    if let Body::ResNet(resnet) = net.body {
        net.body = Body::ResNet(resnet.with_running_state_ids(&mut || ids.next()));
    }
    net
}

/// Draws each float parameter and gives it the next id.
struct Ids(TrainRng);

impl Ids {
    fn next(&mut self) -> ParamId {
        ParamId::from(self.0.random::<u64>())
    }
}

impl ModuleMapper for Ids {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let (_, value, mapper) = param.consume();
        Param::from_mapped_value(self.next(), value, mapper)
    }
}
