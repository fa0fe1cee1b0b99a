// The side panel of the game: status, result, moves, FEN, the agent's evaluation, and which
// buttons may be used now.
import { canPlay, following, state } from "./state.js";

const $ = (id) => document.getElementById(id);

// The agent's last evaluation in words.
function describeInfo(game) {
  const info = game.agent_info;
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

// What is happening, in one line (read out by screen readers).
function status(game) {
  if (!following()) {
    const shown = state.view.moves.length;
    return `analysis board: the position after ${shown} turn${shown === 1 ? "" : "s"}, ` +
      `${state.view.side_to_move} to move`;
  }
  if (game.outcome) return "game over";
  if (game.agent_to_move) return `${game.side_to_move} (${game[game.side_to_move]}) is thinking`;
  if (state.choosing) return `${game.side_to_move}: capture by approach (A) or by withdrawal (W); Escape cancels`;
  if (game.chain) return `${game.side_to_move}: continue the capture chain with ${game.chain.piece}, or stop (S)`;
  return `${game.side_to_move} to move`;
}

export function refreshButtons() {
  const game = state.game;
  const idle = state.busy === 0;
  $("stop").disabled = !(idle && canPlay() && game.legal_steps.some((s) => s.kind === "stop"));
  $("undo").disabled = !(idle && game && following() && game.can_undo);
}

export function showPanel() {
  const game = state.game;
  const view = state.view;
  const moves = $("moves");
  moves.textContent = "";
  // Each finished turn a button: the analysis board shows the position after it.
  game.moves.forEach((m, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = m;
    button.dataset.ply = i + 1;
    moves.appendChild(document.createElement("li")).appendChild(button);
  });
  if (game.current_steps.length) {
    moves.appendChild(document.createElement("li")).textContent = game.current_steps.join(" ") + " …";
  }
  moves.scrollTop = moves.scrollHeight;
  $("fen-out").value = view.fen;
  $("result").textContent = game.outcome ? `${game.outcome.result} ${game.outcome.text}` : "";
  $("status").textContent = status(game);
  $("eval").textContent = describeInfo(game);
  const info = game.agent_info;
  const white = info && info.white_value !== null ? info.white_value : 0;
  $("evalfill").style.height = `${((white + 1) / 2) * 100}%`;
  $("choice").hidden = !state.choosing;
  refreshButtons();
}
