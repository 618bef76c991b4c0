// Hints at every game's table: on your turn, in a game that allows them, ask the search for
// its three best moves. The words and the expected final lead of each are listed here; the
// game's page marks them on its map or board (its `hint` hook, called with the moves, or with
// null when they no longer apply). Everyone at the table sees how many hints each seat asked
// for. Loaded after table.js.
import { $, el, num, t } from "./common.js";
import { Table } from "./table.js";

export const Hint = (() => {
  const h = { allowed: false, seat: null, box: null, asked: null, shown: null };

  function yourTurn(v) {
    return v && h.seat !== null && v.you === h.seat && v.phase !== "over" && (v.to_move || []).includes(h.seat);
  }
  function panel() {
    if (h.box || !h.allowed || h.seat === null || !$("side")) return h.box;
    const ask = el("button", { type: "button", id: "hint-ask", onclick: askHint }, t("Ask for a hint"));
    h.box = el("section", { class: "card hint", id: "hint" }, el("h3", { text: t("Hint") }),
      el("p", { class: "muted", text: t("The search's three best moves for your turn, with the lead over the best other player each is expected to bring at the end. Everyone sees how many hints you asked for.") }),
      ask, el("p", { id: "hint-status", class: "muted", "aria-live": "polite" }), el("ol", { id: "hint-moves" }));
    $("side").prepend(h.box);
    return h.box;
  }
  function askHint() {
    const v = Table.view;
    if (!yourTurn(v) || h.asked !== null) return;
    if (!Table.send({ type: "hint", seq: v.seq })) return;
    h.asked = v.seq;
    render();
  }
  function leadWords(lead) {
    const n = num(Math.abs(lead), 1);
    return lead >= 0 ? t("{n} points ahead at the end", { n }) : t("{n} points behind at the end", { n });
  }
  function render() {
    if (!panel()) return;
    const v = Table.view;
    $("hint-ask").disabled = !yourTurn(v) || h.asked !== null;
    $("hint-status").textContent = h.asked !== null ? t("The search is thinking…")
      : yourTurn(v) ? "" : t("A hint is for your own turn.");
    const moves = h.shown ? h.shown.moves : [];
    $("hint-moves").replaceChildren(...moves.map((m, i) => el("li", { "data-hint-rank": i + 1 },
      el("strong", { text: m.words }), m.why ? el("span", { text: ` (${m.why})` }) : "", " · ", leadWords(m.lead),
      el("small", { class: "muted", text: " " + t("({share}% of the search)", { share: num(Math.round(100 * m.share)) }) }))));
  }
  function mark(moves) {
    const hooks = Table.state.hooks;
    if (hooks.hint) hooks.hint(moves);
  }

  Table.on("welcome", (msg) => {
    h.allowed = !!msg.hints;
    h.seat = msg.seat;
    if (h.box) { h.box.remove(); h.box = null; }
    render();
  });
  Table.on("view", (v) => {
    // a hint speaks of the decision it was asked on: gone once that decision is
    if (h.shown && (!yourTurn(v) || v.decision !== h.shown.decision)) { h.shown = null; mark(null); }
    render();
  });
  Table.on("hint", (msg) => {
    h.asked = null;
    const v = Table.view;
    h.shown = v && yourTurn(v) && v.decision === msg.decision ? msg : null;
    render();
    mark(h.shown ? h.shown.moves : null);
  });
  Table.on("error", () => { if (h.asked !== null) { h.asked = null; render(); } });
  return { state: h, marked: () => (h.shown ? h.shown.moves : null) };
})();
