//! The layers of the crate: each top-level module of `train/src` names (`crate::X`, or
//! `super::` up to the crate root, in code, tests and doc links alike) only the modules of the
//! layers below its own, as `LAYERS` declares them (the picture in docs/architecture.md), so
//! that no import cycle can form between them. The files of the command line's
//! `src/commands/serve/` are checked for cycles too.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level modules of `train/src`, bottom layer first: a module may use the modules of
/// the layers before its own, never those of its own layer or above.
const LAYERS: [&[&str]; 12] = [
    // Every settings type of a run: pure data with its serde form, defaults and checks.
    &["config"],
    // The seeded generator; exact targets from endgame tables and from the prover.
    &["rng", "table_labels", "prover_targets"],
    // Trajectories, the replay window, minibatches.
    &["replay"],
    // The network, the trainer, the device.
    &["model"],
    // File formats.
    &["io"],
    // The network as evaluator and agents.
    &["players"],
    // Self-play games, the student taught by distillation, the network's exams.
    &["selfplay", "distill", "exam"],
    // A network taught by exact sets, measured by the exams after each epoch.
    &["exact_fit"],
    // A run directory's files.
    &["run_dir"],
    // What stops training: it wraps the errors of the layers below (config, io, distill,
    // run_dir, ...), so it sits above them all, and only the roles and the run return it.
    &["error"],
    // The self-play worker, the learner, the gauntlet.
    &["roles"],
    // The run in one process.
    &["run"],
];

/// A use of another module: the file, its line and what it names.
struct Use {
    file: PathBuf,
    line: usize,
    text: String,
    target: String,
}

/// The `.rs` files under `dir`, in order of path.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The module path of the file at `relative` (below the crate's or folder's root):
/// `a/b.rs` is `[a, b]`, `a/mod.rs` and `a.rs` are `[a]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first identifiers of the paths in the group that `text` begins with (`{a, b::c}`).
fn group_heads(text: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && !c.is_whitespace() => {
                heads.push(ident(&text[i..]).to_string());
                start = false;
            }
            _ => {}
        }
    }
    heads
}

/// Every module of the root `root` that the files under `dir` name, from `prefix` (the path
/// of the root, `crate` for a crate), or from a chain of `super::` that climbs to the root.
/// Inline modules (`mod tests {`) are taken to run to the end of their file.
fn uses(dir: &Path, prefix: &str) -> Vec<Use> {
    let mut found = Vec::new();
    for file in rust_files(dir) {
        let relative = file.strip_prefix(dir).unwrap();
        let depth = module_path(relative).len();
        let text = fs::read_to_string(&file).unwrap();
        let mut inline = 0;
        for (number, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let code = trimmed
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            if code.starts_with("mod ") && code.trim_end().ends_with('{') {
                inline += 1;
            }
            let mut targets = Vec::new();
            for (at, _) in line.match_indices(&format!("{prefix}::")) {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let rest = &line[at + prefix.len() + 2..];
                if rest.starts_with('{') {
                    targets.extend(group_heads(rest));
                } else {
                    targets.push(ident(rest).to_string());
                }
            }
            for (at, _) in line.match_indices("super::") {
                if line[..at].ends_with("super::") {
                    continue;
                }
                let mut rest = &line[at..];
                let mut climbs = 0;
                while let Some(r) = rest.strip_prefix("super::") {
                    rest = r;
                    climbs += 1;
                }
                if climbs == depth + inline {
                    targets.push(ident(rest).to_string());
                }
            }
            for target in targets {
                found.push(Use {
                    file: file.clone(),
                    line: number + 1,
                    text: trimmed.to_string(),
                    target,
                });
            }
        }
    }
    found
}

/// The top-level module of the file at `file` under `dir` (empty for the root's `mod.rs`).
fn owner(dir: &Path, file: &Path) -> String {
    let path = module_path(file.strip_prefix(dir).unwrap());
    path.first().cloned().unwrap_or_default()
}

#[test]
fn each_module_of_train_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(layer, modules)| modules.iter().map(move |&m| (m, layer)))
        .collect();
    // Every top-level module has its layer, and every declared one exists.
    let modules: BTreeSet<String> = rust_files(&src)
        .iter()
        .map(|f| owner(&src, f))
        .filter(|m| m != "lib")
        .collect();
    let declared: BTreeSet<String> = layer_of.keys().map(|m| m.to_string()).collect();
    assert_eq!(
        modules, declared,
        "LAYERS must name each module of train/src once"
    );
    let mut wrong = Vec::new();
    for u in uses(&src, "crate") {
        let from = owner(&src, &u.file);
        let (Some(&low), Some(&high)) =
            (layer_of.get(u.target.as_str()), layer_of.get(from.as_str()))
        else {
            continue;
        };
        if from != u.target && low >= high {
            wrong.push(format!(
                "{}:{}: `{from}` (layer {high}) uses `{}` (layer {low}): {}",
                u.file.display(),
                u.line,
                u.target,
                u.text
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_files_of_serve_import_each_other_without_a_cycle() {
    let serve = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/commands/serve");
    let modules: BTreeSet<String> = rust_files(&serve)
        .iter()
        .map(|f| owner(&serve, f))
        .filter(|m| !m.is_empty())
        .collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for u in uses(&serve, "crate::commands::serve") {
        let from = owner(&serve, &u.file);
        if from != u.target && modules.contains(&from) && modules.contains(&u.target) {
            let place = format!("{}:{}", u.file.display(), u.line);
            edges
                .entry(from)
                .or_default()
                .entry(u.target)
                .or_insert(place);
        }
    }
    // A depth-first search: a module met again while its own uses are being followed closes
    // a cycle.
    fn visit(
        module: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            return Some(path[start..].to_vec());
        }
        if !done.insert(module.to_string()) {
            return None;
        }
        path.push(module.to_string());
        for target in edges.get(module).into_iter().flat_map(|e| e.keys()) {
            if let Some(cycle) = visit(target, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in &modules {
        if let Some(cycle) = visit(module, &edges, &mut Vec::new(), &mut done) {
            let steps: Vec<String> = cycle
                .iter()
                .zip(cycle.iter().cycle().skip(1))
                .map(|(a, b)| format!("{a} -> {b} ({})", edges[a][b]))
                .collect();
            panic!("an import cycle in serve:\n{}", steps.join("\n"));
        }
    }
}

#[test]
fn each_public_type_has_one_path_its_layer_or_the_root() {
    // Only the crate root declares public modules (the layers); inside a layer the files are
    // private and the layer re-exports what it offers, so no type has a second public path.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut nested = Vec::new();
    for file in rust_files(&src) {
        if file == src.join("lib.rs") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("pub mod ") {
                nested.push(format!("{}:{}: {line}", file.display(), number + 1));
            }
        }
    }
    assert!(
        nested.is_empty(),
        "public modules inside a layer (make them private and re-export their items):\n{}",
        nested.join("\n")
    );
}
