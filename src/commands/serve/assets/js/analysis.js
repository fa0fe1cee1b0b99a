// The analysis board: steps through a line of turns (the game's, or a pasted FEN or move
// list; by the buttons, or a click on a move), shows each position on the board, and has an
// agent analyse the position shown in the background: each deeper iteration the server
// streams (server-sent events) updates the value bar, the verdict, the depth and the best
// line, until stopped. From any position a new game can be played against any agent.
import { following, state } from "./state.js";
import { answer, api, clearError, showError } from "./api.js";
import { redraw, startGame } from "./play.js";

const $ = (id) => document.getElementById(id);

// The line stepped through: the pasted one, or the game's.
function line() {
  if (state.line) return state.line;
  return { fen: state.game.start, rules: state.game.rules, moves: state.game.moves };
}

// The query naming the position shown (the game's own FEN while a chain is in progress).
function positionQuery() {
  const params = new URLSearchParams();
  if (following()) {
    const game = state.game;
    params.set("rules", game.rules);
    if (game.current_steps.length) {
      params.set("fen", game.fen);
    } else {
      params.set("fen", game.start);
      params.set("moves", game.moves.join(" "));
    }
  } else {
    const shown = line();
    if (shown.fen) params.set("fen", shown.fen);
    else params.set("board", shown.board);
    params.set("rules", shown.rules);
    params.set("moves", shown.moves.slice(0, state.ply).join(" "));
  }
  return params;
}

// Shows the position after `ply` turns of the line (the game now when that is its end).
async function stepTo(ply) {
  const moves = line().moves;
  ply = Math.min(Math.max(ply, 0), moves.length);
  if (state.line === null && ply === moves.length) {
    state.ply = null;
    state.view = state.game;
  } else {
    state.ply = ply;
    try {
      state.view = await api("GET", `/api/position?${positionQuery()}`);
    } catch (e) {
      showError(e);
      return;
    }
  }
  state.selected = null;
  state.choosing = null;
  redraw();
  showLine();
  if (state.analysis) restart();
}

// Where the board is in the line, and which steps are possible.
function showLine() {
  const total = line().moves.length;
  const ply = state.ply === null ? total : state.ply;
  $("line-ply").textContent = `${state.line ? "pasted line" : "game"}: after ${ply} of ${total} turns`;
  $("line-first").disabled = $("line-back").disabled = ply === 0;
  $("line-forward").disabled = $("line-last").disabled = ply === total;
  $("line-game").hidden = following();
}

// Reads a pasted FEN (it has a `/`) or a move list (from the start of the board chosen).
function loadLine(event) {
  event.preventDefault();
  const text = $("line-input").value.trim();
  if (!text) return;
  if (text.includes("/")) {
    state.line = { fen: text, rules: $("rules").value.trim(), moves: [] };
  } else {
    state.line = { board: $("board-size").value, rules: $("rules").value.trim(), moves: text.split(/\s+/) };
  }
  stepTo(state.line.moves.length);
}

// The query of `GET /api/analysis` for the position shown.
function analysisQuery() {
  const params = positionQuery();
  const agent = $("analysis-agent").value.trim();
  if (agent) params.set("agent", agent);
  return params;
}

// Shows one iteration of the analysis.
function showIteration(it) {
  const white = it.white_value === null ? 0 : it.white_value;
  $("analysis-fill").style.width = `${((white + 1) / 2) * 100}%`;
  const value = it.value === null ? "" : `, value ${it.value >= 0 ? "+" : ""}${it.value.toFixed(2)} for the side to move`;
  const depth = it.depth === null ? `iteration ${it.iteration}` : `depth ${it.depth}`;
  $("analysis-verdict").textContent = `${it.verdict} (${depth}${value}; white's expected score ${Math.round((white + 1) * 50)}%)`;
  $("analysis-line").textContent = it.pv.length ? `best line: ${it.pv.join(" ")}` : "";
  const li = document.createElement("li");
  li.textContent = `${depth}: ${it.verdict}, ${it.pv[0] || ""} (${it.nodes} nodes, ${it.ms} ms)`;
  li.dataset.iteration = it.iteration;
  $("analysis-iterations").prepend(li);
}

// Shows the prover's answer (and the endgame tables', where they hold the position).
function showProof(proof) {
  const keeping = (proof.turns || []).filter((t) => t.status === "keeps").map((t) => t.turn);
  let text;
  if (proof.error) text = `not proven: ${proof.error}`;
  else if (proof.value === null) text = `not proven within ${proof.nodes} nodes`;
  else {
    text = `proven: a ${proof.value} for ${proof.side_to_move}`;
    if (keeping.length) text += `, kept by ${keeping.join(" ")}`;
    const unsettled = proof.turns.filter((t) => t.status === "unknown").length;
    if (unsettled) text += ` (${unsettled} turns unsettled)`;
  }
  const tables = proof.tables;
  if (tables) {
    const distance = tables.distance === null ? "" : ` in ${tables.distance}`;
    text += `; endgame tables: a ${tables.value}${distance}, kept by ${tables.keeps.join(" ")}`;
  }
  $("analysis-proof").textContent = text;
}

// Reads the event stream of an analysis until it ends; calls `on(name, data)` per event.
async function readEvents(response, on) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    text += decoder.decode(value, { stream: true });
    let end;
    while ((end = text.indexOf("\n\n")) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      let name = "message";
      let data = "";
      for (const row of block.split("\n")) {
        if (row.startsWith("event: ")) name = row.slice(7);
        else if (row.startsWith("data: ")) data += row.slice(6);
      }
      if (data) on(name, JSON.parse(data));
    }
  }
}

// Starts analysing the position shown.
async function start() {
  const abort = new AbortController();
  let finish, started;
  const running = {
    id: null,
    abort,
    started: new Promise((resolve) => { started = resolve; }), // its id is known, or it ended
    done: new Promise((resolve) => { finish = resolve; }),
  };
  state.analysis = running;
  document.body.dataset.analysis = "running";
  $("analyse").textContent = "stop analysis";
  $("analysis-iterations").textContent = "";
  $("analysis-verdict").textContent = "thinking…";
  $("analysis-line").textContent = "";
  $("analysis-proof").textContent = "";
  try {
    const response = await fetch(`/api/analysis?${analysisQuery()}`, { signal: abort.signal });
    if (!response.ok) await answer(response);
    await readEvents(response, (name, data) => {
      if (name === "start") {
        running.id = data.id;
        started();
      }
      else if (name === "proof") showProof(data);
      else if (name === "iteration") showIteration(data);
      else if (name === "end") $("analysis-end").textContent = `analysis ${data.reason}: ${data.message}`;
    });
  } catch (e) {
    if (e.name !== "AbortError") showError(e);
  } finally {
    started();
    finish();
    if (state.analysis === running) {
      state.analysis = null;
      document.body.dataset.analysis = "stopped";
      $("analyse").textContent = "analyse";
    }
  }
}

// Stops the analysis running and waits for its end (or for the end of the one stopping).
function stop() {
  const running = state.analysis;
  if (!running) return state.stopping;
  state.analysis = null;
  state.stopping = (async () => {
    // Stopped by a request once its id is known: a client that only goes away is noticed
    // by the server late (at its next event, after the proof), and holds the place until then.
    await running.started;
    if (running.id) {
      try {
        await api("POST", `/api/analysis/${running.id}/stop`);
      } catch {
        running.abort.abort(); // it had ended already
      }
    } else {
      running.abort.abort();
    }
    await running.done;
    document.body.dataset.analysis = "stopped";
    $("analyse").textContent = "analyse";
  })();
  return state.stopping;
}

// Analyses the position shown afresh, once the analysis before has ended (so that it never
// takes a second place on the server); of restarts asked meanwhile, the last one starts.
async function restart() {
  const run = ++state.analysisRuns;
  state.restarting = true;
  await stop();
  if (run !== state.analysisRuns) return;
  state.restarting = false;
  $("analysis-end").textContent = "";
  start();
}

export function initAnalysis() {
  $("line-first").addEventListener("click", () => stepTo(0));
  $("line-back").addEventListener("click", () => stepTo((state.ply === null ? line().moves.length : state.ply) - 1));
  $("line-forward").addEventListener("click", () => stepTo((state.ply === null ? line().moves.length : state.ply) + 1));
  $("line-last").addEventListener("click", () => stepTo(line().moves.length));
  $("line-game").addEventListener("click", () => { state.line = null; stepTo(state.game.moves.length); });
  $("line-form").addEventListener("submit", loadLine);
  $("moves").addEventListener("click", (event) => {
    const ply = event.target.dataset.ply;
    if (!ply || !state.game) return;
    state.line = null;
    stepTo(Number(ply));
  });
  // The button stops the analysis running, or the one waiting to start (a restart under
  // way: the one before takes a moment to end, its proof included).
  $("analyse").addEventListener("click", () => {
    if (state.analysis || state.restarting) {
      state.analysisRuns += 1;
      state.restarting = false;
      stop();
    } else restart();
  });
  $("play-here").addEventListener("click", () => {
    const view = state.view;
    $("mode").value = "play";
    $("mode").dispatchEvent(new Event("change"));
    clearError();
    startGame({ fen: view.fen, rules: view.rules, agent: $("agent").value.trim() || undefined, side: view.side_to_move }, "play");
  });
  document.addEventListener("game-shown", () => {
    showLine();
    const key = `${state.game.id} ${state.game.fen}`;
    if (following() && key !== state.gameKey && state.analysis) restart();
    state.gameKey = key;
  });
}
