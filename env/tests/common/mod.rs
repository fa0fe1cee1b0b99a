//! Helpers shared by the environment tests: random positions and mapped positions.

#![allow(dead_code)]

use fanorona_env::{Board, Color, Direction, Fanorona, Game, Point, Points, Position, Rules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Board sizes the tests cover.
pub const SIZES: [(usize, usize); 5] = [(9, 5), (5, 5), (3, 3), (7, 3), (3, 7)];

/// Rule sets the tests cover.
pub fn rule_sets() -> Vec<Rules> {
    let mut sets = vec![
        Rules::default(),
        Rules::parse("mandatory").unwrap(),
        Rules::parse("first-turn,no-capture=20").unwrap(),
        Rules::parse("vela=black").unwrap(),
    ];
    sets.push(Rules::pure());
    sets
}

/// `count` states met in random games (mid-chain ones included) on a board under `rules`,
/// each game starting over from the initial position when the previous one ends.
pub fn random_states(
    board: &'static Board,
    rules: Rules,
    count: usize,
    seed: u64,
) -> Vec<Fanorona> {
    let start = Fanorona::new(Position::initial(board).with_rules(rules));
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = start.clone();
    let mut legal = Vec::new();
    let mut states = Vec::with_capacity(count);
    while states.len() < count {
        if game.is_terminal() {
            states.push(game.clone());
            game = start.clone();
            continue;
        }
        states.push(game.clone());
        game.legal_actions(&mut legal);
        game.apply_unchecked(legal[rng.random_range(0..legal.len())]);
    }
    states
}

const DIRECTION_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The position mapped through a map of points and directions, colours swapped if `swap`
/// (with the side to move and a Vela favourite), written as FEN and read back: an
/// independent construction of the mapped position.
pub fn map_position(
    pos: &Position,
    point: impl Fn(Point) -> Point,
    dir: impl Fn(Direction) -> Direction,
    swap: bool,
) -> Position {
    let board = pos.board();
    let map_set = |set: u64| Points(set).fold(0u64, |acc, p| acc | 1 << point(p));
    let colour = |c: Color| if swap { c.other() } else { c };
    let mut pieces = [0u64; 2];
    for c in Color::BOTH {
        pieces[colour(c).index()] = map_set(pos.pieces(c));
    }
    let mut rows = Vec::new();
    for row in (0..board.height()).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for column in 0..board.width() {
            let p = board.point(column, row);
            let piece = Color::BOTH
                .into_iter()
                .find(|c| pieces[c.index()] >> p & 1 == 1);
            match piece {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c.piece_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rows.push(text);
    }
    let side = if colour(pos.side_to_move()) == Color::White {
        "w"
    } else {
        "b"
    };
    let mut fen = format!(
        "{} {side} {} {}",
        rows.join("/"),
        pos.no_capture_turns(),
        pos.turn_number()
    );
    if let Some(chain) = pos.chain() {
        let visited: Vec<String> = Points(map_set(chain.visited))
            .map(|p| board.point_name(p))
            .collect();
        fen.push_str(&format!(
            " {}:{}:{}",
            board.point_name(point(chain.piece)),
            visited.join(","),
            DIRECTION_NAMES[dir(chain.last_dir).index()]
        ));
    }
    let mut rules = *pos.rules();
    rules.vela = rules.vela.map(colour);
    Position::from_fen_with_rules(&fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal mask of a game, as a vector.
pub fn mask_of<G: Game>(game: &G) -> Vec<bool> {
    let mut mask = vec![false; game.num_actions()];
    game.legal_mask(&mut mask);
    mask
}

/// The observation of a game, as a vector.
pub fn observation_of<G: Game>(game: &G) -> Vec<f32> {
    let [planes, height, width] = game.observation_shape();
    let mut obs = vec![0.0; planes * height * width];
    game.write_observation(&mut obs);
    obs
}
