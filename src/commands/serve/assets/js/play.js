// Playing: what a click or a key on a point does, the steps sent to the server with their
// animation, the agents' turns, undo, stopping a chain, and new games.
import { canPlay, following, state } from "./state.js";
import { api, clearError, setBusy, showError } from "./api.js";
import { animate, drawBoard, stepsFrom } from "./board.js";
import { showPanel } from "./panel.js";

const STEP_MS = 260;
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Draws the board and the panel from the state.
export function redraw() {
  drawBoard(pointChosen);
  showPanel();
}

// Shows a new state of the game (and the board follows it unless it shows another
// position); then the document gets a `game-shown` event.
export function show(game) {
  state.game = game;
  if (following()) state.view = game;
  state.selected = game.chain ? game.chain.piece : null;
  state.choosing = null;
  syncBoardSize(game);
  redraw();
  document.dispatchEvent(new CustomEvent("game-shown"));
}

// The board selector shows the size of the game's board.
function syncBoardSize(game) {
  const size = `${game.width}x${game.height}`;
  const select = $("board-size");
  if (![...select.options].some((o) => o.value === size)) select.add(new Option(size));
  select.value = size;
}

// A click, or Enter on the focused point.
export function pointChosen(point) {
  if (!canPlay() || state.busy > 0) return;
  if (state.choosing) {
    for (const kind of ["approach", "withdrawal"]) {
      if (state.choosing[kind].captures.includes(point)) return play(state.choosing[kind]);
    }
  }
  if (state.selected) {
    const steps = stepsFrom(state.selected).filter((s) => s.to === point);
    if (steps.length === 1) return play(steps[0]);
    if (steps.length === 2) {
      state.choosing = {
        approach: steps.find((s) => s.kind === "approach"),
        withdrawal: steps.find((s) => s.kind === "withdrawal"),
      };
      return redraw();
    }
  }
  if (state.game.chain) return; // in a chain only the chain's piece moves
  state.choosing = null;
  state.selected = stepsFrom(point).length ? point : null;
  redraw();
}

// Chooses how the pending capture is made.
export function choose(kind) {
  if (state.choosing && state.busy === 0) play(state.choosing[kind]);
}

export function cancelChoice() {
  state.choosing = null;
  redraw();
}

export function stopChain() {
  const stop = state.game.legal_steps.find((s) => s.kind === "stop");
  if (stop && canPlay() && state.busy === 0) play(stop);
}

// Sends one step; a refused step is shown and the game read again.
async function play(step) {
  state.choosing = null;
  $("choice").hidden = true;
  const id = state.game.id;
  setBusy(1);
  try {
    if (step.kind !== "stop") await animate([step.from, step.to], [step.captures], STEP_MS);
    try {
      show(await api("POST", `/api/games/${id}/steps`, { action: step.action }));
      clearError();
    } catch (e) {
      showError(e);
      show(await api("GET", `/api/games/${id}`));
    }
  } catch (e) {
    showError(e);
  } finally {
    setBusy(-1);
  }
  advance();
}

export async function undo() {
  if (state.busy > 0 || !state.game) return;
  try {
    show(await api("POST", `/api/games/${state.game.id}/undo`));
    clearError();
  } catch (e) {
    showError(e);
    return;
  }
  if (state.mode !== "watch") advance();
}

// Lets the agents play while it is their turn (in watch mode at the chosen speed). One loop
// at a time; it follows the game shown, so a new game is picked up by the loop running.
export async function advance() {
  if (state.advancing) return;
  state.advancing = true;
  setBusy(1);
  try {
    while (state.game && state.game.agent_to_move && !(state.mode === "watch" && state.paused)) {
      const id = state.game.id;
      if (state.mode === "watch") await sleep(Number($("speed").value));
      if (state.game.id !== id || (state.mode === "watch" && state.paused)) continue;
      let next;
      try {
        next = await api("POST", `/api/games/${id}/agent`);
      } catch (e) {
        showError(e);
        return;
      }
      if (state.game.id !== id) continue;
      if (next.last_turn && following()) {
        const stepMs = state.mode === "watch" ? Math.min(STEP_MS, Number($("speed").value) / 3) : STEP_MS;
        await animate(next.last_turn.path, next.last_turn.captured, stepMs);
      }
      show(next);
    }
  } finally {
    state.advancing = false;
    setBusy(-1);
  }
}

// Starts a game from the request `body` in `mode`; the board then follows it.
export async function startGame(body, mode) {
  let game;
  try {
    game = await api("POST", "/api/games", body);
  } catch (e) {
    showError(e);
    return;
  }
  clearError();
  state.mode = mode;
  state.paused = false;
  state.line = null;
  state.ply = null;
  $("pause").textContent = "pause";
  show(game);
  advance();
}

// The new-game form's request.
export function newGame(event) {
  if (event) event.preventDefault();
  const mode = $("mode").value;
  const body = { rules: $("rules").value.trim() };
  const fen = $("fen-in").value.trim();
  if (fen) body.fen = fen;
  else body.board = $("board-size").value;
  if (mode === "play") {
    body.agent = $("agent").value.trim() || undefined;
    body.side = $("side").value;
  } else if (mode === "watch") {
    body.white = $("white-agent").value.trim();
    body.black = $("black-agent").value.trim();
  }
  return startGame(body, mode);
}
