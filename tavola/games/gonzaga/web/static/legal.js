// The legal moves of a view as the page works with them: the server sends them as parallel
// arrays (compact); here they become rows, found by where a fief's anchor is and how it is
// turned, or by a Wedding's two rings, with the words of what each scores.
import { hexKey } from "./hexes.js";
import { fiefOf, ui } from "./state.js";

// a legal move by where its anchor is and how it is turned: every way the server lists for it
export function legalKey(anchor, rotation) { return hexKey(anchor) + "/" + rotation; }

// legal placements arrive as parallel arrays (compact); the page works with rows, in a copy:
// the view as received stays as the server sent it, for the next change to apply to. A row is
// [column, row, rotation, points, hexes covered, castles' hexes, scoring words], all the
// server's: the page previews a move without asking and without hex arithmetic
export function unpack(v) {
  const p = v.legal && v.legal.placements;
  if (!p || Array.isArray(p)) return v;
  const at = (i) => ui.board.hexes[i].at, n = p.hexes.length / (p.rotations.length || 1);
  const castles = fiefOf(v.legal.fief).castle_cells;
  const placements = p.rotations.map((rot, i) => {
    const hexes = p.hexes.slice(i * n, (i + 1) * n);
    return [...at(hexes[0]), rot, p.points[i], hexes.map(at), castles.map((j) => at(hexes[j])), scoreWords(v.legal, hexes, p.leagues, i)];
  });
  // Weddings arrive as hex indices two by two (-1: no second ring); the page works with pairs
  // of [column, row], and a Wedding's points and leagues by its rings in either order (the
  // page lets either go first)
  const flat = v.legal.weddings, pairs = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([at(flat[i]), flat[i + 1] >= 0 ? at(flat[i + 1]) : null]);
  const w = v.legal.wedding_scores, weddings = new Map();
  pairs.forEach(([a, b], i) => {
    const score = { points: w.points[i], leagues: scoreWords(v.legal, [], w.leagues, i) };
    weddings.set(weddingKey(a, b), score);
    if (b) weddings.set(weddingKey(b, a), score);
  });
  return { ...v, legal: { ...v.legal, placements, weddings: pairs, weddingScores: weddings } };
}
// a move's scoring words: its cities and harbors in the order of its hexes, then its leagues
export function scoreWords(legal, hexes, leagues, i) {
  return [...hexes.map((h) => legal.places[h]).filter(Boolean), ...leagues.filter((l) => l[0] === i).map((l) => l[1])];
}
export function weddingKey(a, b) { return hexKey(a) + "|" + (b ? hexKey(b) : ""); }
export function hexIndex(at) {
  if (!ui.hexIndex) ui.hexIndex = new Map(ui.board.hexes.map((h, i) => [hexKey(h.at), i]));
  return ui.hexIndex.get(hexKey(at));
}
