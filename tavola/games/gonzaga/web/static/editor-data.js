// The map editor's board file (editor.js): read as the table's board data for drawing, and
// changed one edit at a time. Every function takes whatever the file holds (an imported file
// may hold anything) and never throws on it.
import { centre, SQRT3 } from "./hexes.js";

// the largest grid drawn (the server's limit, boarddata.MAX_SIDE): a file past it draws no more
export const MAX_SIDE = 80;
const SPARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#*+=@$%&";
export const list = (v) => (Array.isArray(v) ? v : []);
export const isPair = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
export const sameHex = (a, b) => isPair(a) && isPair(b) && a[0] === b[0] && a[1] === b[1];
const isEdge = (e) => Array.isArray(e) && isPair(e[0]) && isPair(e[1]);
const text = (v, or = "") => (typeof v === "string" ? v : or);
// whatever an imported file holds, as an object the editor can change (not an object: empty)
export const fileOf = (data) => (data && typeof data === "object" && !Array.isArray(data) ? structuredClone(data) : {});
const named = (x) => x && typeof x === "object" && typeof x.id === "string";

// the file's data as the table's board data (wire.py's board_json), for drawBoard: what the
// server adds of its own (symbols' pictures, colours of the shipped regions and seas) from
// `looks`, the shipped board's data; whatever the file lacks is left out, never guessed
export function boardOf(d, looks) {
  const legend = d && typeof d.legend === "object" && d.legend ? d.legend : {};
  const hexes = [], scenery = [];
  list(d && d.terrain).slice(0, MAX_SIDE).forEach((line, r) => {
    if (typeof line !== "string") return;
    [...line.slice(0, MAX_SIDE)].forEach((ch, c) => {
      const e = legend[ch];
      if (!e || typeof e !== "object") return;
      const [x, y] = centre(c, r);
      if (e.region || e.sea) hexes.push({ at: [c, r], x, y, region: e.region || null, sea: e.region ? null : e.sea });
      else if (e.land) scenery.push([x, y]);
    });
  });
  const shipped = (key) => Object.fromEntries(list(looks[key]).map((x) => [x.id, x.colour]));
  const regionColour = shipped("regions"), seaColour = shipped("seas");
  const point = (p) => (p && Number.isFinite(p.x) && Number.isFinite(p.y) ? [p.x, p.y] : [0, 0]);
  const columns = Number.isInteger(d.columns) && d.columns > 0 ? d.columns : 1;
  const rows = Number.isInteger(d.rows) && d.rows > 0 ? d.rows : 1;
  return {
    name: text(d.name), columns, rows,
    width: SQRT3 * (columns + 0.5), height: 1.5 * (rows - 1) + 2,
    hexes, scenery, routes: [],
    regions: list(d.regions).filter(named).map((r) => ({ id: r.id, name: text(r.name, r.id), colour: regionColour[r.id] || text(r.colour, "#cccccc"), seal: point(r.seal) })),
    seas: list(d.seas).filter(named).map((s) => ({ id: s.id, name: text(s.name, s.id), symbol: text(s.symbol, "?"), colour: seaColour[s.id] || "#a8c8dd" })),
    symbols: list(d.symbols).filter(named).map((s) => ({ id: s.id, name: text(s.name, s.id), meaning: text(s.meaning) })),
    cities: list(d.cities).filter((c) => named(c) && isPair(c.at)).map((c) => ({ at: c.at, name: text(c.name, c.id), symbol: text(c.symbol, "?") })),
    harbors: list(d.harbors).filter((h) => named(h) && isPair(h.at)).map((h) => ({ at: h.at, name: text(h.name, h.id), sea: text(h.sea) })),
    barriers: list(d.barriers).flatMap((g) => list(g && g.edges)).filter(isEdge),
    church: point(d.church), fiefs: [], cards: {}, objectives: {},
    player_colours: {}, player_looks: looks.player_looks || {}, icons: looks.icons || {},
  };
}

// -- the grid ------------------------------------------------------------------------------------
// the legend's character for an entry (`test`), added (`make`) when the legend has none
function legendKey(d, test, make) {
  const legend = d.legend = d.legend && typeof d.legend === "object" ? d.legend : {};
  const found = Object.keys(legend).find((k) => legend[k] && test(legend[k]));
  if (found) return found;
  const key = [...SPARE].find((ch) => !(ch in legend)) || "?";
  legend[key] = make();
  return key;
}
export const offKey = (d) => legendKey(d, (e) => e.off && !e.land && !e.region && !e.sea, () => ({ off: true }));
export function entryAt(d, c, r) {
  const line = list(d.terrain)[r];
  const e = (d.legend || {})[typeof line === "string" ? line[c] : undefined];
  return e && typeof e === "object" ? e : {};
}
function setTerrain(d, c, r, key) {
  const lines = list(d.terrain), line = lines[r];
  if (typeof line !== "string" || c >= line.length || line[c] === key) return false;
  lines[r] = line.slice(0, c) + key + line.slice(c + 1);
  return true;
}
// a hex painted with a region (`land`), a sea or nothing (`off`); true if it changed
export function paint(d, c, r, tool, region, sea) {
  let key = null;
  if (tool === "land" && region) key = legendKey(d, (e) => e.region === region, () => ({ region }));
  else if (tool === "sea" && sea) key = legendKey(d, (e) => e.sea === sea && !e.region, () => ({ sea }));
  else if (tool === "off") key = offKey(d);
  return key ? setTerrain(d, c, r, key) : false;
}
// every hex off the board, and no city, harbor or barrier: a grid of the same size to trace on
export function emptied(d) {
  const off = offKey(d);
  d.terrain = list(d.terrain).map((line) => (typeof line === "string" ? off.repeat(line.length) : line));
  d.cities = []; d.harbors = [];
  d.barriers = list(d.barriers).map((g) => ({ ...g, edges: [] }));
}

// -- cities and harbors --------------------------------------------------------------------------
export const placesOf = (d, kind) => (d[kind] = list(d[kind]));
export function placeAt(d, kind, c, r) { return placesOf(d, kind).find((p) => p && sameHex(p.at, [c, r])); }
function newId(d, kind, name) {
  const base = String(name).toLowerCase().normalize("NFD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 30) || kind;
  const taken = new Set(placesOf(d, kind).map((p) => p && p.id));
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
  return id;
}
// a new city or harbor on a hex, in the hex's region (`given`: name, region, symbol or sea)
export function addPlace(d, kind, c, r, given) {
  const region = entryAt(d, c, r).region || given.region || "";
  const item = { id: newId(d, kind, given.name), name: given.name, region,
    ...(kind === "cities" ? { symbol: given.symbol || "" } : { sea: given.sea || "" }), at: [c, r] };
  placesOf(d, kind).push(item);
  return item;
}
// a city or harbor moved to another hex, in that hex's region; false if a city or harbor is
// there already (no two share a hex)
export function movePlace(d, item, c, r) {
  if (placeAt(d, "cities", c, r) || placeAt(d, "harbors", c, r)) return false;
  item.at = [c, r];
  item.region = entryAt(d, c, r).region || item.region;
  return true;
}
export function removePlace(d, kind, item) {
  const items = placesOf(d, kind), i = items.indexOf(item);
  if (i >= 0) items.splice(i, 1);
  return i >= 0;
}

// -- barriers, seals, the church -----------------------------------------------------------------
// a barrier on the side between hexes a and b: taken away if there is one, else added to the
// range named `range`
export function toggleBarrier(d, a, b, range) {
  if (!b) return false;
  const groups = d.barriers = list(d.barriers);
  for (const g of groups) {
    const edges = list(g && g.edges);
    const i = edges.findIndex((e) => isEdge(e) && ((sameHex(e[0], a) && sameHex(e[1], b)) || (sameHex(e[0], b) && sameHex(e[1], a))));
    if (i >= 0) { edges.splice(i, 1); return true; }
  }
  let group = groups.find((g) => g && g.range === range);
  if (!group) groups.push(group = { range, edges: [] });
  group.edges = list(group.edges);
  group.edges.push([[...a], [...b]]);
  return true;
}
// every barrier's side as a line between two corners, for the editor to draw it: the side the
// two hexes share, whatever they are (off the board too); edges of hexes not side by side: none
export function barrierSides(d) {
  return list(d.barriers).flatMap((g) => list(g && g.edges)).filter(isEdge).map(([a, b]) => {
    const [ax, ay] = centre(...a), [bx, by] = centre(...b);
    const dx = bx - ax, dy = by - ay, far = Math.hypot(dx, dy);
    if (Math.abs(far - SQRT3) > 0.01) return null;
    const mx = (ax + bx) / 2, my = (ay + by) / 2, ux = -dy / far / 2, uy = dx / far / 2;  // half a side across
    return [[mx + ux, my + uy], [mx - ux, my - uy]];
  }).filter(Boolean);
}
// a hex's centre as the file gives seals and the church (the board's pixel frame)
export function pointAt(c, r) {
  const [x, y] = centre(c, r);
  return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
}
// the grid made `columns` by `rows`: rows and columns added off the board, or cut away (with
// whatever stood there)
export function resized(d, columns, rows) {
  const off = offKey(d), lines = list(d.terrain).map((line) => (typeof line === "string" ? line : ""));
  d.terrain = Array.from({ length: rows }, (_, r) => (lines[r] || "").slice(0, columns).padEnd(columns, off));
  d.columns = columns; d.rows = rows;
  const inside = (p) => p && isPair(p.at) && p.at[0] < columns && p.at[1] < rows;
  d.cities = list(d.cities).filter(inside); d.harbors = list(d.harbors).filter(inside);
}
