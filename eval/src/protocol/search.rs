//! The search of a `go` command, on a worker thread, and its answer: an `info` line and
//! `bestmove TURN`, or `info string error: ...` and `bestmove (error)` when the agent fails. A
//! search with limits sends its answer as soon as it ends; `go infinite` searches with a budget
//! no agent reaches and holds its answer until it is stopped, as UCI asks.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use fanorona_env::{Agent, Fanorona, SearchLimits};
use fanorona_util::denormals;

use super::command::GoLimits;
use super::info::info_line;
use super::output::{Output, error_line};
use crate::agents::complete_turn::agent_turn;

/// A boxed agent, as the worker thread hands it back.
pub(super) type BoxedAgent = Box<dyn Agent<Fanorona>>;

/// The answer to a `go` that failed: the reason, and a `bestmove` that is not a move (GUIs
/// waiting for one are not left waiting; `(none)` is kept for finished games).
pub(super) fn failure(reason: &str) -> Vec<String> {
    vec![error_line(reason), "bestmove (error)".to_string()]
}

/// A `go` in progress.
pub(super) struct Search {
    handle: JoinHandle<(BoxedAgent, Vec<String>)>,
    stop: Arc<AtomicBool>,
    infinite: bool,
}

impl Search {
    /// Starts `agent` searching `game` within `limits`; the answer goes to `out`.
    pub(super) fn start<W: Write + Send + 'static>(
        mut agent: BoxedAgent,
        mut game: Fanorona,
        limits: &GoLimits,
        out: &Output<W>,
    ) -> Search {
        let stop = Arc::new(AtomicBool::new(false));
        let side = game.position().side_to_move();
        agent.set_limits(&SearchLimits {
            budget: limits.budget_for(side),
            stop: Some(stop.clone()),
        });
        let infinite = limits.infinite;
        let out = out.clone();
        let handle = denormals::spawn(move || {
            let board = game.board();
            let answer = match agent_turn(&mut agent, &mut game) {
                Ok(turn) => {
                    let info = agent.last_info();
                    let note = info.as_ref().and_then(|i| i.note.clone());
                    note.map(|n| format!("info string {n}"))
                        .into_iter()
                        .chain(info.map(|info| info_line(&info)))
                        .chain([format!("bestmove {}", turn.notation(board))])
                        .collect()
                }
                Err(e) => failure(&e.to_string()),
            };
            if infinite {
                return (agent, answer);
            }
            // The output may be gone (the GUI quit): nothing is left to tell then.
            let _ = out.send_all(&answer);
            (agent, Vec::new())
        });
        Search {
            handle,
            stop,
            infinite,
        }
    }

    /// Whether this is a `go infinite`, which ends only when stopped.
    pub(super) fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// Waits for the search to end, sends its answer if it was held, and gives the agent back;
    /// `None` if the search panicked (its answer is then a failure).
    pub(super) fn finish<W: Write>(self, out: &Output<W>) -> Option<BoxedAgent> {
        let (agent, answer) = match self.handle.join() {
            Ok((agent, answer)) => (Some(agent), answer),
            Err(_) => (None, failure("the search failed; the agent is rebuilt")),
        };
        // As in the worker: a GUI that is gone is told nothing.
        let _ = out.send_all(&answer);
        agent
    }

    /// Asks the search to stop now, then [`finish`](Self::finish)es it.
    pub(super) fn stop<W: Write>(self, out: &Output<W>) -> Option<BoxedAgent> {
        self.stop.store(true, Ordering::Relaxed);
        self.finish(out)
    }
}
