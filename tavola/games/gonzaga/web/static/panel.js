// What both kinds of move panel show (planning.js, placing.js; actions.js picks one): taking back
// a move, and the keys for those with a keyboard. The panel's parts never import actions.js: it
// hands them the function that draws the panel again after a choice in it.
import { el, t } from "/static/tavola/common.js";
import { undo } from "./state.js";

export function touchScreen() { return matchMedia("(hover: none) and (pointer: coarse)").matches; }

// a move that revealed nothing may be taken back while nobody has moved since (`can_undo`)
export function undoEl(v) {
  if (!v.can_undo) return "";
  const label = v.phase === "planning" ? t("Take back my plan") : t("Undo my move");
  return el("div", { class: "row" }, el("button", { type: "button", id: "undo", onclick: undo }, label),
    el("span", { class: "muted", text: t("Possible until someone else moves.") }));
}
// the keys, for those who have a keyboard (a touch screen gets no word of keys)
export function keysHint(what) {
  if (touchScreen()) return "";
  return el("p", { class: "muted keys-hint", id: "keys-hint" }, el("strong", { text: t("Keyboard: ") }),
    t("Tab to the map, then the arrow keys move the cursor; {keys}; Esc starts again.", { keys: what }));
}
