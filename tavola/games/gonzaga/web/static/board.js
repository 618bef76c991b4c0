// The board, drawn once from the board data: patterns and hatching, hexes, borders and coasts,
// cities, harbors, seals and the church. Their names are laid out by names.js.
import { $, svg, t } from "/static/tavola/common.js";
import { centre, corners, hexKey, icon, pointsAttr, sides, SQRT3 } from "./hexes.js";
import { layoutNames, MARKER_R } from "./names.js";
import { ui } from "./state.js";

// the board, drawn once from the board data; the names on it are laid out again (layoutNames)
// whenever its scale on screen changes, so that they keep one readable size and never overlap

// the sizes of the names and of the discs they keep off (names.js lays them out by them)
export { MARKER_R, NAME_PX } from "./names.js";

export function drawBoard(scenario) {
  const b = ui.board;
  const root = $("board");
  root.replaceChildren();
  root.classList.remove("names-hidden");
  const m = 0.2, frame = { x: -SQRT3 / 2 - m, y: -1 - m, w: b.width + 2 * m, h: b.height + 2 * m };
  ui.frame = frame;
  ui.layoutScale = null;
  root.setAttribute("viewBox", `${frame.x} ${frame.y} ${frame.w} ${frame.h}`);
  root.style.setProperty("--board-aspect", `${frame.w} / ${frame.h}`);
  document.documentElement.style.setProperty("--board-ratio", (frame.w / frame.h).toFixed(4));
  drawDefs(root);
  drawHexes(root, new Set(scenario ? scenario.inactive : []));
  drawEdges(root);
  drawWaterAndRegionNames(root);
  const routes = svg("g", { class: "overlay" }, root);
  for (const pts of b.routes) svg("polyline", { points: pointsAttr(pts), class: "route" }, routes);
  drawSeals(root, scenario);  // under the pieces: a second ring may lie on the sea beside one
  svg("g", { id: "pieces", class: "overlay" }, root);
  drawPlaces(root);
  root.appendChild(ui.placeNames);  // names on top of everything
  svg("g", { id: "marks", class: "overlay" }, root);
  svg("g", { id: "preview", class: "overlay" }, root);
  layoutNames();
}

// each player's colour as a pattern (the non-colour cue), and the hatching of inactive regions
function drawDefs(root) {
  const defs = svg("defs", {}, root);
  for (const [colour, look] of Object.entries(ui.board.player_looks)) {
    const p = look.pattern;
    const pat = svg("pattern", { id: "pl-" + colour, patternUnits: "userSpaceOnUse", width: p.tile, height: p.tile }, defs);
    svg("rect", { width: p.tile, height: p.tile, fill: look.fill }, pat);
    svg("path", { d: p.d, class: "pattern-ink", ...inkPaint(look) }, pat);
  }
  const hatch = svg("pattern", { id: "hatch-inactive", patternUnits: "userSpaceOnUse", width: 0.45, height: 0.45, patternTransform: "rotate(45)" }, defs);
  svg("rect", { width: 0.45, height: 0.45, class: "hatch-ground" }, hatch);
  svg("line", { x1: 0.1, y1: 0, x2: 0.1, y2: 0.45, class: "hatch-line" }, hatch);
}
function inkPaint(look) {
  const p = look.pattern;
  return p.paint === "fill" ? { fill: look.ink } : { fill: "none", stroke: look.ink, "stroke-width": p.width };
}
// the same pattern as a CSS background, for the swatches and bars beside the map
export function lookStyle(colour) {
  const look = ui.board.player_looks[colour];
  if (!look) return `background:${colour}`;
  const p = look.pattern;
  const paint = Object.entries(inkPaint(look)).map(([k, v]) => `${k}='${v}'`).join(" ");
  const tile = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${p.tile} ${p.tile}'><path d='${p.d}' ${paint} opacity='.6'/></svg>`;
  const px = Math.round(p.tile * 12);
  return `background-color:${look.fill};background-image:url("data:image/svg+xml,${encodeURIComponent(tile)}");background-size:${px}px ${px}px`;
}
export function lookTitle(colour) {
  const look = ui.board.player_looks[colour];
  return look ? `${look.name} (${look.pattern.name})` : colour;
}

function drawHexes(root, inactive) {
  const b = ui.board;
  const regionColour = Object.fromEntries(b.regions.map((r) => [r.id, r.colour]));
  const seaColour = Object.fromEntries(b.seas.map((s) => [s.id, s.colour]));
  const base = svg("g", { id: "hexes" }, root);
  // land off the board: one flat shape, no hexes, so it never looks like part of the board
  for (const [x, y] of b.scenery) svg("polygon", { points: pointsAttr(corners(x, y, 1.03)), class: "outside" }, base);
  ui.byHex.clear();
  const hatched = svg("g", { id: "inactive-hexes", class: "overlay" });
  for (const h of b.hexes) {
    ui.byHex.set(hexKey(h.at), h);
    const fill = h.region ? regionColour[h.region] : seaColour[h.sea] || "#a8c8dd";
    const off = h.region && inactive.has(h.region);
    svg("polygon", { points: pointsAttr(corners(h.x, h.y)), fill, "data-hex": hexKey(h.at), class: "hex" + (off ? " inactive" : "") }, base);
    if (off) svg("polygon", { points: pointsAttr(corners(h.x, h.y)), fill: "url(#hatch-inactive)", class: "inactive-hatch", "data-region": h.region }, hatched);
  }
  root.appendChild(hatched);
}

// region borders, coasts and barriers on the shared edges
function drawEdges(root) {
  const b = ui.board;
  const lines = svg("g", { class: "overlay" }, root);
  const barrier = new Set(b.barriers.map(([a, c]) => hexKey(a) + "|" + hexKey(c)));
  for (const { a: p1, b: p2, hexes } of sides(b.hexes)) {
    if (hexes.length < 2) continue;
    const [h, other] = hexes;
    let cls = null;
    if (barrier.has(hexKey(h.at) + "|" + hexKey(other.at)) || barrier.has(hexKey(other.at) + "|" + hexKey(h.at))) cls = "barrier";
    else if (h.region && other.region && h.region !== other.region) cls = "border";
    else if (!!h.region !== !!other.region) cls = "coast";
    if (cls) svg("line", { x1: p1[0], y1: p1[1], x2: p2[0], y2: p2[1], class: cls }, lines);
  }
}

// the names of seas and regions, under the pieces; placed by layoutNames on their own hexes
function drawWaterAndRegionNames(root) {
  const b = ui.board;
  const names = svg("g", { class: "overlay", id: "area-names" }, root);
  const hexesOf = (key, id) => b.hexes.filter((h) => h[key] === id);
  for (const s of b.seas) svg("text", { class: "name seaname", "data-area": s.id }, names).textContent = s.name;
  for (const r of b.regions) svg("text", { class: "name regionname", "data-area": r.id }, names).textContent = r.name.toUpperCase();
  ui.areaHexes = Object.fromEntries([...b.seas.map((s) => [s.id, hexesOf("sea", s.id)]), ...b.regions.map((r) => [r.id, hexesOf("region", r.id)])]);
}

// cities and harbors: their discs stay on their hexes, their names are placed by layoutNames
function drawPlaces(root) {
  const b = ui.board;
  const places = svg("g", { class: "overlay", id: "places" }, root);
  const labels = svg("g", { class: "overlay", id: "place-names" });
  const seaSymbol = Object.fromEntries(b.seas.map((s) => [s.id, s.symbol]));
  const add = (item, kind, face, ink, symbol) => {
    const [x, y] = centre(item.at[0], item.at[1]);
    svg("circle", { cx: x, cy: y, r: MARKER_R, fill: face, stroke: ink, "stroke-width": 0.08, class: "marker" }, places);
    icon(places, symbol, x, y, 0.32, ink);
    const t = svg("text", { class: "name label", "data-place": kind, "data-at": hexKey(item.at) }, labels);
    t.textContent = item.name;
  };
  for (const c of b.cities) add(c, "city", "#fffaf0", "#3b2a1a", c.symbol);
  for (const hb of b.harbors) add(hb, "harbor", "#1f4e79", "#fffaf0", seaSymbol[hb.sea]);
  ui.placeNames = labels;
}

// seals (flourishing or inactive) and the church, placed by layoutNames on sea or off the board
function drawSeals(root, scenario) {
  const b = ui.board;
  const seals = svg("g", { class: "overlay", id: "seals" }, root);
  for (const r of b.regions) {
    const flourishing = scenario && scenario.flourishing.includes(r.id);
    const g = svg("g", { class: "seal", "data-seal": r.id }, seals);
    svg("circle", { cx: 0, cy: 0, r: 0.8, class: flourishing ? "seal-disc flourishing" : "seal-disc" }, g);
    svg("text", { x: 0, y: 0.05, class: "glyph", fill: "#fffaf0", "font-size": 0.8 }, g).textContent = scenario ? (flourishing ? "✦" : "✕") : "";
    svg("text", { class: "name label seal-name" }, g).textContent = r.name;
    if (scenario) svg("text", { class: "name label seal-state" }, g).textContent = flourishing ? t("flourishing") : t("inactive");
  }
  const church = svg("g", { id: "church" }, seals);
  svg("rect", { class: "church-box", rx: 0.3 }, church);
  icon(church, "church", 0, 0, 0.6, "#3b2a1a");
  svg("text", { class: "name label", id: "church-label" }, church).textContent = t("Church");
}
