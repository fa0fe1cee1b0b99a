//! Fanoron-Telo's known result, checked by exhaustive retrograde analysis of every position
//! reachable from the empty board: with perfect play the first player (white) wins, within
//! the default draw limit.

use std::collections::HashMap;

use fanorona_env::{Color, Game, Telo};

/// A game-theoretic value for the side to move, with the plies to the end under best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Unknown,
    Win(u32),
    Loss(u32),
}

/// Every position reachable from the empty board (without a ply limit), keyed by pieces and
/// side, with the indices of their successors.
fn reachable() -> (Vec<Telo>, Vec<Vec<usize>>) {
    let key = |t: &Telo| {
        (
            t.pieces(Color::White),
            t.pieces(Color::Black),
            t.current_player(),
        )
    };
    let start = Telo::with_max_plies(None);
    let mut index = HashMap::from([(key(&start), 0)]);
    let mut states = vec![start];
    let mut successors = Vec::new();
    let mut legal = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let state = states[i];
        state.legal_actions(&mut legal);
        let mut next = Vec::with_capacity(legal.len());
        for &a in &legal {
            let mut child = state;
            child.apply_unchecked(a);
            let n = states.len();
            let j = *index.entry(key(&child)).or_insert(n);
            if j == n {
                states.push(child);
            }
            next.push(j);
        }
        successors.push(next);
        i += 1;
    }
    (states, successors)
}

/// Retrograde analysis in rounds: a position is won once a successor is lost for the
/// opponent (in the fewest plies), lost once all successors are won for the opponent (in the
/// most). Positions never decided are draws (endless play).
fn solve(states: &[Telo], successors: &[Vec<usize>]) -> Vec<Value> {
    let mut values: Vec<Value> = states
        .iter()
        .map(|s| match (s.is_terminal(), s.winner()) {
            (true, Some(w)) if w == s.current_player() => Value::Win(0),
            (true, Some(_)) => Value::Loss(0),
            _ => Value::Unknown,
        })
        .collect();
    loop {
        let mut changed = false;
        let previous = values.clone();
        for (i, next) in successors.iter().enumerate() {
            if previous[i] != Value::Unknown || next.is_empty() {
                continue;
            }
            let fastest_win = next
                .iter()
                .filter_map(|&j| match previous[j] {
                    Value::Loss(d) => Some(d + 1),
                    _ => None,
                })
                .min();
            let all_lost = next.iter().all(|&j| matches!(previous[j], Value::Win(_)));
            if let Some(d) = fastest_win {
                values[i] = Value::Win(d);
                changed = true;
            } else if all_lost {
                let slowest = next
                    .iter()
                    .map(|&j| match previous[j] {
                        Value::Win(d) => d + 1,
                        _ => unreachable!(),
                    })
                    .max()
                    .unwrap();
                values[i] = Value::Loss(slowest);
                changed = true;
            }
        }
        if !changed {
            return values;
        }
    }
}

#[test]
fn the_first_player_wins_telo() {
    let (states, successors) = reachable();
    // Placements give sum over k of C(9, k) * C(9 - k, k or k - 1) positions, plus the
    // movement phase; a sanity bound on the enumeration.
    assert!(
        states.len() > 1000 && states.len() < 20_000,
        "{}",
        states.len()
    );
    // With three pieces each no side can ever be blocked: every end is three in a row.
    for (state, next) in states.iter().zip(&successors) {
        assert_eq!(next.is_empty(), state.is_terminal(), "{}", state.to_text());
        if state.is_terminal() {
            assert_eq!(state.winner(), Some(state.current_player().other()));
        }
    }
    let values = solve(&states, &successors);
    let Value::Win(plies) = values[0] else {
        panic!("the empty board is {:?} for white", values[0]);
    };
    assert!(
        plies < Telo::DEFAULT_MAX_PLIES,
        "white wins in {plies} plies, within the draw limit"
    );
    // Check the strategy the values give, at the default limit: white plays a move that
    // keeps the win, black anything; white must win every time.
    let key_of = |t: &Telo| {
        (
            t.pieces(Color::White),
            t.pieces(Color::Black),
            t.current_player(),
        )
    };
    let index: HashMap<_, usize> = states
        .iter()
        .enumerate()
        .map(|(i, s)| (key_of(s), i))
        .collect();
    let mut stack = vec![Telo::new()];
    let mut games = 0;
    let mut legal = Vec::new();
    while let Some(state) = stack.pop() {
        if state.is_terminal() {
            assert_eq!(state.winner(), Some(Color::White), "{}", state.to_text());
            games += 1;
            continue;
        }
        state.legal_actions(&mut legal);
        let children = legal.iter().map(|&a| {
            let mut child = state;
            child.apply_unchecked(a);
            child
        });
        if state.current_player() == Color::White {
            let best = children
                .filter_map(|c| match values[index[&key_of(&c)]] {
                    Value::Loss(d) => Some((d, c)),
                    _ => None,
                })
                .min_by_key(|&(d, _)| d)
                .expect("a winning position has a winning move");
            stack.push(best.1);
        } else {
            stack.extend(children);
        }
    }
    assert!(games > 10, "{games}");
    println!(
        "Telo: {} positions; white wins in {plies} plies; {games} lines of best play checked",
        states.len()
    );
}
