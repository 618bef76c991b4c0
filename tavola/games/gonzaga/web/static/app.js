// Gonzaga in the browser. Native modules, no build step: the server sends the board geometry once
// and a view of the game after every change; this file draws them and sends the player's choices.
import { $, api, el, linkLine, ratingWords, savedInvites, t, toast } from "/static/tavola/common.js";
import { Hint } from "/static/tavola/hint.js";
import { Table } from "/static/tavola/table.js";

const SVGNS = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);

export const ui = {
  board: null, byHex: new Map(), gameId: null, view: null,
  mode: "fief", rotation: 0, hover: null, pending: null, cursor: null, legalKeys: new Map(),
  plan: { region: null, action: null, privilege: false }, wedding: { first: null, second: null },
  replay: null, options: null,
};

// ---------------------------------------------------------------------------------------------
// small tools

function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
// the planning cards and their names come from the board data (/api/board)
function cardName(card) {
  const region = ui.board && ui.board.regions.find((r) => r.id === card);
  if (region) return region.name;
  const c = ui.board && ui.board.cards[card];
  return c ? c.name : card;
}
function actionCards() { return Object.keys(ui.board.cards).filter((c) => ui.board.cards[c].action); }
function weddingCard() { return actionCards().find((c) => ui.board.cards[c].wedding); }
function fiefName(fief) { const f = ui.board.fiefs.find((x) => x.number === fief); return f ? f.name : "fief"; }
// symbols are SVG paths from the server (the shapes of the printed board's legend)
function icon(parent, name, x, y, size, fill) {
  const d = ui.board.icons[name];
  if (!d) {
    const t = svg("text", { x, y, class: "glyph", fill }, parent);
    t.textContent = (name || "?")[0].toUpperCase();
    return t;
  }
  return svg("path", { d, fill, transform: `translate(${x} ${y}) scale(${size})` }, parent);
}
function iconEl(name, px = 16, fill = "#3b2a1a") {
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("viewBox", "-1.1 -1.1 2.2 2.2");
  s.setAttribute("width", px); s.setAttribute("height", px);
  s.setAttribute("class", "icon");
  const title = svg("title", {}, s);
  title.textContent = symbolName(name);
  icon(s, name, 0, 0, 1, fill);
  return s;
}
function symbolName(id) { return (ui.board.symbols.find((x) => x.id === id) || { name: id }).name; }

// the board's pixel frame (circumradius 1), pointy-top, odd-r offset rows: where a hex is
// drawn. Which hexes touch, and which a fief covers however turned, the server says.
function centre(c, r) { return [SQRT3 * (c + 0.5 * (r & 1)), 1.5 * r]; }
function corners(x, y, k = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (30 + 60 * i);
    pts.push([x + k * Math.cos(a), y + k * Math.sin(a)]);
  }
  return pts;
}
function pointsAttr(pts) { return pts.map((p) => p[0].toFixed(3) + "," + p[1].toFixed(3)).join(" "); }
export function hexKey(h) { return h[0] + "," + h[1]; }
// the sides of a set of hexes, each with the hexes it borders: a side two hexes share is
// found by its corners, so no neighbour arithmetic is needed
function sides(hexes) {
  const found = new Map();
  const corner = (p) => Math.round(p[0] * 100) + "," + Math.round(p[1] * 100);
  for (const h of hexes) {
    const pts = corners(...centre(h.at[0], h.at[1]));
    pts.forEach((a, i) => {
      const b = pts[(i + 1) % 6], key = [corner(a), corner(b)].sort().join(" ");
      const side = found.get(key);
      if (side) side.hexes.push(h); else found.set(key, { a, b, hexes: [h] });
    });
  }
  return [...found.values()];
}
function fiefOf(fief) { return ui.board.fiefs.find((f) => f.number === fief); }
// a legal move by where its anchor is and how it is turned: every way the server lists for it
export function legalKey(anchor, rotation) { return hexKey(anchor) + "/" + rotation; }

// ---------------------------------------------------------------------------------------------
// the board, drawn once from the board data; the names on it are laid out again (layoutNames)
// whenever its scale on screen changes, so that they keep one readable size and never overlap

const NAME_PX = 12;     // city, harbor, seal, church and sea names: CSS pixels at every zoom
const MARKER_R = 0.5;   // the discs of cities and harbors, in hex radii

function drawBoard(scenario) {
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
function lookStyle(colour) {
  const look = ui.board.player_looks[colour];
  if (!look) return `background:${colour}`;
  const p = look.pattern;
  const paint = Object.entries(inkPaint(look)).map(([k, v]) => `${k}='${v}'`).join(" ");
  const tile = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${p.tile} ${p.tile}'><path d='${p.d}' ${paint} opacity='.6'/></svg>`;
  const px = Math.round(p.tile * 12);
  return `background-color:${look.fill};background-image:url("data:image/svg+xml,${encodeURIComponent(tile)}");background-size:${px}px ${px}px`;
}
function lookTitle(colour) {
  const look = ui.board.player_looks[colour];
  return look ? `${look.name} (${look.pattern.name})` : colour;
}
function colourOf(p) { return ui.board.player_colours[p.colour] || p.colour; }

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

// -- laying out the names --------------------------------------------------------------------

function box(x, y, w, h) { return { x, y, w, h }; }
function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x), h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
function inside(a, f) { return a.x >= f.x && a.y >= f.y && a.x + a.w <= f.x + f.w && a.y + a.h <= f.y + f.h; }
function grow(a, d) { return box(a.x - d, a.y - d, a.w + 2 * d, a.h + 2 * d); }
// a name's size at font size 1, measured once (at 10, which the browser renders exactly)
function measure(t) {
  if (!t._size || t._text !== t.textContent) {
    t.removeAttribute("transform");
    t.setAttribute("x", 0); t.setAttribute("y", 0);
    t.style.fontSize = "10px";
    const bb = t.getBBox();
    t._size = { dx: bb.x / 10, dy: bb.y / 10, w: bb.width / 10, h: bb.height / 10 };
    t._text = t.textContent;
  }
  return t._size;
}
// draw text t at font size `size` with its box's top left corner at (x, y)
function putText(t, size, x, y) {
  const s = measure(t);
  t.style.fontSize = `${size}px`;
  t.style.strokeWidth = `${(0.2 * size).toFixed(3)}px`;
  t.setAttribute("x", (x - s.dx * size).toFixed(3));
  t.setAttribute("y", (y - s.dy * size).toFixed(3));
  return box(x, y, s.w * size, s.h * size);
}

function layoutNames(force = false) {
  const root = $("board");
  const ctm = root && ui.frame && root.getScreenCTM();
  if (!ctm || !ctm.a || !root.isConnected || root.getBoundingClientRect().width === 0) return;
  if (!force && ui.layoutScale && Math.abs(ui.layoutScale - ctm.a) < 1e-3) return;
  ui.layoutScale = ctm.a;
  const size = NAME_PX / ctm.a, gap = 2 / ctm.a;
  const markers = new Map([...ui.board.cities, ...ui.board.harbors].map((c) => {
    const [x, y] = centre(c.at[0], c.at[1]);
    return [hexKey(c.at), box(x - MARKER_R, y - MARKER_R, 2 * MARKER_R, 2 * MARKER_R)];
  }));
  const reserved = [];
  const bar = $("map-bar");
  if (bar && getComputedStyle(bar).position === "absolute") {  // the bar over the bottom of the map
    const h = (bar.getBoundingClientRect().height + 4) / ctm.a;
    reserved.push(box(ui.frame.x, ui.frame.y + ui.frame.h - h, ui.frame.w, h));
  }
  // with the names too big for the map (a phone before zooming in), seals and markers only
  const shown = placeAll([...reserved], markers, size, gap, true) || !placeAll([...reserved], markers, size, gap, false);
  root.classList.toggle("names-hidden", !shown);
  const hint = $("names-hint");
  if (hint) hint.hidden = shown;
}

function placeAll(taken, markers, size, gap, withNames) {
  taken.push(...markers.values());
  for (const g of document.querySelectorAll("#seals .seal")) taken.push(placeSeal(g, size, gap, taken, withNames));
  taken.push(placeChurch(size, gap, taken, withNames));
  if (withNames && !placePlaceNames(size, gap, taken, markers)) return false;
  for (const t of document.querySelectorAll("#area-names .seaname")) placeAreaName(t, withNames ? size * 1.05 : 0, taken);
  for (const t of document.querySelectorAll("#area-names .regionname")) placeAreaName(t, withNames ? Math.max(1.4, size) : 1.4, taken);
  return true;
}

// land hex centres: what a seal or the church must leave uncovered
function landCentres() {
  if (!ui.landCentres) ui.landCentres = ui.board.hexes.filter((h) => h.region).map((h) => [h.x, h.y]);
  return ui.landCentres;
}
function coversLand(b) { return landCentres().some(([x, y]) => x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h); }
// the nearest free spot to (x0, y0) for a box of w x h, its top left corner at (x + ox, y + oy)
function freeSpot(x0, y0, w, h, ox, oy, taken) {
  const f = ui.frame;
  for (let radius = 0; radius < 30; radius += 0.5) {
    const steps = Math.max(1, Math.round(radius * 4));
    for (let k = 0; k < steps; k++) {
      const a = (2 * Math.PI * k) / steps, x = x0 + radius * Math.cos(a), y = y0 + radius * Math.sin(a);
      const b = box(x + ox, y + oy, w, h);
      if (inside(b, f) && !coversLand(b) && !taken.some((t) => overlap(grow(b, 0.15), t))) return [x, y, b];
    }
  }
  return [x0, y0, box(x0 + ox, y0 + oy, w, h)];
}
function placeSeal(g, size, gap, taken, withNames) {
  const texts = [...g.querySelectorAll("text.name")];
  const dims = texts.map((t) => measure(t));
  const disc = 1.6, w = Math.max(disc, ...dims.map((d) => (withNames ? d.w * size : 0)));
  const h = disc + (withNames ? gap + dims.reduce((s, d) => s + d.h * size, 0) : 0);
  const region = ui.board.regions.find((r) => r.id === g.dataset.seal);
  const [x, y, b] = freeSpot(region.seal[0], region.seal[1], w, h, -w / 2, -disc / 2, taken);
  g.setAttribute("transform", `translate(${x.toFixed(3)} ${y.toFixed(3)})`);
  let top = disc / 2 + gap;
  texts.forEach((t, i) => { putText(t, size, -dims[i].w * size / 2, top); top += dims[i].h * size; });
  return b;
}
function placeChurch(size, gap, taken, withNames) {
  const g = $("church"), t = $("church-label");
  const s = measure(t), pad = 0.25;
  const w = Math.max(1.8, withNames ? s.w * size : 0) + 2 * pad, h = 1.3 + (withNames ? s.h * size : 0) + 2 * pad;
  const [cx, cy] = ui.board.church;
  const [x, y, b] = freeSpot(cx, cy, w, h, -w / 2, -h / 2, taken);
  g.setAttribute("transform", `translate(${x.toFixed(3)} ${y.toFixed(3)})`);
  const rect = g.querySelector("rect");
  for (const [k, v] of Object.entries({ x: -w / 2, y: -h / 2, width: w, height: h })) rect.setAttribute(k, v.toFixed(3));
  g.querySelector("path").setAttribute("transform", `translate(0 ${(-h / 2 + pad + 0.6).toFixed(3)}) scale(0.6)`);
  putText(t, size, -s.w * size / 2, -h / 2 + pad + 1.3);
  return b;
}

// cities and harbors: each name beside its disc, where it covers no other name or disc
function placePlaceNames(size, gap, taken, markers) {
  const texts = [...ui.placeNames.querySelectorAll("text")];
  const items = texts.map((t) => {
    const [c, r] = t.dataset.at.split(",").map(Number);
    const [x, y] = centre(c, r);
    const s = measure(t);
    return { t, x, y, w: s.w * size, h: s.h * size, box: null };
  });
  const cost = (it, b, others) => {
    let c = inside(b, ui.frame) ? 0 : 1e6;
    for (const o of others) {
      const a = overlap(grow(b, gap), o);
      if (a > 0) c += 1000 + 100 * a;
    }
    return c;
  };
  const candidates = (it) => {
    const r = MARKER_R + gap, d = 0.7 * r, out = [];
    for (const far of [0, 0.5, 1.0, 1.6]) {
      out.push([it.x + r + far, it.y - it.h / 2], [it.x - r - far - it.w, it.y - it.h / 2],
        [it.x - it.w / 2, it.y + r + far * 0.6], [it.x - it.w / 2, it.y - r - far * 0.6 - it.h],
        [it.x + d + far, it.y + d], [it.x - d - far - it.w, it.y + d],
        [it.x + d + far, it.y - d - it.h], [it.x - d - far - it.w, it.y - d - it.h]);
    }
    return out.map(([x, y]) => box(x, y, it.w, it.h));
  };
  const choose = (it, others) => {
    let best = null, bestCost = Infinity;
    candidates(it).forEach((b, i) => {
      const c = cost(it, b, others) + i * 0.5;
      if (c < bestCost) { best = b; bestCost = c; }
    });
    return [best, bestCost];
  };
  // the most crowded first; then a few passes that move each name to its best spot given the rest
  const crowd = (it) => items.filter((o) => Math.abs(o.x - it.x) < 6 && Math.abs(o.y - it.y) < 3).length;
  items.sort((a, b) => crowd(b) - crowd(a));
  const others = (it) => [...taken.filter((b) => b !== markers.get(it.t.dataset.at)),
    ...items.filter((o) => o !== it && o.box).map((o) => o.box)];
  for (const it of items) it.box = choose(it, others(it))[0];
  let worst = 0;
  for (let pass = 0; pass < 4; pass++) {
    worst = 0;
    for (const it of items) {
      const [b, c] = choose(it, others(it));
      it.box = b;
      worst = Math.max(worst, c);
    }
    if (worst < 1000) break;
  }
  if (worst >= 1000) return false;
  for (const it of items) { putText(it.t, size, it.box.x, it.box.y); taken.push(it.box); }
  return true;
}

// a sea's or a region's name on the free hex nearest the middle of its hexes; hidden if none is free.
// It keeps a word space (a third of its height) from every other name, so that two names on one
// line read as two.
function placeAreaName(t, size, taken) {
  const hexes = ui.areaHexes[t.dataset.area] || [];
  t.style.display = "";
  const s = measure(t);  // before hiding it: a hidden text has no size
  t.style.display = "none";
  if (!size || !hexes.length) return;
  const mx = hexes.reduce((s, h) => s + h.x, 0) / hexes.length, my = hexes.reduce((s, h) => s + h.y, 0) / hexes.length;
  const byDistance = [...hexes].sort((a, b) => (a.x - mx) ** 2 + (a.y - my) ** 2 - ((b.x - mx) ** 2 + (b.y - my) ** 2));
  for (const k of [1, 0.8]) {
    const w = s.w * size * k, h = s.h * size * k;
    for (const hx of byDistance) {
      const b = box(hx.x - w / 2, hx.y - h / 2, w, h);
      const space = Math.max(0.1, h / 3);
      if (!inside(b, ui.frame) || taken.some((o) => overlap(grow(b, space), o))) continue;
      t.style.display = "";
      putText(t, size * k, b.x, b.y);
      taken.push(b);
      return;
    }
  }
}

function drawPieces(v) {
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

// ---------------------------------------------------------------------------------------------
// connection

// the connection, one move per view, errors and presence are the platform's (table.js)
function send(msg) { Table.send(msg); }
function act(action) { Table.act(action); }
function undo() { Table.undo(); }

// legal placements arrive as parallel arrays (compact); the page works with rows, in a copy:
// the view as received stays as the server sent it, for the next change to apply to. A row is
// [column, row, rotation, points, hexes covered, castles' hexes, scoring words], all the
// server's: the page previews a move without asking and without hex arithmetic
function unpack(v) {
  const p = v.legal && v.legal.placements;
  if (!p || Array.isArray(p)) return v;
  const at = (i) => ui.board.hexes[i].at, n = p.hexes.length / (p.rotations.length || 1);
  const castles = fiefOf(v.legal.fief).castle_cells;
  const placements = p.rotations.map((rot, i) => {
    const hexes = p.hexes.slice(i * n, (i + 1) * n);
    return [...at(hexes[0]), rot, p.points[i], hexes.map(at), castles.map((j) => at(hexes[j])), scoreWords(v.legal, hexes, p.leagues, i)];
  });
  // a Wedding's points and leagues, by its rings in either order (the page lets either go first)
  const w = v.legal.wedding_scores, weddings = new Map();
  v.legal.weddings.forEach(([a, b], i) => {
    const score = { points: w.points[i], leagues: scoreWords(v.legal, [], w.leagues, i) };
    weddings.set(weddingKey(a, b), score);
    if (b) weddings.set(weddingKey(b, a), score);
  });
  return { ...v, legal: { ...v.legal, placements, weddingScores: weddings } };
}
// a move's scoring words: its cities and harbors in the order of its hexes, then its leagues
function scoreWords(legal, hexes, leagues, i) {
  return [...hexes.map((h) => legal.places[h]).filter(Boolean), ...leagues.filter((l) => l[0] === i).map((l) => l[1])];
}
function weddingKey(a, b) { return hexKey(a) + "|" + (b ? hexKey(b) : ""); }
function hexIndex(at) {
  if (!ui.hexIndex) ui.hexIndex = new Map(ui.board.hexes.map((h, i) => [hexKey(h.at), i]));
  return ui.hexIndex.get(hexKey(at));
}

function showGone() { Table.showGone(); }

function onPresence(seats) {
  const v = ui.view;
  if (!v) return;
  seats.forEach((s, i) => { if (v.players[i]) Object.assign(v.players[i], s); });
  renderPlayers(v);
}

// ---------------------------------------------------------------------------------------------
// rendering a view

function render(v) {
  const first = !ui.view || ui.view.scenario.name !== v.scenario.name || !$("hexes");
  const newTurn = !ui.view || ui.view.seq !== v.seq;
  if (ui.view && ui.view.phase === "planning" && v.phase === "placing" && !ui.replay) {
    toast(t("Plans revealed. Turn order: {order}", { order: v.order.map((i) => v.players[i].name).join(" → ") }), "info");
  }
  if (v.phase === "over" && ui.view && ui.view.phase !== "over") $("toast").hidden = true;  // the end screen says it all
  if (ui.view && ui.view.round !== v.round) dismissInfo();  // the reveal's banner is old news
  const wasPlacing = !!(ui.view && ui.view.legal && ui.view.legal.kind === "place");
  ui.view = v;
  document.body.dataset.seq = v.seq;
  document.body.dataset.phase = v.phase;
  if (first) drawBoard(v.scenario);
  drawPieces(v);
  renderStatus(v);
  renderYou(v);
  renderPlayers(v);
  renderTrack(v);
  renderLog(v);
  renderEnd(v);
  renderInvites(v);
  if (newTurn) {
    ui.pending = null; ui.wedding = { first: null, second: null };
    if (!placing()) ui.cursor = null;
  }
  renderActions(v);
  markHints(Hint.marked());
  drawCursor();
  if (!wasPlacing && v.legal && v.legal.kind === "place" && !ui.replay) bringBoardIntoView();
}
function dismissInfo() { const t = $("toast"); if (t.className === "info") t.hidden = true; }
// your turn to place: the map (with the bar under it) in sight, below the header, on a phone too
function bringBoardIntoView() {
  const wrap = $("board-wrap").getBoundingClientRect();
  const top = $("top").getBoundingClientRect().bottom;
  if (wrap.top >= top - 1 && wrap.bottom <= window.innerHeight + 1) return;
  window.scrollBy({ top: wrap.top - top, behavior: "instant" });
}
function touchScreen() { return matchMedia("(hover: none) and (pointer: coarse)").matches; }
// a tap or a click only chooses; placing is always the separate button (or Enter)
function placingHint(n) {
  return touchScreen()
    ? t("Your fief fits in {n} ways (white dots: where it fits as it is turned now). Tap the map to choose a position; the ⟲ ⟳ buttons turn the fief; then press “Place fief” to place it.", { n })
    : t("Your fief fits in {n} ways (white dots: where it fits as it is turned now). Point at the map: the fief follows; R, the wheel or ⟲ ⟳ turn it. Click to choose a position, then press “Place fief” to place it.", { n });
}

function me(v) { return v.you === null || v.you === undefined ? null : v.players[v.you]; }

function renderStatus(v) {
  const parts = [t("Round {round}", { round: v.round }), `${v.scenario.name}`];
  if (v.phase === "planning") parts.push(t("Planning"));
  else if (v.phase === "placing") parts.push(t("Placing: {name}", { name: v.players[v.current].name }));
  else parts.push(t("Game over"));
  parts.push(lastTurnText(v));
  if (v.you === null) parts.push(ui.replay ? t("Replay") : t("Watching"));
  $("status").textContent = parts.filter(Boolean).join(" · ");
}
function lastTurnText(v) {
  if (v.phase === "over") return t("ended after round {round}", { round: v.round });
  if (v.final_round !== null) return t("Last Turn: round {round} is the last", { round: v.final_round });
  if (v.last_turn_check !== null) return t("Last Turn card ({name}): check after round {round}", { name: v.players[v.last_turn_holder].name, round: v.last_turn_check });
  return "";
}

function renderYou(v) {
  const box = $("you");
  const p = me(v);
  if (!p) { box.replaceChildren(el("h3", { text: ui.replay ? t("Replay") : t("Spectator") }), el("p", { class: "muted", text: t("You see what every player sees; hidden cards stay hidden.") })); return; }
  const objective = p.objective ? objectiveEl(v, p) : "";
  box.replaceChildren(
    el("h3", {}, el("span", { class: "swatch", style: lookStyle(p.colour), title: lookTitle(p.colour) }), t("{name} (you)", { name: p.name })),
    el("div", { class: "row", id: "you-score", text: t("Score {score} · Rings left {rings} · Fiefs left {fiefs}", { score: p.score, rings: p.rings, fiefs: p.fiefs_left }) }),
    el("div", { class: "row", id: "you-fief" }, p.fief !== null ? t("Your fief this round: the {fief}", { fief: fiefName(p.fief) }) : t("Your fief of this round is played")),
    fiefPicture(p.fief, `url(#pl-${p.colour})`),
    handEl(v, p),
    el("div", { class: "muted", id: "you-objective" }, objective),
  );
}
// the planning cards: in hand, resting (played last round) or played this round
function handEl(v, p) {
  const regions = ui.board.regions.map((r) => r.id).filter((r) => v.scenario.flourishing.includes(r));
  const cards = [...regions, "inactive", ...actionCards(), "privilege"];
  const chips = cards.map((c) => {
    const state = p.played.includes(c) ? "played" : p.resting.includes(c) ? "resting" : "hand";
    return el("span", { class: `chip ${state}`, title: { played: t("played this round"), resting: t("resting: played last round, back after this round's reveal"), hand: t("in hand") }[state], "data-card": c }, cardName(c));
  });
  return el("div", { class: "hand", id: "hand" }, el("span", { class: "muted", text: t("Planning cards: ") }), ...chips);
}
// the objective card as the server reads it: its cities, which are covered, the progress
function objectiveEl(v, p) {
  const card = p.objective_card;
  const box = el("span", {}, t("Your secret objective: "));
  if (!card) return box;
  card.symbols.forEach((s, i) => box.append(i ? " + " : "", iconEl(s), " " + symbolName(s)));
  box.append(t(" — {cities}; {progress}", { cities: card.cities.map((c) => (c.covered ? "✓" : "") + c.name).join(", "), progress: card.text }));
  return box;
}
// a fief's picture: its hexes and castles, as players know it
function fiefPicture(fief, colour, rotation = ui.rotation || 0, width = 120, height = 70) {
  const box = el("div", { class: "fief-picture" });
  if (fief === null || fief === undefined) return box;
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("width", width); s.setAttribute("height", height);
  s.setAttribute("role", "img"); s.setAttribute("aria-label", fiefName(fief));
  svg("title", {}, s).textContent = fiefName(fief);
  const shape = fiefOf(fief), pts = shape.turns[rotation];
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  s.setAttribute("viewBox", `${Math.min(...xs) - 1.1} ${Math.min(...ys) - 1.1} ${Math.max(...xs) - Math.min(...xs) + 2.2} ${Math.max(...ys) - Math.min(...ys) + 2.2}`);
  pts.forEach(([x, y], i) => {
    svg("polygon", { points: pointsAttr(corners(x, y, 0.97)), fill: colour, class: "piece" }, s);
    if (shape.castle_cells.includes(i)) { const t = svg("text", { x, y, class: "glyph", "font-size": 0.8 }, s); t.textContent = "♜"; }
  });
  box.append(s);
  return box;
}

function botLevel(spec) {
  return (ui.options && ui.options.bot_levels || []).find((b) => b.id === spec) || { id: spec, name: spec, strength: "", help: "" };
}
// a bot's rating measured by tournaments, where one was measured at this player count
function renderPlayers(v) {
  const rows = [];
  v.players.forEach((p, i) => {
    const state = v.phase === "planning" ? (p.has_planned ? t("planned") : t("planning…")) : v.phase === "placing" ? (v.current === i ? t("placing") : "") : "";
    const plan = p.plan ? p.plan.text : "";
    // presence is for live games: a replay has nobody online or away
    const strength = botLevel(p.bot).strength;
    const who = p.kind === "bot" ? (strength ? t("{strength} bot", { strength }) : t("bot")) + ratingWords(p) : ui.replay ? "" : (p.connected ? t("online") : t("away"));
    rows.push(el("tr", { class: (i === v.you ? "me " : "") + (v.current === i ? "turn" : ""), "data-seat": i },
      el("td", {}, el("span", { class: "swatch", style: lookStyle(p.colour), title: lookTitle(p.colour) }), p.name, who ? el("small", { class: "muted presence", text: t(" ({who})", { who }) }) : ""),
      el("td", { class: "score", text: String(p.score) }), el("td", { text: String(p.rings) }),
      el("td", { class: "fief-cell" }, p.fief !== null ? fiefPicture(p.fief, `url(#pl-${p.colour})`, 0, 44, 26) : "–"),
      el("td", { text: plan || state })));
    // the rest of the player's public board
    const leagues = p.leagues.map((s) => (ui.board.seas.find((x) => x.id === s) || { name: s }).name);
    const details = [t("fiefs left {n}", { n: p.fiefs_left })];
    if (p.fief !== null) details.push(t("fief this round: {fief}", { fief: fiefName(p.fief) }));
    if (p.resting.length) details.push(t("resting: {cards}", { cards: p.resting.map(cardName).join(", ") }));
    if (leagues.length) details.push(t("sea leagues: {seas}", { seas: leagues.join(", ") }));
    rows.push(el("tr", { class: "details" }, el("td", { colspan: 5, class: "muted", text: details.join(" · ") })));
  });
  $("players").replaceChildren(el("h3", { text: t("Players") }),
    el("table", {}, el("thead", {}, el("tr", {}, ...[t("Player"), t("Score"), t("Rings"), t("Fief"), t("Plan")].map((h) => el("th", { text: h })))), el("tbody", {}, ...rows)),
    el("div", { class: "muted", text: v.order.length ? t("Turn order: {order}", { order: v.order.map((i) => v.players[i].name).join(" → ") }) : "" }));
}

function renderTrack(v) {
  const max = Math.max(50, ...v.players.map((p) => p.score));
  $("track").replaceChildren(...v.players.map((p) => el("div", { class: "track-row" },
    el("span", { class: "track-name", text: p.name, title: p.name }),
    el("span", { class: "track-bar", style: `width:${(55 * p.score / max).toFixed(1)}%;${lookStyle(p.colour)}` }),
    el("span", { text: String(p.score) }))));
}

function renderLog(v) {
  const items = v.log.map((e) => {
    const li = el("li", { text: e.text });
    for (const ev of e.events) li.append(el("span", { class: "pts", text: ev.text }));
    return li;
  }).reverse();
  $("log").replaceChildren(...items);
}

// the creator of a game keeps its seat links on this device, to send them again
function renderInvites(v) {
  const box = $("invites");
  const data = savedInvites(ui.gameId);
  if (!data || v.phase === "over" || ui.replay) { box.hidden = true; return; }
  const others = data.seats.filter((s) => !s.link.endsWith("#" + Table.state.token));
  if (!others.length) { box.hidden = true; return; }
  if (!box.hidden && box.dataset.game === ui.gameId) return;  // built once: keeps it open and its buttons' feedback
  box.hidden = false;
  box.dataset.game = ui.gameId;
  box.replaceChildren(el("details", {}, el("summary", { text: t("Invite links (you created this game)") }),
    el("p", { class: "muted", text: t("Send each player their own link, privately: whoever has a link plays that seat.") }),
    el("ul", { class: "links" }, ...others.map((s) => linkLine(`${s.name}:`, s.link)),
      linkLine(t("Spectators:"), data.spectator))));
}

// -- the end of the game ----------------------------------------------------------------------

function renderEnd(v) {
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
function onRematch(link) {
  if (ui.wantRematch) { location.href = link; return; }
  if (ui.view) { ui.view.rematch = link; renderEnd(ui.view); }
  toast(t("A rematch has started: the link is on the end screen."), "info");
}

// ---------------------------------------------------------------------------------------------
// actions: planning and placing

function renderActions(v) {
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
function rerenderActions() {
  const f = document.activeElement;
  const key = f && $("actions").contains(f) ? (f.id ? "#" + f.id : f.dataset.card ? `[data-card='${f.dataset.card}']` : null) : null;
  renderActions(ui.view);
  markHints(Hint.marked());
  const again = key && $("actions").querySelector(key);
  if (again) again.focus();
}
// a hint's moves on the table, numbered as in the hint's list: the cards of a plan, the hexes
// of a placement, the rings of a Wedding (outlines in a layer of their own, over the map)
// a hint arrives (or goes): while placing, the list of placements names its placements too
function onHint(moves) {
  if (ui.view && ui.view.legal && ui.view.legal.kind === "place" && !ui.replay) rerenderActions();
  else markHints(moves);
}
function markHints(moves) {
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
// a move that revealed nothing may be taken back while nobody has moved since (`can_undo`)
function undoEl(v) {
  if (!v.can_undo) return "";
  const label = v.phase === "planning" ? t("Take back my plan") : t("Undo my move");
  return el("div", { class: "row" }, el("button", { type: "button", id: "undo", onclick: undo }, label),
    el("span", { class: "muted", text: t("Possible until someone else moves.") }));
}

function renderPlanning(box, v, legal) {
  const sel = ui.plan;
  if (sel.region && !legal.regions.includes(sel.region)) sel.region = null;
  if (sel.action && !legal.actions.includes(sel.action)) sel.action = null;
  if (!legal.privilege) sel.privilege = false;
  const actions = actionCards();
  const regionButtons = legal.region_cards.map((card) => {
    const resting = !legal.regions.includes(card);
    const best = legal.best[card] || {};
    // a resting card cannot be played: it gets no hint, only why it is out
    const hint = actions.map((a) => `${cardName(a)} ${best[a] === null || best[a] === undefined ? "–" : best[a]}`).join(" · ");
    return el("button", { type: "button", class: "plancard" + (sel.region === card ? " on" : "") + (resting ? " resting" : ""),
      disabled: resting, "data-card": card, "aria-pressed": sel.region === card ? "true" : "false", onclick: () => { sel.region = card; rerenderActions(); } },
    cardName(card), el("small", { text: resting ? t("resting this round") : hint }));
  });
  const actionButtons = actions.map((card) => {
    const resting = !legal.actions.includes(card);
    return el("button", { type: "button", class: "plancard" + (sel.action === card ? " on" : "") + (resting ? " resting" : ""),
      disabled: resting, "data-card": card, "aria-pressed": sel.action === card ? "true" : "false", onclick: () => { sel.action = card; rerenderActions(); } },
    cardName(card), el("small", { text: resting ? t("resting this round") : ui.board.cards[card].help }));
  });
  const me_ = me(v);
  const kpWhy = me_.resting.includes("privilege") ? t("resting this round") : t("no ring left");
  const kp = el("button", { type: "button", class: "plancard" + (sel.privilege ? " on" : "") + (legal.privilege ? "" : " resting"), disabled: !legal.privilege, id: "privilege", "data-card": "privilege",
    "aria-pressed": sel.privilege ? "true" : "false", onclick: () => { sel.privilege = !sel.privilege; rerenderActions(); } },
  cardName("privilege"), el("small", { text: legal.privilege ? ui.board.cards.privilege.help : kpWhy }));
  const go = el("button", { type: "button", class: "primary", id: "plan-go", disabled: !(sel.region && sel.action),
    onclick: () => { act({ type: "plan", region: sel.region, action: sel.action, privilege: sel.privilege }); ui.plan = { region: null, action: null, privilege: false }; } }, t("Plan"));
  box.replaceChildren(el("h3", { text: t("Plan your move (round {round})", { round: v.round }) }),
    el("div", { class: "muted", text: t("Region card: where your fief goes. Each shows the most points your fief could score there now, under each action card.") }),
    el("div", { class: "cards", id: "region-cards" }, ...regionButtons),
    el("div", { class: "muted", text: t("Action card: what your fief may cover, and your place in the turn order.") }), el("div", { class: "cards", id: "action-cards" }, ...actionButtons, kp),
    el("div", { class: "row" }, go, el("span", { class: "muted", text: t("Your choice stays secret until everyone has planned.") })), undoEl(v));
}

// -- names of places, so that positions read as the map does ----------------------------------

function placeNames() {
  if (!ui.placeAt) {
    ui.placeAt = new Map();
    for (const c of ui.board.cities) ui.placeAt.set(hexKey(c.at), c.name);
    for (const h of ui.board.harbors) ui.placeAt.set(hexKey(h.at), h.name);
  }
  return ui.placeAt;
}
// "Paris, Calais", or "near Reims" for a placement on empty hexes
function whereWords(cells) {
  const at = placeNames();
  const names = cells.map((h) => at.get(hexKey(h))).filter(Boolean);
  if (names.length) return names.join(", ");
  const [x0, y0] = centre(cells[0][0], cells[0][1]);
  let best = null, dist = Infinity;
  for (const p of [...ui.board.cities, ...ui.board.harbors]) {
    const [x, y] = centre(p.at[0], p.at[1]);
    const d = (x - x0) ** 2 + (y - y0) ** 2;
    if (d < dist) { dist = d; best = p; }
  }
  return best ? t("near {place}", { place: best.name }) : "";
}
function pointsWords(n) { return n === 1 ? t("{n} point", { n }) : t("{n} points", { n }); }

function renderPlacing(box, v, legal) {
  ui.legalKeys = new Map();
  const same = fiefOf(legal.fief).same;  // the other ways of laying a symmetric fief on the same hexes
  for (const p of legal.placements) {
    ui.legalKeys.set(legalKey([p[0], p[1]], p[2]), p);
    for (const [j, k] of same) ui.legalKeys.set(legalKey(p[4][j], (p[2] + k) % 6), p);
  }
  const canWed = legal.weddings.length > 0;
  if (ui.mode === "wedding" && !canWed) ui.mode = "fief";
  const plan = legal.plan;
  const best = bestPlacements(legal);
  const donation = legal.donation_points === undefined ? "" : ` (+${legal.donation_points})`;
  const modeButtons = el("div", { class: "row" },
    el("button", { type: "button", id: "mode-fief", class: ui.mode === "fief" ? "on" : "", disabled: !legal.placements.length, onclick: () => { ui.mode = "fief"; ui.cursor = null; rerenderActions(); } }, t("Place your fief")),
    canWed ? el("button", { type: "button", id: "mode-wedding", class: ui.mode === "wedding" ? "on" : "", onclick: () => { ui.mode = "wedding"; ui.pending = null; ui.cursor = null; rerenderActions(); } }, t("Wedding (rings)")) : "",
    el("button", { type: "button", id: "donate", onclick: () => { if (confirm(t("Give your fief to the church for {points} points instead of placing it?", { points: legal.donation_points || "" }))) act({ type: "donate" }); } }, donation ? t("Donate to the church (+{points})", { points: legal.donation_points }) : t("Donate to the church")));
  const children = [el("h3", { text: t("Your turn: {plan}", { plan: plan.text }) }), modeButtons];
  if (ui.mode === "fief") {
    children.push(el("p", { class: "muted", id: "place-help", text: legal.placements.length
      ? placingHint(legal.placements.length)
      : t("No legal placement for this plan: donate (or arrange a Wedding with the {card} card).", { card: cardName(weddingCard()) }) }));
    if (legal.placements.length) children.push(keysHint(t("R and Shift+R turn the fief; Enter chooses the position under the cursor, Enter again places the fief")));
    if (best.length) {
      children.push(el("div", { class: "muted", text: t("Best placements (click to see one on the map):") }), el("ol", { id: "best" }, ...best.map(([c, r, rot, pts, cells, rank]) =>
        el("li", rank ? { class: "hinted", "data-hint-mark": rank } : {}, el("a", { href: "#", "data-anchor": `${c},${r}`, "data-rotation": rot, "data-points": pts,
          onclick: (ev) => { ev.preventDefault(); ui.rotation = rot; choose([c, r]); showHex([c, r]); } }, t("{points} · {where}", { points: pointsWords(pts), where: whereWords(cells) }))))));
    }
    $("place-bar").hidden = false;
    markAnchors();
    updatePreview();
  } else {
    children.push(el("p", { id: "wedding-help", class: "muted", text: ui.wedding.first
      ? t("Click a highlighted hex beside the first ring for a second ring (optional), then arrange the Wedding.")
      : t("Click a highlighted land hex of {region} for the first ring. The fief drawn is discarded.", { region: cardName(plan.region) }) }));
    children.push(keysHint(t("Enter puts a ring on the highlighted hex under the cursor; Enter on a ring you have put arranges the Wedding")));
    const go = el("button", { type: "button", class: "primary", id: "wedding-go", disabled: !ui.wedding.first,
      onclick: commitWedding }, t("Arrange the Wedding"));
    const reset = el("button", { type: "button", onclick: () => { ui.wedding = { first: null, second: null }; rerenderActions(); } }, t("Start again"));
    children.push(el("div", { class: "row" }, go, reset, el("span", { id: "wedding-info" })));
    markWedding(legal);
  }
  box.replaceChildren(...children);
  if (ui.mode === "wedding" && ui.wedding.first) showWeddingCheck();  // into the bar just made
  for (const a of box.querySelectorAll("#best a")) enterPlaces(a);
}
// the placements worth a click: those a hint names (so each can be seen on the map), then the
// five that score most; a placement covering the same hexes as one listed is the same
// placement (a symmetric fief turned) and is listed once
function bestPlacements(legal) {
  const seen = new Set(), out = [];
  const add = (p, [c, r, rot], rank) => {
    if (seen.has(p)) return false;
    seen.add(p);
    out.push([c, r, rot, p[3], p[4], rank]);
    return true;
  };
  (Hint.marked() || []).forEach((m, i) => {
    const a = m.action, found = a.type === "fief" && ui.legalKeys.get(legalKey(a.anchor, a.rotation));
    if (found) add(found, [a.anchor[0], a.anchor[1], a.rotation], String(i + 1));
  });
  let more = 5;
  for (const p of [...legal.placements].sort((a, b) => b[3] - a[3])) {
    if (more <= 0) break;
    if (add(p, p, "")) more -= 1;
  }
  return out;
}
// the keys, for those who have a keyboard (a touch screen gets no word of keys)
function keysHint(what) {
  if (touchScreen()) return "";
  return el("p", { class: "muted keys-hint", id: "keys-hint" }, el("strong", { text: t("Keyboard: ") }),
    t("Tab to the map, then the arrow keys move the cursor; {keys}; Esc starts again.", { keys: what }));
}

function clearMarks() { if ($("marks")) $("marks").replaceChildren(); if ($("preview")) $("preview").replaceChildren(); }

function markAnchors() {
  const g = $("marks");
  g.replaceChildren();
  for (const h of ui.board.hexes) {
    if (ui.legalKeys.has(legalKey(h.at, ui.rotation))) svg("circle", { cx: h.x, cy: h.y, r: 0.22, class: "anchor-dot" }, g);
  }
}

function markWedding(legal) {
  const g = $("marks");
  g.replaceChildren();
  const firsts = new Set(), pairs = legal.weddings.filter((w) => w[1]);
  for (const [a, b] of legal.weddings) if (!b) firsts.add(hexKey(a));
  let options = [...firsts].map((k) => k.split(",").map(Number));
  if (ui.wedding.first) {
    const f = hexKey(ui.wedding.first);
    options = [];
    if (!ui.wedding.second) {
      for (const [a, b] of pairs) {
        if (hexKey(a) === f) options.push(b);
        else if (hexKey(b) === f) options.push(a);
      }
    }
  }
  for (const [c, r] of options) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: pointsAttr(corners(x, y, 0.8)), class: "wed-first", "data-wedding-option": hexKey([c, r]) }, g);
  }
  for (const h of [ui.wedding.first, ui.wedding.second]) {
    if (!h) continue;
    const [x, y] = centre(h[0], h[1]);
    svg("circle", { cx: x, cy: y, r: 0.62, class: "ring", stroke: colourOf(me(ui.view)) }, g);
  }
  ui.weddingOptions = new Set(options.map(hexKey));
}

// the keyboard cursor: a hex outlined on the map while the map has the focus, in a layer of its
// own, so that moving it redraws nothing else
function drawCursor() {
  const board = $("board");
  if (!board || !$("hexes")) return;
  let g = $("cursor-layer");
  if (!g) g = svg("g", { id: "cursor-layer", class: "overlay" }, board);
  else board.appendChild(g);  // on top of everything drawn since
  g.replaceChildren();
  if (!placing() || !ui.cursor || document.activeElement !== board) return;
  const [x, y] = centre(ui.cursor[0], ui.cursor[1]);
  svg("polygon", { points: pointsAttr(corners(x, y, 1.0)), class: "cursor-halo" }, g);
  svg("polygon", { points: pointsAttr(corners(x, y, 1.0)), class: "cursor", id: "cursor", "data-hex": hexKey(ui.cursor) }, g);
}

// -- the fief preview that follows the pointer (or the keyboard cursor) --------------------------

// the map's hex under the pointer, as drawn (null off the map)
function boardPoint(ev) {
  const hex = document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.dataset && e.dataset.hex && e.closest("#hexes"));
  return hex ? hex.dataset.hex.split(",").map(Number) : null;
}

function placing() { const v = ui.view; return !!(v && v.legal && v.legal.kind === "place"); }

function updatePreview() {
  const g = $("preview");
  if (!g) return;
  g.replaceChildren();
  const v = ui.view;
  if (!placing() || ui.mode !== "fief") return;
  const anchor = ui.pending || ui.hover;
  const info = $("preview-info");
  const confirmBtn = $("confirm");
  confirmBtn.disabled = true;
  confirmBtn.textContent = t("Place fief");  // no points on the button before a position is chosen
  $("place-bar").dataset.rotation = ui.rotation;
  info.className = "";
  if (!anchor) { info.textContent = touchScreen() ? t("Tap the map to try a position for your fief.") : t("Point at the map to try a position for your fief."); return; }
  // a legal position shows the hexes it covers; any other only the hex pointed at
  const hit = ui.legalKeys.get(legalKey(anchor, ui.rotation));
  const cells = hit ? hit[4] : [anchor], castles = new Set(hit ? hit[5].map(hexKey) : []);
  const colour = colourOf(me(v));
  for (const [c, r] of cells) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: pointsAttr(corners(x, y, 0.95)), class: hit ? "preview-ok" : "preview-bad", fill: colour }, g);
    if (castles.has(hexKey([c, r]))) { const t = svg("text", { x, y: y - 0.45, class: "glyph", "font-size": 0.55 }, g); t.textContent = "♜"; }
  }
  if (hit) {
    // the points with each city, harbor and sea league (the detail names the places already)
    const detail = hit[6].length ? hit[6].join(", ") : whereWords(cells);
    const points = pointsWords(hit[3]);
    if (ui.pending) {
      info.textContent = t("Chosen: {points} ({detail}). Press “Place fief” to place it, or choose again.", { points, detail });
      confirmBtn.disabled = false;
      confirmBtn.textContent = t("Place fief: {points}", { points });
    } else info.textContent = t("Here: {points} ({detail}). Click to choose this position.", { points, detail });
  } else {
    info.className = "bad";
    info.textContent = t("Not here: {reason}.", { reason: notHere(anchor) });
  }
}
// why a position is not legal, from the legal ones: turned another way it may fit here
function notHere(anchor) {
  const turns = [1, 2, 3, 4, 5].filter((k) => ui.legalKeys.has(legalKey(anchor, (ui.rotation + k) % 6)));
  return turns.length ? t("turned this way it does not fit here; turned another way it does")
    : t("it fits nowhere from this hex with your plan; the dots show where it fits as turned");
}
function weddingAction() { return { type: "wedding", first: ui.wedding.first, second: ui.wedding.second }; }
function showWeddingCheck() {
  const w = $("wedding-info");
  if (!w || !ui.wedding.first) return;
  const legal = ui.view.legal, score = legal.weddingScores.get(weddingKey(ui.wedding.first, ui.wedding.second));
  if (!score) { w.textContent = ""; return; }  // only listed rings can be chosen
  w.className = "";
  const rings = [ui.wedding.first, ui.wedding.second].filter(Boolean);
  const events = [...scoreWords(legal, rings.map(hexIndex), [], 0), ...score.leagues];
  const where = rings.length > 1 ? t("two rings {where}", { where: whereWords(rings) }) : t("a ring {where}", { where: whereWords(rings) });
  w.textContent = t("{points}: {detail}.", { points: pointsWords(score.points), detail: events.length ? events.join(", ") : where });
  $("wedding-go").textContent = t("Arrange the Wedding: {points}", { points: pointsWords(score.points) });
}

// Enter on a best placement already chosen places it, as Enter on the map does; a click only chooses
function enterPlaces(link) {
  link.addEventListener("keydown", (ev) => {
    const anchor = link.dataset.anchor.split(",").map(Number);
    const chosen = ui.pending && hexKey(ui.pending) === hexKey(anchor) && ui.rotation === Number(link.dataset.rotation);
    if (ev.key === "Enter" && chosen) { ev.preventDefault(); commitFief(); }
  });
}

// choosing never places: placing is always a separate, deliberate action
function choose(hex) {
  if (!placing() || ui.mode !== "fief") return;
  ui.pending = hex;
  ui.cursor = hex;
  markAnchors();
  updatePreview();
}
function cancelChoice() {
  if (!placing()) return;
  if (ui.mode === "fief") { ui.pending = null; updatePreview(); } else { ui.wedding = { first: null, second: null }; renderActions(ui.view); }
}
// bring a hex into sight: the board above the side panel on a phone, the hex when zoomed in
function showHex(hex) {
  const wrap = $("board-wrap").getBoundingClientRect();
  if (wrap.top < 0 || wrap.top > window.innerHeight / 2) $("board-wrap").scrollIntoView({ block: "start" });
  const scroller = $("board-scroll");
  const b = ui.board;
  const [x, y] = centre(hex[0], hex[1]);
  scroller.scrollLeft = (x + 1.2) / (b.width + 1.4) * scroller.scrollWidth - scroller.clientWidth / 2;
  scroller.scrollTop = (y + 1.2) / (b.height + 1.4) * scroller.scrollHeight - scroller.clientHeight / 2;
}
function commitFief() {
  const v = ui.view;
  if (!placing() || !ui.pending) return;
  const hit = ui.legalKeys.get(legalKey(ui.pending, ui.rotation));
  if (!hit) { toast(t("That position is not legal; the message below the map says why.")); return; }
  act({ type: "fief", fief: v.legal.fief, anchor: ui.pending, rotation: ui.rotation });
}
function commitWedding() { if (placing() && ui.wedding.first) act(weddingAction()); }
function rotateBy(d) {
  ui.rotation = (ui.rotation + d + 6) % 6;
  if (placing() && ui.mode === "fief") { markAnchors(); updatePreview(); renderYou(ui.view); }
}

// a ring on a highlighted hex (mouse or keyboard); the keyboard's Enter on a chosen ring arranges
function weddingPick(h, byKey) {
  const key = hexKey(h);
  const chosen = [ui.wedding.first, ui.wedding.second].some((x) => x && hexKey(x) === key);
  if (chosen) { if (byKey) commitWedding(); return; }
  if (!ui.weddingOptions || !ui.weddingOptions.has(key)) {
    toast(ui.wedding.first ? t("A second ring goes on a free hex next to the first.") : t("The first ring goes on a free land hex of your planned region."));
    return;
  }
  if (!ui.wedding.first) ui.wedding.first = h; else ui.wedding.second = h;
  ui.cursor = h;
  renderActions(ui.view);
}

// -- the keyboard cursor ------------------------------------------------------------------------

// where the cursor starts: the best placement at the fief's current turn, or the first ring hex
function startCursor() {
  const legal = ui.view.legal;
  if (ui.mode === "wedding") {
    // the ring hex nearest the middle of them all, not a corner of the map
    const options = [...(ui.weddingOptions || [])].map((k) => k.split(",").map(Number));
    const xy = options.map(([c, r]) => centre(c, r));
    const mx = xy.reduce((a, p) => a + p[0], 0) / xy.length, my = xy.reduce((a, p) => a + p[1], 0) / xy.length;
    let best = null, dist = Infinity;
    options.forEach((h, i) => { const d = (xy[i][0] - mx) ** 2 + (xy[i][1] - my) ** 2; if (d < dist) { dist = d; best = h; } });
    ui.cursor = best;
  } else {
    let here = legal.placements.filter((p) => p[2] === ui.rotation).sort((a, b) => b[3] - a[3])[0];
    if (!here && legal.placements.length) {  // nothing fits as the fief is turned: turn it to the best
      here = [...legal.placements].sort((a, b) => b[3] - a[3])[0];
      rotateBy(here[2] - ui.rotation);
    }
    ui.cursor = here ? [here[0], here[1]] : [Math.floor(ui.board.columns / 2), Math.floor(ui.board.rows / 2)];
  }
}
function moveCursor(dc, dr) {
  if (!ui.cursor) startCursor();
  else {
    const c = Math.max(0, Math.min(ui.board.columns - 1, ui.cursor[0] + dc));
    const r = Math.max(0, Math.min(ui.board.rows - 1, ui.cursor[1] + dr));
    ui.cursor = [c, r];
  }
  if (!ui.cursor) return;
  showHex(ui.cursor);
  if (ui.mode === "fief") { ui.pending = null; ui.hover = ui.cursor; updatePreview(); }
  drawCursor();
}
function mapEnter() {
  if (!ui.cursor) { moveCursor(0, 0); return; }
  if (ui.mode === "fief") {
    if (ui.pending && hexKey(ui.pending) === hexKey(ui.cursor)) commitFief();
    else choose(ui.cursor);
  } else weddingPick(ui.cursor, true);
}

// where the skip link takes the keyboard: the map while placing, the first card while planning
function moveControl() {
  if (placing()) return $("board");
  return document.querySelector("#region-cards button:not([disabled])") || $("actions");
}

function setupBoardEvents() {
  const s = $("board");
  s.setAttribute("tabindex", "0");
  s.setAttribute("aria-describedby", "preview-info");
  s.addEventListener("pointerdown", () => { ui.pointing = true; });
  s.addEventListener("pointermove", (ev) => {
    if (!placing() || ui.mode !== "fief" || ev.pointerType === "touch") return;
    const h = boardPoint(ev);
    if ((ui.hover && hexKey(ui.hover)) === (h && hexKey(h))) return;
    ui.hover = h;
    if (!ui.pending) updatePreview();
  });
  s.addEventListener("pointerleave", () => { ui.hover = null; if (!ui.pending) updatePreview(); });
  // a click chooses; it never places, however often it comes (a double click, two taps)
  s.addEventListener("click", (ev) => {
    ui.pointing = false;
    if (!placing()) return;
    const h = boardPoint(ev);
    if (!h) return;
    if (ui.mode === "fief") choose(h); else weddingPick(h, false);
  });
  s.addEventListener("focus", () => {
    if (placing() && !ui.pointing && !ui.cursor) { startCursor(); if (ui.mode === "fief" && !ui.pending) { ui.hover = ui.cursor; updatePreview(); } }
    drawCursor();
  });
  s.addEventListener("blur", () => { ui.pointing = false; drawCursor(); });
  s.addEventListener("wheel", (ev) => { if (placing() && ui.mode === "fief") { ev.preventDefault(); rotateBy(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", (ev) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const onMap = ev.target === s;
    if (ev.key === "r" || ev.key === "R") { if (placing() && ui.mode === "fief") { ev.preventDefault(); rotateBy(ev.shiftKey ? -1 : 1); } return; }
    if (ev.key === "Escape") { cancelChoice(); return; }
    if (!onMap || !placing()) return;  // Enter on a button or a link is that button's, never a second move
    if (moves[ev.key]) { ev.preventDefault(); moveCursor(...moves[ev.key]); } else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); mapEnter(); }
  });
  const zoom = (step) => {
    const scroller = $("board-scroll");
    const cx = (scroller.scrollLeft + scroller.clientWidth / 2) / scroller.scrollWidth;
    const cy = (scroller.scrollTop + scroller.clientHeight / 2) / scroller.scrollHeight;
    ui.zoom = Math.max(1, Math.min(4, (ui.zoom || 1) + step));  // 1 to 4 times: the first step doubles
    $("board").style.setProperty("--zoom", ui.zoom);
    scroller.scrollLeft = cx * scroller.scrollWidth - scroller.clientWidth / 2;
    scroller.scrollTop = cy * scroller.scrollHeight - scroller.clientHeight / 2;
  };
  $("zoom-in").onclick = () => zoom(1);
  $("zoom-out").onclick = () => zoom(-1);
  new ResizeObserver(() => requestAnimationFrame(() => layoutNames())).observe(s);
  $("rot-left").onclick = () => rotateBy(-1);
  $("rot-right").onclick = () => rotateBy(1);
  $("confirm").onclick = () => { if (ui.pending) commitFief(); };
}

// ---------------------------------------------------------------------------------------------
// replay of a finished game: one step per reveal of a round's plans and per move on the map

async function fetchStep(step) {
  const r = await fetch(`/api/games/${ui.gameId}/replay/${step}`);
  const msg = await r.json();
  if (r.status === 404) { showGone(); return null; }
  if (!r.ok) { toast(msg.message); return null; }
  return msg;
}
// the steps worth stopping at, from the whole game's log: the start, each round's reveal (its
// plans are made in secret, so they appear together) and each placement, Wedding or donation
function replayStops(log, total) {
  const stops = [{ step: 0, text: t("The deal: every player has drawn a fief") }];
  let step = 0;
  for (const e of log) {
    if (e.kind === "reveal") { step += e.plans.length; stops.push({ step, text: t("Round {round}: {text}", { round: e.round, text: e.text }) }); }
    else if (e.kind === "turn") { step += 1; stops.push({ step, text: t("Round {round}: {text}", { round: e.round, text: e.text }) }); }
  }
  if (step !== total) return Array.from({ length: total + 1 }, (_, i) => ({ step: i, text: t("move {n}", { n: i }) }));
  return stops;
}
async function showStop(index) {
  const stops = ui.stops;
  index = Math.max(0, Math.min(stops.length - 1, index));
  const msg = await fetchStep(stops[index].step);
  if (!msg) return;
  ui.replay = msg.replay;
  ui.stop = index;
  render(msg);
  $("rp-slider").max = stops.length - 1;
  $("rp-slider").value = index;
  $("rp-step").textContent = t("Step {step} of {total}: {text}", { step: index, total: stops.length - 1, text: stops[index].text });
}
async function setupReplay() {
  $("replay-bar").hidden = false;
  const last = await fetchStep(1e9);  // the end, clamped by the server: the whole log
  if (!last) return;
  ui.stops = replayStops(last.log, last.replay.total);
  const go = (f) => () => showStop(f(ui.stop));
  $("rp-start").onclick = go(() => 0);
  $("rp-back").onclick = go((i) => i - 1);
  $("rp-next").onclick = go((i) => i + 1);
  $("rp-end").onclick = go(() => ui.stops.length - 1);
  $("rp-slider").oninput = (ev) => showStop(Number(ev.target.value));
  const playing = (on) => {
    $("rp-play").querySelector(".i-play").style.display = on ? "none" : "";
    $("rp-play").querySelector(".i-pause").style.display = on ? "" : "none";
    $("rp-play").setAttribute("aria-label", on ? t("Pause") : t("Play"));
    $("rp-play").title = on ? t("Pause") : t("Play");
  };
  $("rp-play").onclick = () => {
    if (ui.playing) { clearInterval(ui.playing); ui.playing = null; playing(false); return; }
    playing(true);
    ui.playing = setInterval(() => {
      if (ui.stop >= ui.stops.length - 1) { clearInterval(ui.playing); ui.playing = null; playing(false); } else showStop(ui.stop + 1);
    }, 900);
  };
  showStop(0);
}

// ---------------------------------------------------------------------------------------------
// start

async function main() {
  const m = location.pathname.match(/^\/game\/([\w-]+)/);
  if (!m) { location.replace("/"); return; }  // the lobby is the site's own page
  ui.gameId = m[1];
  $("game").hidden = false;
  [ui.board, ui.options] = await Promise.all([api("/api/gonzaga/board"), api("/api/gonzaga/options")]);
  setupBoardEvents();
  Table.start({ view: (v) => render(unpack(v)), presence: onPresence, rematch: onRematch, hint: onHint,
    replay: () => { drawBoard(null); setupReplay(); }, moveControl });
}
main();
