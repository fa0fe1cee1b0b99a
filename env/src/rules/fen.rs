//! FEN: reading and writing positions as text (docs/rules.md, "Notation").
//!
//! `rows/.../rows side [no-capture-counter [turn-number [chain]]]`. Rows run from the top
//! (row H) to row 1; `W`/`B` are pieces, digits count empty points. The optional fifth field,
//! an extension of this project, records a capture chain in progress as
//! `piece:visited,points:direction`, e.g. `e3:d3,e3:E`.

use super::board::{Board, Direction, Point, Points};
use super::color::Color;
use super::error::{FenError, FenField};
use super::position::{Chain, Position};
use super::settings::Rules;
use crate::excerpt::Excerpt;

const DIRECTION_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

impl Position {
    /// Reads a FEN string under the standard rules. The rows give the board size.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with_rules(fen, Rules::default())
    }

    /// Reads a FEN string under the given rules.
    pub fn from_fen_with_rules(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let err = |field, reason: String| FenError {
            fen: fen.to_string(),
            field,
            reason,
        };
        let mut fields = fen.split_whitespace();
        let rows_text = fields
            .next()
            .ok_or_else(|| err(FenField::Board, "the FEN is empty".into()))?;
        let (board, pieces) = parse_rows(rows_text).map_err(|r| err(FenField::Board, r))?;
        let side = match fields.next() {
            None => return Err(err(FenField::SideToMove, "missing: expected w or b".into())),
            Some("w" | "W") => Color::White,
            Some("b" | "B") => Color::Black,
            Some(other) => {
                return Err(err(
                    FenField::SideToMove,
                    format!("{}: expected w or b", Excerpt(other)),
                ));
            }
        };
        let no_capture = match fields.next() {
            None => 0,
            Some(t) => t.parse::<u16>().map_err(|_| {
                err(
                    FenField::NoCaptureCounter,
                    format!("{}: expected a number of turns from 0 to 65535", Excerpt(t)),
                )
            })?,
        };
        let turn_number = match fields.next() {
            None => 1,
            Some(t) => t.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                err(
                    FenField::TurnNumber,
                    format!(
                        "{}: expected a turn number from 1 to {}",
                        Excerpt(t),
                        u32::MAX
                    ),
                )
            })?,
        };
        let chain = match fields.next() {
            None => None,
            Some(t) => Some(
                parse_chain(board, t, pieces[side.index()]).map_err(|r| err(FenField::Chain, r))?,
            ),
        };
        if let Some(extra) = fields.next() {
            return Err(err(
                FenField::Extra,
                format!("unexpected {}: a FEN has at most 5 fields", Excerpt(extra)),
            ));
        }
        let pos = Position::from_parts(board, pieces, side, chain, no_capture, turn_number, rules);
        if let Some(chain) = &pos.chain
            && chain.visited & !pos.empty() != 1 << chain.piece
        {
            return Err(err(
                FenField::Chain,
                "the visited points other than the piece's own must be empty".into(),
            ));
        }
        if let Some(chain) = &pos.chain
            && !pos.chain_can_continue(chain)
        {
            return Err(err(
                FenField::Chain,
                "the chain has no capturing continuation, so the turn would already be over".into(),
            ));
        }
        Ok(pos)
    }

    /// The position as FEN (with the chain field only in mid-chain).
    pub fn to_fen(&self) -> String {
        let board = self.board;
        let rows = fen_rows(board, |p| self.piece_at(p));
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let mut fen = format!("{rows} {side} {} {}", self.no_capture, self.turn_number);
        if let Some(chain) = &self.chain {
            let visited: Vec<String> = Points(chain.visited).map(|p| board.point_name(p)).collect();
            fen.push_str(&format!(
                " {}:{}:{}",
                board.point_name(chain.piece),
                visited.join(","),
                DIRECTION_NAMES[chain.last_dir.index()]
            ));
        }
        fen
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

/// The rows of a FEN, the top row first, separated by `/`: a piece as `W` or `B`, a run of
/// empty points as its length. `piece_at` tells what stands on a point.
pub(crate) fn fen_rows(board: &Board, piece_at: impl Fn(Point) -> Option<Color>) -> String {
    let mut rows = Vec::with_capacity(board.height());
    for row in (0..board.height()).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for col in 0..board.width() {
            match piece_at(board.point(col, row)) {
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
    rows.join("/")
}

/// The board and each colour's pieces of FEN rows (`W1B/1W1/B2`: from the top, digits for runs
/// of empty points), or what is wrong with them.
pub(crate) fn parse_rows(text: &str) -> Result<(&'static Board, [u64; 2]), String> {
    let rows: Vec<&str> = text.split('/').collect();
    let mut grid: Vec<Vec<Option<Color>>> = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let mut cells = Vec::new();
        let mut digits = String::new();
        let flush = |digits: &mut String, cells: &mut Vec<Option<Color>>| -> Result<(), String> {
            if !digits.is_empty() {
                let n: usize = digits
                    .parse()
                    .ok()
                    .filter(|&n| (1..=64).contains(&n))
                    .ok_or_else(|| {
                        format!(
                            "row {} of the FEN: empty-run {} must be a number from 1 to 64",
                            i + 1,
                            Excerpt(digits)
                        )
                    })?;
                cells.extend(std::iter::repeat_n(None, n));
                digits.clear();
            }
            Ok(())
        };
        for ch in row.chars() {
            match ch {
                '0'..='9' => digits.push(ch),
                'W' | 'w' | 'B' | 'b' => {
                    flush(&mut digits, &mut cells)?;
                    cells.push(Some(if ch.eq_ignore_ascii_case(&'w') {
                        Color::White
                    } else {
                        Color::Black
                    }));
                }
                _ => {
                    return Err(format!(
                        "row {} of the FEN has {ch:?}: expected W, B or a digit",
                        i + 1
                    ));
                }
            }
            if cells.len() > 64 {
                return Err(format!("row {} of the FEN is longer than 64 points", i + 1));
            }
        }
        flush(&mut digits, &mut cells)?;
        if cells.is_empty() {
            return Err(format!("row {} of the FEN is empty", i + 1));
        }
        grid.push(cells);
    }
    let width = grid[0].len();
    if let Some((i, row)) = grid.iter().enumerate().find(|(_, r)| r.len() != width) {
        return Err(format!(
            "row {} of the FEN has {} points but the first row has {width}; all rows must be equally long",
            i + 1,
            row.len()
        ));
    }
    let board = Board::new(width, grid.len()).map_err(|e| e.to_string())?;
    let mut pieces = [0u64; 2];
    for (i, row) in grid.iter().enumerate() {
        let rank = board.height() - 1 - i;
        for (col, cell) in row.iter().enumerate() {
            if let Some(c) = cell {
                pieces[c.index()] |= 1 << board.point(col, rank);
            }
        }
    }
    Ok((board, pieces))
}

fn parse_chain(board: &'static Board, text: &str, own: u64) -> Result<Chain, String> {
    let parts: Vec<&str> = text.split(':').collect();
    let [piece, visited, dir] = parts[..] else {
        return Err(format!(
            "{}: expected piece:visited,points:direction, e.g. e3:d3,e3:E",
            Excerpt(text)
        ));
    };
    let point = |name: &str| -> Result<Point, String> {
        board.parse_point(name).ok_or_else(|| {
            format!(
                "{} is not a point of a {}x{} board",
                Excerpt(name),
                board.width(),
                board.height()
            )
        })
    };
    let piece = point(piece)?;
    if own & (1 << piece) == 0 {
        return Err(format!(
            "no piece of the side to move stands on {}",
            board.point_name(piece)
        ));
    }
    let mut visited_set = 0u64;
    for name in visited.split(',') {
        visited_set |= 1 << point(name)?;
    }
    if visited_set & (1 << piece) == 0 || visited_set.count_ones() < 2 {
        return Err("the visited points must include the piece and its starting point".into());
    }
    let last_dir = DIRECTION_NAMES
        .iter()
        .position(|&n| n.eq_ignore_ascii_case(dir))
        .map(Direction::from_index)
        .ok_or_else(|| {
            format!(
                "direction {}: expected one of {}",
                Excerpt(dir),
                DIRECTION_NAMES.join(" ")
            )
        })?;
    Ok(Chain {
        piece,
        visited: visited_set,
        last_dir,
    })
}
