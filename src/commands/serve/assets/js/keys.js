// Playing by keyboard: on the board the arrow keys move the focus from point to point and
// Enter or Space acts on the focused point as a click does. Anywhere but in a text field,
// while a capture may be by approach or by withdrawal, A or W chooses and Escape cancels;
// S stops a capture chain.
import { state } from "./state.js";
import { parsePoint, pointName } from "./points.js";
import { focusPoint } from "./board.js";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

// `actions`: { point(name), choose(kind), cancel(), stopChain() }.
export function initKeys(actions) {
  document.getElementById("board").addEventListener("keydown", (event) => {
    const name = event.target.dataset && event.target.dataset.point;
    if (!name || !state.view) return;
    if (ARROWS[event.key]) {
      const [dc, dr] = ARROWS[event.key];
      const { column, row } = parsePoint(name);
      const c = Math.min(Math.max(column + dc, 0), state.view.width - 1);
      const r = Math.min(Math.max(row + dr, 0), state.view.height - 1);
      focusPoint(pointName(c, r));
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      actions.point(name);
      event.preventDefault();
    }
  });
  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (state.choosing && (key === "a" || key === "w")) {
      actions.choose(key === "a" ? "approach" : "withdrawal");
    } else if (state.choosing && key === "escape") {
      actions.cancel();
    } else if (key === "s" && state.game && state.game.chain) {
      actions.stopChain();
    } else {
      return;
    }
    event.preventDefault();
  });
}
