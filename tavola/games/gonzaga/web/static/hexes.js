// Hex geometry of Gonzaga's board: pointy-top hexes of circumradius 1 in odd-r offset rows, the
// sides a set of hexes has, and the legend's symbols as SVG paths.
import { svg } from "/static/tavola/common.js";
import { symbolName, ui } from "./state.js";

export const SVGNS = "http://www.w3.org/2000/svg";
export const SQRT3 = Math.sqrt(3);
// symbols are SVG paths from the server (the shapes of the printed board's legend)
export function icon(parent, name, x, y, size, fill) {
  const d = ui.board.icons[name];
  if (!d) {
    const t = svg("text", { x, y, class: "glyph", fill }, parent);
    t.textContent = (name || "?")[0].toUpperCase();
    return t;
  }
  return svg("path", { d, fill, transform: `translate(${x} ${y}) scale(${size})` }, parent);
}
export function iconEl(name, px = 16, fill = "#3b2a1a") {
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("viewBox", "-1.1 -1.1 2.2 2.2");
  s.setAttribute("width", px); s.setAttribute("height", px);
  s.setAttribute("class", "icon");
  const title = svg("title", {}, s);
  title.textContent = symbolName(name);
  icon(s, name, 0, 0, 1, fill);
  return s;
}

// the board's pixel frame (circumradius 1), pointy-top, odd-r offset rows: where a hex is
// drawn. Which hexes touch, and which a fief covers however turned, the server says.
export function centre(c, r) { return [SQRT3 * (c + 0.5 * (r & 1)), 1.5 * r]; }
export function corners(x, y, k = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (30 + 60 * i);
    pts.push([x + k * Math.cos(a), y + k * Math.sin(a)]);
  }
  return pts;
}
export function pointsAttr(pts) { return pts.map((p) => p[0].toFixed(3) + "," + p[1].toFixed(3)).join(" "); }
export function hexKey(h) { return h[0] + "," + h[1]; }
// the sides of a set of hexes, each with the hexes it borders: a side two hexes share is
// found by its corners, so no neighbour arithmetic is needed
export function sides(hexes) {
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
