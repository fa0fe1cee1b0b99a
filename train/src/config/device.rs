//! The compute device a network runs on, chosen at run time (`--device flex|cuda|wgpu`). `flex`
//! (burn's pure-Rust CPU backend) is always compiled in; `cuda` and `wgpu` only with the cargo
//! features of the same names.

use std::fmt;
use std::str::FromStr;

use burn::tensor::Device;
use fanorona_env::Excerpt;
use serde::{Deserialize, Serialize};

/// A device name that cannot be used in this build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// Not a device name at all.
    #[error("unknown device {}: expected flex, cuda or wgpu", Excerpt(.0))]
    Unknown(String),
    /// A device whose backend was not compiled in.
    #[error(
        "device {0} is not compiled in: rebuild with `--features {0}` (this build has: {available})",
        available = ComputeDevice::available().iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
    )]
    NotCompiled(ComputeDevice),
}

/// Where tensors live: the CPU (`flex`) or a GPU backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputeDevice {
    /// burn's `flex` CPU backend (SIMD, multi-threaded with rayon).
    #[default]
    Flex,
    /// An NVIDIA GPU through CUDA (cargo feature `cuda`).
    Cuda,
    /// Any GPU through wgpu (cargo feature `wgpu`).
    Wgpu,
}

impl ComputeDevice {
    /// The devices compiled into this build.
    pub fn available() -> Vec<ComputeDevice> {
        [
            ComputeDevice::Flex,
            ComputeDevice::Cuda,
            ComputeDevice::Wgpu,
        ]
        .into_iter()
        .filter(|d| d.is_compiled())
        .collect()
    }

    /// Whether this build can use the device.
    pub fn is_compiled(self) -> bool {
        match self {
            ComputeDevice::Flex => true,
            ComputeDevice::Cuda => cfg!(feature = "cuda"),
            ComputeDevice::Wgpu => cfg!(feature = "wgpu"),
        }
    }

    /// The burn device for inference (no autodiff).
    pub fn device(self) -> Result<Device, DeviceError> {
        match self {
            ComputeDevice::Flex => Ok(Device::flex()),
            #[cfg(feature = "cuda")]
            ComputeDevice::Cuda => Ok(Device::cuda(0usize)),
            #[cfg(feature = "wgpu")]
            ComputeDevice::Wgpu => Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)),
            #[allow(unreachable_patterns)]
            other => Err(DeviceError::NotCompiled(other)),
        }
    }

    /// The burn device for training (with autodiff).
    pub fn autodiff_device(self) -> Result<Device, DeviceError> {
        Ok(self.device()?.autodiff())
    }
}

impl fmt::Display for ComputeDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ComputeDevice::Flex => "flex",
            ComputeDevice::Cuda => "cuda",
            ComputeDevice::Wgpu => "wgpu",
        })
    }
}

impl FromStr for ComputeDevice {
    type Err = DeviceError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let device = match text.trim().to_ascii_lowercase().as_str() {
            "flex" | "cpu" => ComputeDevice::Flex,
            "cuda" => ComputeDevice::Cuda,
            "wgpu" => ComputeDevice::Wgpu,
            _ => return Err(DeviceError::Unknown(text.to_string())),
        };
        if device.is_compiled() {
            Ok(device)
        } else {
            Err(DeviceError::NotCompiled(device))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flex_is_always_available_and_names_round_trip() {
        assert_eq!("flex".parse::<ComputeDevice>(), Ok(ComputeDevice::Flex));
        assert_eq!("CPU".parse::<ComputeDevice>(), Ok(ComputeDevice::Flex));
        assert!(ComputeDevice::available().contains(&ComputeDevice::Flex));
        assert!(matches!(
            "tpu".parse::<ComputeDevice>(),
            Err(DeviceError::Unknown(_))
        ));
        if !cfg!(feature = "cuda") {
            let err = "cuda".parse::<ComputeDevice>().unwrap_err();
            assert!(err.to_string().contains("--features cuda"), "{err}");
        }
    }
}
