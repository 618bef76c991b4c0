// The printed parts of Signorie's table, drawn from a table (/api/signorie/table, or the table an
// edition draws): the table page, the rules page's pictures and the component editor draw them
// with these same functions. Every name, value and sentence comes from the table; none is here.
import { el, t } from "/static/tavola/common.js";

const MAX_PIPS = 6;  // the faces of a die

export function colourOf(tb, id) { return tb.colours.find((c) => c.id === id); }

// a die of a colour entry of the table, showing `value`
export function dieFace(c, value, attrs = {}, tag = "span") {
  return el(tag, { class: "die", style: `--die:${c.look.fill};--pip:${c.look.ink}`, ...attrs }, el("b", { text: String(value) }));
}

// an alliance tile ({house, vp, text}) in its house's colour, or an empty place
export function tileChip(tb, tile, extra = "") {
  if (!tile) return el("span", { class: "tile empty", text: "—" });
  const house = tb.houses.find((h) => h.name === tile.house);
  return el("span", { class: "tile " + extra, style: `--house:${house ? house.colour : "#777"}`, title: tile.text },
    el("span", { class: "house", text: tile.house }), el("b", { text: String(tile.vp) }));
}

// an empty shield of a plan row: the house it asks for
export function shield(tb, name) {
  const house = tb.houses.find((x) => x.name === name);
  return el("span", { class: "shield", style: `--house:${house ? house.colour : "#777"}`, title: t("empty shield: {house}", { house: name }), text: name.slice(0, 3) });
}

// the head of the career tracks: each slot's VP, rank and bonus
export function careerHead(tb) {
  return el("tr", {}, el("th", { text: "" }), ...tb.career.map((s) => el("th", { title: s.bonus ? t("bonus: {effect}", { effect: s.bonus.text }) : "" },
    el("span", { class: "vp", text: t("{n} VP", { n: s.vp }) }), el("span", { class: "rank", text: t("rank {n}", { n: s.rank }) }), s.bonus ? el("span", { class: "bonus", text: s.bonus.text }) : "")));
}

// the career tracks; `cell(track index, slot)` fills a slot (the table page: its meeples)
export function careerTable(tb, cell = () => []) {
  const rows = tb.tracks.map((tr, ti) => el("tr", { "data-track": tr.id }, el("th", { text: tr.name }),
    ...tb.career.map((s) => el("td", {}, ...cell(ti, s)))));
  return el("div", { class: "scroll" }, el("table", { class: "track" }, el("thead", {}, careerHead(tb)), el("tbody", {}, ...rows)));
}

// the Initiative track; `here(slot)` fills a slot (the table page: its discs)
export function initiativeTrack(tb, here = () => []) {
  return el("ol", { class: "initiative" }, ...tb.initiative.map((vp, i) =>
    el("li", { class: "init", "data-slot": i }, el("span", { class: "vp", text: t("{n} VP", { n: vp }) }), ...here(i))));
}

// a city's slots where they are printed; `slot(k)` gives slot k's class suffix, title and content
export function citySlots(values, places, slot = () => ({ extra: "", content: [] })) {
  return el("ol", { class: "slots" }, ...values.map((value, k) => {
    const s = slot(k);
    return el("li", { class: "slot" + s.extra, title: t("slot value {n}", { n: value }),
      style: `grid-row:${places[k].row + 1};grid-column:${places[k].column + 1}` },
    el("span", { class: "value", text: String(value) }), ...s.content);
  }));
}

// the bride slots of a board: their VP, the first `married` taken
export function brideChips(tb, married = 0) {
  return tb.brides.map((vp, i) => el("span", { class: "bride" + (i < married ? " married" : ""), "data-vp": vp, title: t("{n} VP", { n: vp }) }, String(vp)));
}

// the helper columns of a player board: each helper's hire cost and effect
export function helperColumns(tb) {
  const cols = tb.colours.map((c) => el("div", { class: "helper-column", "data-colour": c.id, style: `border-top: 6px solid ${c.look.fill}` },
    el("b", { text: c.name }),
    ...c.helpers.map((h) => el("div", { class: "helper", "data-helper": h.index, tabindex: 0, "data-help": h.text },
      el("span", { class: "helper-cost", text: t("{n} florins", { n: h.cost }) }), " ", el("span", { text: h.effect.text })))));
  return el("div", { class: "helper-columns", role: "img", "aria-label": t("The helper columns of a player board") }, ...cols);
}

// what a die of each value costs in each colour's slot
export function costTable(tb) {
  const values = Array.from({ length: MAX_PIPS }, (_, i) => i + 1);
  const head = el("tr", {}, el("th", { text: t("Colour (price)") }), ...values.map((v) => el("th", { text: String(v) })));
  const rows = tb.colours.map((c) => el("tr", { "data-colour": c.id },
    el("th", { scope: "row", text: t("{colour} ({price})", { colour: c.name, price: c.cost }) }),
    ...values.map((v) => el("td", { class: "cost-cell", style: `background:${c.look.fill}33`, text: String(Math.max(0, c.cost - v)) }))));
  return el("table", { class: "cost-table" }, el("caption", { text: t("Florins to pay, by the value the die shows") }), head, ...rows);
}

// the action slots of a player board: colour, cost, Signoria action, the helpers it hires
export function actionSlots(tb) {
  return el("div", { class: "action-slot-list" }, ...tb.colours.map((c) => el("div", { class: "colour", style: `--die:${c.look.fill}`, "data-colour": c.id },
    el("div", { class: "colour-head" }, el("b", { text: c.name }), el("span", { class: "cost", text: t("cost {n}", { n: c.cost }) })),
    el("div", { class: "signoria", title: c.signoria.text }, el("span", { class: "muted", text: t("Signoria:") + " " }), el("b", { text: c.signoria.name }),
      el("span", { class: "muted", text: ` (${c.signoria.text})` })),
    el("div", { class: "ring muted", text: t("hires into the {colour} helpers", { colour: colourOf(tb, c.ring).name }) }))));
}

// the assignment areas: each colour's slots and the tiles that may lie on them
export function assignmentTiles(tb) {
  const slots = tb.assignment_slots.map((s) => el("li", { class: "assignment-slot", style: `--die:${colourOf(tb, s.colour).look.fill}` },
    el("b", { text: colourOf(tb, s.colour).name }), " ", el("span", { text: s.sex === "female" ? "♀" : "♂" })));
  const tiles = tb.assignment_tiles.map((a) => el("li", { class: "assignment", title: a.effect.text },
    el("b", { text: a.name }), el("span", { class: "muted", text: " " + (a.most > 1 ? t("{effect} (1 to {most} meeples, each)", { effect: a.effect.text, most: a.most }) : a.effect.text) })));
  return el("div", { class: "assignment-areas" }, el("ul", { class: "assignment-slots" }, ...slots), el("ul", { class: "assignment-tiles" }, ...tiles));
}

// the reward tiles: bonus tiles of the early rounds, VP tiles of the last
export function rewardTiles(tb) {
  const tile = (e, kind) => el("li", { class: `reward-tile ${kind}`, text: e.text });
  return el("div", { class: "reward-tiles" },
    el("h4", { text: t("Bonus tiles (early rounds)") }), el("ul", {}, ...tb.bonus_tiles.map((x) => tile(x, "bonus"))),
    el("h4", { text: t("VP tiles (last rounds)") }), el("ul", {}, ...tb.vp_tiles.map((x) => tile(x, "vp"))));
}

// the plan rows of the board of `colour`: the shields each row asks for
export function planRows(tb, colour) {
  const board = tb.boards[colour] || [];
  return el("div", { class: "plan" }, ...board.map((row, ri) => el("div", { class: "plan-row", "data-row": tb.rows[ri].id },
    el("span", { class: "row-name", text: tb.rows[ri].name }), ...row.map((hi) => shield(tb, tb.houses[hi].name)))));
}

// the houses and their alliance tiles
export function houseTiles(tb) {
  return el("div", { class: "house-tiles" }, ...tb.houses.map((h) => el("div", { class: "house-row" },
    ...tb.alliance_tiles.filter((x) => x.house === h.name).map((x) => tileChip(tb, x)))));
}
