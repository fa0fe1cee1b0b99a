// The page's one shared state object, and what follows from it. Every module reads and
// changes the state here; nothing else is global.

export const state = {
  game: null,        // the game's last state from the API
  view: null,        // the position the board shows: the game, or one of the analysis board
  mode: "play",      // play | watch | people, of the game shown
  selected: null,    // the point of the piece chosen to move
  choosing: null,    // { approach, withdrawal }: the two steps to one destination
  focus: null,       // the point with the keyboard focus
  drawn: null,       // the board's SVG elements (see board.js)
  paused: false,     // watch mode paused
  busy: 0,           // requests and animations under way
  advancing: false,  // the agents' loop is running
  line: null,        // the analysis board's pasted line { fen, rules, moves }; null: the game's
  ply: null,         // the turns of the line shown; null: the game as it is now
  analysis: null,    // the analysis running: { id, done, abort }
  stopping: null,    // the end of the analysis being stopped (a promise)
  analysisRuns: 0,   // analyses asked for, to start only the last one asked
  restarting: false, // an analysis waits to start until the one before has ended
  gameKey: null,     // the game and position last shown, to re-analyse when it moves
};

// Whether the board shows the game as it is now.
export function following() {
  return state.line === null && state.ply === null;
}

// Whether a person is to move in the game the board shows.
export function canPlay() {
  const game = state.game;
  return Boolean(game && following() && !game.outcome && !game.agent_to_move);
}
