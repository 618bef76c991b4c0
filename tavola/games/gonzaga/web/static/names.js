// The names on the board, laid out again whenever the board's scale on screen changes, so that
// they keep one readable size and never overlap: cities and harbors beside their discs, seas and
// regions on free hexes, seals and the church where they cover no land.
import { $ } from "/static/tavola/common.js";
import { centre, hexKey } from "./hexes.js";
import { ui } from "./state.js";

export const NAME_PX = 12;     // city, harbor, seal, church and sea names: CSS pixels at every zoom
export const MARKER_R = 0.5;   // the discs of cities and harbors, in hex radii: names keep off them

// -- laying out the names --------------------------------------------------------------------

export function box(x, y, w, h) { return { x, y, w, h }; }
export function overlap(a, b) {
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

export function layoutNames(force = false) {
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
