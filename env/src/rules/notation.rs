//! Reading moves written in notation (docs/rules.md, "Notation"): `e2e3`, `d3e3W`, `c1d1Ad2A`.
//! `-`, `x`, spaces and case are ignored; an `A`/`W` marker may be left out where the step is
//! not ambiguous.

use super::board::{Board, Direction, Point};
use super::error::MoveError;
use super::position::Position;
use super::step::{Step, StepKind};
use super::turn::Turn;

/// A move as written: the points visited, and the marker (if any) after each step.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Written {
    points: Vec<Point>,
    markers: Vec<Option<StepKind>>,
}

fn syntax(text: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Syntax {
        text: text.to_string(),
        reason: reason.into(),
    }
}

fn parse_written(board: &Board, text: &str) -> Result<Written, MoveError> {
    let chars: Vec<char> = text
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | 'X') && !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if chars.is_empty() {
        return Err(syntax(text, "the move is empty"));
    }
    let mut written = Written {
        points: Vec::new(),
        markers: Vec::new(),
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let digits = chars[i + 1..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .count();
        if c.is_ascii_lowercase() && digits > 0 {
            let name: String = chars[i..=i + digits].iter().collect();
            let p = board.parse_point(&name).ok_or_else(|| {
                syntax(
                    text,
                    format!(
                        "{name} is not a point of a {}x{} board",
                        board.width(),
                        board.height()
                    ),
                )
            })?;
            if !written.points.is_empty() && written.markers.len() < written.points.len() - 1 {
                written.markers.push(None);
            }
            written.points.push(p);
            i += digits + 1;
        } else if c == 'a' || c == 'w' {
            if written.points.len() < 2 || written.markers.len() == written.points.len() - 1 {
                return Err(syntax(
                    text,
                    "a marker A or W must follow the point a capturing step arrives on",
                ));
            }
            written.markers.push(Some(if c == 'a' {
                StepKind::Approach
            } else {
                StepKind::Withdrawal
            }));
            i += 1;
        } else {
            return Err(syntax(text, format!("unexpected {c:?}")));
        }
    }
    if written.points.len() < 2 {
        return Err(syntax(text, "a move names at least two points"));
    }
    if written.markers.len() < written.points.len() - 1 {
        written.markers.push(None);
    }
    Ok(written)
}

/// The direction of the line from `a` to its neighbour `b`, if they are joined.
fn direction_between(board: &Board, a: Point, b: Point) -> Option<Direction> {
    Direction::ALL
        .into_iter()
        .find(|&d| board.neighbour(a, d) == Some(b))
}

fn marker_matches(marker: Option<StepKind>, kind: StepKind) -> bool {
    match marker {
        None => true,
        Some(m) => m == kind,
    }
}

impl Position {
    /// Reads a complete turn in notation and finds it among the legal turns. Leaving out a
    /// marker is fine where only one result fits; several results give an ambiguity error.
    pub fn parse_turn(&self, text: &str) -> Result<Turn, MoveError> {
        if text.trim().eq_ignore_ascii_case("stop") {
            let mut found = None;
            self.for_each_turn(|t| {
                if t.is_empty() {
                    found = Some(*t);
                }
            });
            return found.ok_or_else(|| self.illegal_turn(text));
        }
        let written = parse_written(self.board, text)?;
        let mut matches: Vec<Turn> = Vec::new();
        self.for_each_turn_path(|t| {
            if t.len() == written.markers.len()
                && t.points(self.board) == written.points
                && t.step_moves()
                    .zip(&written.markers)
                    .all(|((_, k), &m)| marker_matches(m, k))
                && !matches.iter().any(|m| m.same_result(t))
            {
                matches.push(*t);
            }
        });
        match matches.len() {
            0 => Err(self.illegal_turn(text)),
            1 => Ok(matches[0]),
            _ => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: matches.iter().map(|t| t.notation(self.board)).collect(),
            }),
        }
    }

    fn illegal_turn(&self, text: &str) -> MoveError {
        MoveError::Illegal {
            text: text.to_string(),
            legal: self.legal_turn_names(),
        }
    }

    /// Reads one step: `stop`, or two joined points with an optional marker (`d3e3W`).
    pub fn parse_step(&self, text: &str) -> Result<Step, MoveError> {
        let legal = self.legal_steps();
        let illegal = || MoveError::Illegal {
            text: text.to_string(),
            legal: legal.iter().map(|&s| self.step_notation(s)).collect(),
        };
        if text.trim().eq_ignore_ascii_case("stop") {
            return legal
                .contains(&Step::Stop)
                .then_some(Step::Stop)
                .ok_or_else(illegal);
        }
        let written = parse_written(self.board, text)?;
        if written.points.len() != 2 {
            return Err(syntax(text, "a step names exactly two points"));
        }
        let (from, to) = (written.points[0], written.points[1]);
        let dir = direction_between(self.board, from, to).ok_or_else(illegal)?;
        let candidates: Vec<Step> = legal
            .iter()
            .copied()
            .filter(|s| match *s {
                Step::Move {
                    from: f,
                    dir: d,
                    kind,
                } => f == from && d == dir && marker_matches(written.markers[0], kind),
                Step::Stop => false,
            })
            .collect();
        match candidates[..] {
            [] => Err(illegal()),
            [one] => Ok(one),
            _ => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: candidates.iter().map(|&s| self.step_notation(s)).collect(),
            }),
        }
    }

    /// Parses and plays a complete turn; on error the position is unchanged.
    pub fn play_turn(&mut self, text: &str) -> Result<Turn, MoveError> {
        let turn = self.parse_turn(text)?;
        self.play_turn_unchecked(&turn);
        Ok(turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_moves_are_tokenised() {
        let b = Board::standard();
        let w = parse_written(b, "C1-D1a x d2A").unwrap();
        assert_eq!(w.points.len(), 3);
        assert_eq!(
            w.markers,
            vec![Some(StepKind::Approach), Some(StepKind::Approach)]
        );
        let w = parse_written(b, "b2a2").unwrap();
        assert_eq!(
            w.points,
            vec![b.parse_point("b2").unwrap(), b.parse_point("a2").unwrap()]
        );
        assert_eq!(w.markers, vec![None]);
        let w = parse_written(b, "d3e3f3W").unwrap();
        assert_eq!(w.markers, vec![None, Some(StepKind::Withdrawal)]);
        assert!(parse_written(b, "").is_err());
        assert!(parse_written(b, "e3").is_err());
        assert!(parse_written(b, "Ae3e4").is_err());
        assert!(parse_written(b, "e3e4AA").is_err());
        assert!(parse_written(b, "e3z9").is_err());
        assert!(parse_written(b, "e3e4?").is_err());
    }
}
