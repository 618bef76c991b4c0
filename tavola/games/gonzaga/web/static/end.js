// The end of the game: the final scores, where each player's points came from, the rematch.
import { $, el, t, toast } from "/static/tavola/common.js";
import { lookStyle, lookTitle } from "./board.js";
import { iconEl } from "./hexes.js";
import { send, ui } from "./state.js";

// -- the end of the game ----------------------------------------------------------------------

export function renderEnd(v) {
  const box = $("end");
  if (!v.final) { box.hidden = true; return; }
  box.hidden = false;
  const winners = v.final.winners.map((i) => v.players[i].name);
  const names = winners.length > 1 ? t("{names} and {last}", { names: winners.slice(0, -1).join(", "), last: winners[winners.length - 1] }) : winners.join("");
  const rows = v.final.table.map((r) => el("tr", { class: v.final.winners.includes(r.seat) ? "me" : "" },
    el("td", {}, el("span", { class: "swatch", style: lookStyle(r.colour), title: lookTitle(r.colour) }), r.name),
    el("td", { text: String(r.before_final) }), el("td", { title: t("largest group: {n} connected pieces", { n: r.largest_group }), text: `${r.gonzaga_tile} (${r.largest_group})` }),
    el("td", { title: r.objective_cities.join(", ") }, ...(r.objective_symbols || []).map((s) => iconEl(s, 14)), ` ${r.objective_text}`),
    el("td", { text: String(r.score) })));
  const children = [el("h2", { text: t("Game over") }),
    el("p", { class: "winner", id: "winner", text: winners.length > 1 ? t("Shared victory: {names}", { names }) : t("Winner: {name}", { name: names }) }),
    el("table", { id: "final-table" }, el("thead", {}, el("tr", {}, ...[t("Player"), t("In play"), t("Gonzaga tile"), t("Objective"), t("Total")].map((h) => el("th", { text: h })))), el("tbody", {}, ...rows)),
    el("p", { class: "muted", text: v.final.note }),
    pointsBySource(v)];
  if (!ui.replay) {
    children.push(rematchEl(v));
    children.push(el("div", { class: "row" },
      el("a", { href: `/api/games/${ui.gameId}/record`, download: `gonzaga-${ui.gameId}.json`, id: "download" }, t("Download the game record")),
      el("a", { href: `/game/${ui.gameId}#replay`, id: "replay-link", onclick: () => setTimeout(() => location.reload(), 0) }, t("Watch the replay")),
      el("a", { href: `/game/${ui.gameId}/review#${v.you === null || v.you === undefined ? 0 : v.you}`, id: "review-link" }, t("Review the game"))));
  }
  box.replaceChildren(...children);
}
// where each player's points came from, summed by the server from the game's scoring events
function pointsBySource(v) {
  const f = v.final;
  if (!f.sources) return "";
  const head = el("tr", {}, el("th", { text: t("Points from") }), ...f.table.map((r) => el("th", {},
    el("span", { class: "swatch", style: lookStyle(r.colour), title: lookTitle(r.colour) }), r.name)));
  const body = f.sources.map((s) => el("tr", { "data-source": s.id }, el("td", { text: s.name }),
    ...f.table.map((r) => el("td", { class: "num", "data-seat": r.seat, text: String(r.by_source[s.id]) }))));
  body.push(el("tr", { class: "total" }, el("td", { text: t("Total") }), ...f.table.map((r) => el("td", { class: "num", text: String(r.score) }))));
  return el("details", { open: true, id: "points-by-source" }, el("summary", { text: t("Where the points came from") }),
    el("table", { class: "by-source" }, el("thead", {}, head), el("tbody", {}, ...body)));
}
function rematchEl(v) {
  if (v.rematch) {
    return el("p", { id: "rematch-ready", class: "row" }, t("A rematch has started:"), " ",
      el("a", { href: v.rematch, id: "rematch-link", class: "button primary" }, v.you === null ? t("watch it") : t("play the rematch")));
  }
  if (v.you === null) return "";
  return el("div", { class: "row" }, el("button", { type: "button", id: "rematch", class: "primary",
    onclick: (ev) => { ui.wantRematch = true; ev.target.disabled = true; send({ type: "rematch" }); } }, t("Rematch")),
  el("span", { class: "muted", text: t("Same seats and bots, a new deal.") }));
}
export function onRematch(link) {
  if (ui.wantRematch) { location.href = link; return; }
  if (ui.view) { ui.view.rematch = link; renderEnd(ui.view); }
  toast(t("A rematch has started: the link is on the end screen."), "info");
}
