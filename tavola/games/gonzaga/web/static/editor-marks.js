// What the map editor (editor.js) draws over the map and says of the findings: the barriers on
// their sides, the cursor, the hexes a finding is on, and where a finding is in the game's words.
import { svg } from "/static/tavola/common.js";
import { barrierSides, entryAt, list, placeAt } from "./editor-data.js";
import { centre, corners, pointsAttr } from "./hexes.js";

const HEX_MARK = /^hex:(-?\d+),(-?\d+)$/;
export const same = (a, b) => !!a && !!b && a.message === b.message && a.where === b.where;
export const areaName = (d, key, id) => { const x = list(d[key]).find((y) => y && y.id === id); return x ? String(x.name || id) : id; };

// the barriers, the cursor and the findings' hexes (the focused one's darker) into `layer`
export function drawMarksOn(layer, d, cursor, findings, focused) {
  for (const [[x1, y1], [x2, y2]] of barrierSides(d)) {  // a thick line, and ticks across it: not colour alone
    svg("line", { x1, y1, x2, y2, class: "ged-barrier" }, layer);
    svg("line", { x1, y1, x2, y2, class: "ged-barrier-ticks" }, layer);
  }
  svg("polygon", { points: pointsAttr(corners(...centre(...cursor), 0.96)), class: "ged-cursor", id: "ged-cursor" }, layer);
  const marked = new Map();
  for (const f of findings) for (const m of list(f && f.marks)) {
    const hex = HEX_MARK.exec(m);
    if (hex) marked.set(`${hex[1]},${hex[2]}`, marked.get(`${hex[1]},${hex[2]}`) || same(f, focused));
  }
  for (const [key, on] of marked) {
    const [x, y] = centre(...key.split(",").map(Number));
    svg("polygon", { points: pointsAttr(corners(x, y, 0.8)), class: "ged-finding" + (on ? " focused" : ""), "data-finding": key }, layer);
  }
}

// the part of the file a finding is on (its JSON Pointer's first two steps), or null
function partOf(d, finding) {
  const m = /^\/(\w+)\/(\d+)/.exec((finding && finding.where) || "");
  const item = m && list(d[m[1]])[Number(m[2])];
  return item && typeof item === "object" ? { key: m[1], item } : null;
}
// the hexes a finding is on: its marks, else the hex of its city or harbor, or its region's or
// sea's first
export function hexesOf(d, finding) {
  const marked = list(finding && finding.marks).map((m) => HEX_MARK.exec(m)).filter(Boolean).map((m) => [Number(m[1]), Number(m[2])]);
  const part = partOf(d, finding);
  if (marked.length || !part) return marked;
  if (Array.isArray(part.item.at) && part.item.at.length === 2) return [part.item.at];
  const rows = list(d.terrain);
  for (let r = 0; r < rows.length; r++) for (let c = 0; c < String(rows[r]).length; c++) {
    const e = entryAt(d, c, r);
    if ((part.key === "regions" && e.region === part.item.id) || (part.key === "seas" && e.sea === part.item.id && !e.region)) return [[c, r]];
  }
  return [];
}
const PARTS = { regions: "Region", seas: "Sea", symbols: "Symbol", cities: "City", harbors: "Harbor", fiefs: "Fief",
  scenarios: "Scenario tile", objectives: "Objective card", barriers: "Barrier" };
// where a finding is, as a player names it: the part (region Hispania, city Lisboa...) and up to
// three of its hexes with what stands there; `t` puts the words in the page's language
export function describe(d, finding, t) {
  const part = partOf(d, finding), words = [];
  if (part && PARTS[part.key]) {
    const it = part.item;
    words.push(`${t(PARTS[part.key])} ${String(it.name || it.number || it.range || it.id || "")}`.trim());
  }
  for (const [c, r] of hexesOf(d, finding).slice(0, 3)) {
    const e = entryAt(d, c, r), here = [placeAt(d, "cities", c, r), placeAt(d, "harbors", c, r)].filter(Boolean).map((p) => String(p.name || p.id));
    const area = e.region ? areaName(d, "regions", e.region) : e.sea ? areaName(d, "seas", e.sea) : "";
    const what = [...here, area].filter(Boolean).join(", ");
    words.push(`${t("Hex")} ${c},${r}` + (what ? `: ${what}` : ""));
  }
  return words.join(" · ");
}
