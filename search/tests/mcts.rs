//! Tests of the tree search on real Fanorona positions: winning moves found (checked against an
//! exhaustive negamax over complete turns), legal-only policies, capture chains backed up by
//! player to act, forced playouts and target pruning, the Gumbel budget, determinism, tree
//! reuse, and a match against random play.

use fanorona_env::{Agent, Color, Fanorona, Game, Position};
use fanorona_search::{
    Evaluator, MctsAgent, RolloutEvaluator, SearchConfig, SearchDriver, UniformEvaluator,
};

fn game(fen: &str) -> Fanorona {
    Fanorona::new(Position::from_fen(fen).expect("valid FEN"))
}

/// Negamax over complete turns: +1 if the side to move wins within `depth` turns, -1 if it
/// loses within them, 0 otherwise (draw or not decided).
fn negamax(pos: &Position, depth: u32) -> i32 {
    if let Some(outcome) = pos.outcome(1) {
        return match outcome.winner() {
            Some(c) if c == pos.side_to_move() => 1,
            Some(_) => -1,
            None => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut best = -1;
    pos.for_each_turn(|turn| {
        let mut next = *pos;
        next.play_turn_unchecked(turn);
        best = best.max(-negamax(&next, depth - 1));
    });
    best
}

/// The value, for the player to act in `state`, of each legal action: +1 a proven win within
/// `depth` turns, -1 a proven loss, 0 undecided.
fn action_values(state: &Fanorona, depth: u32) -> Vec<(usize, i32)> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    let me = state.current_player();
    actions
        .iter()
        .map(|&a| {
            let mut next = state.clone();
            next.apply(a).unwrap();
            let v = if next.is_terminal() {
                next.returns()[me.index()] as i32
            } else {
                negamax(next.position(), depth)
            };
            (
                a,
                if next.current_player() == me || next.is_terminal() {
                    v
                } else {
                    -v
                },
            )
        })
        .collect()
}

/// The winning actions of `state`, after checking that every other action is a proven loss
/// and that there are some (so that a wrong choice loses).
fn winning_actions(state: &Fanorona, depth: u32) -> Vec<usize> {
    let values = action_values(state, depth);
    let wins: Vec<usize> = values.iter().filter(|v| v.1 > 0).map(|v| v.0).collect();
    assert!(
        !wins.is_empty() && wins.len() < values.len() && values.iter().all(|v| v.1 != 0),
        "{}: not a test position: {values:?}",
        state.to_text()
    );
    wins
}

/// Positions on 3x3, 5x3 and 5x5 boards where the side to move wins by force and every other
/// action loses by force; six of them in mid-chain.
const WIN_POSITIONS: [&str; 9] = [
    "3/B2/1W1 w 0 5",
    "1B1/2W/3 b 0 6",
    "W2/1BW/3 b 2 4 b2:b2,b3:S",
    "B4/1B2W/WW2W b 0 4 b2:a2,b2:E",
    "5/1W1B1/2W2 b 0 6 d2:d2,d3:S",
    "4B/1BW2/W4 b 0 5 b2:b2,b3:S",
    "3BB/1WB2/3WW b 0 3",
    "4B/2B1W/2W2 w 0 5",
    "2BB1/2W2/5/1B1W1/1W2B b 0 5 b2:b2,a3:SE",
];

fn search_once<E: Evaluator<Fanorona>>(
    state: &Fanorona,
    config: SearchConfig,
    evaluator: &mut E,
) -> SearchDriver<Fanorona> {
    let mut driver = SearchDriver::new(config, 1, std::slice::from_ref(state));
    driver.search(evaluator);
    driver
}

#[test]
fn search_picks_a_winning_move() {
    for gumbel in [false, true] {
        for fen in WIN_POSITIONS {
            let state = game(fen);
            let wins = winning_actions(&state, 5);
            let config = SearchConfig {
                simulations: if gumbel { 100 } else { 800 },
                gumbel,
                seed: 3,
                ..SearchConfig::default()
            };
            let driver = search_once(&state, config, &mut RolloutEvaluator::new(2, 200, 1));
            let action = driver.result(0).unwrap().action;
            assert!(
                wins.contains(&action),
                "{fen} (gumbel {gumbel}): chose {}, winning: {:?}",
                state.action_name(action),
                wins.iter()
                    .map(|&a| state.action_name(a))
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn policies_are_zero_on_illegal_actions() {
    for gumbel in [false, true] {
        let state = Fanorona::standard();
        let mut legal = vec![false; state.num_actions()];
        state.legal_mask(&mut legal);
        let config = SearchConfig {
            simulations: 300,
            gumbel,
            dirichlet_fraction: 0.25,
            ..SearchConfig::default()
        };
        let driver = search_once(&state, config, &mut RolloutEvaluator::new(1, 100, 2));
        let result = driver.result(0).unwrap();
        assert!(legal[result.action]);
        for policy in [&result.visit_policy, &result.improved_policy] {
            assert_eq!(policy.len(), state.num_actions());
            for (a, &p) in policy.iter().enumerate() {
                assert!(legal[a] || p == 0.0, "action {a} is illegal but has {p}");
            }
            assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
        assert!(result.visit_policy.iter().filter(|&&p| p > 0.0).count() > 1);
    }
}

#[test]
fn forced_playouts_spread_the_search_and_are_pruned_from_the_target() {
    let state = Fanorona::standard();
    let run = |forced_playouts| {
        let config = SearchConfig {
            simulations: 400,
            dirichlet_fraction: 0.25,
            forced_playouts,
            seed: 5,
            ..SearchConfig::default()
        };
        search_once(&state, config, &mut RolloutEvaluator::new(1, 100, 2))
    };
    let visited = |driver: &SearchDriver<Fanorona>| {
        let edges: Vec<_> = driver.search_of(0).root_edges().collect();
        let total: u32 = edges.iter().map(|e| e.visits).sum();
        let best = edges.iter().max_by_key(|e| e.visits).unwrap();
        let least = edges
            .iter()
            .map(|e| e.visits)
            .filter(|&n| n > 0)
            .min()
            .unwrap();
        (least, best.action, best.visits as f32 / total as f32)
    };
    let (plain_least, _, _) = visited(&run(0.0));
    let forced = run(2.0);
    let (forced_least, best, raw_share) = visited(&forced);
    // Forced playouts give every visited child a real look...
    assert!(
        forced_least > plain_least,
        "{forced_least} vs {plain_least}"
    );
    // ...and the target takes them back: the best child's share can only grow, the target is
    // still a distribution, and only visited children are in it.
    let result = forced.result(0).unwrap();
    assert!(result.visit_policy[best] > raw_share, "{raw_share}");
    assert!((result.visit_policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    let edges: Vec<_> = forced.search_of(0).root_edges().collect();
    assert!(
        edges
            .iter()
            .all(|e| e.visits > 0 || result.visit_policy[e.action] == 0.0)
    );
}

/// A value of +0.5 for white wherever the game stands: +0.5 when white is to act, -0.5 when
/// black is. Every backed-up value must then read +0.5 for white, at any depth.
struct WhiteIsBetter;

impl Evaluator<Fanorona> for WhiteIsBetter {
    fn evaluate(&mut self, states: &[Fanorona], policy: &mut [f32], values: &mut [f32]) {
        policy.fill(0.0);
        for (s, v) in states.iter().zip(values) {
            *v = if s.current_player() == Color::White {
                0.5
            } else {
                -0.5
            };
        }
    }
}

#[test]
fn a_chain_continuation_keeps_the_player_and_the_sign() {
    // White is in mid-chain on g3 and may capture again (g3h4A, g3h3W) or stop.
    let state = game("BBBB1B2B/BBB1B3B/BWBWBBW1W/WWWW3WW/WWWWWW3 w 0 3 g3:g2,g3:N");
    let config = SearchConfig {
        simulations: 200,
        ..SearchConfig::default()
    };
    let driver = search_once(&state, config, &mut WhiteIsBetter);
    let search = driver.search_of(0);
    let edges: Vec<_> = search.root_edges().collect();
    assert_eq!(edges.len(), 3);
    for edge in &edges {
        let name = state.action_name(edge.action);
        assert!(edge.visits > 0, "{name} never visited");
        let mut next = state.clone();
        next.apply(edge.action).unwrap();
        assert_eq!(edge.child_player, Some(next.current_player()), "{name}");
        let value = edge.value.unwrap();
        assert!(
            (value - 0.5).abs() < 1e-5,
            "{name}: value {value} for white"
        );
    }
    // The chain goes on after g3h4A (white again) and ends after stop (black).
    let player_after = |name: &str| {
        let edge = edges.iter().find(|e| state.action_name(e.action) == name);
        edge.unwrap().child_player
    };
    assert_eq!(player_after("g3h4A"), Some(Color::White));
    assert_eq!(player_after("stop"), Some(Color::Black));
    assert!((driver.result(0).unwrap().root_value - 0.5).abs() < 1e-5);
}

#[test]
fn a_winning_chain_continuation_is_worth_a_win() {
    // Black in mid-chain on b2 (5x3): one of its three actions wins, the others lose.
    let state = game("B4/1B2W/WW2W b 0 4 b2:a2,b2:E");
    let wins = winning_actions(&state, 5);
    let config = SearchConfig {
        simulations: 800,
        seed: 9,
        ..SearchConfig::default()
    };
    let driver = search_once(&state, config, &mut RolloutEvaluator::new(4, 200, 4));
    let result = driver.result(0).unwrap();
    assert!(wins.contains(&result.action));
    for edge in driver.search_of(0).root_edges() {
        let value = edge.value.unwrap();
        if wins.contains(&edge.action) {
            assert!(value > 0.5, "winning action valued {edge:?}");
        } else {
            assert!(value < 0.0, "losing action valued {edge:?}");
        }
    }
    assert!(result.root_value > 0.3, "root value {}", result.root_value);
}

#[test]
fn gumbel_never_exceeds_its_simulation_budget() {
    let states = [
        Fanorona::standard(),
        game("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w"),
        game("BB1B1/2B2/1BBBW/1W3/1WWW1 b 0 3 c3:c3,b4:SE"),
    ];
    for n in [0, 1, 2, 3, 5, 8, 16, 17, 32, 100] {
        for batch in [1, 8] {
            let config = SearchConfig {
                simulations: n,
                gumbel: true,
                gumbel_considered: 8,
                ..SearchConfig::default()
            };
            let mut driver = SearchDriver::new(config, batch, &states);
            driver.search(&mut UniformEvaluator);
            for g in 0..states.len() {
                let visits: u32 = driver.search_of(g).root_edges().map(|e| e.visits).sum();
                assert_eq!(visits, n, "n={n} batch={batch} game {g}");
                assert_eq!(driver.result(g).unwrap().simulations, n);
            }
        }
    }
}

#[test]
fn results_are_deterministic_for_a_seed() {
    let roots = vec![Fanorona::standard(); 6];
    let run = |gumbel: bool| {
        let config = SearchConfig {
            simulations: 64,
            gumbel,
            dirichlet_fraction: 0.25,
            temperature: 1.0,
            seed: 11,
            ..SearchConfig::default()
        };
        let mut driver = SearchDriver::new(config, 16, &roots);
        let mut evaluator = RolloutEvaluator::new(1, 100, 5);
        let mut results = Vec::new();
        for _ in 0..3 {
            driver.search(&mut evaluator);
            for g in 0..roots.len() {
                let result = driver.result(g).unwrap().clone();
                driver.play(g, result.action).unwrap();
                results.push(result);
            }
        }
        results
    };
    for gumbel in [false, true] {
        let (a, b) = (run(gumbel), run(gumbel));
        assert_eq!(a, b);
        // Different games draw different noise: not all first moves share one visit policy.
        assert!(
            a[..6]
                .windows(2)
                .any(|w| w[0].visit_policy != w[1].visit_policy)
        );
    }
}

#[test]
fn tree_reuse_keeps_the_subtree_visits() {
    let state = game("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
    let config = SearchConfig {
        simulations: 400,
        ..SearchConfig::default()
    };
    let mut driver = SearchDriver::new(config, 1, std::slice::from_ref(&state));
    let mut evaluator = RolloutEvaluator::new(1, 100, 6);
    driver.search(&mut evaluator);
    let action = driver.result(0).unwrap().action;
    let child_visits = driver
        .search_of(0)
        .root_edges()
        .find(|e| e.action == action)
        .unwrap()
        .visits;
    assert!(child_visits > 10);
    driver.play(0, action).unwrap();
    let kept: u32 = driver.search_of(0).root_edges().map(|e| e.visits).sum();
    // The child's visits are its own first evaluation plus one per simulation below it.
    assert_eq!(kept, child_visits - 1);
    assert!(driver.search_of(0).tree_size() >= child_visits as usize);
    driver.search(&mut evaluator);
    let total: u32 = driver.search_of(0).root_edges().map(|e| e.visits).sum();
    assert_eq!(total, kept + 400);
    // An action the tree never tried starts a fresh tree.
    let mut fresh = SearchDriver::new(SearchConfig::default(), 1, std::slice::from_ref(&state));
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    fresh.play(0, legal[0]).unwrap();
    assert_eq!(fresh.search_of(0).tree_size(), 1);
    assert!(fresh.play(0, usize::MAX).is_err());
}

/// Plays one game; returns white's score (1 win, 0.5 draw, 0 loss).
fn play_game(white: &mut dyn Agent<Fanorona>, black: &mut dyn Agent<Fanorona>) -> f32 {
    let mut state = game("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
    white.reset();
    black.reset();
    while !state.is_terminal() {
        let agent: &mut dyn Agent<Fanorona> = match state.current_player() {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let action = agent.act(&state).unwrap();
        state.apply(action).unwrap();
    }
    (state.returns()[0] + 1.0) / 2.0
}

#[test]
fn mcts_with_rollouts_beats_random_play() {
    let config = SearchConfig {
        simulations: 800,
        seed: 1,
        ..SearchConfig::default()
    };
    let mut mcts = MctsAgent::new(config, RolloutEvaluator::new(1, 400, 1), 1, "mcts".into());
    let mut random = fanorona_env::RandomAgent::new(1);
    let mut score = 0.0;
    let games = 8;
    for g in 0..games {
        score += if g % 2 == 0 {
            play_game(&mut mcts, &mut random)
        } else {
            1.0 - play_game(&mut random, &mut mcts)
        };
    }
    assert!(
        score >= games as f32 - 0.5,
        "mcts scored {score} of {games}"
    );
}
