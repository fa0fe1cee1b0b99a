//! Which agents a request may ask for: kinds from an allow-list, options from a short list of
//! search settings with caps (sizes included, so that one agent's memory is bounded), never
//! an option naming a file or a program. The kinds that play with a network (`net`, `abnet`)
//! play the server's own network (the one `--agent` names, or the kind's shipped model), only
//! on the board it was made for, and nothing shown to a client names the server's file.

use std::path::Path;
use std::sync::Arc;

use fanorona_env::{Agent, AgentSpec, Board, Excerpt, Fanorona, Position, Registry};
use fanorona_exact::tables::{EndgameTables, shared_tables};
use fanorona_train::config::NetworkConfig;
use fanorona_train::players::{MODEL, PATH, load_fanorona_net};
use serde::Serialize;

/// The kinds allowed when `--allow-agents` is not given, strongest first.
pub const DEFAULT_KINDS: [&str; 5] = ["abnet", "net", "minimax", "greedy", "random"];

/// The largest transposition table a request may ask for, in MiB (the default size).
pub const MAX_REQUEST_HASH: u64 = 16;

/// The most simulations a turn of a request's tree search may run (its tree grows with them);
/// also the limit of one that gives only a time (`ms`).
pub const MAX_REQUEST_SIMS: u64 = 20_000;

/// The options a request may set, with the largest value allowed (`None`: any value the
/// kind accepts). Nothing here names a file or a program; every size is capped.
const REQUEST_OPTIONS: [(&str, Option<u64>); 15] = [
    ("depth", Some(8)),
    ("ms", None),
    ("nodes", Some(20_000_000)),
    ("hash", Some(MAX_REQUEST_HASH)),
    ("seed", None),
    ("sims", Some(MAX_REQUEST_SIMS)),
    ("cpuct", None),
    ("gumbel", None),
    ("considered", Some(256)),
    ("temp", None),
    ("fpu", None),
    ("playouts", Some(64)),
    ("steps", Some(1000)),
    ("batch", Some(256)),
    ("board", None),
];

/// How strong each kind is, in words, for the page (see the README's Strength section).
const STRENGTH: [(&str, &str); 5] = [
    (
        "abnet",
        "the strongest: about minimax at 100 ms + 115 Elo (0.660 over 200 games at 100 ms, \
         docs/performance.md)",
    ),
    (
        "net",
        "about minimax at 100 ms with lambda=0.5 (0.502 over 200 games); as a request plays \
         it, without that mix, not measured",
    ),
    ("minimax", "the baseline the others are measured against"),
    ("greedy", "weak: takes the most pieces now, plans nothing"),
    ("random", "the weakest: any legal move"),
];

/// Why a requested agent is refused.
#[derive(Debug, thiserror::Error)]
pub enum AgentRefused {
    /// The specification cannot be read, or the registry refuses it.
    #[error("bad agent {}: {reason}", Excerpt(.spec))]
    Bad {
        /// The specification.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// The kind is not on this server's allow-list.
    #[error("agent kind {} is not allowed here; allowed: {allowed}", Excerpt(.kind))]
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
    /// The agent's network was made for another board.
    #[error(
        "agent {spec:?} plays with a network made for {made_for} and cannot play on a \
         {board} board; choose another agent (e.g. minimax) or that board"
    )]
    Board {
        /// The specification.
        spec: String,
        /// What the network was made for (`fanorona 9x5`).
        made_for: String,
        /// The game's board (`5x3`).
        board: String,
    },
}

/// An agent a game may build: what the game shows and what the registry builds.
#[derive(Clone, Debug)]
pub struct AgentChoice {
    /// As shown to clients: the request's text (no server path in it).
    pub name: String,
    /// What the registry builds: with the server's network for the network kinds.
    spec: AgentSpec,
}

/// A network the server plays with: the kind that plays it, the options that name it (none:
/// the kind's shipped model), the network and what it was made for.
struct ServerNetwork {
    kind: &'static str,
    source: Vec<(String, String)>,
    config: NetworkConfig,
    made_for: String,
}

/// The agents this server builds for requests.
pub struct AgentPolicy {
    registry: Registry,
    allowed: Vec<String>,
    /// The `--agent` specification, trusted as given, without the options naming its network.
    default_agent: AgentChoice,
    /// The networks, by the kind that plays them.
    networks: Vec<ServerNetwork>,
    /// The endgame table folder given to the kinds that probe tables (`--tables`).
    tables: Option<String>,
}

/// One agent kind on offer.
#[derive(Debug, Serialize)]
pub struct KindView {
    /// Its name (`minimax`).
    pub name: String,
    /// What it is, in one line.
    pub summary: String,
    /// How strong it is, in words (empty when unknown).
    pub strength: String,
}

/// What the page needs to offer agents.
#[derive(Debug, Serialize)]
pub struct AgentMenu {
    /// The default agent.
    pub default_agent: String,
    /// The allowed kinds, strongest first.
    pub kinds: Vec<KindView>,
}

/// The kinds that play a network.
const NETWORK_KINDS: [&str; 2] = ["net", "abnet"];

/// The options of the network kinds that name their network.
const NETWORK_OPTIONS: [&str; 2] = [PATH.name, MODEL.name];

impl AgentPolicy {
    /// The policy of a server started with `--agent default_agent` and the allowed `kinds`
    /// (None: [`DEFAULT_KINDS`]). Fails on an unknown kind, a default agent that cannot be
    /// built or a network that cannot be read.
    pub fn new(
        registry: Registry,
        default_agent: &str,
        kinds: Option<&str>,
    ) -> anyhow::Result<AgentPolicy> {
        let mut spec = registry.parse(default_agent)?;
        registry.create(&spec, 0)?;
        let mut networks = Vec::new();
        for kind in NETWORK_KINDS {
            let mut source = Vec::new();
            if spec.kind == kind {
                // Shown without them: requests name the kind and get this network.
                (source, spec.options) = std::mem::take(&mut spec.options)
                    .into_iter()
                    .partition(|(key, _)| NETWORK_OPTIONS.contains(&key.as_str()));
            }
            let network = AgentSpec {
                kind: kind.to_string(),
                options: source.clone(),
            };
            let (_, meta) = load_fanorona_net(&registry.options(&network)?)
                .map_err(|e| anyhow::anyhow!("cannot read the {kind} network: {e}"))?;
            networks.push(ServerNetwork {
                kind,
                source,
                config: meta.network,
                made_for: meta.game.to_string(),
            });
        }
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
            None => DEFAULT_KINDS.iter().map(|k| k.to_string()).collect(),
        };
        let mut policy = AgentPolicy {
            registry,
            allowed,
            default_agent: AgentChoice {
                name: spec.to_string(),
                spec: spec.clone(),
            },
            networks,
            tables: None,
        };
        policy.default_agent.spec = policy.with_server_network(spec);
        Ok(policy)
    }

    /// The same policy giving the endgame tables of the folder `dir` (if any) to every agent
    /// of a kind that probes them, on the boards the folder holds. The folder must hold the
    /// standard board's tables.
    pub fn with_tables(mut self, dir: Option<&Path>) -> anyhow::Result<AgentPolicy> {
        let Some(dir) = dir else {
            return Ok(self);
        };
        shared_tables(dir, Board::standard())?;
        let text = dir.to_str().filter(|t| !t.contains(',')).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: the folder's name must be UTF-8 without ','",
                dir.display()
            )
        })?;
        self.tables = Some(text.to_string());
        Ok(self)
    }

    /// The server's endgame tables of `board`, where its folder (`--tables`) holds them.
    pub fn tables_of(&self, board: &'static Board) -> Option<Arc<EndgameTables>> {
        shared_tables(Path::new(self.tables.as_deref()?), board).ok()
    }

    /// What the page offers: the allowed kinds, strongest first (those of unknown strength
    /// last, in the allow-list's order).
    pub fn menu(&self) -> AgentMenu {
        let mut kinds: Vec<_> = self
            .allowed
            .iter()
            .filter_map(|k| self.registry.kind(k))
            .collect();
        kinds.sort_by_key(|k| {
            STRENGTH
                .iter()
                .position(|(name, _)| *name == k.name)
                .unwrap_or(STRENGTH.len())
        });
        AgentMenu {
            default_agent: self.default_agent.name.clone(),
            kinds: kinds
                .into_iter()
                .map(|k| KindView {
                    name: k.name.to_string(),
                    summary: k.summary.to_string(),
                    strength: STRENGTH
                        .iter()
                        .find(|(name, _)| *name == k.name)
                        .map_or("", |(_, words)| words)
                        .to_string(),
                })
                .collect(),
        }
    }

    /// The default agent.
    pub fn default_agent(&self) -> &AgentChoice {
        &self.default_agent
    }

    /// Checks the agent a request asks for, to play from `start`: the default agent as
    /// given, any other against the allow-list and the caps; a network kind only on its
    /// network's board. Builds nothing.
    pub fn check(&self, text: &str, start: &Position) -> Result<AgentChoice, AgentRefused> {
        let choice = if text.trim() == self.default_agent.name {
            self.default_agent.clone()
        } else {
            let spec = self.checked(text)?;
            AgentChoice {
                name: text.trim().to_string(),
                spec: self.with_server_network(spec),
            }
        };
        let mut choice = choice;
        if let Some(dir) = &self.tables
            && self.takes(&choice, "tables")
            && self.tables_of(start.board()).is_some()
        {
            choice.spec = choice.spec.with_option("tables", Some(dir));
        }
        if let Some(network) = self.networks.iter().find(|n| n.kind == choice.spec.kind)
            && !network.config.fits(&Fanorona::new(*start))
        {
            let board = start.board();
            return Err(AgentRefused::Board {
                spec: choice.name,
                made_for: network.made_for.clone(),
                board: format!("{}x{}", board.width(), board.height()),
            });
        }
        Ok(choice)
    }

    /// Whether the kind of `choice` takes the option `name` (e.g. `depth`).
    pub fn takes(&self, choice: &AgentChoice, name: &str) -> bool {
        self.registry
            .kind(&choice.spec.kind)
            .is_some_and(|k| k.option(name).is_some())
    }

    /// Builds a checked agent, seeded with `seed` unless it gives `seed=S`; the error names
    /// no server file.
    pub fn build(
        &self,
        choice: &AgentChoice,
        seed: u64,
    ) -> Result<Box<dyn Agent<Fanorona>>, AgentRefused> {
        self.registry
            .create(&choice.spec, seed)
            .map_err(|e| AgentRefused::Bad {
                spec: choice.name.clone(),
                reason: self.without_paths(&e.to_string()),
            })
    }

    /// `message` with every server file replaced by its kind's name.
    pub fn without_paths(&self, message: &str) -> String {
        let files = self.networks.iter().flat_map(|n| {
            n.source
                .iter()
                .filter(|(key, _)| key == PATH.name)
                .map(move |(_, path)| (path, n.kind))
        });
        let text = files.fold(message.to_string(), |text, (path, kind)| {
            text.replace(path.as_str(), &format!("(the server's {kind} network)"))
        });
        match &self.tables {
            Some(dir) => text.replace(dir.as_str(), "(the server's tables)"),
            None => text,
        }
    }

    /// `spec` with the options naming the server's network for its kind, if it plays one.
    fn with_server_network(&self, mut spec: AgentSpec) -> AgentSpec {
        if let Some(network) = self.networks.iter().find(|n| n.kind == spec.kind) {
            spec.options.extend(network.source.iter().cloned());
        }
        spec
    }

    /// Reads a request's specification and checks it against the allow-list, the caps and
    /// the kind's own options.
    fn checked(&self, text: &str) -> Result<AgentSpec, AgentRefused> {
        let bad = |reason: String| AgentRefused::Bad {
            spec: text.trim().to_string(),
            reason,
        };
        let mut spec = AgentSpec::parse(text).map_err(|e| bad(e.to_string()))?;
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
        // A tree search given only a time would grow its tree for all of it.
        let searches = self
            .registry
            .kind(&spec.kind)
            .is_some_and(|k| k.options.iter().any(|o| o.name == "sims"));
        if searches && spec.option("sims").is_none() && spec.option("ms").is_some() {
            spec.options
                .push(("sims".into(), MAX_REQUEST_SIMS.to_string()));
        }
        // The kind's own checks (names, ranges), with the network the server adds.
        let with_network = self.with_server_network(spec.clone());
        self.registry
            .options(&with_network)
            .map_err(|e| bad(self.without_paths(&e.to_string())))?;
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

    fn standard() -> Position {
        Position::standard()
    }

    fn create(p: &AgentPolicy, spec: &str) -> Result<Box<dyn Agent<Fanorona>>, AgentRefused> {
        p.build(&p.check(spec, &standard())?, 1)
    }

    #[test]
    fn allowed_kinds_and_capped_options_build_agents() {
        let p = policy(None);
        for spec in [
            "random",
            "greedy",
            "minimax:depth=3,ms=100",
            "minimax:depth=2",
            "minimax:hash=16",
            "minimax",
        ] {
            assert!(create(&p, spec).is_ok(), "{spec}");
        }
    }

    #[test]
    fn other_kinds_options_over_caps_and_file_options_are_refused() {
        let p = policy(None);
        let refused = |spec: &str| create(&p, spec).err().map(|e| e.to_string());
        let e = refused("engine:cmd=/bin/sh").unwrap();
        assert!(
            e.contains("not allowed") && e.contains("minimax, greedy, random"),
            "{e}"
        );
        let e = refused("minimax:depth=9").unwrap();
        assert!(e.contains("depth=9") && e.contains("8"), "{e}");
        let e = refused("minimax:hash=17").unwrap();
        assert!(
            e.contains("hash=17") && e.contains("most") && e.contains("16"),
            "{e}"
        );
        let e = refused("solver:table=/etc/passwd").unwrap();
        assert!(e.contains("not allowed"), "{e}");
        let p = policy(Some("solver,net,minimax,mcts"));
        let e = create(&p, "solver:table=/etc/passwd")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("table=/etc/passwd") && e.contains("may set only"),
            "{e}"
        );
        let e = create(&p, "mcts:sims=20001").err().unwrap().to_string();
        assert!(e.contains("sims=20001"), "{e}");
        let e = create(&p, "x.safetensors").err().unwrap().to_string();
        assert!(e.contains("bad agent"), "{e}");
        let e = create(&p, "minimax:depth=zero").err().unwrap().to_string();
        assert!(e.contains("depth"), "{e}");
        let e = create(&p, "minimax:width=3").err().unwrap().to_string();
        assert!(e.contains("width"), "{e}");
    }

    #[test]
    fn network_kinds_play_the_server_network_on_its_board_and_never_name_its_file() {
        let p = policy(None);
        for kind in ["net:sims=4", "abnet:depth=1"] {
            let choice = p.check(kind, &standard()).unwrap();
            assert_eq!(choice.name, kind);
            assert!(p.build(&choice, 1).is_ok(), "{kind}");
            let small = Position::from_fen("5/5/5 w").unwrap();
            let e = p.check(kind, &small).err().unwrap().to_string();
            assert!(e.contains("9x5") && e.contains("5x3"), "{e}");
            assert!(!e.contains("models/"), "{e}");
        }
        // A time alone gets the simulation cap, so that the tree stays bounded.
        let timed = p.check("net:ms=3000", &standard()).unwrap();
        assert_eq!(timed.name, "net:ms=3000");
        assert_eq!(timed.spec.option("sims"), Some("20000"));
        // Bad options of a network kind: refused without the server's path.
        let e = p
            .check("net:sims=-1", &standard())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("sims") && !e.contains("safetensors"), "{e}");
        // A default agent with a file is shown without it, and its kind plays that file.
        let student = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/fanorona-9x5-64x32.safetensors"
        );
        let p = AgentPolicy::new(
            fanorona_train::players::registry(),
            &format!("abnet:path={student},ms=50"),
            None,
        )
        .unwrap();
        assert_eq!(p.menu().default_agent, "abnet:ms=50");
        let choice = p.check("abnet:ms=50", &standard()).unwrap();
        assert!(p.build(&choice, 1).is_ok());
        let small = Position::from_fen("5/5/5 w").unwrap();
        let e = p.build(&p.check("abnet:depth=1", &standard()).unwrap(), 1);
        assert!(e.is_ok());
        let e = p.check("abnet", &small).err().unwrap().to_string();
        assert!(!e.contains(student), "{e}");
        let e = p.without_paths(&format!("cannot read {student}"));
        assert_eq!(e, "cannot read (the server's abnet network)");
        // A shipped model named by --agent is the one its kind plays for every request.
        let p = AgentPolicy::new(
            fanorona_train::players::registry(),
            "abnet:model=teacher,ms=50",
            None,
        )
        .unwrap();
        assert_eq!(p.menu().default_agent, "abnet:ms=50");
        let choice = p.check("abnet:depth=1", &standard()).unwrap();
        assert_eq!(choice.spec.option("model"), Some("teacher"));
        assert!(p.build(&choice, 1).is_ok());
    }

    #[test]
    fn the_default_kinds_come_strongest_first() {
        let menu = policy(None).menu();
        let kinds: Vec<&str> = menu.kinds.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(kinds, DEFAULT_KINDS);
        assert!(menu.kinds.iter().all(|k| !k.strength.is_empty()));
        // An allow-list in any order is offered strongest first.
        let menu = policy(Some("random,mcts,minimax,greedy")).menu();
        let kinds: Vec<&str> = menu.kinds.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(kinds, ["minimax", "greedy", "random", "mcts"]);
        let e = AgentPolicy::new(fanorona_train::players::registry(), "random", Some("foo"));
        assert!(
            e.err()
                .unwrap()
                .to_string()
                .contains("unknown kind \"foo\"")
        );
    }
}
