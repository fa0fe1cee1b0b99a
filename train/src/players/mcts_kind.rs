//! The `mcts` kind as the project's registry holds it: the search crate's `mcts` (tree search
//! with random-playout values) with one more option, `tables=DIR`, taken as `net` takes it:
//! the endgame tables play the positions they hold, and every leaf they hold gets its exact
//! value. (`fanorona-search` does not know the tables' crate, so the option is added here.)

use fanorona_env::{Agent, AgentKind, AgentOptions, Fanorona, OptionDef, SpecError};
use fanorona_eval::TablesFirst;
use fanorona_eval::{AB_TABLES, tables_dir};
use fanorona_search::{MCTS_KIND, MCTS_OPTIONS, mcts_agent};

use super::TableLeaves;

/// The search crate's `mcts` options and `tables`.
const OPTIONS: [OptionDef; MCTS_OPTIONS.len() + 1] = with_tables(MCTS_OPTIONS);

/// `options` followed by [`AB_TABLES`].
const fn with_tables<const N: usize, const M: usize>(options: [OptionDef; N]) -> [OptionDef; M] {
    let mut all = [AB_TABLES; M];
    let mut i = 0;
    while i < N {
        all[i] = options[i];
        i += 1;
    }
    all
}

/// The `mcts` kind ([`MCTS_KIND`] of the search crate) with endgame tables: the one the
/// project's registry holds.
pub const MCTS_TABLES_KIND: AgentKind = AgentKind {
    options: &OPTIONS,
    factory: create,
    ..MCTS_KIND
};

/// The factory of [`MCTS_TABLES_KIND`]: the search crate's agent, with the tables where given.
fn create(options: &AgentOptions, seed: u64) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    Ok(match tables_dir(options)? {
        None => mcts_agent(options, seed, |playouts| playouts),
        Some(dir) => {
            let search = mcts_agent(options, seed, |playouts| {
                TableLeaves::from_folder(playouts, dir.clone())
            });
            Box::new(TablesFirst::new(search, dir))
        }
    })
}

#[cfg(test)]
mod tests {
    use fanorona_env::{Board, Color, Game, Position};

    use super::*;

    #[test]
    fn with_tables_an_mcts_agent_wins_a_won_ending_and_refuses_a_missing_folder() {
        let tables = tempfile::tempdir().unwrap();
        fanorona_exact::tables::build(Board::standard(), 3, tables.path(), &Default::default())
            .unwrap();
        let registry = crate::players::registry();
        let create = |text: &str| registry.create(&registry.parse(text)?, 0);
        let spec = format!("mcts:sims=4,tables={}", tables.path().display());
        // White wins at once only by the whole chain c1d1A d1d2A.
        let mut game = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        let mut agent = create(&spec).unwrap();
        while !game.is_terminal() && game.current_player() == Color::White {
            game.apply(agent.act(&game).unwrap()).unwrap();
        }
        assert_eq!(game.position().pieces(Color::Black), 0);
        assert_eq!(agent.last_info().unwrap().mate_in, Some(1));
        // Without tables the option list is the search crate's, and the agent plays.
        let mut plain = create("mcts:sims=4").unwrap();
        assert!(plain.act(&Fanorona::standard()).is_ok());
        let missing = create("mcts:tables=/nonexistent/tables")
            .map(|_| ())
            .unwrap_err();
        assert!(missing.to_string().contains("not a folder"), "{missing}");
    }

    #[test]
    fn the_kind_offers_the_search_options_and_tables() {
        let names: Vec<&str> = MCTS_TABLES_KIND.options.iter().map(|o| o.name).collect();
        assert_eq!(names.len(), MCTS_OPTIONS.len() + 1);
        assert!(MCTS_OPTIONS.iter().all(|o| names.contains(&o.name)));
        assert_eq!(names.last(), Some(&"tables"));
        assert_eq!(MCTS_TABLES_KIND.name, "mcts");
    }
}
