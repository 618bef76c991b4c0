// Gonzaga's pictures on its rules page, drawn from the board (/api/gonzaga/board) and the rules'
// facts (/api/rules/gonzaga): a fief and its turns, the action cards' coverage, a Wedding, a sea
// league and the objective table. Nothing here is a copy of a rule: every count comes from data.
import { api, el, svg, t } from "/static/tavola/common.js";
import { centre } from "./hexes.js";  // the table's own geometry

let boardPromise = null;
const board = () => (boardPromise = boardPromise || api("/api/gonzaga/board"));
function hexPoints(x, y, k = 0.96) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (30 + 60 * i);
    pts.push((x + k * Math.cos(a)).toFixed(3) + "," + (y + k * Math.sin(a)).toFixed(3));
  }
  return pts.join(" ");
}
function picture(fig, label, viewBox) {
  const s = svg("svg", { viewBox, role: "img", "aria-label": label, width: "100%" });
  svg("title", {}, s).textContent = label;
  fig.insertBefore(s, fig.querySelector("figcaption"));
  return s;
}
// a label no wider than `width`: smaller type where the language's words are long
function fit(label, width) {
  const w = label.getBBox().width;
  if (w > width) label.setAttribute("font-size", (Number(label.getAttribute("font-size")) * width / w).toFixed(3));
  return label;
}
function icon(b, parent, name, x, y, size) {
  if (!b.icons[name]) return;
  svg("path", { d: b.icons[name], transform: `translate(${x} ${y}) scale(${size})`, class: "icon", fill: "#3b2a1a" }, parent);
}
async function fiefPicture(fig) {
  const b = await board();
  const fief = b.fiefs.find((f) => f.hexes.length >= 4 && f.castles.length >= 2) || b.fiefs[0];
  const colour = b.player_colours.red;
  const s = picture(fig, t("The {fief}, turned six ways", { fief: fief.name }), "0 0 66 11.6");
  for (let turn = 0; turn < 6; turn++) {
    const g = svg("g", { class: "rotation", "data-rotation": turn }, s);
    const pts = fief.turns[turn];  // its hexes' centres turned, from the server
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const dx = 11 * turn + 5.5 - (Math.min(...xs) + Math.max(...xs)) / 2;
    const dy = 5.5 - (Math.min(...ys) + Math.max(...ys)) / 2;
    g.setAttribute("transform", `translate(${dx.toFixed(3)} ${dy.toFixed(3)})`);
    pts.forEach(([x, y], i) => {
      svg("polygon", { points: hexPoints(x, y), fill: colour, stroke: "#3b2a1a", "stroke-width": 0.08, class: "fief-hex" }, g);
      if (fief.castle_cells.includes(i)) svg("rect", { x: x - 0.3, y: y - 0.3, width: 0.6, height: 0.6, fill: "#fffaf0", class: "castle" }, g);
    });
    const n = svg("text", { x: 11 * turn + 5.5, y: 10.8, "font-size": 1, "text-anchor": "middle" }, s);
    n.textContent = `${turn * 60}°`;
  }
}

// each action card: a grid of cities (across) by harbors (down); filled cells are allowed
function coveragePicture(fig, facts) {
  const cards = facts.action_cards;
  const maxC = Math.max(...cards.flatMap((c) => c.allowed.map((p) => p[0])));
  const maxH = Math.max(...cards.flatMap((c) => c.allowed.map((p) => p[1])));
  const w = maxC + 3, h = maxH + 4;
  const s = picture(fig, t("What each action card lets a fief cover"), `0 0 ${w * cards.length} ${h}`);
  // the axes, said once under all the grids
  const axis = svg("text", { x: w * cards.length / 2, y: h - 0.3, "font-size": 0.5, "text-anchor": "middle" }, s);
  axis.textContent = t("across: cities · down: harbors");
  fit(axis, w * cards.length - 0.4);
  cards.forEach((card, k) => {
    const g = svg("g", { class: "coverage", "data-card": card.id, transform: `translate(${k * w} 0)` }, s);
    const title = svg("text", { x: (w - 0.5) / 2 + 0.5, y: 0.9, "font-size": 0.8, "text-anchor": "middle", "font-weight": "bold" }, g);
    title.textContent = card.name;
    fit(title, w - 0.6);
    const allowed = new Set(card.allowed.map((p) => p.join(",")));
    for (let c = 0; c <= maxC; c++) {
      const n = svg("text", { x: 1.9 + c, y: 1.9, "font-size": 0.6, "text-anchor": "middle" }, g);
      n.textContent = String(c);
      for (let hb = 0; hb <= maxH; hb++) {
        const on = allowed.has(`${c},${hb}`);
        svg("rect", { x: 1.45 + c, y: 2.2 + hb, width: 0.9, height: 0.9, rx: 0.1,
          class: "cell" + (on ? " allowed" : ""), "data-cities": c, "data-harbors": hb,
          fill: on ? "#7a4b1e" : "#f2e7cd", stroke: "#8a6d3b", "stroke-width": 0.05 }, g);
      }
    }
    for (let hb = 0; hb <= maxH; hb++) {
      const n = svg("text", { x: 1.05, y: 2.85 + hb, "font-size": 0.6, "text-anchor": "end" }, g);
      n.textContent = String(hb);
    }
  });
}

// a patch of land with a city; two rings side by side, one on the city
async function weddingPicture(fig, facts) {
  const b = await board();
  const city = b.cities[0];
  const colour = b.player_colours.blue;
  const patch = [[1, 1], [0, 1], [2, 1], [1, 0], [2, 0], [1, 2], [2, 2]];  // a hex and its six neighbours (odd row)
  const s = picture(fig, t("A Wedding: {n} rings side by side, one on {city}", { n: 2, city: city.name }), "-1.2 -1.2 7.5 6.2");
  const land = b.regions.find((r) => r.id === city.region) || b.regions[0];
  for (const [c, r] of patch) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: hexPoints(x, y), fill: land.colour, stroke: "#8a6d3b", "stroke-width": 0.05, class: "land" }, s);
  }
  const [cx, cy] = centre(1, 1);
  icon(b, s, city.symbol, cx, cy, 0.45);
  // the city's name under its ring, on a light band that keeps it apart from the hexes' edges
  const label = svg("text", { x: cx, y: cy + 1.12, "font-size": 0.36, "text-anchor": "middle", class: "picture-label" }, s);
  label.textContent = city.name;
  fit(label, 1.7);
  for (const [c, r] of [[1, 1], [2, 1]]) {
    const [x, y] = centre(c, r);
    svg("circle", { cx: x, cy: y, r: 0.6, fill: "none", stroke: colour, "stroke-width": 0.22, class: "ring" }, s);
  }
}

// the harbors of one sea with its symbol: the first ones covered make the league
async function seaLeaguePicture(fig, facts) {
  const b = await board();
  const bySea = b.seas.map((sea) => ({ sea, harbors: b.harbors.filter((h) => h.sea === sea.id) }));
  const { sea, harbors } = bySea.find((x) => x.harbors.length > facts.league_size) || bySea[0];
  const colour = b.player_colours.green;
  const s = picture(fig, t("{sea}: {covered} of its {n} harbors covered make a sea league",
    { sea: sea.name, covered: facts.league_size, n: harbors.length }), `0 0 ${harbors.length * 4 + 1} 6`);
  svg("rect", { x: 0, y: 0, width: harbors.length * 4 + 1, height: 6, fill: sea.colour, rx: 0.4 }, s);
  harbors.forEach((hb, i) => {
    const g = svg("g", { class: "harbor" + (i < facts.league_size ? " covered" : ""), "data-harbor": hb.id }, s);
    const x = 2.5 + 4 * i;
    svg("polygon", { points: hexPoints(x, 2.4, 1.3), fill: i < facts.league_size ? colour : "#fffaf0", stroke: "#3b2a1a", "stroke-width": 0.08 }, g);
    icon(b, g, sea.symbol, x, 2.4, 0.55);
    const n = svg("text", { x, y: 4.7, "font-size": 0.6, "text-anchor": "middle" }, g);
    n.textContent = hb.name;
    fit(n, 3.8);
  });
  const sum = svg("text", { x: 0.4, y: 5.7, "font-size": 0.5 }, s);
  sum.textContent = t("+{points} points for the sea league", { points: facts.sea_league_points });
  fit(sum, harbors.length * 4 + 0.2);
}

function objectivePicture(fig, facts) {
  const points = facts.objective_points;
  const table = el("table", { class: "objective-table" },
    el("tr", {}, el("th", { scope: "row", text: t("Cities covered") }), ...points.map((_, i) => el("td", { text: String(i) }))),
    el("tr", {}, el("th", { scope: "row", text: t("Points") }), ...points.map((p) => el("td", { class: "points", text: String(p) }))));
  fig.insertBefore(table, fig.querySelector("figcaption"));
}

export default { fief: fiefPicture, coverage: coveragePicture, wedding: weddingPicture,
  "sea-league": seaLeaguePicture, objective: objectivePicture };
