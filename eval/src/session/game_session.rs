//! One game between people and agents, as `fanorona play` and `fanorona serve` hold it: the
//! position, who plays each side, the turn in progress step by step, the turns so far, undo,
//! and the agent's last evaluation. An agent is not kept here: its turn is handed out as an
//! [`AgentJob`] (the game to think about), played elsewhere (at once by `play`, on a worker
//! thread by `serve`), and handed back; meanwhile the game refuses changes. `C` is what the
//! caller needs to play an agent's turn (`serve`: which agent to build; `play`: nothing, it
//! keeps its agent).

use fanorona_env::{Agent, Color, Fanorona, Game, Position, SearchInfo, Step, Turn};

use super::trace::TurnTrace;
use crate::{GameRecord, agent_turn, turn_of_steps};

/// The most turns a game may have; a longer game refuses moves, so that its memory is bounded
/// whatever the rules.
pub const MAX_TURNS: usize = 1000;

/// Who plays a side.
pub enum Player<C> {
    /// A person.
    Human,
    /// An agent.
    Agent {
        /// Its name (its specification), in errors and records.
        name: String,
        /// What its turns need (see the module's docs).
        choice: C,
        /// The seed of its random choices (each turn's seed follows from it).
        seed: u64,
    },
}

impl<C> Player<C> {
    /// `human`, or the agent's name.
    pub fn name(&self) -> &str {
        match self {
            Player::Human => "human",
            Player::Agent { name, .. } => name,
        }
    }
}

/// What a request asked of a game that the game refuses; nothing is changed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The game has ended.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// A person's move was sent while an agent is to move, or the reverse.
    #[error("{side} is played by {player}, not by {wanted}")]
    WrongPlayer {
        /// The side to move.
        side: Color,
        /// Who plays it.
        player: String,
        /// Who the request wanted to move.
        wanted: &'static str,
    },
    /// A whole turn was sent in the middle of a capture chain.
    #[error("a capture chain is in progress: play its next step (or stop) one at a time")]
    MidChain,
    /// The move is not legal or cannot be read.
    #[error("{0}")]
    Illegal(String),
    /// The agent failed.
    #[error("{0}")]
    Agent(String),
    /// There is no turn to take back.
    #[error("nothing to undo")]
    NothingToUndo,
    /// The agent to move is thinking; the game changes when it has played.
    #[error("the agent is thinking about its turn; read the game again when it has played")]
    Thinking,
    /// The game reached the length limit ([`MAX_TURNS`]).
    #[error("a game holds at most {MAX_TURNS} turns; start a new game")]
    TooLong,
}

/// The agent's evaluation after its last turn.
#[derive(Clone, Debug)]
pub struct AgentReport {
    /// The agent's specification.
    pub agent: String,
    /// The side it played.
    pub side: Color,
    /// What its search reported.
    pub info: SearchInfo,
}

/// An agent's turn to think about: who, with which seed, on which game (a copy).
pub struct AgentJob<C> {
    /// The agent's [`Player::Agent`] choice.
    pub choice: C,
    /// Its seed for this turn.
    pub seed: u64,
    /// The game as it is now; the agent plays its turn on it.
    pub game: Fanorona,
}

/// What an agent did with its [`AgentJob`].
pub struct AgentMove {
    /// The game after its turn.
    pub game: Fanorona,
    /// The turn.
    pub turn: Turn,
    /// What its search reported.
    pub info: Option<SearchInfo>,
}

/// A game in progress.
pub struct GameSession<C> {
    game: Fanorona,
    start: Position,
    players: [Player<C>; 2],
    /// The game when the current turn began, and the steps played in it so far.
    turn_start: Fanorona,
    turn_steps: Vec<Step>,
    /// The finished turns, each with the side that played it, and in notation.
    turns: Vec<(Color, Turn)>,
    moves: Vec<String>,
    last_turn: Option<TurnTrace>,
    last_report: Option<AgentReport>,
    /// Whether an agent's turn is out as an [`AgentJob`].
    thinking: bool,
}

impl<C: Clone> GameSession<C> {
    /// A game from `start` with `white` and `black` to play.
    pub fn new(start: Position, white: Player<C>, black: Player<C>) -> GameSession<C> {
        let game = Fanorona::new(start);
        GameSession {
            turn_start: game.clone(),
            game,
            start,
            players: [white, black],
            turn_steps: Vec::new(),
            turns: Vec::new(),
            moves: Vec::new(),
            last_turn: None,
            last_report: None,
            thinking: false,
        }
    }

    /// The game now.
    pub fn game(&self) -> &Fanorona {
        &self.game
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Who plays `side`.
    pub fn player(&self, side: Color) -> &Player<C> {
        &self.players[side.index()]
    }

    /// The finished turns in notation.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The steps of the turn in progress, in notation.
    pub fn current_steps(&self) -> Vec<String> {
        let mut pos = *self.turn_start.position();
        self.turn_steps
            .iter()
            .map(|&step| {
                let name = pos.step_notation(step);
                pos.play_step_unchecked(step);
                name
            })
            .collect()
    }

    /// The last finished turn.
    pub fn last_turn(&self) -> Option<&TurnTrace> {
        self.last_turn.as_ref()
    }

    /// The agent's evaluation after its last turn.
    pub fn last_report(&self) -> Option<&AgentReport> {
        self.last_report.as_ref()
    }

    /// Whether [`GameSession::undo`] has something to take back.
    pub fn can_undo(&self) -> bool {
        !self.thinking && (!self.turn_steps.is_empty() || !self.turns.is_empty())
    }

    /// Whether the agent to move is thinking.
    pub fn thinking(&self) -> bool {
        self.thinking
    }

    /// Checks that the game may change and goes on, and that a person (`human`) or an agent
    /// is to move.
    fn check_mover(&self, human: bool) -> Result<Color, SessionError> {
        if self.thinking {
            return Err(SessionError::Thinking);
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(SessionError::GameOver(outcome.to_string()));
        }
        if self.turns.len() >= MAX_TURNS {
            return Err(SessionError::TooLong);
        }
        let side = self.game.current_player();
        let player = self.player(side);
        if matches!(player, Player::Human) != human {
            return Err(SessionError::WrongPlayer {
                side,
                player: player.name().to_string(),
                wanted: if human { "a person" } else { "an agent" },
            });
        }
        Ok(side)
    }

    /// The side whose agent is to move, where the game may change and goes on.
    pub fn agent_to_move(&self) -> Result<Color, SessionError> {
        self.check_mover(false)
    }

    /// Plays one step of a person's turn: `step` in notation (`d3e3W`, `stop`) or an action
    /// index.
    pub fn play_step(&mut self, step: StepInput<'_>) -> Result<(), SessionError> {
        let side = self.check_mover(true)?;
        let action = match step {
            StepInput::Notation(text) => self
                .game
                .parse_action(text)
                .map_err(|e| SessionError::Illegal(e.to_string()))?,
            StepInput::Action(action) => action,
        };
        let step = self.game.action_to_step(action);
        self.game
            .apply(action)
            .map_err(|e| SessionError::Illegal(e.to_string()))?;
        self.turn_steps
            .push(step.expect("an applied action is a step"));
        if self.game.position().is_turn_start() {
            let start = *self.turn_start.position();
            let turn = turn_of_steps(&start, &self.turn_steps)
                .expect("legal steps ending a turn make a legal turn");
            self.finish_turn(side, turn);
        }
        Ok(())
    }

    /// Plays a person's whole turn written in notation (`c1d1Ad2A`), at the start of a turn.
    pub fn play_turn(&mut self, text: &str) -> Result<(), SessionError> {
        let side = self.check_mover(true)?;
        if !self.turn_steps.is_empty() {
            return Err(SessionError::MidChain);
        }
        let turn = self
            .game
            .position()
            .parse_turn(text)
            .map_err(|e| SessionError::Illegal(e.to_string()))?;
        self.game.play_turn_unchecked(&turn);
        self.finish_turn(side, turn);
        Ok(())
    }

    /// Hands out the turn of the agent to move; the game refuses changes until
    /// [`GameSession::end_agent_turn`].
    pub fn begin_agent_turn(&mut self) -> Result<AgentJob<C>, SessionError> {
        let side = self.check_mover(false)?;
        let Player::Agent { choice, seed, .. } = &self.players[side.index()] else {
            unreachable!("check_mover found an agent");
        };
        let turn = self.turns.len() as u64;
        let job = AgentJob {
            choice: choice.clone(),
            seed: seed ^ turn.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            game: self.game.clone(),
        };
        self.thinking = true;
        Ok(job)
    }

    /// Takes back what the agent of [`GameSession::begin_agent_turn`] did (its turn is played)
    /// or why it failed (nothing changes); the game accepts changes again.
    pub fn end_agent_turn(
        &mut self,
        played: Result<AgentMove, SessionError>,
    ) -> Result<(), SessionError> {
        if !std::mem::take(&mut self.thinking) {
            return Err(SessionError::Agent("no agent turn was handed out".into()));
        }
        let played = played?;
        let side = self.game.current_player();
        self.last_report = played.info.map(|info| AgentReport {
            agent: self.player(side).name().to_string(),
            side,
            info,
        });
        self.game = played.game;
        self.finish_turn(side, played.turn);
        Ok(())
    }

    /// Plays the turn of the agent to move at once with `agent` (for callers that keep the
    /// agent, as `play` and Python do): [`GameSession::begin_agent_turn`], the agent's turn on
    /// the game, [`GameSession::end_agent_turn`]. A failed turn changes nothing.
    pub fn play_agent_turn<A: Agent<Fanorona> + ?Sized>(
        &mut self,
        agent: &mut A,
    ) -> Result<(), SessionError> {
        let mut game = self.begin_agent_turn()?.game;
        let played = agent_turn(agent, &mut game)
            .map(|turn| AgentMove {
                game,
                turn,
                info: agent.last_info(),
            })
            .map_err(|e| SessionError::Agent(e.to_string()));
        self.end_agent_turn(played)
    }

    /// Records `turn`, just played by `side` from `turn_start`, and starts the next turn.
    fn finish_turn(&mut self, side: Color, turn: Turn) {
        let start = self.turn_start.position();
        self.moves.push(turn.notation(start.board()));
        self.last_turn = Some(TurnTrace::of(start, &turn));
        self.turns.push((side, turn));
        self.turn_start = self.game.clone();
        self.turn_steps.clear();
    }

    /// Takes back the steps of the turn in progress, or else the last turn and, when a person
    /// plays, every turn back to that person's last one.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if self.thinking {
            return Err(SessionError::Thinking);
        }
        if !self.turn_steps.is_empty() {
            self.game = self.turn_start.clone();
            self.turn_steps.clear();
            return Ok(());
        }
        let any_human = self.players.iter().any(|p| matches!(p, Player::Human));
        let mut undone = false;
        while let Some((side, _)) = self.turns.pop() {
            undone = true;
            self.moves.pop();
            if !any_human || matches!(self.player(side), Player::Human) {
                break;
            }
        }
        if !undone {
            return Err(SessionError::NothingToUndo);
        }
        // The game again from the start, through the turns kept.
        self.game = Fanorona::new(self.start);
        self.last_turn = None;
        for (_, turn) in &self.turns {
            let before = *self.game.position();
            self.game.play_turn_unchecked(turn);
            self.last_turn = Some(TurnTrace::of(&before, turn));
        }
        self.turn_start = self.game.clone();
        self.last_report = None;
        Ok(())
    }

    /// The finished turns, each with the side that played it.
    pub fn turns(&self) -> &[(Color, Turn)] {
        &self.turns
    }

    /// The game as a PGN-like record of `event`, dated `date`.
    pub fn record(&self, event: &str, date: String) -> GameRecord {
        GameRecord {
            event: event.into(),
            date,
            white: self.players[0].name().to_string(),
            black: self.players[1].name().to_string(),
            result: self
                .game
                .outcome()
                .map_or("*", |o| o.result_string())
                .to_string(),
            start: self.start,
            moves: self.moves.clone(),
            extra: Vec::new(),
        }
    }
}

/// A step as a request gives it.
#[derive(Clone, Copy, Debug)]
pub enum StepInput<'a> {
    /// In notation: `d3e3W`, `stop`.
    Notation(&'a str),
    /// As an action index (see docs/environment.md, "Actions").
    Action(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A game between two people on 5x5 and the FEN after each of its seeded random turns.
    fn random_game(turns: usize) -> (GameSession<()>, Vec<String>) {
        let start = Position::from_fen("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w").unwrap();
        let mut session = GameSession::new(start, Player::Human, Player::Human);
        let mut rng = StdRng::seed_from_u64(7);
        let mut fens = vec![session.game().position().to_fen()];
        while fens.len() <= turns && session.game().outcome().is_none() {
            let pos = *session.game().position();
            let legal = pos.legal_turns();
            let turn = &legal[rng.random_range(0..legal.len())];
            session.play_turn(&turn.notation(pos.board())).unwrap();
            fens.push(session.game().position().to_fen());
        }
        (session, fens)
    }

    #[test]
    fn undo_replays_the_kept_turns_back_to_each_earlier_position() {
        let (mut session, fens) = random_game(12);
        assert!(fens.len() > 3);
        for fen in fens.iter().rev().skip(1) {
            session.undo().unwrap();
            assert_eq!(&session.game().position().to_fen(), fen);
            assert_eq!(session.moves().len(), session.turns.len());
            let last = session.last_turn().map(|t| t.notation.clone());
            assert_eq!(last.as_ref(), session.moves().last());
        }
        assert!(matches!(session.undo(), Err(SessionError::NothingToUndo)));
        assert!(!session.can_undo());
    }

    #[test]
    fn a_game_refuses_changes_while_its_agent_thinks_and_moves_past_the_length_limit() {
        let spec = fanorona_env::AgentSpec::parse("random").unwrap();
        let white = Player::Agent {
            name: spec.to_string(),
            choice: spec,
            seed: 1,
        };
        let mut session = GameSession::new(Position::standard(), white, Player::Human);
        let job = session.begin_agent_turn().unwrap();
        assert!(session.thinking() && !session.can_undo());
        assert!(matches!(
            session.begin_agent_turn(),
            Err(SessionError::Thinking)
        ));
        assert!(matches!(session.undo(), Err(SessionError::Thinking)));
        assert!(matches!(
            session.play_turn("stop"),
            Err(SessionError::Thinking)
        ));
        // A failed turn changes nothing and ends the thinking.
        let failed = Err(SessionError::Agent("lost".into()));
        assert!(session.end_agent_turn(failed).is_err());
        assert!(!session.thinking() && session.moves().is_empty());
        // A played turn is recorded.
        let mut agent = crate::registry().create(&job.choice, job.seed).unwrap();
        let mut game = job.game;
        let turn = crate::agent_turn(&mut *agent, &mut game).unwrap();
        let job = session.begin_agent_turn().unwrap();
        drop(job);
        let info = None;
        session
            .end_agent_turn(Ok(AgentMove { game, turn, info }))
            .unwrap();
        assert_eq!(session.moves().len(), 1);
        assert_eq!(session.game().current_player(), Color::Black);
        // At the length limit, no more moves.
        let (_, played) = session.turns[0];
        session.turns.resize(MAX_TURNS, (Color::White, played));
        let legal = session.game().position().legal_turns();
        let text = legal[0].notation(session.game().position().board());
        assert!(matches!(
            session.play_turn(&text),
            Err(SessionError::TooLong)
        ));
    }
}
