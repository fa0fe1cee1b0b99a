//! The state of a game as the API returns it: the board's geometry, the position (FEN and
//! rows), the legal steps with what each captures, the chain, the moves, the last turn, the
//! outcome and the agent's evaluation.

use fanorona_env::{Board, Color, Direction, Game, Point, Step, StepKind};
use serde::Serialize;

use fanorona_eval::{AgentReport, Player, TurnTrace, captures};

use super::store::Session;

/// A game's state.
#[derive(Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// Board width (columns a..).
    pub width: usize,
    /// Board height (rows 1..).
    pub height: usize,
    /// The board's lines, each joining two neighbouring points: `[column, row, column, row]`,
    /// row 0 being rank 1.
    pub lines: Vec<[usize; 4]>,
    /// The position in FEN (a chain in progress in its fifth field).
    pub fen: String,
    /// The start position in FEN (the moves are played from it).
    pub start: String,
    /// The rule settings, in `--rules` syntax.
    pub rules: String,
    /// The rows from the top (highest rank) down: `W`, `B` or `.` per point.
    pub rows: Vec<String>,
    /// `white` or `black`.
    pub side_to_move: String,
    /// Who plays white and black: `human` or an agent specification.
    pub white: String,
    /// See `white`.
    pub black: String,
    /// Whether an agent is to move (the game goes on).
    pub agent_to_move: bool,
    /// Whether that agent is thinking now (the game refuses changes until it has played).
    pub thinking: bool,
    /// The capture chain in progress.
    pub chain: Option<ChainView>,
    /// The legal steps now (none once the game is over).
    pub legal_steps: Vec<StepView>,
    /// The finished turns in notation.
    pub moves: Vec<String>,
    /// The steps of the turn in progress.
    pub current_steps: Vec<String>,
    /// The last finished turn.
    pub last_turn: Option<TurnTrace>,
    /// The result once the game is over.
    pub outcome: Option<OutcomeView>,
    /// The agent's evaluation after its last turn.
    pub agent_info: Option<InfoView>,
    /// Whether undo has something to take back.
    pub can_undo: bool,
}

/// A capture chain in progress.
#[derive(Debug, Serialize)]
pub struct ChainView {
    /// The moving piece.
    pub piece: String,
    /// The points visited this turn (no piece may return to them).
    pub visited: Vec<String>,
}

/// One legal step.
#[derive(Debug, Serialize)]
pub struct StepView {
    /// Its action index.
    pub action: usize,
    /// In notation (`d3e3W`, `stop`).
    pub notation: String,
    /// `paika`, `approach`, `withdrawal` or `stop`.
    pub kind: &'static str,
    /// The piece's point (absent for stop).
    pub from: Option<String>,
    /// Where it goes (absent for stop).
    pub to: Option<String>,
    /// The points of the pieces it captures.
    pub captures: Vec<String>,
}

/// How the game ended.
#[derive(Debug, Serialize)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// In words, e.g. `white wins (no pieces left)`.
    pub text: String,
}

/// What the agent's search reported.
#[derive(Debug, Serialize)]
pub struct InfoView {
    /// The agent's specification.
    pub agent: String,
    /// The side it played.
    pub side: String,
    /// Its expected result in `[-1, 1]`, for the side it played.
    pub value: Option<f32>,
    /// The same for white (for the value bar).
    pub white_value: Option<f32>,
    /// Material score in hundredths of a piece, for the side it played.
    pub centipieces: Option<i32>,
    /// A forced result: winning in n turns (negative: losing).
    pub mate_in: Option<i32>,
    /// The depth reached.
    pub depth: Option<u32>,
    /// Nodes or simulations searched.
    pub nodes: u64,
    /// Search time in milliseconds.
    pub ms: u128,
    /// The principal variation in notation.
    pub pv: Vec<String>,
}

impl GameView {
    /// The state of `session`, known as `id`.
    pub fn of(id: &str, session: &Session) -> GameView {
        let game = session.game();
        let pos = game.position();
        let board = pos.board();
        let side = game.current_player();
        let outcome = game.outcome();
        let legal_steps = if outcome.is_some() {
            Vec::new()
        } else {
            pos.legal_steps()
                .iter()
                .map(|&step| StepView::of(game, step))
                .collect()
        };
        GameView {
            id: id.to_string(),
            width: board.width(),
            height: board.height(),
            lines: lines(board),
            fen: pos.to_fen(),
            start: session.start().to_fen(),
            rules: format!("{:#}", pos.rules()),
            rows: (0..board.height())
                .rev()
                .map(|row| {
                    (0..board.width())
                        .map(|column| match pos.piece_at(board.point(column, row)) {
                            Some(color) => color.piece_char(),
                            None => '.',
                        })
                        .collect()
                })
                .collect(),
            side_to_move: side.to_string(),
            white: session.player(Color::White).name().to_string(),
            black: session.player(Color::Black).name().to_string(),
            agent_to_move: outcome.is_none()
                && matches!(session.player(side), Player::Agent { .. }),
            thinking: session.thinking(),
            chain: pos.chain().map(|chain| ChainView {
                piece: board.point_name(chain.piece),
                visited: point_names(board, chain.visited),
            }),
            legal_steps,
            moves: session.moves().to_vec(),
            current_steps: session.current_steps(),
            last_turn: session.last_turn().cloned(),
            outcome: outcome.map(|o| OutcomeView {
                result: o.result_string().to_string(),
                text: o.to_string(),
            }),
            agent_info: session.last_report().map(InfoView::of),
            can_undo: session.can_undo(),
        }
    }
}

impl StepView {
    /// A legal step of `game`.
    fn of(game: &fanorona_env::Fanorona, step: Step) -> StepView {
        let pos = game.position();
        let board = pos.board();
        let (kind, from, to) = match step {
            Step::Stop => ("stop", None, None),
            Step::Move { from, dir, kind } => (
                match kind {
                    StepKind::Paika => "paika",
                    StepKind::Approach => "approach",
                    StepKind::Withdrawal => "withdrawal",
                },
                Some(board.point_name(from)),
                board.neighbour(from, dir).map(|to| board.point_name(to)),
            ),
        };
        StepView {
            action: game.step_to_action(step),
            notation: game.action_name(game.step_to_action(step)),
            kind,
            from,
            to,
            captures: captures(pos, step),
        }
    }
}

impl InfoView {
    /// The view of an agent's report.
    fn of(report: &AgentReport) -> InfoView {
        let info = &report.info;
        let sign = if report.side == Color::White {
            1.0
        } else {
            -1.0
        };
        InfoView {
            agent: report.agent.clone(),
            side: report.side.to_string(),
            value: info.value,
            white_value: info.value.map(|v| v * sign),
            centipieces: info.centipieces,
            mate_in: info.mate_in,
            depth: info.depth,
            nodes: info.nodes,
            ms: info.time.as_millis(),
            pv: info.pv.clone(),
        }
    }
}

/// Every line of the board once: from each point towards N, NE, E and SE where a line goes.
fn lines(board: &Board) -> Vec<[usize; 4]> {
    let mut lines = Vec::new();
    for p in 0..board.points() as Point {
        for dir in [Direction::N, Direction::NE, Direction::E, Direction::SE] {
            if let Some(q) = board.neighbour(p, dir) {
                lines.push([board.column(p), board.row(p), board.column(q), board.row(q)]);
            }
        }
    }
    lines
}

/// The names of the points in `set`, in board order.
fn point_names(board: &Board, set: u64) -> Vec<String> {
    (0..board.points() as Point)
        .filter(|&p| set >> p & 1 == 1)
        .map(|p| board.point_name(p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Position;

    #[test]
    fn the_3x3_board_has_its_grid_and_both_diagonals() {
        let board = Board::new(3, 3).unwrap();
        // 12 orthogonal segments and the 4 diagonal ones through the centre.
        assert_eq!(lines(board).len(), 12 + 4);
        assert!(lines(board).contains(&[0, 0, 1, 1]) && lines(board).contains(&[1, 1, 2, 0]));
        // 9x5: 8*5 + 9*4 orthogonal segments, one diagonal in each of the 32 unit squares.
        assert_eq!(lines(Board::standard()).len(), 40 + 36 + 32);
    }

    #[test]
    fn the_view_lists_legal_steps_with_their_captures() {
        let fen = "BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 2";
        let session = Session::new(
            Position::from_fen(fen).unwrap(),
            Player::Human,
            Player::Human,
        );
        let view = GameView::of("x", &session);
        assert_eq!(view.fen, fen);
        assert_eq!(view.rows[0], "BBBB.BBBB");
        let approach = view
            .legal_steps
            .iter()
            .find(|s| s.notation == "d3e3A")
            .unwrap();
        assert_eq!(approach.kind, "approach");
        assert_eq!(approach.captures, ["f3"]);
        assert!(view.legal_steps.iter().all(|s| s.kind != "paika"));
    }
}
