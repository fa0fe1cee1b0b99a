// Talking to the server: JSON requests, whose refusals become errors carrying the server's
// message, the count of requests under way, and the one place errors are shown.
import { state } from "./state.js";
import { refreshButtons } from "./panel.js";

// Counts requests and animations under way; buttons are usable only when there are none.
export function setBusy(delta) {
  state.busy += delta;
  document.body.dataset.busy = state.busy > 0 ? "1" : "0";
  if (state.game) refreshButtons();
}

// Sends a request; returns the answer's JSON, or throws an Error with the server's message.
export async function api(method, path, body) {
  setBusy(1);
  try {
    const response = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return await answer(response);
  } finally {
    setBusy(-1);
  }
}

// The JSON of an answer, or an Error with its message.
export async function answer(response) {
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} ${response.statusText}, not JSON`);
  }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

export function showError(error) {
  document.getElementById("error").textContent = error.message;
}

export function clearError() {
  document.getElementById("error").textContent = "";
}
