//! Every agent kind of the project in one [`Registry`]: `fanorona-eval`'s (with `random` from
//! `fanorona-env`), then `mcts` (`fanorona-search`'s, with endgame tables added here), `net` and `abnet`.

use fanorona_env::Registry;

/// The registry of every agent kind: random, greedy, minimax, solver, perfect, engine, mcts, net,
/// abnet.
pub fn registry() -> Registry {
    let mut registry = fanorona_eval::registry();
    registry.register(crate::players::MCTS_TABLES_KIND);
    registry.register(crate::players::NET_KIND);
    registry.register(crate::players::ABNET_KIND);
    registry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_registered_and_listed_on_error() {
        let registry = registry();
        let names: Vec<&str> = registry.kinds().iter().map(|k| k.name).collect();
        assert_eq!(
            names,
            [
                "random", "greedy", "minimax", "solver", "perfect", "engine", "mcts", "net",
                "abnet"
            ]
        );
        assert_eq!(registry.help().lines().count(), names.len());
        for text in [
            "random",
            "greedy",
            "minimax:depth=2",
            "mcts:sims=16,batch=4",
        ] {
            let agent = registry.create(&registry.parse(text).unwrap(), 1).unwrap();
            assert_eq!(agent.name(), text);
        }
        let err = registry
            .create(&registry.parse("alphabeta").unwrap(), 0)
            .err()
            .unwrap()
            .to_string();
        for name in names {
            assert!(err.contains(&format!("\n  {name}: ")), "{err}");
        }
    }
}
