//! The `Game` trait: a turn-based, two-player, zero-sum game seen one action at a time, in the
//! spirit of OpenSpiel's `State`. Search, self-play, the arena and the environments are written
//! against it; Fanorona (every board and variant) and Fanoron-Telo implement it.

use crate::Color;
use crate::excerpt::Excerpt;

/// An action that cannot be applied in the current state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The index is outside `0..num_actions()`.
    #[error("action {action} is out of range: this game has actions 0..{num_actions}")]
    OutOfRange {
        /// The index given.
        action: usize,
        /// The size of the action space.
        num_actions: usize,
    },
    /// The action is not legal now.
    #[error("action {action} ({name}) is not legal here; legal actions: {legal}")]
    Illegal {
        /// The index given.
        action: usize,
        /// Its name in the game's notation.
        name: String,
        /// The legal actions, in notation.
        legal: String,
    },
    /// The game is already over.
    #[error("the game is over; no action can be applied")]
    GameOver,
    /// Text that names no legal action.
    #[error("cannot read action {}: {reason}", Excerpt(.text))]
    Parse {
        /// The input.
        text: String,
        /// Why.
        reason: String,
    },
}

/// A two-player zero-sum game state at the level of single actions. In Fanorona one turn may be
/// several actions by the same player (a capture chain), so the player to move is not simply
/// alternating: always ask [`Game::current_player`].
pub trait Game: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// Size of the action space (legal or not).
    fn num_actions(&self) -> usize;

    /// The player to act. Meaningless once the game is over.
    fn current_player(&self) -> Color;

    /// Writes the legal-action mask into `mask` (length `num_actions()`).
    fn legal_mask(&self, mask: &mut [bool]);

    /// Appends the legal actions, in increasing order, to `out` (after clearing it).
    fn legal_actions(&self, out: &mut Vec<usize>);

    /// Whether `action` is legal now.
    fn is_legal(&self, action: usize) -> bool;

    /// Applies a legal action (behaviour on an illegal one is unspecified but memory-safe).
    fn apply_unchecked(&mut self, action: usize);

    /// Applies an action after checking it; on error the state is unchanged.
    fn apply(&mut self, action: usize) -> Result<(), ActionError> {
        if self.is_terminal() {
            return Err(ActionError::GameOver);
        }
        if action >= self.num_actions() {
            return Err(ActionError::OutOfRange {
                action,
                num_actions: self.num_actions(),
            });
        }
        if !self.is_legal(action) {
            let mut legal = Vec::new();
            self.legal_actions(&mut legal);
            let legal: Vec<String> = legal.iter().map(|&a| self.action_name(a)).collect();
            return Err(ActionError::Illegal {
                action,
                name: self.action_name(action),
                legal: legal.join(" "),
            });
        }
        self.apply_unchecked(action);
        Ok(())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool;

    /// The final score of each player, indexed by [`Color::index`]: +1 win, -1 loss, 0 draw
    /// (all zero while the game goes on).
    fn returns(&self) -> [f32; 2];

    /// A score of each player on the returns' scale (-1 to +1), indexed like
    /// [`Game::returns`], that auxiliary value targets can read when the game ends (as
    /// KataGo's score): by default the returns themselves.
    fn score(&self) -> [f32; 2] {
        self.returns()
    }

    /// The observation's shape: planes, height, width.
    fn observation_shape(&self) -> [usize; 3];

    /// Writes the observation, from the point of view of the player to act, into `out`
    /// (length planes * height * width). Allocates nothing.
    fn write_observation(&self, out: &mut [f32]);

    /// The action a network sees for absolute action `action`: actions are expressed in the
    /// frame of the player to act (the board turned for black), like the observation.
    fn to_mover_action(&self, action: usize) -> usize;

    /// The absolute action for an action in the mover's frame (inverse of `to_mover_action`).
    fn mover_action_to_absolute(&self, action: usize) -> usize;

    /// Number of symmetries of the board (the identity is symmetry 0).
    fn num_symmetries(&self) -> usize;

    /// Maps a mover-frame observation through symmetry `sym` into `out`.
    fn transform_observation(&self, sym: usize, obs: &[f32], out: &mut [f32]);

    /// Maps a mover-frame action through symmetry `sym`.
    fn transform_action(&self, sym: usize, action: usize) -> usize;

    /// The name of an action in the game's notation.
    fn action_name(&self, action: usize) -> String;

    /// Reads an action written in the game's notation.
    fn parse_action(&self, text: &str) -> Result<usize, ActionError>;

    /// The state as text (FEN for Fanorona).
    fn to_text(&self) -> String;
}
