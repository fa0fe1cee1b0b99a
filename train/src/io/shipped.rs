//! The shipped models (`models/`, see `models/README.md`), built into the crate so that every
//! program with its agent kinds plays them wherever it runs, read from memory: no file is
//! written or read. `net` and `abnet` play one of them when no file is given, by its name
//! (`model=student`, `model=teacher`).

use std::path::Path;

use burn::tensor::Device;
use fanorona_env::Board;

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
    /// `models/fanorona-5x5.safetensors`: the MLP 256-256 with a win/draw/loss head trained by
    /// the `5x5` preset, which `net` and `abnet` play on 5x5.
    Board5x5,
}

impl ShippedModel {
    /// Every shipped model, the student first.
    pub const ALL: [ShippedModel; 3] = [
        ShippedModel::Student,
        ShippedModel::Teacher,
        ShippedModel::Board5x5,
    ];

    /// The model's name, as the `model` option of the network kinds takes it.
    pub fn name(self) -> &'static str {
        match self {
            ShippedModel::Student => "student",
            ShippedModel::Teacher => "teacher",
            ShippedModel::Board5x5 => "5x5",
        }
    }

    /// The model made for `board` that the network kinds play there when no model is named
    /// (the 5x5 network on 5x5); `None` where the kinds' defaults play (9x5) or none is.
    pub fn for_board(board: &Board) -> Option<ShippedModel> {
        ((board.width(), board.height()) == (5, 5)).then_some(ShippedModel::Board5x5)
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
            ShippedModel::Board5x5 => include_bytes!("../../../models/fanorona-5x5.safetensors"),
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
    use crate::config::{Architecture, ValueHead};
    use crate::model::mlp_value_tests::{largest_error, positions};

    #[test]
    fn each_model_is_found_by_its_name_and_loads_from_memory() {
        for model in ShippedModel::ALL {
            assert_eq!(ShippedModel::named(model.name()), Some(model));
            let loaded = model.load_on(&Device::flex()).unwrap();
            let (game, hidden, head) = match model {
                ShippedModel::Student => ("fanorona 9x5", [64, 32], ValueHead::Scalar),
                ShippedModel::Teacher => ("fanorona 9x5", [256, 256], ValueHead::Scalar),
                ShippedModel::Board5x5 => ("fanorona 5x5", [256, 256], ValueHead::Wdl),
            };
            assert_eq!(loaded.meta.game.to_string(), game);
            assert_eq!(loaded.net.config().architecture, Architecture::mlp(&hidden));
            assert_eq!(loaded.net.config().value_head, head);
            let board = loaded.meta.game.board();
            let own = ShippedModel::for_board(board);
            assert_eq!(own, (model == ShippedModel::Board5x5).then_some(model));
        }
        assert_eq!(ShippedModel::named("fanorona-9x5"), None);
        assert_eq!(ShippedModel::for_board(Board::new(5, 3).unwrap()), None);
    }

    #[test]
    fn the_teacher_s_quantized_value_stays_close_to_its_float_value() {
        let teacher = ShippedModel::Teacher.load_on(&Device::flex()).unwrap().net;
        let error = largest_error(&teacher, &positions(300));
        assert!(error < 0.02, "{error}");
    }
}
