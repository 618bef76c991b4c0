// The panel of the move asked now: planning or placing (planning.js, placing.js), each handed
// how to draw the panel again after a choice in it; and a hint's moves, which the list of
// placements names too.
import { $, el, t } from "/static/tavola/common.js";
import { Hint } from "/static/tavola/hint.js";
import { markHints } from "./hints.js";
import { undoEl } from "./panel.js";
import { clearMarks, renderPlacing } from "./placing.js";
import { renderPlanning } from "./planning.js";
import { me, ui } from "./state.js";

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
  if (legal.kind === "plan") renderPlanning(box, v, legal, rerenderActions);
  else renderPlacing(box, v, legal, rerenderActions);
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
// a hint arrives (or goes): while placing, the list of placements names its placements too
export function onHint(moves) {
  if (ui.view && ui.view.legal && ui.view.legal.kind === "place" && !ui.replay) rerenderActions();
  else markHints(moves);
}
