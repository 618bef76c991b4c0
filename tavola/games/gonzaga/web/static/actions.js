// The panel of the move asked now: planning or placing (planning.js, placing.js), taking back a
// move, and the keys for those with a keyboard.
import { $, el, t } from "/static/tavola/common.js";
import { Hint } from "/static/tavola/hint.js";
import { markHints } from "./hints.js";
import { clearMarks, renderPlacing, touchScreen } from "./placing.js";
import { renderPlanning } from "./planning.js";
import { me, ui, undo } from "./state.js";

export function renderActions(v) {
  const box = $("actions");
  $("place-bar").hidden = true;
  clearMarks();
  const legal = v.legal;
  box.hidden = v.phase === "over";
  if (v.phase === "over") return;
  if (v.you === null) { box.replaceChildren(el("h3", { text: v.phase === "planning" ? t("Players are planning") : t("{name} is placing", { name: v.players[v.current].name }) })); return; }
  if (!legal) {
    const p = me(v);
    let text = t("Waiting…");
    if (v.phase === "planning") {
      const plan = p.plan;
      text = t("Your plan (secret until everyone has planned): {plan}. Waiting for {names}.", { plan: plan.text, names: v.players.filter((q) => !q.has_planned).map((q) => q.name).join(", ") });
    } else if (v.phase === "placing") text = t("Waiting for {name} to place.", { name: v.players[v.current].name });
    box.replaceChildren(el("h3", { text: t("Waiting") }), el("p", { id: "waiting", text }), undoEl(v));
    return;
  }
  if (legal.kind === "plan") renderPlanning(box, v, legal);
  else renderPlacing(box, v, legal);
}
// the panel drawn again after a choice in it, with the keyboard focus kept on the same control
export function rerenderActions() {
  const f = document.activeElement;
  const key = f && $("actions").contains(f) ? (f.id ? "#" + f.id : f.dataset.card ? `[data-card='${f.dataset.card}']` : null) : null;
  renderActions(ui.view);
  markHints(Hint.marked());
  const again = key && $("actions").querySelector(key);
  if (again) again.focus();
}
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
