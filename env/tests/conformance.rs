//! The `Game` trait's contract, checked generically (in the spirit of pgx's `api_test`) on
//! seeded random games of every implementation: Fanorona on several boards and rule variants,
//! and Fanoron-Telo. Each check names the promise of `env/src/game.rs` it holds the game to.
//! Symmetries are checked here as permutations; `symmetry.rs` checks that they commute with
//! positions built independently.

use fanorona_env::{ActionError, Board, Color, Fanorona, Game, Position, Rules, Telo};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Actions after which a random game is abandoned (games under draw limits end long before).
const MAX_GAME_ACTIONS: usize = 1_000;

/// Everything the trait lets one observe of a state, to compare states of any game.
#[derive(Debug, PartialEq)]
struct Snapshot {
    text: String,
    terminal: bool,
    /// Meaningful only while the game goes on.
    player: Option<Color>,
    returns: [f32; 2],
    mask: Vec<bool>,
    observation: Vec<f32>,
}

fn snapshot<G: Game>(game: &G) -> Snapshot {
    let terminal = game.is_terminal();
    Snapshot {
        text: game.to_text(),
        terminal,
        player: (!terminal).then(|| game.current_player()),
        returns: game.returns(),
        mask: mask(game, false),
        observation: observation(game, 0.0),
    }
}

/// The legal mask, written over a buffer filled with `fill`.
fn mask<G: Game>(game: &G, fill: bool) -> Vec<bool> {
    let mut mask = vec![fill; game.num_actions()];
    game.legal_mask(&mut mask);
    mask
}

/// The observation, written over a buffer filled with `fill`.
fn observation<G: Game>(game: &G, fill: f32) -> Vec<f32> {
    let len = game.observation_shape().iter().product();
    let mut out = vec![fill; len];
    game.write_observation(&mut out);
    out
}

/// Plays `games` seeded random games from `start` and checks every state met (see
/// [`check_state`]) and every transition (see [`check_transition`]). `from_text` reads the
/// state's text form back.
fn check_game<G: Game>(start: G, from_text: impl Fn(&str) -> G, seed: u64, games: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut finished = 0;
    for _ in 0..games {
        let mut game = start.clone();
        for _ in 0..MAX_GAME_ACTIONS {
            check_state(&game, &from_text);
            // The sizes of the action space and the observation do not change during a game.
            assert_eq!(game.num_actions(), start.num_actions());
            assert_eq!(game.observation_shape(), start.observation_shape());
            if game.is_terminal() {
                finished += 1;
                break;
            }
            game.legal_actions(&mut legal);
            let action = legal[rng.random_range(0..legal.len())];
            check_transition(&mut game, action);
        }
    }
    assert!(finished > 0, "no random game of {start:?} ended");
}

/// Checks one state against the trait's promises.
fn check_state<G: Game>(game: &G, from_text: &impl Fn(&str) -> G) {
    let n = game.num_actions();
    let here = snapshot(game);
    let context = &here.text;

    // `legal_actions` clears its output and lists the legal actions in increasing order,
    // each below `num_actions`; it agrees with `legal_mask` and `is_legal`.
    let mut legal = vec![usize::MAX; 3];
    game.legal_actions(&mut legal);
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]),
        "{context}: {legal:?}"
    );
    assert!(legal.iter().all(|&a| a < n), "{context}: {legal:?}");
    let from_mask: Vec<usize> = (0..n).filter(|&a| here.mask[a]).collect();
    assert_eq!(legal, from_mask, "{context}");
    assert!(
        (0..n).all(|a| game.is_legal(a) == here.mask[a]),
        "{context}"
    );
    // The mask is written whole, whatever the buffer held.
    assert_eq!(mask(game, true), here.mask, "{context}");

    // There are legal actions exactly while the game goes on.
    assert_eq!(legal.is_empty(), here.terminal, "{context}");

    // Returns: all zero while the game goes on; at the end +1/-1 or a 0-0 draw (zero-sum).
    let [white, black] = here.returns;
    if here.terminal {
        assert!([1.0, 0.0, -1.0].contains(&white), "{context}: {white}");
        assert_eq!(white + black, 0.0, "{context}");
    } else {
        assert_eq!(here.returns, [0.0, 0.0], "{context}");
    }

    // The observation fills planes x height x width values, all of them written, and depends
    // on the state only: a second call and a clone give the same.
    let [planes, height, width] = game.observation_shape();
    assert_eq!(here.observation.len(), planes * height * width);
    assert!(here.observation.iter().all(|v| v.is_finite()), "{context}");
    assert_eq!(observation(game, f32::NAN), here.observation, "{context}");
    assert_eq!(snapshot(&game.clone()), here, "{context}");

    // Mover-frame actions are a permutation of the action space with the given inverse.
    let mut seen = vec![false; n];
    for a in 0..n {
        let mover = game.to_mover_action(a);
        assert!(mover < n && !seen[mover], "{context}: action {a}");
        seen[mover] = true;
        assert_eq!(game.mover_action_to_absolute(mover), a, "{context}");
    }

    check_symmetries(game, &here.observation);

    // Every legal action's name reads back as that action.
    for &a in &legal {
        let name = game.action_name(a);
        assert_eq!(game.parse_action(&name), Ok(a), "{context}: {name}");
    }

    // The text form reads back into the same text and, while the game goes on, the same legal
    // actions. (It holds the position, not the history: a repetition draw may be lost.)
    let read = from_text(&here.text);
    assert_eq!(read.to_text(), here.text);
    if !here.terminal {
        assert_eq!(mask(&read, false), here.mask, "{context}");
    }

    // Refused actions leave the state as it was: any action once the game is over, an index
    // outside the action space, an illegal one.
    let refused = |action: usize| {
        let mut copy = game.clone();
        let err = copy.apply(action).unwrap_err();
        assert_eq!(snapshot(&copy), here, "{context}: action {action}");
        err
    };
    if here.terminal {
        assert_eq!(refused(0), ActionError::GameOver);
        return;
    }
    assert!(matches!(refused(n), ActionError::OutOfRange { .. }));
    assert!(matches!(
        refused(usize::MAX),
        ActionError::OutOfRange { .. }
    ));
    if let Some(illegal) = (0..n).find(|&a| !here.mask[a]) {
        assert!(matches!(refused(illegal), ActionError::Illegal { .. }));
    }
}

/// Symmetry 0 is the identity; every symmetry permutes the mover-frame actions and rearranges
/// the observation's values (the same multiset, length kept).
fn check_symmetries<G: Game>(game: &G, obs: &[f32]) {
    let n = game.num_actions();
    let count = game.num_symmetries();
    assert!(count >= 1);
    let sorted = |values: &[f32]| {
        let mut values = values.to_vec();
        values.sort_by(f32::total_cmp);
        values
    };
    let mut out = vec![f32::NAN; obs.len()];
    for sym in 0..count {
        game.transform_observation(sym, obs, &mut out);
        if sym == 0 {
            assert_eq!(out, obs);
        } else {
            assert_eq!(sorted(&out), sorted(obs), "symmetry {sym}");
        }
        let mut seen = vec![false; n];
        for a in 0..n {
            let mapped = game.transform_action(sym, a);
            assert!(mapped < n && !seen[mapped], "symmetry {sym}, action {a}");
            seen[mapped] = true;
            if sym == 0 {
                assert_eq!(mapped, a);
            }
        }
    }
}

/// Applies the legal `action` to `game` through `apply`, checking that `apply_unchecked` gives
/// the same state.
fn check_transition<G: Game>(game: &mut G, action: usize) {
    let mut unchecked = game.clone();
    unchecked.apply_unchecked(action);
    game.apply(action).unwrap();
    assert_eq!(snapshot(game), snapshot(&unchecked), "action {action}");
}

/// Checks Fanorona from the initial position of a `width x height` board under `rules` (as
/// `--rules` reads them).
fn check_fanorona(width: usize, height: usize, rules: &str, seed: u64, games: usize) {
    let rules = Rules::parse(rules).unwrap();
    let start =
        Fanorona::new(Position::initial(Board::new(width, height).unwrap()).with_rules(rules));
    let from_text = |fen: &str| Fanorona::new(Position::from_fen_with_rules(fen, rules).unwrap());
    check_game(start, from_text, seed, games);
}

#[test]
fn fanorona_9x5_keeps_the_game_contract() {
    check_fanorona(9, 5, "", 1, 4);
}

#[test]
fn fanorona_on_small_boards_keeps_the_game_contract() {
    check_fanorona(5, 5, "", 2, 10);
    check_fanorona(3, 3, "", 3, 40);
    check_fanorona(5, 3, "", 4, 30);
    check_fanorona(7, 3, "", 5, 20);
    check_fanorona(3, 5, "", 6, 30);
}

#[test]
fn fanorona_variants_keep_the_game_contract() {
    check_fanorona(9, 5, "mandatory", 7, 3);
    check_fanorona(9, 5, "first-turn", 8, 3);
    check_fanorona(9, 5, "vela=black", 9, 2);
    check_fanorona(5, 5, "vela=white,no-capture=20", 10, 10);
    check_fanorona(5, 3, "mandatory,first-turn,repetition=2", 11, 30);
    check_fanorona(3, 3, "no-capture=off,repetition=off", 12, 30);
}

#[test]
fn telo_keeps_the_game_contract() {
    for max_plies in [Some(Telo::DEFAULT_MAX_PLIES), Some(12), None] {
        let from_text = move |text: &str| Telo::from_text(text, max_plies).unwrap();
        check_game(Telo::with_max_plies(max_plies), from_text, 13, 60);
    }
}
