//! The minimax baseline: forced wins found, losing turns avoided (checked against a plain
//! brute-force search written here), legal moves on every board and variant, determinism, and
//! strength rising with depth.

use fanorona_env::{
    Agent, AgentSpec, Board, Budget, Fanorona, Game, Position, RandomAgent, Rules, Step,
};
use fanorona_eval::minimax::Searcher;
use fanorona_eval::minimax::{MATE, MATE_BOUND, MAX_DEPTH, depth_limit};
use fanorona_eval::minimax::{StaticEvaluation, evaluate};
use fanorona_eval::{Match, MatchConfig, Openings, registry};
use fanorona_util::progress::ProgressBar;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Brute force over complete turns, no pruning, no draws (pure rules): +1 if the side to move
/// wins within `plies` turns (both sides' turns counted), -1 if it loses within them, else 0.
fn brute(pos: &Position, plies: u32) -> i32 {
    if pos.pieces(pos.side_to_move()) == 0 {
        return -1;
    }
    let turns = pos.legal_turns();
    if turns.is_empty() {
        return -1;
    }
    if plies == 0 {
        return 0;
    }
    turns
        .iter()
        .map(|t| {
            let mut child = *pos;
            child.play_turn_unchecked(t);
            -brute(&child, plies - 1)
        })
        .max()
        .unwrap()
}

/// A random 5x5 position, white to move, with 1-3 pieces a side, under the pure rules.
fn random_small_position(rng: &mut StdRng) -> Position {
    let mut cells = ['.'; 25];
    for (piece, count) in [
        ('W', rng.random_range(1..=3)),
        ('B', rng.random_range(1..=3)),
    ] {
        let mut placed = 0;
        while placed < count {
            let p = rng.random_range(0..25);
            if cells[p] == '.' {
                cells[p] = piece;
                placed += 1;
            }
        }
    }
    let rows: Vec<String> = (0..5)
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for col in 0..5 {
                match cells[row * 5 + col] {
                    '.' => empty += 1,
                    c => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(c);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    Position::from_fen_with_rules(&format!("{} w", rows.join("/")), Rules::pure()).unwrap()
}

fn search(pos: &Position, depth: u32, seed: u64) -> fanorona_eval::minimax::MinimaxResult {
    search_with(pos, depth, seed, false)
}

/// [`search`] with late-move reductions on or off.
fn search_with(
    pos: &Position,
    depth: u32,
    seed: u64,
    reductions: bool,
) -> fanorona_eval::minimax::MinimaxResult {
    let mut searcher = Searcher::new(Budget::fixed_depth(depth), 1, seed);
    searcher.set_reductions(reductions);
    searcher.search_position(pos, &[]).expect("a legal turn")
}

#[test]
fn finds_the_chain_that_wipes_out_the_last_pieces() {
    // White c1 takes e1 by approach (c1d1A); going on with d1d2A takes d3, black's last piece.
    // Stopping after c1d1A leaves black a piece.
    let pos = Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap();
    for seed in 0..4 {
        let r = search(&pos, 1, seed);
        assert_eq!(r.turn.notation(pos.board()), "c1d1Ad2A");
        assert_eq!(r.score, MATE - 1);
        assert_eq!(r.mate_in(), Some(1));
    }
}

#[test]
fn quiescence_resolves_captures_and_stands_pat_in_quiet_positions() {
    // White must capture and wipes out black by the chain c1d1A d1d2A.
    let wipe = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
    let mut searcher = Searcher::new(Budget::fixed_depth(1), 1, 0);
    assert!(searcher.probe(&wipe, 0, 100).unwrap() > MATE_BOUND);
    // After its first step the chain goes on (mid-chain) and still wins.
    let mut chain = wipe.clone();
    chain.apply(chain.parse_action("c1d1A").unwrap()).unwrap();
    assert!(!chain.position().is_turn_start());
    assert!(searcher.probe(&chain, 0, 100).unwrap() > MATE_BOUND);
    // The opening's capture trees pass a small node budget.
    assert_eq!(searcher.probe(&Fanorona::standard(), 0, 100), None);
    assert!(searcher.probe(&Fanorona::standard(), 0, u64::MAX).is_some());
    // Positions of random games: the static value where the mover need not capture, at least
    // that (the stand-pat floor) where it must, and more somewhere.
    let mut rng = StdRng::seed_from_u64(3);
    let mut random = RandomAgent::new(4);
    let (mut quiet, mut gained) = (0, 0);
    for _ in 0..20 {
        let mut game = Fanorona::standard();
        while !game.is_terminal() {
            let pos = *game.position();
            // Without the game's history (whose repetitions score as draws).
            let q = searcher.probe(&Fanorona::new(pos), 0, u64::MAX).unwrap();
            if !pos.is_turn_start() {
                // Mid-chain: the best completion of the chain (checked above).
            } else if pos.must_capture() {
                assert!(q >= evaluate(&pos), "{}", game.to_text());
                gained += usize::from(q > evaluate(&pos));
            } else {
                assert_eq!(q, evaluate(&pos), "{}", game.to_text());
                quiet += 1;
            }
            let action = if rng.random_bool(0.5) {
                random.act(&game).unwrap()
            } else {
                let mut legal = Vec::new();
                game.legal_actions(&mut legal);
                legal[0]
            };
            game.apply(action).unwrap();
        }
    }
    assert!(quiet > 50 && gained > 50, "{quiet} quiet, {gained} gained");
}

/// Values a position by the number of the mover's pieces on rank 1 (hundredths), counting
/// its calls.
#[derive(Default)]
struct RankOne {
    calls: u64,
}

impl StaticEvaluation for RankOne {
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.calls += 1;
        let rank_one = (1u64 << pos.board().width()) - 1;
        (pos.pieces(pos.side_to_move()) & rank_one).count_ones() as i32
    }
}

#[test]
fn a_search_values_its_leaves_by_the_evaluation_it_is_given() {
    // White a1 b1, black i5: no capture is possible within three turns.
    let pos = Position::from_fen("8B/9/9/9/WW7 w").unwrap();
    let score = |depth| {
        let mut searcher =
            Searcher::with_evaluation(Budget::fixed_depth(depth), 1, 0, RankOne::default());
        let result = searcher.search_position(&pos, &[]).unwrap();
        (result.score, searcher.evaluation().calls)
    };
    // Depth 1 and 3 end on black's turn (no black piece can reach rank 1): 0. Depth 2 ends
    // on white's: white keeps both pieces on rank 1 by b1c1, so 2.
    let (one, calls) = score(1);
    assert_eq!(one, 0);
    assert!(calls > 0);
    assert_eq!(score(2).0, 2);
    assert_eq!(score(3).0, 0);
    // The hand-made evaluation values the same position in hundreds (material first).
    assert!(search(&pos, 2, 0).score >= 100);
}

#[test]
fn finds_two_turn_wins_and_avoids_losing_turns() {
    two_turn_wins_found_and_losing_turns_avoided(false, 3);
}

#[test]
fn with_reductions_finds_two_turn_wins_one_turn_deeper_and_avoids_losing_turns() {
    // A reduced quiet first turn of a two-turn win is searched one turn shorter at depth 3.
    two_turn_wins_found_and_losing_turns_avoided(true, 4);
}

/// Checks on random small positions against [`brute`] that a search with `reductions`, at
/// `win_depth` for the wins, finds every forced win in two turns and avoids turns that lose
/// at once.
fn two_turn_wins_found_and_losing_turns_avoided(reductions: bool, win_depth: u32) {
    let mut rng = StdRng::seed_from_u64(11);
    let (mut wins, mut escapes) = (0, 0);
    for _ in 0..3000 {
        let pos = random_small_position(&mut rng);
        if pos.legal_turns().is_empty() {
            continue;
        }
        let value3 = brute(&pos, 3);
        if value3 == 1 && brute(&pos, 1) != 1 && wins < 25 {
            // A forced win in two of our turns, none in one.
            wins += 1;
            let r = search_with(&pos, win_depth, wins, reductions);
            assert!(r.score >= MATE - 3, "{}: score {}", pos.to_fen(), r.score);
            let mut child = pos;
            child.play_turn_unchecked(&r.turn);
            assert_eq!(
                brute(&child, 2),
                -1,
                "{}: the chosen turn wins",
                pos.to_fen()
            );
        }
        let children: Vec<i32> = pos
            .legal_turns()
            .iter()
            .map(|t| {
                let mut child = pos;
                child.play_turn_unchecked(t);
                brute(&child, 1)
            })
            .collect();
        // Some turns let the opponent win at once, others do not.
        if children.contains(&1) && children.iter().any(|&v| v < 1) && escapes < 25 {
            escapes += 1;
            let r = search_with(&pos, 2, escapes, reductions);
            let mut child = pos;
            child.play_turn_unchecked(&r.turn);
            assert!(
                brute(&child, 1) < 1,
                "{}: chose a losing turn",
                pos.to_fen()
            );
        }
    }
    assert!(
        wins >= 10 && escapes >= 10,
        "found {wins} wins, {escapes} escapes"
    );
}

/// Plays a whole game, checking every action against the rules.
fn play_checked(white: &mut dyn Agent<Fanorona>, black: &mut dyn Agent<Fanorona>, pos: Position) {
    let mut game = Fanorona::new(pos);
    let mut steps = 0;
    while !game.is_terminal() && steps < 600 {
        let agent: &mut dyn Agent<Fanorona> = match game.current_player() {
            fanorona_env::Color::White => &mut *white,
            fanorona_env::Color::Black => &mut *black,
        };
        let action = agent.act(&game).unwrap();
        game.apply(action)
            .unwrap_or_else(|e| panic!("{}: {e}", game.to_text()));
        steps += 1;
    }
}

#[test]
fn never_plays_an_illegal_move_on_any_board_or_variant() {
    let boards = [(9, 5), (5, 5), (7, 3), (3, 5), (3, 3), (5, 9)];
    let variants = ["", "mandatory", "first-turn", "no-capture=10,repetition=2"];
    for (i, &(w, h)) in boards.iter().enumerate() {
        for (j, rules) in variants.iter().enumerate() {
            let pos = Position::initial(Board::new(w, h).unwrap())
                .with_rules(Rules::parse(rules).unwrap());
            let spec = AgentSpec::parse("minimax:depth=2").unwrap();
            let mut minimax = registry().create(&spec, (i * 10 + j) as u64).unwrap();
            let mut random = RandomAgent::new((i * 10 + j) as u64);
            play_checked(&mut minimax, &mut random, pos);
            play_checked(&mut random, &mut minimax, pos);
        }
    }
    let vela = Position::standard().with_rules(Rules::parse("vela=white").unwrap());
    let mut minimax = registry()
        .create(&AgentSpec::parse("minimax:depth=2").unwrap(), 1)
        .unwrap();
    let mut greedy = registry()
        .create(&AgentSpec::parse("greedy").unwrap(), 1)
        .unwrap();
    play_checked(&mut minimax, &mut greedy, vela);
}

#[test]
fn completes_a_chain_it_is_asked_to_finish() {
    // Random games on 9x5; wherever a random first step leaves a chain going, a fresh minimax
    // agent must finish it legally.
    let mut rng = StdRng::seed_from_u64(5);
    let mut checked = 0;
    let mut game = Fanorona::standard();
    let mut random = RandomAgent::new(9);
    while checked < 20 {
        if game.is_terminal() {
            game = Fanorona::standard();
        }
        let action = random.act(&game).unwrap();
        game.apply(action).unwrap();
        if !game.is_terminal() && !game.position().is_turn_start() {
            let mut minimax = registry()
                .create(&AgentSpec::parse("minimax:depth=2").unwrap(), rng.random())
                .unwrap();
            let mut copy = game.clone();
            while !copy.is_terminal() && !copy.position().is_turn_start() {
                let a = minimax.act(&copy).unwrap();
                assert!(copy.is_legal(a), "{}", copy.to_text());
                let step = copy.action_to_step(a).unwrap();
                copy.apply(a).unwrap();
                if step == Step::Stop {
                    break;
                }
            }
            checked += 1;
        }
    }
}

#[test]
fn reductions_keep_unreduced_values_and_save_nodes() {
    // Below depth 3 nothing is reduced: the null windows alone must give the same values.
    let mut rng = StdRng::seed_from_u64(5);
    for seed in 0..200 {
        let pos = random_small_position(&mut rng);
        if pos.legal_turns().is_empty() {
            continue;
        }
        let (plain, pvs) = (search(&pos, 2, seed), search_with(&pos, 2, seed, true));
        assert_eq!(plain.score, pvs.score, "{}", pos.to_fen());
    }
    // A crowded middle game: the reduced search of depth 5 visits at least a tenth fewer
    // nodes (about a fifth when written).
    let pos = Position::from_fen("BBBBBBBBB/BBBB1BBBB/BW1W1B1BW/WWWWWWWWW/WWWW1WWWW w").unwrap();
    let plain = search(&pos, 5, 3);
    let reduced = search_with(&pos, 5, 3, true);
    assert!(
        reduced.nodes * 10 < plain.nodes * 9,
        "{} nodes with reductions, {} without",
        reduced.nodes,
        plain.nodes
    );
}

#[test]
fn same_depth_and_seed_give_the_same_search() {
    let pos = Position::from_fen("BBBBBBBBB/BBBB1BBBB/BW1W1B1BW/WWWWWWWWW/WWWW1WWWW w").unwrap();
    let a = search(&pos, 4, 3);
    let b = search(&pos, 4, 3);
    assert_eq!((a.turn, a.score, a.nodes), (b.turn, b.score, b.nodes));
    assert_eq!(a.depth, 4);
}

#[test]
fn node_and_time_limits_stop_the_search() {
    let pos = Position::standard();
    let r = Searcher::new(Budget::node_count(20_000), 1, 0)
        .search_position(&pos, &[])
        .unwrap();
    assert!(r.depth >= 1 && r.depth < 64);
    assert!(r.nodes < 40_000, "{} nodes", r.nodes);
    let budget = Budget::movetime(std::time::Duration::from_millis(50));
    let r = Searcher::new(budget, 1, 0)
        .search_position(&pos, &[])
        .unwrap();
    assert!(r.elapsed.as_millis() < 1000, "{:?}", r.elapsed);
    // A depth alone is searched to the end, within the deepest depth.
    assert_eq!(depth_limit(&Budget::fixed_depth(3)), 3);
    assert_eq!(depth_limit(&Budget::fixed_depth(500)), MAX_DEPTH);
    assert_eq!(depth_limit(&Budget::node_count(10)), MAX_DEPTH);
}

fn match_score(first: &str, second: &str, games: usize) -> f64 {
    let first = AgentSpec::parse(first).unwrap();
    let second = AgentSpec::parse(second).unwrap();
    let f1 = |seed| registry().create(&first, seed);
    let f2 = |seed| registry().create(&second, seed);
    let config = MatchConfig {
        games,
        threads: 2,
        start: Position::initial(Board::new(5, 5).unwrap()),
        openings: Openings::Random { plies: 2 },
        max_turns: 200,
        seed: 7,
        sprt: None,
        event: "test".into(),
        progress: ProgressBar::hidden(),
    };
    let report = Match::new(config, &f1, &f2).run().unwrap();
    report.tally.score()
}

#[test]
fn strength_rises_with_depth() {
    let d1_vs_random = match_score("minimax:depth=1", "random", 8);
    assert!(d1_vs_random >= 0.8, "depth 1 vs random: {d1_vs_random}");
    let d3_vs_d1 = match_score("minimax:depth=3", "minimax:depth=1", 12);
    assert!(d3_vs_d1 > 0.6, "depth 3 vs depth 1: {d3_vs_d1}");
}

/// Turn starts of seeded random 9x5 games, after 10 to 40 actions.
fn middle_games(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut random = RandomAgent::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = Fanorona::standard();
        let length = rng.random_range(10..40);
        for _ in 0..length {
            if game.is_terminal() {
                break;
            }
            let action = random.act(&game).unwrap();
            game.apply(action).unwrap();
        }
        if !game.is_terminal() && game.position().is_turn_start() {
            found.push(*game.position());
        }
    }
    found
}

/// A search of `pos` within `budget`, with unfinished iterations used or not.
fn search_unfinished(
    pos: &Position,
    budget: Budget,
    unfinished: bool,
) -> fanorona_eval::minimax::MinimaxResult {
    let mut searcher = Searcher::new(budget, 1, 7);
    searcher.set_unfinished(unfinished);
    searcher.search_position(pos, &[]).expect("a legal turn")
}

#[test]
fn unfinished_iterations_change_only_what_a_stopped_search_plays() {
    let positions = middle_games(24, 11);
    // Every iteration finishes at a fixed depth: the same search either way.
    for pos in &positions[..6] {
        let (off, on) = (
            search_unfinished(pos, Budget::fixed_depth(3), false),
            search_unfinished(pos, Budget::fixed_depth(3), true),
        );
        assert_eq!(
            (off.turn, off.score, off.depth, off.nodes),
            (on.turn, on.score, on.depth, on.nodes)
        );
    }
    // Stopped by a node count, both searches walk the same tree; where the unfinished
    // iteration found a better turn than the one it searched first (the previous best), that
    // turn is played, with a score no finished iteration of that depth could beat.
    let mut changed = 0;
    for pos in &positions {
        for nodes in [3_000, 10_000, 40_000] {
            let budget = Budget::node_count(nodes);
            let (off, on) = (
                search_unfinished(pos, budget, false),
                search_unfinished(pos, budget, true),
            );
            assert_eq!((off.depth, off.nodes), (on.depth, on.nodes));
            if on.turn != off.turn {
                changed += 1;
                let finished = search_unfinished(pos, Budget::fixed_depth(on.depth + 1), true);
                assert!(
                    finished.score >= on.score,
                    "{}: unfinished {} above finished {}",
                    pos.to_fen(),
                    on.score,
                    finished.score
                );
            }
        }
    }
    assert!(changed > 0, "no stopped search found a better turn");
    // Under a time limit the search goes on until the time is spent (not half of it), unless
    // it finds a forced win or loss.
    let budget = Budget::movetime(std::time::Duration::from_millis(30));
    let mut timed = 0;
    for pos in &positions {
        let on = search_unfinished(pos, budget, true);
        if on.mate_in().is_some() {
            continue;
        }
        timed += 1;
        assert!(
            on.elapsed >= budget.time.unwrap(),
            "{}: {:?}, depth {}, score {}",
            pos.to_fen(),
            on.elapsed,
            on.depth,
            on.score
        );
    }
    assert!(timed >= 4, "{timed} positions without a forced result");
}
