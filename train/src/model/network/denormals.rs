//! Denormal weights set to zero. Weights that only weight decay moves (inputs that are always
//! zero, actions that are never legal) shrink geometrically into the denormal range, where
//! Intel cores compute ~100x slower. The learner flushes after every step, and loading and
//! exporting a network flush too, so that no network of this crate holds a denormal weight
//! whatever the processor's floating-point mode.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::Tensor;

use super::PolicyValueNet;

/// `net` with every denormal weight replaced by zero (autodiff state kept).
pub fn flush_denormals(net: PolicyValueNet) -> PolicyValueNet {
    net.map(&mut Flush)
}

/// The number of denormal weights of `net`.
pub fn count_denormals(net: &PolicyValueNet) -> usize {
    let mut count = Count(0);
    net.visit(&mut count);
    count.0
}

/// Maps every float parameter to itself with denormals zeroed.
struct Flush;

impl ModuleMapper for Flush {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.map(|tensor| {
            let require_grad = tensor.is_require_grad();
            let values = tensor.inner();
            let denormal = values.clone().abs().lower_elem(f32::MIN_POSITIVE);
            let flushed = Tensor::from_inner(values.mask_fill(denormal, 0.0));
            if require_grad {
                flushed.require_grad()
            } else {
                flushed
            }
        })
    }
}

/// Counts denormal values over the float parameters visited.
struct Count(usize);

impl ModuleVisitor for Count {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let data = param.val().into_data();
        let values = data.as_slice::<f32>().expect("f32 weights");
        self.0 += values.iter().filter(|v| v.is_subnormal()).count();
    }
}
