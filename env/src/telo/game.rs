//! Telo behind the [`Game`] trait: actions, observation, symmetries, names and text.

use super::action::{decode, move_action};
use super::symmetry::{map_direction, map_point};
use super::{POINTS, TELO_ACTIONS, TELO_PLANES, TELO_SYMMETRIES, Telo};
use crate::game::{ActionError, Game};
use crate::rules::board::{Board, Point};
use crate::rules::color::Color;

impl Game for Telo {
    fn num_actions(&self) -> usize {
        TELO_ACTIONS
    }

    fn current_player(&self) -> Color {
        self.side
    }

    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.result.is_none() {
            self.for_each_action(|a| mask[a] = true);
        }
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.result.is_none() {
            self.for_each_action(|a| out.push(a));
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        if self.result.is_some() || action >= TELO_ACTIONS {
            return false;
        }
        match decode(action) {
            Ok(p) => self.is_placing() && self.empty() & (1 << p) != 0,
            Err((from, dir)) => {
                !self.is_placing()
                    && self.pieces[self.side.index()] & (1 << from) != 0
                    && self
                        .board()
                        .neighbour(from, dir)
                        .is_some_and(|to| self.empty() & (1 << to) != 0)
            }
        }
    }

    fn apply_unchecked(&mut self, action: usize) {
        let own = &mut self.pieces[self.side.index()];
        match decode(action) {
            Ok(p) => *own |= 1 << p,
            Err((from, dir)) => {
                let to = Board::new(3, 3)
                    .expect("3x3 is a valid board")
                    .neighbour(from, dir)
                    .expect("a legal move stays on the board");
                *own ^= (1 << from) | (1 << to);
            }
        }
        self.side = self.side.other();
        self.plies += 1;
        self.result = self.judge();
    }

    fn is_terminal(&self) -> bool {
        self.result.is_some()
    }

    fn returns(&self) -> [f32; 2] {
        match self.winner() {
            Some(Color::White) => [1.0, -1.0],
            Some(Color::Black) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        [TELO_PLANES, 3, 3]
    }

    /// Planes: 0 the mover's pieces, 1 the opponent's, 2 all ones while the mover places,
    /// 3 plies played / limit (0 without a limit). Cell `row * 3 + column`.
    fn write_observation(&self, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            TELO_PLANES * POINTS,
            "observation buffer has the wrong length"
        );
        out.fill(0.0);
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.other().index()];
        for p in 0..POINTS {
            out[p] = f32::from(own >> p & 1);
            out[POINTS + p] = f32::from(enemy >> p & 1);
        }
        if self.is_placing() {
            out[2 * POINTS..3 * POINTS].fill(1.0);
        }
        if let Some(limit) = self.max_plies {
            let progress = (self.plies as f32 / limit.max(1) as f32).min(1.0);
            out[3 * POINTS..].fill(progress);
        }
    }

    fn to_mover_action(&self, action: usize) -> usize {
        action
    }

    fn mover_action_to_absolute(&self, action: usize) -> usize {
        action
    }

    fn num_symmetries(&self) -> usize {
        TELO_SYMMETRIES
    }

    fn transform_observation(&self, sym: usize, obs: &[f32], out: &mut [f32]) {
        for plane in 0..TELO_PLANES {
            for p in 0..POINTS {
                out[plane * POINTS + map_point(sym, p as Point) as usize] = obs[plane * POINTS + p];
            }
        }
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        match decode(action) {
            Ok(p) => map_point(sym, p) as usize,
            Err((from, dir)) => move_action(map_point(sym, from), map_direction(sym, dir)),
        }
    }

    fn action_name(&self, action: usize) -> String {
        self.notation(action)
    }

    fn parse_action(&self, text: &str) -> Result<usize, ActionError> {
        self.parse_notation(text)
    }

    fn to_text(&self) -> String {
        self.text_form()
    }
}
