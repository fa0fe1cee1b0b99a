//! Players with a trained network: the `net` agent kind. It plays the file of `path=FILE`, an
//! exported policy (or a training checkpoint, see [`crate::io::load_policy`]), or without one
//! the shipped model named by `model` ([`ShippedModel`], the teacher by default); it searches
//! with it ([`MctsAgent`] with a [`NetworkEvaluator`]) or, with `sims=0`, plays the network's
//! raw policy (the legal action of highest logit). With `lambda > 0` its leaf values are mixed
//! with alpha-beta probes ([`AlphaBetaMix`]). With `tables=DIR` it plays the endgame tables'
//! best turn wherever they hold the position ([`TablesFirst`]) and its search takes their
//! exact values at the leaves they hold ([`TableLeaves`]). A checkpoint that keeps a moving average of
//! its weights plays with the average unless `weights=last`. Before each action it checks that
//! the network was made for the board it is asked to play on.

use std::path::Path;
use std::sync::Arc;

use burn::tensor::Device;

use fanorona_env::{
    Agent, AgentError, AgentKind, AgentOptions, Budget, Fanorona, Game, GameId, OptionDef,
    OptionDefault, SearchInfo, SearchLimits, SpecError, ValueType,
};
use fanorona_eval::TablesFirst;
use fanorona_eval::{AB_TABLES, tables_dir};
use fanorona_exact::tables::{EndgameTables, shared_tables};
use fanorona_search::{Evaluator, MctsAgent, SearchConfig};

use crate::config::NetworkConfig;
use crate::io::{LoadedPolicy, PolicyMeta, ShippedModel, load_policy};
use crate::model::PolicyValueNet;
use crate::players::alpha_beta_mix::{AlphaBetaMix, LeafProbe};
use crate::players::board_model::with_board_models;
use crate::players::{NetworkEvaluator, TableLeaves};
use fanorona_search::options::{
    BATCH, CONSIDERED, CPUCT, FPU, GUMBEL, MAX_SIMS, MS, SIMS, TEMP, search_budget, search_config,
};

/// The `path` option of the kinds that play with a trained network.
pub const PATH: OptionDef = OptionDef {
    name: "path",
    value: ValueType::Path,
    default: OptionDefault::Unset,
    help: "an exported .safetensors policy or a training checkpoint (default: the shipped \
           model named by model)",
};

/// The `model` option of the kinds that play with a trained network: a shipped model by its
/// [`ShippedModel::name`]; each kind sets its own default.
pub const MODEL: OptionDef = OptionDef {
    name: "model",
    value: ValueType::Text("student|teacher|5x5"),
    default: OptionDefault::Value("teacher"),
    help: "a model built into the program, played when no path is given: student (the MLP \
           64-32 distilled from the teacher), teacher (the MLP 256-256 of the long preset) or \
           5x5 (the 5x5 preset's network); with neither path nor model, the 5x5 model plays \
           on 5x5",
};

/// The `weights` option of the kinds that play with a trained network.
pub const WEIGHTS: OptionDef = OptionDef {
    name: "weights",
    value: ValueType::Text("ema|last"),
    default: OptionDefault::Value("ema"),
    help: "of a checkpoint that keeps a moving average of its weights: the average (ema) or \
           the last trained weights (last)",
};

/// The `net` kind; the bare path of a `.safetensors` or `.ckpt` file means `net:path=FILE`.
pub const NET_KIND: AgentKind = AgentKind {
    name: "net",
    summary: "tree search with a trained network, or its raw policy with sims=0",
    options: &[
        PATH,
        MODEL,
        WEIGHTS,
        OptionDef {
            value: ValueType::Whole {
                min: 0,
                max: MAX_SIMS,
            },
            help: "simulations per decision (0: the legal action the network rates highest; \
                   with ms: whichever runs out first)",
            ..SIMS
        },
        MS,
        CPUCT,
        GUMBEL,
        CONSIDERED,
        TEMP,
        FPU,
        OptionDef {
            // AGENT_BATCH
            default: OptionDefault::Value("8"),
            help: "leaves per network call",
            ..BATCH
        },
        OptionDef {
            name: "lambda",
            value: ValueType::Real { min: 0.0, max: 1.0 },
            default: OptionDefault::Value("0"),
            help: "weight of the alpha-beta value in a leaf's value (0: none)",
        },
        OptionDef {
            name: "abdepth",
            value: ValueType::Whole { min: 0, max: 8 },
            default: OptionDefault::Value("1"),
            help: "depth in turns of the alpha-beta search at each leaf whose value is \
                   mixed with the network's (0: quiescence only)",
        },
        OptionDef {
            name: "abnodes",
            value: ValueType::Whole {
                min: 1,
                max: 1_000_000_000,
            },
            default: OptionDefault::Value("200"),
            help: "most nodes of a leaf's alpha-beta search (beyond: the network's value alone)",
        },
        AB_TABLES,
        OptionDef::SEED,
    ],
    path_extensions: &["safetensors", "ckpt"],
    factory: create_net_agent,
};

/// Leaves a network player's search sends to the network at once.
const AGENT_BATCH: usize = 8;

/// The network's search player of the arena and the run's evaluation: searches with `search`,
/// seeded by `seed`, [`AGENT_BATCH`] leaves per network call.
pub fn network_agent(
    net: &PolicyValueNet,
    search: &SearchConfig,
    seed: u64,
    name: String,
) -> Box<dyn Agent<Fanorona>> {
    let config = SearchConfig {
        seed,
        ..search.clone()
    };
    Box::new(MctsAgent::new(
        config,
        NetworkEvaluator::<Fanorona>::new(net),
        AGENT_BATCH,
        name,
    ))
}

/// Plays the legal action to which the network gives the highest logit (no search).
pub struct PolicyAgent<G: Game> {
    evaluator: NetworkEvaluator<G>,
    name: String,
    logits: Vec<f32>,
    info: Option<SearchInfo>,
}

impl<G: Game> PolicyAgent<G> {
    /// A raw-policy player with `evaluator`'s network, called `name`.
    pub fn new(evaluator: NetworkEvaluator<G>, name: String) -> PolicyAgent<G> {
        PolicyAgent {
            evaluator,
            name,
            logits: Vec::new(),
            info: None,
        }
    }
}

impl<G: Game> Agent<G> for PolicyAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        let start = std::time::Instant::now();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        if legal.is_empty() {
            return Err(AgentError {
                agent: self.name.clone(),
                reason: "no legal action (the game is over)".into(),
            });
        }
        self.logits.resize(state.num_actions(), 0.0);
        let mut value = [0.0];
        self.evaluator
            .evaluate(std::slice::from_ref(state), &mut self.logits, &mut value);
        let best = legal
            .iter()
            .copied()
            .max_by(|&a, &b| self.logits[a].total_cmp(&self.logits[b]).then(b.cmp(&a)))
            .expect("at least one legal action");
        self.info = Some(SearchInfo {
            value: Some(value[0]),
            wdl: self.evaluator.own_wdl(state),
            nodes: 1,
            time: start.elapsed(),
            pv: vec![state.action_name(best)],
            ..SearchInfo::default()
        });
        Ok(best)
    }

    fn reset(&mut self) {
        self.info = None;
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

/// A network player that refuses, with a clear error, a game its network was not made for.
pub struct NetAgent<G: Game> {
    inner: Box<dyn Agent<G>>,
    network: NetworkConfig,
    made_for: GameId,
}

impl<G: Game> NetAgent<G> {
    /// Wraps `inner`, which plays with a network of `network`'s configuration made for
    /// `made_for` (e.g. `fanorona 9x5`).
    pub fn new(inner: Box<dyn Agent<G>>, network: NetworkConfig, made_for: GameId) -> NetAgent<G> {
        NetAgent {
            inner,
            network,
            made_for,
        }
    }
}

impl<G: Game> Agent<G> for NetAgent<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        if !self.network.fits(state) {
            let [planes, height, width] = state.observation_shape();
            let n = &self.network;
            return Err(AgentError {
                agent: self.inner.name(),
                reason: format!(
                    "its network was made for {} (observation {}x{}x{}, {} actions) and cannot \
                     play this game (a {width}x{height} board: observation \
                     {planes}x{height}x{width}, {} actions)",
                    self.made_for,
                    n.planes,
                    n.height,
                    n.width,
                    n.num_actions,
                    state.num_actions()
                ),
            });
        }
        self.inner.act(state)
    }

    fn reset(&mut self) {
        self.inner.reset();
    }

    fn set_limits(&mut self, limits: &SearchLimits) {
        self.inner.set_limits(limits);
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.inner.last_info()
    }

    fn game(&self) -> Option<GameId> {
        Some(self.made_for)
    }
}

/// The network of a specification's `path` (or, without one, `model`) and `weights` options,
/// with the file's description; refused unless it was made for Fanorona.
pub fn load_fanorona_net(
    options: &AgentOptions,
) -> Result<(PolicyValueNet, PolicyMeta), SpecError> {
    let spec = options.spec();
    let unavailable = |reason: String| SpecError::Unavailable {
        spec: spec.to_string(),
        reason,
    };
    let model = options.text("model").expect("model has a default");
    let bad_model = |expected: String| SpecError::BadValue {
        kind: spec.kind.clone(),
        option: "model".into(),
        value: model.into(),
        expected,
    };
    let loaded = match options.text("path") {
        Some(_) if options.is_given("model") => {
            return Err(bad_model(
                "no model with path (path plays a file, model a shipped model)".into(),
            ));
        }
        Some(path) => load_policy(Path::new(path)),
        None => ShippedModel::named(model)
            .ok_or_else(|| {
                let names = ShippedModel::ALL.map(ShippedModel::name);
                bad_model(names.join(" or "))
            })?
            .load_on(&Device::flex()),
    };
    let LoadedPolicy {
        net,
        last_weights,
        meta,
        ..
    } = loaded.map_err(|e| unavailable(e.to_string()))?;
    let net = match options.text("weights").expect("weights has a default") {
        "ema" => net,
        "last" => last_weights.unwrap_or(net),
        other => {
            return Err(SpecError::BadValue {
                kind: spec.kind.clone(),
                option: "weights".into(),
                value: other.into(),
                expected: "ema or last".into(),
            });
        }
    };
    if !meta.game.has_network_agents() {
        return Err(unavailable(format!(
            "the file holds a network for {}, and this agent plays fanorona",
            meta.game
        )));
    }
    Ok((net, meta))
}

/// The factory of [`NET_KIND`]: a `net:path=FILE,...` agent for Fanorona; `seed` is used unless
/// the specification gives `seed=S`.
fn create_net_agent(
    options: &AgentOptions,
    seed: u64,
) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    let name = options.spec().to_string();
    let (net, meta) = load_fanorona_net(options)?;
    let tables = tables_dir(options)?;
    let evaluator = NetworkEvaluator::<Fanorona>::new(&net);
    let inner: Box<dyn Agent<Fanorona>> = if options.whole::<u32>("sims") == Some(0) {
        let searching = ["ms", "lambda", "abdepth", "abnodes"];
        if let Some(option) = searching.into_iter().find(|o| options.is_given(o)) {
            return Err(SpecError::BadValue {
                kind: NET_KIND.name.into(),
                option: option.into(),
                value: options.spec().option(option).unwrap_or_default().into(),
                expected: "nothing with sims=0 (the raw policy does not search)".into(),
            });
        }
        Box::new(PolicyAgent::new(evaluator, name))
    } else {
        let batch = options.whole("batch").expect("batch has a default");
        let search = MctsSettings {
            config: search_config(options, seed),
            budget: search_budget(options),
            batch,
            name,
            tables: match (&tables, meta.game.fanorona_board()) {
                (Some(dir), Some(board)) => {
                    Some(
                        shared_tables(dir, board).map_err(|e| SpecError::Unavailable {
                            spec: options.spec().to_string(),
                            reason: e.to_string(),
                        })?,
                    )
                }
                _ => None,
            },
        };
        let lambda = options.real("lambda").expect("lambda has a default") as f32;
        if lambda > 0.0 {
            let probe = LeafProbe {
                depth: options.whole("abdepth").expect("abdepth has a default"),
                lambda,
                max_nodes: options.whole("abnodes").expect("abnodes has a default"),
            };
            search.agent(AlphaBetaMix::new(evaluator, probe))
        } else {
            search.agent(evaluator)
        }
    };
    let inner = match tables {
        Some(dir) => Box::new(TablesFirst::new(inner, dir)),
        None => inner,
    };
    let agent = Box::new(NetAgent::new(inner, net.config().clone(), meta.game));
    Ok(with_board_models(options, seed, agent))
}

/// How a `net` agent searches: the search, its budget, leaves per network call, its name, and
/// the endgame tables of its leaves.
struct MctsSettings {
    config: SearchConfig,
    budget: Budget,
    batch: usize,
    name: String,
    tables: Option<Arc<EndgameTables>>,
}

impl MctsSettings {
    /// The searching agent with leaves valued by `evaluator` (made exact where the tables
    /// hold them).
    fn agent<E: Evaluator<Fanorona> + 'static>(self, evaluator: E) -> Box<dyn Agent<Fanorona>> {
        let MctsSettings {
            config,
            budget,
            batch,
            name,
            tables,
        } = self;
        match tables {
            Some(tables) => Box::new(
                MctsAgent::new(config, TableLeaves::new(evaluator, tables), batch, name)
                    .with_budget(budget),
            ),
            None => Box::new(MctsAgent::new(config, evaluator, batch, name).with_budget(budget)),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::Architecture;
    use crate::io::{PolicyMeta, export_policy};
    use burn::module::Module;
    use fanorona_env::action::ENCODING_VERSION;
    use fanorona_env::{Board, Position, Rules, Wdl};

    /// The agent of `text`, built through the project's registry.
    fn create(text: &str) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
        let registry = crate::players::registry();
        registry.create(&registry.parse(text)?, 0)
    }

    /// A tiny untrained network for the standard board, exported into a fresh folder.
    fn exported(name: &str) -> (std::path::PathBuf, crate::model::PolicyValueNet) {
        exported_with(name, Architecture::mlp(&[16]))
    }

    /// An untrained network of `architecture` for the standard board, exported into a fresh
    /// folder named after `name`.
    pub(crate) fn exported_with(
        name: &str,
        architecture: Architecture,
    ) -> (std::path::PathBuf, crate::model::PolicyValueNet) {
        exported_config(
            name,
            NetworkConfig::for_game(&Fanorona::standard(), architecture),
        )
    }

    /// An untrained network of `config` for the standard board, exported into a fresh
    /// folder named after `name`.
    fn exported_config(
        name: &str,
        config: NetworkConfig,
    ) -> (std::path::PathBuf, crate::model::PolicyValueNet) {
        let dir = std::env::temp_dir().join(format!("fanorona-net-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 1).unwrap();
        let meta = PolicyMeta {
            game: GameId::standard(),
            rules: Rules::default().to_string(),
            encoding_version: ENCODING_VERSION,
            network: config,
            step: 0,
        };
        let path = dir.join("agent.safetensors");
        export_policy(&net, &meta, &path).unwrap();
        (path, net)
    }

    #[test]
    fn with_tables_a_net_agent_wins_a_won_ending_at_once() {
        let (path, _) = exported("tables");
        let tables = tempfile::tempdir().unwrap();
        let board = Board::standard();
        fanorona_exact::tables::build(board, 3, tables.path(), &Default::default()).unwrap();
        let spec = |options: &str| {
            format!(
                "net:path={},{options},tables={}",
                path.display(),
                tables.path().display()
            )
        };
        // White wins at once only by the whole chain c1d1A d1d2A; the untrained network alone
        // may stop after the first capture.
        let won = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        for options in ["sims=8,seed=1", "sims=0"] {
            let mut agent = create(&spec(options)).unwrap();
            let mut game = won.clone();
            while !game.is_terminal() && game.current_player() == fanorona_env::Color::White {
                let action = agent.act(&game).unwrap();
                game.apply(action).unwrap();
            }
            assert_eq!(
                game.position().pieces(fanorona_env::Color::Black),
                0,
                "{options}"
            );
            assert_eq!(agent.last_info().unwrap().mate_in, Some(1), "{options}");
        }
        let missing = create(&format!(
            "net:path={},tables=/nonexistent/tables",
            path.display()
        ));
        assert!(missing.err().unwrap().to_string().contains("not a folder"));
        let empty = tempfile::tempdir().unwrap();
        let none = create(&format!(
            "net:path={},tables={}",
            path.display(),
            empty.path().display()
        ));
        assert!(
            none.err()
                .unwrap()
                .to_string()
                .contains("no endgame tables")
        );
    }

    #[test]
    fn the_raw_policy_reports_a_wdl_heads_own_probabilities_and_a_scalar_head_none() {
        let mut config = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[16]));
        config.value_head = crate::config::ValueHead::Wdl;
        let (wdl_path, wdl_net) = exported_config("wdl-info", config);
        let (scalar_path, _) = exported("scalar-info");
        let game = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        let info = |path: &std::path::Path| {
            let mut agent = create(&format!("net:path={},sims=0", path.display())).unwrap();
            agent.act(&game).unwrap();
            agent.last_info().unwrap()
        };
        let mut obs = vec![0.0; game.observation_shape().iter().product()];
        game.write_observation(&mut obs);
        let mut expected = [Wdl::from_value(0.0)];
        let mut logits = vec![0.0; game.num_actions()];
        wdl_net.valid().infer_wdl(&obs, &mut logits, &mut expected);
        let reported = info(&wdl_path);
        assert_eq!(reported.wdl, Some(expected[0]));
        assert!((reported.value.unwrap() - expected[0].value()).abs() < 1e-5);
        assert_eq!(info(&scalar_path).wdl, None);
        for path in [wdl_path, scalar_path] {
            std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
        }
    }

    #[test]
    fn net_agents_search_or_play_the_raw_policy_legally() {
        let (path, net) = exported("play");
        let game = Fanorona::standard();
        let spec = |options: &str| format!("net:path={},{options}", path.display());
        let mut searcher = create(&spec("sims=16,seed=3")).unwrap();
        assert!(game.is_legal(searcher.act(&game).unwrap()));
        assert_eq!(searcher.last_info().unwrap().nodes, 16);

        // A time limit per turn, alone or with simulations (whichever runs out first).
        let mut timed = create(&spec("ms=30,seed=3")).unwrap();
        assert!(game.is_legal(timed.act(&game).unwrap()));
        let info = timed.last_info().unwrap();
        assert!(info.nodes > 0 && info.time >= std::time::Duration::from_millis(30));
        let mut capped = create(&spec("sims=5,ms=60000")).unwrap();
        capped.act(&game).unwrap();
        assert_eq!(capped.last_info().unwrap().nodes, 5);
        for searching in ["ms=30", "lambda=0.5", "abdepth=1", "abnodes=10"] {
            let err = create(&spec(&format!("sims=0,{searching}"))).err().unwrap();
            assert!(matches!(err, SpecError::BadValue { .. }), "{err}");
            assert!(err.to_string().contains("sims=0"), "{err}");
        }

        // Leaf values mixed with alpha-beta probes: in a won position (white wipes black out
        // by c1d1A d1d2A) the probes raise the root value above the untrained network's.
        let won = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        let root_value = |options: &str| {
            let mut agent = create(&spec(options)).unwrap();
            assert!(won.is_legal(agent.act(&won).unwrap()));
            agent.last_info().unwrap().value.unwrap()
        };
        let pure = root_value("sims=16,seed=3");
        let mixed = root_value("sims=16,seed=3,lambda=1,abdepth=1");
        assert!(mixed > pure, "{mixed} against {pure}");

        let mut raw = create(&spec("sims=0")).unwrap();
        let chosen = raw.act(&game).unwrap();
        // The raw policy is the legal action the network rates highest.
        let mut logits = vec![0.0; game.num_actions()];
        NetworkEvaluator::<Fanorona>::new(&net).evaluate(
            std::slice::from_ref(&game),
            &mut logits,
            &mut [0.0],
        );
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        assert!(legal.contains(&chosen));
        assert!(legal.iter().all(|&a| logits[a] <= logits[chosen]));

        // The bare path of a .safetensors file means net:path=FILE.
        let parsed = crate::players::registry()
            .parse(path.to_str().unwrap())
            .unwrap();
        assert_eq!(
            (parsed.kind.as_str(), parsed.option("path")),
            ("net", path.to_str())
        );
        assert_eq!(
            create(path.to_str().unwrap()).unwrap().name(),
            format!("net:path={}", path.display())
        );
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_network_for_another_board_or_a_bad_spec_is_refused() {
        let (path, _) = exported("refuse");
        let mut agent = create(&format!("net:path={},sims=4", path.display())).unwrap();
        let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let err = agent.act(&small).unwrap_err();
        assert!(
            err.reason.contains("made for fanorona 9x5") && err.reason.contains("5x3 board"),
            "{err}"
        );
        // Without a file: a shipped model, the teacher by default; never both.
        let game = Fanorona::standard();
        let registry = crate::players::registry();
        for (spec, network) in [
            ("net:sims=4", "mlp 256-256"),
            ("net:sims=4,model=student", "mlp 64-32"),
        ] {
            let mut agent = create(spec).unwrap();
            assert!(game.is_legal(agent.act(&game).unwrap()), "{spec}");
            assert_eq!(agent.name(), spec);
            let parsed = registry.parse(spec).unwrap();
            let (net, _) = load_fanorona_net(&registry.options(&parsed).unwrap()).unwrap();
            assert_eq!(net.config().architecture.describe(), network, "{spec}");
        }
        let err = create("net:model=master").err().unwrap();
        assert!(matches!(err, SpecError::BadValue { .. }), "{err}");
        assert!(err.to_string().contains("student or teacher"), "{err}");
        let err = create(&format!("net:path={},model=student", path.display()))
            .err()
            .unwrap();
        assert!(err.to_string().contains("no model with path"), "{err}");
        // A missing file, bare or not, is refused by the factory, not as a syntax error.
        for missing in ["net:path=/nonexistent.safetensors", "/nonexistent/run.ckpt"] {
            let err = create(missing).err().unwrap();
            assert!(matches!(err, SpecError::Unavailable { .. }), "{err}");
            assert!(err.to_string().contains("no policy file"), "{err}");
        }
        let err = create(&format!("net:path={},depth=3", path.display()))
            .err()
            .unwrap();
        assert!(matches!(err, SpecError::UnknownOption { .. }), "{err}");
        let err = create(&format!("net:path={},lambda=1.5", path.display()))
            .err()
            .unwrap();
        assert!(matches!(err, SpecError::BadValue { .. }), "{err}");
        let err = create(&format!("net:path={},weights=mean", path.display()))
            .err()
            .unwrap();
        assert!(matches!(err, SpecError::BadValue { .. }), "{err}");
        assert!(err.to_string().contains("ema or last"), "{err}");
        // A policy file has one set of weights: both choices play it.
        for weights in ["ema", "last"] {
            let spec = format!("net:path={},weights={weights},sims=4", path.display());
            let mut agent = create(&spec).unwrap();
            let game = Fanorona::standard();
            assert!(game.is_legal(agent.act(&game).unwrap()));
        }
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
