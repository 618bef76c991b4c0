// A hint's moves on the table (hint.js asks for them; actions.js's onHint takes them): the cards
// of a plan, the hexes of a placement, the rings of a Wedding, numbered as in the hint's list.
import { $, svg } from "/static/tavola/common.js";
import { centre, corners, pointsAttr } from "./hexes.js";
import { legalKey } from "./legal.js";
import { box, overlap } from "./names.js";
import { ui } from "./state.js";

// a hint's moves on the table, numbered as in the hint's list: the cards of a plan, the hexes
// of a placement, the rings of a Wedding (outlines in a layer of their own, over the map)
export function markHints(moves) {
  document.querySelectorAll("[data-hint-mark]").forEach((b) => { delete b.dataset.hintMark; b.classList.remove("hinted"); });
  const board = $("board");
  if (!board || !$("hexes")) return;
  let g = $("hint-layer");
  if (!g) g = svg("g", { id: "hint-layer", class: "overlay" }, board);
  else board.appendChild(g);
  g.replaceChildren();
  (moves || []).forEach((m, i) => {
    const a = m.action, rank = String(i + 1);
    if (a.type === "plan") {
      for (const card of [a.region, a.action]) {
        const b = document.querySelector(`#region-cards [data-card='${card}'], #action-cards [data-card='${card}']`);
        if (b) { b.classList.add("hinted"); b.dataset.hintMark = (b.dataset.hintMark ? b.dataset.hintMark + " " : "") + rank; }
      }
    } else if (a.type === "fief" || a.type === "wedding") {
      const found = a.type === "fief" && ui.legalKeys.get(legalKey(a.anchor, a.rotation));
      const cells = a.type === "fief" ? (found ? found[4] : [a.anchor]) : [a.first, a.second].filter(Boolean);
      for (const [c, r] of cells) svg("polygon", { points: pointsAttr(corners(...centre(c, r), 0.92)), class: "hint-cell", "data-hint-cell": rank }, g);
      placeBadge(g, cells, rank);
    }
  });
}
// a hint's number on the first spot of its hexes where it covers no place name (the names are
// what the map is read by), else on its first hex
function placeBadge(g, cells, rank) {
  const badge = svg("text", { class: "hint-rank", "text-anchor": "middle", "data-hint-rank": rank }, g);
  badge.textContent = rank;
  const names = [...document.querySelectorAll("#place-names text")].map((n) => n.getBBox()).filter((b) => b.width > 0)
    .map((b) => box(b.x, b.y, b.width, b.height));
  const spots = cells.flatMap(([c, r]) => { const [x, y] = centre(c, r); return [[x, y + 0.35], [x, y - 0.15], [x, y + 0.75]]; });
  for (const [x, y] of spots) {
    badge.setAttribute("x", x);
    badge.setAttribute("y", y);
    const b = badge.getBBox();
    if (!names.some((n) => overlap(box(b.x, b.y, b.width, b.height), n))) return;
  }
  badge.setAttribute("x", spots[0][0]);
  badge.setAttribute("y", spots[0][1]);
}
