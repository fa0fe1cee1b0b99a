// The board in SVG: built once for a board's size, then updated in place from the position
// shown (pieces, marks, move targets, the keyboard focus and each point's spoken label).
import { canPlay, state } from "./state.js";
import { parsePoint, pointName } from "./points.js";

const CELL = 100;
const PAD = 60;
const SVG = "http://www.w3.org/2000/svg";
const COLORS = { W: "white", B: "black" };

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

// The centre of the point `name` in the SVG's coordinates.
export function coords(name) {
  const { column, row } = parsePoint(name);
  return [PAD + column * CELL, PAD + (state.view.height - 1 - row) * CELL];
}

// The piece on `name` in the position shown: "W", "B" or null.
export function pieceAt(name) {
  const { column, row } = parsePoint(name);
  const c = state.view.rows[state.view.height - 1 - row][column];
  return c === "." ? null : c;
}

// The legal steps of the piece on `point`.
export function stepsFrom(point) {
  return state.game.legal_steps.filter((s) => s.from === point);
}

// Builds the SVG of the shown position's board; `onPoint` gets the name of a clicked point.
function build(svg, onPoint) {
  const { width, height } = state.view;
  svg.textContent = "";
  svg.setAttribute("viewBox", `0 0 ${(width - 1) * CELL + 2 * PAD} ${(height - 1) * CELL + 2 * PAD}`);
  svg.setAttribute("aria-label", `board, ${width} by ${height}`);
  const layer = (name) => el("g", { class: name }, svg);
  const [lines, marks, pieces, targets, hits] = ["lines", "marks", "pieces", "targets", "hits"].map(layer);
  for (const [c1, r1, c2, r2] of state.view.lines) {
    const [x1, y1] = coords(pointName(c1, r1));
    const [x2, y2] = coords(pointName(c2, r2));
    el("line", { class: "line", x1, y1, x2, y2 }, lines);
  }
  const last = el("polyline", { class: "last", points: "" }, marks);
  const points = new Map();
  // Rows from the top, so that the tab order reads the board as it is drawn.
  for (let row = height - 1; row >= 0; row--) {
    for (let column = 0; column < width; column++) {
      const name = pointName(column, row);
      const [cx, cy] = coords(name);
      const hit = el("circle", { class: "hit", cx, cy, r: 45, "data-point": name, role: "button", tabindex: -1 }, hits);
      hit.addEventListener("click", () => onPoint(name));
      hit.addEventListener("focus", () => { state.focus = name; });
      points.set(name, {
        taken: el("circle", { class: "taken", cx, cy, r: 14 }, marks),
        visited: el("circle", { class: "visited", cx, cy, r: 18 }, marks),
        piece: el("circle", { class: "piece", cx, cy, r: 32 }, pieces),
        target: el("circle", { class: "target", cx, cy, r: 16 }, targets),
        hit,
      });
    }
  }
  state.drawn = { size: `${width}x${height}`, last, points };
  state.focus = null;
}

// Updates the board to the position shown, building it first for a new board size.
export function drawBoard(onPoint) {
  const view = state.view;
  const svg = document.getElementById("board");
  if (!state.drawn || state.drawn.size !== `${view.width}x${view.height}`) build(svg, onPoint);
  const { last, points } = state.drawn;
  last.setAttribute("points", view.last_turn ? view.last_turn.path.map((p) => coords(p).join(",")).join(" ") : "");
  const taken = new Set(view.last_turn ? view.last_turn.captured.flat() : []);
  const visited = new Set(view.chain ? view.chain.visited : []);
  const live = canPlay();
  const movers = new Set(live ? state.game.legal_steps.map((s) => s.from).filter(Boolean) : []);
  const targets = new Set(live && state.selected ? stepsFrom(state.selected).map((s) => s.to) : []);
  const captureKind = {};
  for (const kind of state.choosing ? ["approach", "withdrawal"] : []) {
    for (const p of state.choosing[kind].captures) captureKind[p] = kind;
  }
  if (!points.has(state.focus)) state.focus = [...movers][0] || points.keys().next().value;
  for (const [name, p] of points) {
    const color = pieceAt(name);
    const classes = ["piece"];
    const label = [name, color ? `${COLORS[color]} piece` : "empty"];
    if (color) {
      classes.push(color);
      p.piece.dataset.piece = name;
      p.piece.dataset.color = color;
    } else {
      classes.push("empty");
      delete p.piece.dataset.piece;
      delete p.piece.dataset.color;
    }
    if (movers.has(name)) { classes.push("selectable"); label.push("can move"); }
    if (name === state.selected) { classes.push("selected"); label.push("selected"); }
    if (captureKind[name]) { classes.push("capture-" + captureKind[name]); label.push(`captured by ${captureKind[name]}`); }
    p.piece.setAttribute("class", classes.join(" "));
    p.piece.removeAttribute("style");
    if (targets.has(name)) { p.target.dataset.target = name; label.push("move here"); } else delete p.target.dataset.target;
    p.target.classList.toggle("off", !targets.has(name));
    p.taken.classList.toggle("off", !taken.has(name));
    p.visited.classList.toggle("off", !visited.has(name));
    if (taken.has(name)) label.push("captured last turn");
    if (visited.has(name)) label.push("visited this turn");
    p.hit.setAttribute("aria-label", label.join(", "));
    p.hit.setAttribute("tabindex", name === state.focus ? 0 : -1);
  }
}

// Moves the keyboard focus to the point `name`.
export function focusPoint(name) {
  const point = state.drawn && state.drawn.points.get(name);
  if (!point) return;
  state.drawn.points.get(state.focus)?.hit.setAttribute("tabindex", -1);
  state.focus = name;
  point.hit.setAttribute("tabindex", 0);
  point.hit.focus();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Moves the piece along `path`, fading the pieces each movement captures (the next update
// puts every piece back in place).
export async function animate(path, captured, stepMs) {
  const piece = state.drawn && state.drawn.points.get(path[0])?.piece;
  if (!piece || !piece.dataset.piece || stepMs <= 0) return;
  piece.classList.add("moving");
  piece.style.transitionDuration = `${stepMs}ms`;
  const [x0, y0] = coords(path[0]);
  for (let i = 1; i < path.length; i++) {
    const [x, y] = coords(path[i]);
    piece.style.transform = `translate(${x - x0}px, ${y - y0}px)`;
    await sleep(stepMs);
    for (const p of captured[i - 1] || []) {
      const victim = state.drawn.points.get(p)?.piece;
      if (victim) victim.style.opacity = "0";
    }
    await sleep(stepMs / 2);
  }
}
