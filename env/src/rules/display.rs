//! Drawing a position as text, with its lines, and optionally the turn that led to it marked.

use super::board::Points;
use super::color::Color;
use super::position::Position;
use super::turn::Turn;

impl Position {
    /// Draws the position with rows, columns, lines and a status line. If `last` is the turn
    /// that led to it, its moved piece is shown in lower case, the points it passed through as
    /// `o` and the pieces it captured as `x`.
    pub fn render(&self, last: Option<&Turn>) -> String {
        let pos = self;
        let board = pos.board();
        let (w, h) = (board.width(), board.height());
        let mut passed = 0u64;
        let (mut moved, mut captured) = (None, 0u64);
        if let Some(turn) = last {
            for p in turn.points(board) {
                passed |= 1 << p;
            }
            moved = Some(turn.to());
            captured = turn.captured();
        }
        let label_width = h.to_string().len();
        let mut out = String::new();
        for row in (0..h).rev() {
            out.push_str(&format!("{:>label_width$}  ", row + 1));
            for col in 0..w {
                let p = board.point(col, row);
                let ch = match pos.piece_at(p) {
                    Some(c) if Some(p) == moved => c.piece_char().to_ascii_lowercase(),
                    Some(c) => c.piece_char(),
                    None if captured & (1 << p) != 0 => 'x',
                    None if passed & (1 << p) != 0 => 'o',
                    None => '.',
                };
                out.push(ch);
                if col + 1 < w {
                    out.push_str("---");
                }
            }
            out.push('\n');
            if row > 0 {
                out.push_str(&" ".repeat(label_width + 2));
                for col in 0..w {
                    out.push('|');
                    if col + 1 < w {
                        // The diagonal in this square starts from its strong lower corner.
                        out.push_str(if (col + row - 1) % 2 == 0 {
                            " / "
                        } else {
                            " \\ "
                        });
                    }
                }
                out.push('\n');
            }
        }
        out.push_str(&" ".repeat(label_width + 2));
        for col in 0..w {
            out.push((b'a' + col as u8) as char);
            if col + 1 < w {
                out.push_str("   ");
            }
        }
        out.push('\n');
        let count = |c: Color| Points(pos.pieces(c)).count();
        out.push_str(&format!(
            "{} to move, turn {}, no-capture {}, white {} black {}",
            pos.side_to_move(),
            pos.turn_number(),
            pos.no_capture_turns(),
            count(Color::White),
            count(Color::Black)
        ));
        if let Some(chain) = pos.chain() {
            out.push_str(&format!(", chain at {}", board.point_name(chain.piece)));
        }
        out.push('\n');
        out
    }
}
