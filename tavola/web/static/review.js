// The review of a finished game (`/game/ID/review#SEAT`): the server's search review for one
// seat, drawn as a graph of every player's expected final score and listed move by move.
// Players differ in the graph by colour (a palette colour-blind readers tell apart) and by dash
// pattern, each named in the legend. Every text from the server is shown as text.
import { $, api, el, num, svg, t } from "./common.js";

const PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];

function gameId() { const m = location.pathname.match(/^\/game\/([\w-]+)\/review/); return m ? m[1] : null; }
function seatFromHash() { const n = Number(location.hash.slice(1)); return Number.isInteger(n) && n >= 0 ? n : 0; }

function graph(r) {
  // as wide as the page allows (up to 760), so that its words keep their size on a phone
  const W = Math.max(300, Math.min(760, $("review-graph").clientWidth || 760)), H = 300, L = 44, B = 28, T = 10, R = 10;
  const points = r.course, all = points.flat();
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const x = (i) => L + (W - L - R) * (points.length > 1 ? i / (points.length - 1) : 0);
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("Expected final score over the game"), class: "review-graph" });
  for (let k = 0; k <= 4; k++) {
    const v = lo + (hi - lo) * k / 4;
    svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }, s);
    svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, s).textContent = num(Math.round(v));
  }
  svg("text", { x: (L + W) / 2, y: H - 6, "text-anchor": "middle", class: "axis" }, s).textContent = t("actions played");
  r.names.forEach((name, seat) => {
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[seat]).toFixed(1)}`).join(" ");
    svg("path", { d, fill: "none", stroke: PALETTE[seat % 4], "stroke-width": seat === r.seat ? 3 : 2,
      "stroke-dasharray": DASHES[seat % 4], "data-review-line": seat }, s);
  });
  r.mistakes.forEach((number, k) => {
    const cx = x(number - 1), cy = y(points[number - 1][r.seat]);
    svg("circle", { cx, cy, r: 9, class: "mistake", "data-review-mistake": k + 1 }, s);
    svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "mistake-rank" }, s).textContent = String(k + 1);
  });
  const legend = el("div", { class: "row legend" }, ...r.names.map((name, seat) => {
    const key = svg("svg", { width: 34, height: 10, "aria-hidden": "true" });
    svg("line", { x1: 0, x2: 34, y1: 5, y2: 5, stroke: PALETTE[seat % 4], "stroke-width": 3, "stroke-dasharray": DASHES[seat % 4] }, key);
    return el("span", { class: "legend-item" }, key, " ", el("span", { text: name }));
  }));
  return el("div", {}, s, legend);
}
function cost(c) { return c ? num(c, 1) : "—"; }

function show(r) {
  $("review-title").textContent = t("Game review: {names}", { names: r.names.join(", ") });
  $("review-result").textContent = r.result || "";
  $("review-graph").replaceChildren(graph(r));
  const byNumber = new Map(r.decisions.map((d) => [d.number, d]));
  $("review-mistakes").replaceChildren(...(r.mistakes.length ? r.mistakes.map((n) => {
    const d = byNumber.get(n);
    return el("li", { "data-mistake": n }, t("Move {number} (round {round}): {played}; better: {better} (about {cost} points)",
      { number: n, round: d.round, played: d.played, better: d.better, cost: num(d.cost, 1) }),
      d.why ? el("p", { class: "muted", "data-mistake-why": n, text: d.why }) : "");
  }) : [el("li", { text: t("No decision cost anything by the search's reckoning.") })]));
  $("review-rows").replaceChildren(...r.decisions.map((d) => el("tr", { class: r.mistakes.includes(d.number) ? "mistake-row" : "" },
    el("td", { text: String(d.number) }), el("td", { text: String(d.round) }), el("td", { text: d.played }),
    el("td", { text: d.cost ? d.better : "" }), el("td", { text: cost(d.cost) }))));
}

async function load(seat) {
  $("review-wait").textContent = t("The search is reviewing the game; this takes a few seconds…");
  try {
    const r = await api(`/api/games/${gameId()}/review?seat=${seat}`);
    const select = $("review-seat");
    if (!select.options.length) {
      select.replaceChildren(...r.names.map((name, i) => el("option", { value: i, text: name })));
      select.onchange = () => { location.hash = select.value; };
    }
    select.value = String(r.seat);
    $("review-wait").textContent = "";
    show(r);
  } catch (e) { $("review-wait").textContent = e.message; }
}

function main() {
  const id = gameId();
  if (!id) return;
  $("review-back").href = `/game/${id}#replay`;
  window.addEventListener("hashchange", () => load(seatFromHash()));
  load(seatFromHash());
}
main();
