// The pieces on the board after every view: fiefs (each with its own outline), rings, and the
// map's key under it (whose colour and pattern is whose).
import { $, el, svg, t } from "/static/tavola/common.js";
import { lookStyle, lookTitle } from "./board.js";
import { centre, corners, pointsAttr, sides, SVGNS } from "./hexes.js";
import { layoutNames } from "./names.js";
import { cardName, colourOf, ui } from "./state.js";

export function drawPieces(v) {
  const g = $("pieces");
  g.replaceChildren();
  v.pieces.forEach((pc, n) => {
    const p = v.players[pc.owner];
    if (pc.kind === "fief") drawFief(g, pc, p, n);
    else drawRing(g, pc, p);
  });
  const last = [...v.log].reverse().find((e) => e.kind === "turn" && e.hexes.length);
  if (last) {
    for (const [c, r] of last.hexes) {
      const [x, y] = centre(c, r);
      svg("polygon", { points: pointsAttr(corners(x, y, 0.85)), class: "last-move" }, g);
    }
  }
  if (v.final) {  // the revealed objectives: each player's covered objective cities, ringed in their colour
    const byName = Object.fromEntries(ui.board.cities.map((c) => [c.name, c]));
    v.final.table.forEach((row, k) => {
      for (const name of row.objective_cities) {
        const c = byName[name];
        if (!c) continue;
        const [x, y] = centre(c.at[0], c.at[1]);
        svg("circle", { cx: x, cy: y, r: 0.78 + 0.3 * k, class: "objective-halo" }, g);
        const mark = svg("circle", { cx: x, cy: y, r: 0.78 + 0.3 * k, class: "objective-mark", stroke: colourOf(v.players[row.seat]), "data-objective": row.seat }, g);
        svg("title", {}, mark).textContent = t("{name}'s objective: {city}", { name: row.name, city: name });
        // the second cue: a seal in the owner's pattern on the ring, each player's at its own angle
        const r = 0.78 + 0.3 * k, a = -Math.PI / 2 + k * Math.PI / 3;
        svg("circle", { cx: x + r * Math.cos(a), cy: y + r * Math.sin(a), r: 0.24, class: "objective-seal",
          fill: `url(#pl-${v.players[row.seat].colour})`, "data-objective": row.seat }, g);
      }
    });
  }
  const church = t("Church ({n})", { n: v.church.length });
  if ($("church-label").textContent !== church) { $("church-label").textContent = church; layoutNames(true); }
  drawMapKey(v);
}

// a fief: its hexes in the owner's pattern, faint lines between them (to count them) and an
// outline around the whole fief only, so two fiefs of one colour side by side stay two
function drawFief(g, pc, p, n) {
  const grp = svg("g", { "data-piece": "fief", "data-owner": pc.owner, "data-colour": p.colour }, g);
  svg("title", {}, grp).textContent = t("{name}'s fief {fief}", { name: p.name, fief: pc.fief });
  const shape = pc.hexes.map(([c, r]) => "M" + pointsAttr(corners(...centre(c, r))).split(" ").join("L") + "Z").join("");
  const { outline, inner } = fiefEdges(pc.hexes);
  svg("path", { d: shape, fill: `url(#pl-${p.colour})`, class: "piece" }, grp);
  svg("path", { d: inner, class: "fief-grid" }, grp);
  const clip = svg("clipPath", { id: `fief-clip-${n}` }, grp);
  svg("path", { d: shape }, clip);
  svg("path", { d: outline, class: "fief-rim", "clip-path": `url(#fief-clip-${n})` }, grp);
  svg("path", { d: outline, class: "fief-outline" }, grp);
  for (const [c, r] of pc.castles) {
    const [x, y] = centre(c, r);
    svg("text", { x, y: y - 0.45, class: "glyph castle", "font-size": 0.55 }, grp).textContent = "♜";
  }
}
// the edges of a set of hexes: those on its outline, and those between two of its hexes
function fiefEdges(hexes) {
  let outline = "", inner = "";
  for (const { a, b, hexes: by } of sides(hexes.map((at) => ({ at })))) {
    const seg = `M${a[0].toFixed(3)},${a[1].toFixed(3)}L${b[0].toFixed(3)},${b[1].toFixed(3)}`;
    if (by.length === 1) outline += seg; else inner += seg;
  }
  return { outline, inner };
}
// a ring: a band in the owner's pattern, outlined
function drawRing(g, pc, p) {
  const [x, y] = centre(pc.hexes[0][0], pc.hexes[0][1]);
  const circle = (r, sweep) => `M${(x - r).toFixed(3)},${y.toFixed(3)}a${r},${r} 0 1,${sweep} ${2 * r},0a${r},${r} 0 1,${sweep} ${-2 * r},0Z`;
  const ring = svg("path", { d: circle(0.7, 0) + circle(0.36, 1), fill: `url(#pl-${p.colour})`, class: "ring-piece",
    "data-piece": "ring", "data-owner": pc.owner, "data-colour": p.colour }, g);
  svg("title", {}, ring).textContent = t("{name}'s ring", { name: p.name });
}

// under the map: whose colour and pattern is whose, and what the shaded parts of the map are
function drawMapKey(v) {
  const key = $("map-key");
  if (!key) return;
  const item = (swatch, text, attrs = {}) => el("span", { class: "key-item", ...attrs }, swatch, text);
  const box = (...shapes) => {
    const s = document.createElementNS(SVGNS, "svg");
    s.setAttribute("viewBox", "0 0 1.2 1.2");
    s.setAttribute("class", "swatch");
    for (const attrs of shapes) svg("rect", { x: 0, y: 0, width: 1.2, height: 1.2, ...attrs }, s);
    return s;
  };
  const inactive = v.scenario.inactive;
  const colour = (id) => ui.board.regions.find((r) => r.id === id).colour;
  key.replaceChildren(
    ...v.players.map((p) => item(el("span", { class: "swatch", style: lookStyle(p.colour) }),
      t("{name}: {look}", { name: p.name, look: ui.board.player_looks[p.colour].name }), { "data-colour": p.colour, title: lookTitle(p.colour) })),
    inactive.length ? item(box({ fill: colour(inactive[0]) }, { fill: "url(#hatch-inactive)", class: "inactive-hatch" }),
      t("{regions}: inactive ({card} card)", { regions: inactive.map(cardName).join(", "), card: cardName("inactive") }), { id: "key-inactive" }) : "",
    item(box({ class: "outside" }), t("Off the board"), { id: "key-outside" }));
}
