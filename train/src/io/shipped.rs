//! The shipped models (`models/`, see `models/README.md`), built into the crate so that every
//! program with its agent kinds plays them wherever it runs, read from memory: no file is
//! written or read. `net` and `abnet` play one of them when no file is given, by its name
//! (`model=student`, `model=teacher`).

use std::path::Path;

use burn::tensor::Device;

use super::{LoadedPolicy, PolicyFileError, policy_from_bytes};

/// One of the models the crate carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShippedModel {
    /// `models/fanorona-9x5-64x32.safetensors`: the student MLP 64-32 (`fanorona distill`),
    /// the network `abnet` searches with by default.
    Student,
    /// `models/fanorona-9x5.safetensors`: the MLP 256-256 trained by the `long` preset, the
    /// student's teacher and the network `net` plays by default.
    Teacher,
}

impl ShippedModel {
    /// Every shipped model, the student first.
    pub const ALL: [ShippedModel; 2] = [ShippedModel::Student, ShippedModel::Teacher];

    /// The model's name, as the `model` option of the network kinds takes it.
    pub fn name(self) -> &'static str {
        match self {
            ShippedModel::Student => "student",
            ShippedModel::Teacher => "teacher",
        }
    }

    /// The model called `name`, if one is.
    pub fn named(name: &str) -> Option<ShippedModel> {
        ShippedModel::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The model's bytes: the policy file, as built into the crate.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            ShippedModel::Student => {
                include_bytes!("../../../models/fanorona-9x5-64x32.safetensors")
            }
            ShippedModel::Teacher => include_bytes!("../../../models/fanorona-9x5.safetensors"),
        }
    }

    /// The policy, read from the built-in bytes onto `device`.
    pub fn load_on(self, device: &Device) -> Result<LoadedPolicy, PolicyFileError> {
        let label = format!("the shipped {}", self.name());
        policy_from_bytes(Path::new(&label), self.bytes().to_vec(), device)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Architecture;
    use crate::model::mlp_value_tests::{largest_error, positions};

    #[test]
    fn each_model_is_found_by_its_name_and_loads_from_memory() {
        for model in ShippedModel::ALL {
            assert_eq!(ShippedModel::named(model.name()), Some(model));
            let loaded = model.load_on(&Device::flex()).unwrap();
            assert_eq!(loaded.meta.game.to_string(), "fanorona 9x5");
            let hidden = match model {
                ShippedModel::Student => [64, 32],
                ShippedModel::Teacher => [256, 256],
            };
            assert_eq!(loaded.net.config().architecture, Architecture::mlp(&hidden));
        }
        assert_eq!(ShippedModel::named("fanorona-9x5"), None);
    }

    #[test]
    fn the_teacher_s_quantized_value_stays_close_to_its_float_value() {
        let teacher = ShippedModel::Teacher.load_on(&Device::flex()).unwrap().net;
        let error = largest_error(&teacher, &positions(300));
        assert!(error < 0.02, "{error}");
    }
}
