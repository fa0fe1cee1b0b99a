//! Which agents a request may ask for: kinds from an allow-list, options from a short list of
//! search settings with caps, never an option naming a file or a program. `net` plays the
//! server's own policy file (from `--agent`, or the shipped model the binary carries).

use fanorona_env::{Agent, AgentSpec, Fanorona, Registry};
use serde::Serialize;

use crate::commands::shipped_model::ShippedModel;

/// The kinds allowed when `--allow-agents` is not given (`net` only with a policy file).
pub const DEFAULT_KINDS: [&str; 4] = ["random", "greedy", "minimax", "net"];

/// The options a request may set, with the largest value allowed (`None`: any value the
/// kind accepts). Nothing here names a file or a program.
const REQUEST_OPTIONS: [(&str, Option<u64>); 15] = [
    ("depth", Some(8)),
    ("ms", None),
    ("nodes", Some(20_000_000)),
    ("hash", Some(64)),
    ("seed", None),
    ("sims", Some(20_000)),
    ("cpuct", None),
    ("gumbel", None),
    ("considered", None),
    ("temp", None),
    ("fpu", None),
    ("playouts", Some(64)),
    ("steps", Some(1000)),
    ("batch", Some(256)),
    ("board", None),
];

/// Why a requested agent is refused.
#[derive(Debug, thiserror::Error)]
pub enum AgentRefused {
    /// The specification cannot be read, or the registry refuses it.
    #[error("bad agent {spec:?}: {reason}")]
    Bad {
        /// The specification.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// The kind is not on this server's allow-list.
    #[error("agent kind {kind:?} is not allowed here; allowed: {allowed}")]
    NotAllowed {
        /// The kind asked for.
        kind: String,
        /// The allowed kinds.
        allowed: String,
    },
    /// The option may not be set by a request, or its value is over the cap.
    #[error("agent option {option}={value} is not allowed here: {reason}")]
    Option {
        /// The option.
        option: String,
        /// Its value.
        value: String,
        /// Why.
        reason: String,
    },
}

/// The agents this server builds for requests.
pub struct AgentPolicy {
    registry: Registry,
    allowed: Vec<String>,
    /// The `--agent` specification, trusted as given (it may name a file).
    default_agent: String,
    /// The policy file `net` plays, if any.
    policy: Option<String>,
}

/// What the page needs to offer agents.
#[derive(Debug, Serialize)]
pub struct AgentMenu {
    /// The default agent.
    pub default_agent: String,
    /// The allowed kinds, each with its one-line summary.
    pub kinds: Vec<(String, String)>,
    /// Whether `net` has a policy to play.
    pub policy: bool,
}

impl AgentPolicy {
    /// The policy of a server started with `--agent default_agent` and the allowed `kinds`
    /// (None: [`DEFAULT_KINDS`]). Fails on an unknown kind or a default agent that cannot
    /// be built.
    pub fn new(
        registry: Registry,
        default_agent: &str,
        kinds: Option<&str>,
    ) -> anyhow::Result<AgentPolicy> {
        let spec = registry.parse(default_agent)?;
        registry.create(&spec, 0)?;
        let policy = if spec.kind == "net" {
            spec.option("path").map(str::to_string)
        } else {
            ShippedModel::Teacher.spec_path()
        };
        let allowed = match kinds {
            Some(list) => {
                let mut allowed = Vec::new();
                for kind in list.split(',').map(str::trim).filter(|k| !k.is_empty()) {
                    if registry.kind(kind).is_none() {
                        anyhow::bail!(
                            "--allow-agents: unknown kind {kind:?}; known: {}",
                            kind_names(&registry)
                        );
                    }
                    allowed.push(kind.to_string());
                }
                allowed
            }
            None => DEFAULT_KINDS
                .iter()
                .filter(|&&k| k != "net" || policy.is_some())
                .map(|k| k.to_string())
                .collect(),
        };
        Ok(AgentPolicy {
            registry,
            allowed,
            default_agent: default_agent.to_string(),
            policy,
        })
    }

    /// What the page offers.
    pub fn menu(&self) -> AgentMenu {
        AgentMenu {
            default_agent: self.default_agent.clone(),
            kinds: self
                .allowed
                .iter()
                .filter_map(|k| self.registry.kind(k))
                .map(|k| (k.name.to_string(), k.summary.to_string()))
                .collect(),
            policy: self.policy.is_some(),
        }
    }

    /// Builds the agent a request asks for, seeded with `seed` unless it gives `seed=S`.
    pub fn create(&self, text: &str, seed: u64) -> Result<Box<dyn Agent<Fanorona>>, AgentRefused> {
        let bad = |reason: String| AgentRefused::Bad {
            spec: text.to_string(),
            reason,
        };
        let spec = if text.trim() == self.default_agent.trim() {
            self.registry.parse(text).map_err(|e| bad(e.to_string()))?
        } else {
            self.checked(text)?
        };
        self.registry
            .create(&spec, seed)
            .map_err(|e| bad(e.to_string()))
    }

    /// Reads a request's specification and checks it against the allow-list and the caps;
    /// `net` gets the server's policy file.
    fn checked(&self, text: &str) -> Result<AgentSpec, AgentRefused> {
        let mut spec = AgentSpec::parse(text).map_err(|e| AgentRefused::Bad {
            spec: text.to_string(),
            reason: e.to_string(),
        })?;
        if !self.allowed.contains(&spec.kind) {
            return Err(AgentRefused::NotAllowed {
                kind: spec.kind,
                allowed: self.allowed.join(", "),
            });
        }
        for (option, value) in &spec.options {
            let refused = |reason: String| AgentRefused::Option {
                option: option.clone(),
                value: value.clone(),
                reason,
            };
            let Some((_, cap)) = REQUEST_OPTIONS.iter().find(|(name, _)| name == option) else {
                return Err(refused(format!(
                    "a request may set only {}",
                    REQUEST_OPTIONS.map(|(name, _)| name).join(", ")
                )));
            };
            if let (Some(cap), Ok(n)) = (cap, value.parse::<u64>())
                && n > *cap
            {
                return Err(refused(format!("the most this server allows is {cap}")));
            }
        }
        if spec.kind == "net" {
            let path = self
                .policy
                .clone()
                .ok_or_else(|| AgentRefused::NotAllowed {
                    kind: "net".into(),
                    allowed: self.allowed.join(", "),
                })?;
            spec.options.push(("path".into(), path));
        }
        Ok(spec)
    }
}

/// The registered kinds' names.
fn kind_names(registry: &Registry) -> String {
    registry
        .kinds()
        .iter()
        .map(|k| k.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(kinds: Option<&str>) -> AgentPolicy {
        AgentPolicy::new(
            fanorona_train::players::registry(),
            "minimax:depth=2",
            kinds,
        )
        .unwrap()
    }

    #[test]
    fn allowed_kinds_and_capped_options_build_agents() {
        let p = policy(None);
        for spec in [
            "random",
            "greedy",
            "minimax:depth=3,ms=100",
            "minimax:depth=2",
            "minimax",
        ] {
            assert!(p.create(spec, 1).is_ok(), "{spec}");
        }
    }

    #[test]
    fn other_kinds_options_over_caps_and_file_options_are_refused() {
        let p = policy(None);
        let refused = |spec: &str| p.create(spec, 1).err().map(|e| e.to_string());
        let e = refused("engine:cmd=/bin/sh").unwrap();
        assert!(
            e.contains("not allowed") && e.contains("random, greedy, minimax"),
            "{e}"
        );
        let e = refused("minimax:depth=9").unwrap();
        assert!(e.contains("depth=9") && e.contains("8"), "{e}");
        let e = refused("solver:table=/etc/passwd").unwrap();
        assert!(e.contains("not allowed"), "{e}");
        let p = policy(Some("solver,net,minimax"));
        let e = p
            .create("solver:table=/etc/passwd", 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("table=/etc/passwd") && e.contains("may set only"),
            "{e}"
        );
        if ShippedModel::Teacher.spec_path().is_none() {
            // No policy file: net has nothing to play.
            let e = p.create("net", 1).err().unwrap().to_string();
            assert!(e.contains("\"net\" is not allowed"), "{e}");
        }
        let e = p.create("x.safetensors", 1).err().unwrap().to_string();
        assert!(e.contains("bad agent"), "{e}");
        let e = p.create("minimax:depth=zero", 1).err().unwrap().to_string();
        assert!(e.contains("depth"), "{e}");
    }

    #[test]
    fn the_default_kinds_leave_out_net_without_a_policy() {
        let shipped = ShippedModel::Teacher.spec_path().is_some();
        let menu = policy(None).menu();
        let kinds: Vec<&str> = menu.kinds.iter().map(|(k, _)| k.as_str()).collect();
        let expected = if shipped {
            &DEFAULT_KINDS[..]
        } else {
            &DEFAULT_KINDS[..3]
        };
        assert_eq!(kinds, expected);
        assert_eq!(menu.policy, shipped);
        let e = AgentPolicy::new(fanorona_train::players::registry(), "random", Some("foo"));
        assert!(
            e.err()
                .unwrap()
                .to_string()
                .contains("unknown kind \"foo\"")
        );
    }
}
