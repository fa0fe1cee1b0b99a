//! One game on the server: the position, who plays each side (a person or an agent), the turn
//! in progress step by step, the turns so far, undo, and the agent's last evaluation.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_env::{Agent, Color, Fanorona, Game, Position, SearchInfo, SearchLimits, Step, Turn};
use fanorona_eval::{GameRecord, agent_turn, turn_of_steps};

use super::trace::TurnTrace;

/// Who plays a side.
pub enum Player {
    /// A person, through the page or the API.
    Human,
    /// An agent built from `spec`.
    Agent {
        /// The specification it was built from.
        spec: String,
        /// The agent.
        agent: Box<dyn Agent<Fanorona>>,
    },
}

impl Player {
    /// `human`, or the agent's specification.
    pub fn name(&self) -> &str {
        match self {
            Player::Human => "human",
            Player::Agent { spec, .. } => spec,
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
    #[error("a capture chain is in progress: send its next step (or stop) to /steps")]
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

/// A finished turn and the game just before it, for undo.
struct Snapshot {
    game: Fanorona,
    last_turn: Option<TurnTrace>,
}

/// A game in progress.
pub struct Session {
    game: Fanorona,
    start: Position,
    players: [Player; 2],
    /// The game when the current turn began, and the steps played in it so far.
    turn_start: Fanorona,
    turn_steps: Vec<Step>,
    /// The finished turns in notation, and the game before each of them.
    moves: Vec<String>,
    history: Vec<Snapshot>,
    last_turn: Option<TurnTrace>,
    last_report: Option<AgentReport>,
}

impl Session {
    /// A game from `start` with `white` and `black` to play.
    pub fn new(start: Position, white: Player, black: Player) -> Session {
        let game = Fanorona::new(start);
        Session {
            turn_start: game.clone(),
            game,
            start,
            players: [white, black],
            turn_steps: Vec::new(),
            moves: Vec::new(),
            history: Vec::new(),
            last_turn: None,
            last_report: None,
        }
    }

    /// The game now.
    pub fn game(&self) -> &Fanorona {
        &self.game
    }

    /// Who plays `side`.
    pub fn player(&self, side: Color) -> &Player {
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

    /// Whether [`Session::undo`] has something to take back.
    pub fn can_undo(&self) -> bool {
        !self.turn_steps.is_empty() || !self.history.is_empty()
    }

    /// Checks that the game goes on and that `wanted` (a person or an agent) is to move.
    fn check_mover(&self, human: bool) -> Result<Color, SessionError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(SessionError::GameOver(outcome.to_string()));
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

    /// Plays one step of a person's turn: `step` in notation (`d3e3W`, `stop`) or an action
    /// index.
    pub fn play_step(&mut self, step: StepInput<'_>) -> Result<(), SessionError> {
        self.check_mover(true)?;
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
            self.finish_turn(&turn);
        }
        Ok(())
    }

    /// Plays a person's whole turn written in notation (`c1d1Ad2A`), at the start of a turn.
    pub fn play_turn(&mut self, text: &str) -> Result<(), SessionError> {
        self.check_mover(true)?;
        if !self.turn_steps.is_empty() {
            return Err(SessionError::MidChain);
        }
        let turn = self
            .game
            .position()
            .parse_turn(text)
            .map_err(|e| SessionError::Illegal(e.to_string()))?;
        self.game.play_turn_unchecked(&turn);
        self.finish_turn(&turn);
        Ok(())
    }

    /// The agent to move plays its turn; setting `stop` ends its search early.
    pub fn agent_plays(&mut self, stop: Arc<AtomicBool>) -> Result<(), SessionError> {
        let side = self.check_mover(false)?;
        let Player::Agent { spec, agent } = &mut self.players[side.index()] else {
            unreachable!("check_mover found an agent");
        };
        agent.set_limits(&SearchLimits {
            stop: Some(stop),
            ..SearchLimits::default()
        });
        let turn =
            agent_turn(agent, &mut self.game).map_err(|e| SessionError::Agent(e.to_string()))?;
        self.last_report = agent.last_info().map(|info| AgentReport {
            agent: spec.clone(),
            side,
            info,
        });
        self.finish_turn(&turn);
        Ok(())
    }

    /// Records `turn`, just played from `turn_start`, and starts the next turn.
    fn finish_turn(&mut self, turn: &Turn) {
        let start = self.turn_start.position();
        self.moves.push(turn.notation(start.board()));
        let trace = TurnTrace::of(start, turn);
        let before = std::mem::replace(&mut self.turn_start, self.game.clone());
        self.history.push(Snapshot {
            game: before,
            last_turn: self.last_turn.replace(trace),
        });
        self.turn_steps.clear();
    }

    /// Takes back the steps of the turn in progress, or else the last turn and, when a person
    /// plays, every turn back to that person's last one.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if !self.turn_steps.is_empty() {
            self.game = self.turn_start.clone();
            self.turn_steps.clear();
            return Ok(());
        }
        let any_human = self.players.iter().any(|p| matches!(p, Player::Human));
        let mut undone = false;
        while let Some(snapshot) = self.history.pop() {
            undone = true;
            self.moves.pop();
            self.game = snapshot.game;
            self.last_turn = snapshot.last_turn;
            let side = self.game.current_player();
            if !any_human || matches!(self.player(side), Player::Human) {
                break;
            }
        }
        if !undone {
            return Err(SessionError::NothingToUndo);
        }
        self.turn_start = self.game.clone();
        self.last_report = None;
        Ok(())
    }

    /// The game as a PGN-like record (see `fanorona_eval::record`), dated `date`.
    pub fn record(&self, date: String) -> GameRecord {
        GameRecord {
            event: "fanorona serve".into(),
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
