// The page of `fanorona serve`: wires the modules to the page. No framework and no build
// step; everything the rules decide comes from the server.
import { state } from "./state.js";
import { api, showError } from "./api.js";
import { initKeys } from "./keys.js";
import { advance, cancelChoice, choose, newGame, pointChosen, stopChain, undo } from "./play.js";
import { initAnalysis } from "./analysis.js";

const $ = (id) => document.getElementById(id);

// Offers the agents, strongest first, each with its strength in words.
async function offerAgents() {
  const menu = await api("GET", "/api/agents");
  $("agent").value = menu.default_agent;
  $("analysis-agent").value = menu.default_agent;
  for (const kind of menu.kinds) {
    const option = document.createElement("option");
    option.value = kind.name;
    option.label = kind.strength;
    $("agent-kinds").appendChild(option);
  }
  $("kinds").textContent = "Agents, strongest first: " + menu.kinds
    .map((k) => `${k.name} (${k.summary}${k.strength ? "; " + k.strength : ""})`).join("; ");
}

async function init() {
  document.body.dataset.mode = $("mode").value;
  $("mode").addEventListener("change", () => { document.body.dataset.mode = $("mode").value; });
  // A FEN gives its own board: the selector then shows the game's size and is not used.
  for (const type of ["input", "change"]) {
    $("fen-in").addEventListener(type, () => { $("board-size").disabled = $("fen-in").value.trim() !== ""; });
  }
  $("newgame-form").addEventListener("submit", newGame);
  $("stop").addEventListener("click", stopChain);
  $("undo").addEventListener("click", undo);
  $("record").addEventListener("click", () => {
    if (state.game) window.location.href = `/api/games/${state.game.id}/record`;
  });
  $("choose-approach").addEventListener("click", () => choose("approach"));
  $("choose-withdrawal").addEventListener("click", () => choose("withdrawal"));
  $("choose-cancel").addEventListener("click", cancelChoice);
  $("pause").addEventListener("click", () => {
    state.paused = !state.paused;
    $("pause").textContent = state.paused ? "resume" : "pause";
    if (!state.paused) advance();
  });
  const speed = () => { $("speed-value").textContent = `${$("speed").value} ms`; };
  $("speed").addEventListener("input", speed);
  speed();
  initKeys({ point: pointChosen, choose, cancel: cancelChoice, stopChain });
  initAnalysis();
  try {
    await offerAgents();
  } catch (e) {
    showError(e);
  }
  newGame();
}

init();
