//! The seal of safetensors-based files: string metadata entries `format` (what the file is),
//! `format_version` and `data_crc32` (a CRC-32 of the tensor data, so a damaged file is
//! refused), and for formats whose metadata carries what matters (shards) `metadata_crc32`, a
//! CRC-32 of every other metadata entry.

use std::collections::{BTreeMap, HashMap};

use safetensors::SafeTensors;
use serde::{Deserialize, Serialize};

use super::envelope::{FileError, FileRef};

/// The metadata entry naming the format.
const FORMAT_KEY: &str = "format";
/// The metadata entry holding the CRC-32 of the tensor data.
const DATA_CRC_KEY: &str = "data_crc32";
/// The metadata entry holding the CRC-32 of the other metadata entries.
const METADATA_CRC_KEY: &str = "metadata_crc32";

/// A safetensors-based file format.
pub(crate) struct SafetensorsFormat {
    /// The value of the `format` entry.
    pub name: &'static str,
    /// The version written.
    pub version: u32,
    /// The sealed versions read.
    pub reads: &'static [u32],
    /// Whether the seal also covers the metadata entries (`metadata_crc32`, written and
    /// required).
    pub covers_metadata: bool,
}

/// The CRC-32 of the metadata `entries` other than the two checksums, in the order of their
/// names: each name and value followed by a zero byte.
fn metadata_crc<'a>(entries: impl Iterator<Item = (&'a str, &'a str)>) -> u32 {
    let sorted: BTreeMap<&str, &str> = entries
        .filter(|(key, _)| *key != DATA_CRC_KEY && *key != METADATA_CRC_KEY)
        .collect();
    let mut hasher = crc32fast::Hasher::new();
    for (key, value) in sorted {
        for part in [key, value] {
            hasher.update(part.as_bytes());
            hasher.update(&[0]);
        }
    }
    hasher.finalize()
}

/// The tensor data of a safetensors file (everything after its header), if the header's
/// length fits the file.
fn tensor_data(bytes: &[u8]) -> Option<&[u8]> {
    let header = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    bytes.get(8usize.checked_add(usize::try_from(header).ok()?)?..)
}

/// The metadata entries of the safetensors file `bytes` (empty if it has none), after
/// checking that it is one.
pub(crate) fn read_metadata(
    file: FileRef,
    bytes: &[u8],
) -> Result<HashMap<String, String>, FileError> {
    let not_safetensors = |e: safetensors::SafeTensorError| {
        file.corrupt(format!("not a readable safetensors file: {e}"))
    };
    SafeTensors::deserialize(bytes).map_err(not_safetensors)?;
    let (_, header) = SafeTensors::read_metadata(bytes).map_err(not_safetensors)?;
    Ok(header.metadata().clone().unwrap_or_default())
}

/// A safetensors header with its entries in a fixed order.
#[derive(Serialize, Deserialize)]
struct SortedHeader {
    #[serde(
        rename = "__metadata__",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    metadata: Option<BTreeMap<String, String>>,
    #[serde(flatten)]
    tensors: BTreeMap<String, serde_json::Value>,
}

/// The safetensors file `bytes` with its header's entries sorted by name: safetensors writes
/// the metadata entries in hash order, which changes from one process to the next, and the
/// same content must give the same bytes. The header is padded with spaces to a multiple of
/// 8 bytes, as safetensors does.
fn sorted_header(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let data = tensor_data(bytes).ok_or("header longer than the file")?;
    let header: SortedHeader =
        serde_json::from_slice(&bytes[8..bytes.len() - data.len()]).map_err(|e| e.to_string())?;
    let mut header = serde_json::to_vec(&header).map_err(|e| e.to_string())?;
    header.resize(header.len().next_multiple_of(8), b' ');
    let mut sorted = Vec::with_capacity(8 + header.len() + data.len());
    sorted.extend_from_slice(&(header.len() as u64).to_le_bytes());
    sorted.extend_from_slice(&header);
    sorted.extend_from_slice(data);
    Ok(sorted)
}

impl SafetensorsFormat {
    /// The bytes of a sealed file: `serialize` (which encodes the tensors with the metadata
    /// entries it is given) is called with `entries` and the seal's entries.
    pub(crate) fn seal(
        &self,
        entries: Vec<(&'static str, String)>,
        serialize: impl Fn(&[(&'static str, String)]) -> Result<Vec<u8>, String>,
    ) -> Result<Vec<u8>, String> {
        let mut entries = [
            vec![
                (FORMAT_KEY, self.name.to_string()),
                ("format_version", self.version.to_string()),
            ],
            entries,
        ]
        .concat();
        let unsealed = serialize(&entries)?;
        let data = tensor_data(&unsealed).ok_or("header longer than the file")?;
        let data_crc = crc32fast::hash(data).to_string();
        if self.covers_metadata {
            let crc = metadata_crc(entries.iter().map(|(k, v)| (*k, v.as_str())));
            entries.push((METADATA_CRC_KEY, crc.to_string()));
        }
        entries.push((DATA_CRC_KEY, data_crc));
        sorted_header(&serialize(&entries)?)
    }

    /// Checks the seal of the file `bytes` with `metadata` (from [`read_metadata`]): its
    /// format, a version this build reads, the checksum of its tensor data and, if the format
    /// covers them, of its metadata entries; returns the version.
    pub(crate) fn check(
        &self,
        file: FileRef,
        bytes: &[u8],
        metadata: &HashMap<String, String>,
    ) -> Result<u32, FileError> {
        match metadata.get(FORMAT_KEY) {
            Some(name) if name == self.name => {}
            Some(name) => {
                return Err(file.wrong_kind(format!(
                    "its metadata entry `format` is {name:?}, expected {:?}",
                    self.name
                )));
            }
            None => {
                return Err(file.wrong_kind(format!(
                    "its metadata has no `format` entry (expected {:?})",
                    self.name
                )));
            }
        }
        let number = |key: &str| {
            metadata
                .get(key)
                .and_then(|value| value.parse::<u32>().ok())
                .ok_or_else(|| {
                    file.corrupt(format!(
                        "metadata entry `{key}` is missing or not a whole number: {:?}",
                        metadata.get(key)
                    ))
                })
        };
        let version = number("format_version")?;
        file.check_version(version, self.reads)?;
        if self.covers_metadata {
            let recorded = number(METADATA_CRC_KEY)?;
            let actual = metadata_crc(metadata.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            file.check_crc_value("the metadata", actual, recorded)?;
        }
        let recorded = number(DATA_CRC_KEY)?;
        let data = tensor_data(bytes).ok_or_else(|| file.corrupt("header longer than the file"))?;
        file.check_crc("the tensor data", data, recorded)?;
        Ok(version)
    }
}

/// Whether `metadata` has a seal (a `format` entry).
pub(crate) fn is_sealed(metadata: &HashMap<String, String>) -> bool {
    metadata.contains_key(FORMAT_KEY)
}
