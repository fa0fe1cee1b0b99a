//! `.ci/run` then `cargo run --release -- train` compile the workspace once (README, "First
//! hour"): every unit of `cargo build --release` (every crate with its features, profile and
//! dependencies, recursively) is also a unit of `cargo test --release`, so the binary that the
//! tests built is the one `cargo run` finds. Dev-dependencies that turn on other features of a
//! shared crate break this; the root Cargo.toml turns the same features on in a plain build.
//!
//! Both unit graphs come from cargo's `--unit-graph` (an unstable flag, allowed here with
//! `RUSTC_BOOTSTRAP=1`), which resolves and prints the build without compiling or locking it.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::process::Command;

use serde_json::Value;

/// The repository's root.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The unit graph of `cargo <args> --release --unit-graph` in the repository.
fn unit_graph(args: &[&str]) -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let scratch = tempfile::tempdir().unwrap();
    let output = Command::new(cargo)
        .args(args)
        .args([
            "--release",
            "--unit-graph",
            "-Z",
            "unstable-options",
            "--target-dir",
        ])
        .arg(scratch.path())
        .current_dir(ROOT)
        .env("RUSTC_BOOTSTRAP", "1")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo {args:?} --unit-graph failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the unit graph is JSON")
}

/// Each unit's identity, with its package and target for messages: a hash of its package,
/// target, mode, features and profile and of its dependencies' identities (what decides
/// whether cargo can reuse its build).
fn identities(graph: &Value) -> HashMap<u64, String> {
    let units = graph["units"].as_array().expect("units");
    let mut memo: HashMap<usize, u64> = HashMap::new();
    fn identity(i: usize, units: &[Value], memo: &mut HashMap<usize, u64>) -> u64 {
        if let Some(&known) = memo.get(&i) {
            return known;
        }
        let unit = &units[i];
        let mut deps: Vec<u64> = unit["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .map(|d| identity(d["index"].as_u64().unwrap() as usize, units, memo))
            .collect();
        deps.sort();
        let mut hasher = DefaultHasher::new();
        for part in ["pkg_id", "mode", "features", "profile"] {
            unit[part].to_string().hash(&mut hasher);
        }
        unit["target"]["name"].to_string().hash(&mut hasher);
        deps.hash(&mut hasher);
        let id = hasher.finish();
        memo.insert(i, id);
        id
    }
    (0..units.len())
        .map(|i| {
            let unit = &units[i];
            let name = format!("{} {}", unit["pkg_id"], unit["target"]["name"]);
            (identity(i, units, &mut memo), name)
        })
        .collect()
}

#[test]
fn the_tests_build_is_the_binarys_build() {
    let build = identities(&unit_graph(&["build"]));
    let test = identities(&unit_graph(&["test", "--no-run"]));
    assert!(
        build.len() > 100,
        "only {} units: is the graph read?",
        build.len()
    );
    let mut missing: Vec<&String> = build
        .iter()
        .filter(|(id, _)| !test.contains_key(id))
        .map(|(_, name)| name)
        .collect();
    missing.sort();
    assert!(
        missing.is_empty(),
        "{} units of `cargo build --release` are not built by `cargo test --release` (features \
         that dev-dependencies turn on: name them in the root Cargo.toml): {missing:?}",
        missing.len()
    );
}
