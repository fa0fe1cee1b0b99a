// The page of `fanorona serve`: draws the state the API returns and sends the clicks back.
// No framework and no build step; everything the rules decide comes from the server.
"use strict";

const CELL = 100;
const PAD = 60;
const STEP_MS = 260;
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let game = null;          // the last state from the API
let mode = "play";        // play | watch | people (of the game shown)
let selected = null;      // the point of the piece chosen to move
let choosing = null;      // { approach, withdrawal }: the two steps to one destination
let paused = false;
let busy = 0;           // requests and animations under way
let advancing = false;   // the agents' loop is running

// --- talking to the server -------------------------------------------------------------

async function api(method, path, body) {
  setBusy(1);
  try {
    const response = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    $("error").textContent = "";
    return data;
  } catch (e) {
    $("error").textContent = e.message;
    throw e;
  } finally {
    setBusy(-1);
  }
}

function setBusy(delta) {
  busy += delta;
  document.body.dataset.busy = busy > 0 ? "1" : "0";
  refreshButtons();
}

function refreshButtons() {
  const idle = busy === 0;
  $("stop").disabled = !(idle && myTurn() && game.legal_steps.some((s) => s.kind === "stop"));
  $("undo").disabled = !(idle && game && game.can_undo);
}

// --- geometry --------------------------------------------------------------------------

function coords(name) {
  const column = name.charCodeAt(0) - 97;
  const row = parseInt(name.slice(1), 10) - 1;
  return [PAD + column * CELL, PAD + (game.height - 1 - row) * CELL];
}

function pointName(column, row) {
  return String.fromCharCode(97 + column) + (row + 1);
}

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// --- drawing ---------------------------------------------------------------------------

function pieceAt(name) {
  const column = name.charCodeAt(0) - 97;
  const row = parseInt(name.slice(1), 10) - 1;
  const c = game.rows[game.height - 1 - row][column];
  return c === "." ? null : c;
}

function myTurn() {
  return game && !game.outcome && !game.agent_to_move;
}

function stepsFrom(point) {
  return game.legal_steps.filter((s) => s.from === point);
}

function draw() {
  const svg = $("board");
  svg.textContent = "";
  const w = (game.width - 1) * CELL + 2 * PAD;
  const h = (game.height - 1) * CELL + 2 * PAD;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  for (const [c1, r1, c2, r2] of game.lines) {
    const [x1, y1] = coords(pointName(c1, r1));
    const [x2, y2] = coords(pointName(c2, r2));
    el("line", { class: "line", x1, y1, x2, y2 }, svg);
  }
  if (game.last_turn) {
    const points = game.last_turn.path.map((p) => coords(p).join(",")).join(" ");
    el("polyline", { class: "last", points }, svg);
    for (const p of game.last_turn.captured.flat()) {
      const [cx, cy] = coords(p);
      el("circle", { class: "taken", cx, cy, r: 14 }, svg);
    }
  }
  if (game.chain) {
    for (const p of game.chain.visited) {
      const [cx, cy] = coords(p);
      el("circle", { class: "visited", cx, cy, r: 18 }, svg);
    }
  }
  const movers = new Set(myTurn() ? game.legal_steps.map((s) => s.from).filter(Boolean) : []);
  const captureKind = {};
  if (choosing) {
    for (const kind of ["approach", "withdrawal"]) {
      for (const p of choosing[kind].captures) captureKind[p] = kind;
    }
  }
  for (let row = 0; row < game.height; row++) {
    for (let column = 0; column < game.width; column++) {
      const name = pointName(column, row);
      const color = pieceAt(name);
      if (!color) continue;
      const [cx, cy] = coords(name);
      const classes = ["piece", color];
      if (movers.has(name)) classes.push("selectable");
      if (name === selected) classes.push("selected");
      if (captureKind[name]) classes.push("capture-" + captureKind[name]);
      el("circle", { class: classes.join(" "), cx, cy, r: 32, "data-piece": name, "data-color": color }, svg);
    }
  }
  if (selected && myTurn()) {
    for (const to of new Set(stepsFrom(selected).map((s) => s.to))) {
      const [cx, cy] = coords(to);
      el("circle", { class: "target", cx, cy, r: 16, "data-target": to }, svg);
    }
  }
  for (let row = 0; row < game.height; row++) {
    for (let column = 0; column < game.width; column++) {
      const name = pointName(column, row);
      const [cx, cy] = coords(name);
      const hit = el("circle", { class: "hit", cx, cy, r: 45, "data-point": name }, svg);
      hit.addEventListener("click", () => clicked(name));
    }
  }
}

function describeInfo(info) {
  if (!info) {
    const last = game.last_turn;
    const byAgent = last && game[last.side] !== "human";
    return byAgent ? `no evaluation (${game[last.side]} reports none)` : "no evaluation yet";
  }
  const parts = [`${info.agent} (${info.side})`];
  if (info.mate_in !== null) parts.push(info.mate_in > 0 ? `wins in ${info.mate_in}` : `loses in ${-info.mate_in}`);
  else if (info.value !== null) parts.push(`value ${info.value >= 0 ? "+" : ""}${info.value.toFixed(2)}`);
  if (info.centipieces !== null) parts.push(`${(info.centipieces / 100).toFixed(2)} pieces`);
  if (info.depth !== null) parts.push(`depth ${info.depth}`);
  parts.push(`${info.nodes} nodes, ${info.ms} ms`);
  let text = parts.join(", ");
  if (info.pv.length) text += `; line ${info.pv.join(" ")}`;
  return text;
}

function showSide() {
  const moves = $("moves");
  moves.textContent = "";
  const all = game.moves.slice();
  if (game.current_steps.length) all.push(game.current_steps.join(" ") + " …");
  for (const m of all) {
    const li = document.createElement("li");
    li.textContent = m;
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  $("fen-out").value = game.fen;
  $("result").textContent = game.outcome ? `${game.outcome.result} ${game.outcome.text}` : "";
  let status;
  if (game.outcome) status = "game over";
  else if (game.agent_to_move) status = `${game.side_to_move} (${game[game.side_to_move]}) is thinking`;
  else if (game.chain) status = `${game.side_to_move}: continue the capture chain with ${game.chain.piece}, or stop`;
  else status = `${game.side_to_move} to move`;
  $("status").textContent = status;
  refreshButtons();
  const info = game.agent_info;
  $("eval").textContent = describeInfo(info);
  const white = info && info.white_value !== null ? info.white_value : 0;
  $("evalfill").style.height = `${((white + 1) / 2) * 100}%`;
  $("choice").hidden = !choosing;
}

function show(state) {
  game = state;
  selected = game.chain ? game.chain.piece : null;
  choosing = null;
  draw();
  showSide();
}

// --- animation -------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Moves the piece along `path`, fading the pieces each movement captures.
async function animate(path, captured, stepMs) {
  const piece = document.querySelector(`[data-piece="${path[0]}"]`);
  if (!piece || stepMs <= 0) return;
  piece.classList.add("moving");
  piece.style.transitionDuration = `${stepMs}ms`;
  const [x0, y0] = coords(path[0]);
  for (let i = 1; i < path.length; i++) {
    const [x, y] = coords(path[i]);
    piece.style.transform = `translate(${x - x0}px, ${y - y0}px)`;
    await sleep(stepMs);
    for (const p of captured[i - 1] || []) {
      const victim = document.querySelector(`[data-piece="${p}"]`);
      if (victim) victim.style.opacity = "0";
    }
    await sleep(stepMs / 2);
  }
}

// --- playing ---------------------------------------------------------------------------

function clicked(point) {
  if (!myTurn() || busy > 0) return;
  if (choosing) {
    for (const kind of ["approach", "withdrawal"]) {
      if (choosing[kind].captures.includes(point)) return play(choosing[kind]);
    }
  }
  if (selected) {
    const steps = stepsFrom(selected).filter((s) => s.to === point);
    if (steps.length === 1) return play(steps[0]);
    if (steps.length === 2) {
      choosing = {
        approach: steps.find((s) => s.kind === "approach"),
        withdrawal: steps.find((s) => s.kind === "withdrawal"),
      };
      draw();
      showSide();
      return;
    }
  }
  if (game.chain) return; // in a chain only the chain's piece moves
  choosing = null;
  selected = stepsFrom(point).length ? point : null;
  draw();
  showSide();
}

async function play(step) {
  choosing = null;
  $("choice").hidden = true;
  const id = game.id;
  setBusy(1);
  try {
    if (step.kind !== "stop") await animate([step.from, step.to], [step.captures], STEP_MS);
    try {
      show(await api("POST", `/api/games/${id}/steps`, { action: step.action }));
    } catch (e) {
      show(await api("GET", `/api/games/${id}`));
    }
  } finally {
    setBusy(-1);
  }
  advance();
}

// Lets the agents play while it is their turn (in watch mode at the chosen speed). One loop
// at a time; it follows the game shown, so a new game is picked up by the loop running.
async function advance() {
  if (advancing) return;
  advancing = true;
  setBusy(1);
  try {
    while (game && game.agent_to_move && !(mode === "watch" && paused)) {
      const id = game.id;
      if (mode === "watch") await sleep(Number($("speed").value));
      if (game.id !== id || (mode === "watch" && paused)) continue;
      let next;
      try {
        next = await api("POST", `/api/games/${id}/agent`);
      } catch (e) {
        return;
      }
      if (game.id !== id) continue;
      if (next.last_turn) {
        const stepMs = mode === "watch" ? Math.min(STEP_MS, Number($("speed").value) / 3) : STEP_MS;
        await animate(next.last_turn.path, next.last_turn.captured, stepMs);
      }
      show(next);
    }
  } finally {
    advancing = false;
    setBusy(-1);
  }
}

async function newGame(event) {
  if (event) event.preventDefault();
  mode = $("mode").value;
  paused = false;
  $("pause").textContent = "pause";
  const body = { board: $("board-size").value, rules: $("rules").value.trim() };
  const fen = $("fen-in").value.trim();
  if (fen) {
    body.fen = fen;
    delete body.board;
  }
  if (mode === "play") {
    body.agent = $("agent").value.trim() || undefined;
    body.side = $("side").value;
  } else if (mode === "watch") {
    body.white = $("white-agent").value.trim();
    body.black = $("black-agent").value.trim();
  }
  try {
    show(await api("POST", "/api/games", body));
  } catch (e) {
    return;
  }
  advance();
}

async function init() {
  document.body.dataset.mode = $("mode").value;
  $("mode").addEventListener("change", () => { document.body.dataset.mode = $("mode").value; });
  $("newgame-form").addEventListener("submit", newGame);
  $("stop").addEventListener("click", () => {
    const stop = game.legal_steps.find((s) => s.kind === "stop");
    if (stop && myTurn() && busy === 0) play(stop);
  });
  $("undo").addEventListener("click", async () => {
    if (busy > 0) return;
    show(await api("POST", `/api/games/${game.id}/undo`));
    if (mode !== "watch") advance();
  });
  $("record").addEventListener("click", () => {
    if (game) window.location.href = `/api/games/${game.id}/record`;
  });
  $("choose-approach").addEventListener("click", () => choosing && play(choosing.approach));
  $("choose-withdrawal").addEventListener("click", () => choosing && play(choosing.withdrawal));
  $("choose-cancel").addEventListener("click", () => { choosing = null; draw(); showSide(); });
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "resume" : "pause";
    if (!paused) advance();
  });
  const speed = () => { $("speed-value").textContent = `${$("speed").value} ms`; };
  $("speed").addEventListener("input", speed);
  speed();
  const menu = await api("GET", "/api/agents");
  $("agent").value = menu.default_agent;
  const list = $("agent-kinds");
  for (const kind of menu.kinds) {
    const option = document.createElement("option");
    option.value = kind.name;
    option.label = kind.strength;
    list.appendChild(option);
  }
  $("kinds").textContent = "Agents, strongest first: " + menu.kinds
    .map((k) => `${k.name} (${k.summary}${k.strength ? "; " + k.strength : ""})`).join("; ");
  newGame();
}

init();
