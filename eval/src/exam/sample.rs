//! Positions for an exam, sampled from played games (seeded): each game starts with a few
//! random turns (so that the games differ), is then played by a pair of agents, and gives up
//! to a few of the positions its agents met that no earlier game gave. Games are played in
//! parallel in fixed batches, so the sample depends on the seed alone, not on the threads.

use std::collections::HashSet;
use std::ops::RangeInclusive;

use fanorona_env::{Agent, Color, Fanorona, Position};
use fanorona_util::progress::ProgressBar;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::error::ExamError;
use crate::Openings;
use crate::agent_turn;
use crate::arena::{AgentFactory, play_game};

/// Where a position of an exam comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A game the examined agent played against itself.
    Agent,
    /// A game of random moves.
    Random,
}

/// Games played at once, whatever the number of threads (the sample depends on it).
const BATCH: usize = 16;

/// Batches in a row that add no position before the sampler gives up.
const STALL_BATCHES: usize = 4;

/// A game still going after this many turns is left.
const MAX_TURNS: usize = 300;

/// Plays games between pairs of agents and collects distinct positions from them.
pub struct Sampler<'a> {
    /// The initial position (board and rules) every game starts from.
    start: Position,
    /// The pairs of (white, black) agents; game `i` is played by pair `i % len`.
    pairs: Vec<(&'a AgentFactory<'a>, &'a AgentFactory<'a>)>,
    /// Random turns that open game `i`: this many plus `i % 3` (their positions are not
    /// sampled), so that even agents without randomness play varied games.
    opening_plies: u32,
    /// Most positions taken from one game.
    per_game: usize,
    /// Only positions with this many pieces on the board are taken.
    pieces: RangeInclusive<u32>,
    /// Only positions where the mover's opponent would have chosen another turn are taken.
    disagreement: bool,
    seed: u64,
}

/// The seed of game `index` of a sample seeded with `seed`.
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.random()
}

/// `pos` as a fresh turn start: no-capture counter 0, turn 1, the same rules.
pub fn fresh(pos: &Position) -> Position {
    let pieces = [pos.pieces(Color::White), pos.pieces(Color::Black)];
    Position::from_pieces(pos.board(), pieces, pos.side_to_move(), *pos.rules())
        .expect("a position's pieces are disjoint and on its board")
}

impl<'a> Sampler<'a> {
    /// A sampler of games from `start` by `pairs` of (white, black) agents, each game opened
    /// by `opening_plies` random turns or up to two more, and giving at most `per_game`
    /// positions.
    pub fn new(
        start: Position,
        pairs: Vec<(&'a AgentFactory<'a>, &'a AgentFactory<'a>)>,
        opening_plies: u32,
        per_game: usize,
        seed: u64,
    ) -> Sampler<'a> {
        Sampler {
            start,
            pairs,
            opening_plies,
            per_game: per_game.max(1),
            pieces: 0..=u32::MAX,
            disagreement: false,
            seed,
        }
    }

    /// The sampler taking only positions with a number of pieces (both sides) in `pieces`.
    pub fn with_pieces(self, pieces: RangeInclusive<u32>) -> Sampler<'a> {
        Sampler { pieces, ..self }
    }

    /// The sampler taking only positions where the two agents of the game disagree: once the
    /// game is over, the mover's opponent is asked for its turn in each position, and the
    /// position is taken where that turn leads elsewhere than the one played. (A game of an
    /// agent against itself gives none.)
    pub fn with_disagreement(self) -> Sampler<'a> {
        Sampler {
            disagreement: true,
            ..self
        }
    }

    /// Up to `target` turn-start positions (as fresh games, see [`fresh`]) met by the agents,
    /// none of whose keys are in `seen` (the keys of those taken are added). Fewer where the
    /// agents meet few positions: it gives up after `4 * target + 16` games, or when
    /// [`STALL_BATCHES`] batches in a row add nothing.
    pub fn sample(
        &self,
        target: usize,
        seen: &mut HashSet<u64>,
        progress: &ProgressBar,
    ) -> Result<Vec<Position>, ExamError> {
        if self.pairs.is_empty() {
            return Err(ExamError::Settings("no agents to play the games".into()));
        }
        let max_games = 4 * target + 16;
        let mut out = Vec::with_capacity(target);
        let mut first = 0;
        let mut stalled = 0;
        while out.len() < target && first < max_games && stalled < STALL_BATCHES {
            let before = out.len();
            let games: Vec<Result<Vec<Position>, ExamError>> = (first..first + BATCH)
                .into_par_iter()
                .map(|index| self.play(index))
                .collect();
            for (index, game) in (first..).zip(games) {
                let mut positions = game?;
                let mut rng = StdRng::seed_from_u64(game_seed(self.seed, index));
                positions.shuffle(&mut rng);
                let mut taken = 0;
                for pos in positions {
                    if out.len() == target || taken == self.per_game {
                        break;
                    }
                    if seen.insert(pos.key()) {
                        out.push(pos);
                        progress.inc(1);
                        taken += 1;
                    }
                }
            }
            first += BATCH;
            stalled = if out.len() == before { stalled + 1 } else { 0 };
        }
        Ok(out)
    }

    /// Plays game `index` and returns the positions in which its agents chose a turn.
    fn play(&self, index: usize) -> Result<Vec<Position>, ExamError> {
        let seed = game_seed(self.seed, index);
        let (white, black) = self.pairs[index % self.pairs.len()];
        let mut white: Box<dyn Agent<Fanorona>> = white(seed).map_err(ExamError::Build)?;
        let mut black: Box<dyn Agent<Fanorona>> = black(seed ^ 1).map_err(ExamError::Build)?;
        let opening = Openings::Random {
            plies: self.opening_plies + (index % 3) as u32,
        }
        .opening(&self.start, index, self.seed);
        let game = play_game(&mut *white, &mut *black, &opening, MAX_TURNS);
        let agent_error = |agent: &dyn Agent<Fanorona>, reason: String| ExamError::Agent {
            agent: agent.name(),
            reason,
        };
        if let Some(forfeit) = game.forfeit {
            let agent = match forfeit.color {
                Color::White => &*white,
                Color::Black => &*black,
            };
            return Err(agent_error(agent, forfeit.reason));
        }
        let mut state = Fanorona::new(opening.start);
        let mut positions = Vec::new();
        for (i, turn) in game.turns.iter().enumerate() {
            let pos = *state.position();
            if i >= opening.turns.len() && self.pieces.contains(&pos.piece_count()) {
                let taken = if self.disagreement {
                    let opponent = match pos.side_to_move() {
                        Color::White => &mut *black,
                        Color::Black => &mut *white,
                    };
                    let other = agent_turn(&mut *opponent, &mut state.clone());
                    let other = other.map_err(|e| agent_error(&*opponent, e.to_string()))?;
                    !other.same_result(turn)
                } else {
                    true
                };
                if taken {
                    positions.push(fresh(&pos));
                }
            }
            state.play_turn_unchecked(turn);
        }
        Ok(positions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Built;
    use fanorona_env::{Board, RandomAgent, SpecError};

    fn random(seed: u64) -> Built {
        Ok(Box::new(RandomAgent::new(seed)))
    }

    #[test]
    fn samples_are_distinct_fresh_seeded_and_playable() {
        let start = Position::initial(Board::new(5, 3).unwrap());
        let sample = |seed| {
            let sampler = Sampler::new(start, vec![(&random, &random)], 1, 3, seed);
            let mut seen = HashSet::new();
            let out = sampler
                .sample(100, &mut seen, &ProgressBar::hidden())
                .unwrap();
            assert_eq!(seen.len(), out.len());
            out
        };
        let a = sample(7);
        assert_eq!(a.len(), 100);
        assert_eq!(a, sample(7));
        assert_ne!(a, sample(8));
        let keys: HashSet<u64> = a.iter().map(Position::key).collect();
        assert_eq!(keys.len(), a.len());
        for pos in &a {
            assert!(pos.is_turn_start() && pos.no_capture_turns() == 0);
            assert!(!pos.legal_turns().is_empty(), "{}", pos.to_fen());
            // The opening's random turn is played first: never the initial position.
            assert_ne!(pos.key(), start.key());
        }
    }

    /// Plays the first legal action (`last`: the last) of every position: two agents that
    /// know their own minds, so a test can ask them again.
    struct Extreme {
        last: bool,
    }

    impl Agent<Fanorona> for Extreme {
        fn name(&self) -> String {
            format!("extreme:last={}", self.last)
        }

        fn act(&mut self, state: &Fanorona) -> Result<usize, fanorona_env::AgentError> {
            use fanorona_env::Game;
            let mut actions = Vec::new();
            state.legal_actions(&mut actions);
            let pick = if self.last {
                actions.last()
            } else {
                actions.first()
            };
            Ok(*pick.expect("a position of a game going on has a legal action"))
        }
    }

    #[test]
    fn disagreement_takes_the_positions_where_the_opponent_turns_elsewhere() {
        let start = Position::initial(Board::new(5, 3).unwrap());
        let first = |_: u64| -> Built { Ok(Box::new(Extreme { last: false })) };
        let last = |_: u64| -> Built { Ok(Box::new(Extreme { last: true })) };
        let all = Sampler::new(start, vec![(&first, &last), (&last, &first)], 1, 100, 3);
        let split = Sampler::new(start, vec![(&first, &last), (&last, &first)], 1, 100, 3)
            .with_disagreement();
        let sample = |sampler: &Sampler| {
            sampler
                .sample(400, &mut HashSet::new(), &ProgressBar::hidden())
                .unwrap()
        };
        let (all, split) = (sample(&all), sample(&split));
        assert_eq!((split.len(), all.len()), (400, 400));
        let turn_of = |last: bool, pos: &Position| {
            agent_turn(&mut Extreme { last }, &mut Fanorona::new(*pos)).unwrap()
        };
        let disagree = |pos: &Position| !turn_of(false, pos).same_result(&turn_of(true, pos));
        // Every position taken is one where the two choose turns leading apart; the plain
        // sample also holds positions where they agree (e.g. a single legal turn).
        assert!(split.iter().all(disagree));
        assert!(!all.iter().all(disagree));
        // A game of an agent against itself gives none.
        let alone = Sampler::new(start, vec![(&first, &first)], 1, 100, 3).with_disagreement();
        assert!(sample(&alone).is_empty());
    }

    #[test]
    fn a_small_board_gives_what_it_has() {
        let start = Position::initial(Board::new(3, 3).unwrap());
        let sampler = Sampler::new(start, vec![(&random, &random)], 0, 100, 1);
        let mut seen = HashSet::new();
        // 3x3 has 1,012 reachable positions; random games meet far fewer than 5,000.
        let out = sampler
            .sample(5_000, &mut seen, &ProgressBar::hidden())
            .unwrap();
        assert!(!out.is_empty() && out.len() < 1_012, "{}", out.len());
    }

    #[test]
    fn a_failing_agent_is_an_error() {
        let broken = |_: u64| -> Built {
            Err(SpecError::Unavailable {
                spec: "net:path=missing".into(),
                reason: "no such network".into(),
            })
        };
        let start = Position::initial(Board::new(3, 3).unwrap());
        let sampler = Sampler::new(start, vec![(&broken, &broken)], 0, 1, 1);
        let e = sampler
            .sample(10, &mut HashSet::new(), &ProgressBar::hidden())
            .unwrap_err();
        assert!(e.to_string().contains("no such network"), "{e}");
    }
}
