// The player's own card: their planning cards in hand, resting or played, their objective card
// and their fief's picture.
import { $, el, svg, t } from "/static/tavola/common.js";
import { lookStyle, lookTitle } from "./board.js";
import { corners, iconEl, pointsAttr, SVGNS } from "./hexes.js";
import { actionCards, cardName, fiefName, fiefOf, me, symbolName, ui } from "./state.js";

export function renderYou(v) {
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
export function fiefPicture(fief, colour, rotation = ui.rotation || 0, width = 120, height = 70) {
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
