// Signorie's pictures on its rules page, drawn from the table (/api/signorie/table) and the rules'
// facts (/api/rules/signorie): a player board's helper columns, what each die costs, the
// threshold and the reward tiles. Every number comes from data, none is written here.
import { api, el, svg, t } from "/static/tavola/common.js";

let tablePromise = null;
const table = () => (tablePromise = tablePromise || api("/api/signorie/table"));
const MAX_PIPS = 6;  // the faces of a die

function put(fig, node) { fig.insertBefore(node, fig.querySelector("figcaption")); }

async function boardPicture(fig) {
  const tb = await table();
  const cols = tb.colours.map((c) => el("div", { class: "helper-column", "data-colour": c.id, style: `border-top: 6px solid ${c.look.fill}` },
    el("b", { text: c.name }),
    ...c.helpers.map((h) => el("div", { class: "helper", "data-helper": h.index, tabindex: 0, "data-help": h.text },
      el("span", { class: "helper-cost", text: t("{n} florins", { n: h.cost }) }), " ", el("span", { text: h.effect.text })))));
  put(fig, el("div", { class: "helper-columns", role: "img", "aria-label": t("The helper columns of a player board") }, ...cols));
}

async function costsPicture(fig) {
  const tb = await table();
  const values = Array.from({ length: MAX_PIPS }, (_, i) => i + 1);
  const head = el("tr", {}, el("th", { text: t("Colour (price)") }), ...values.map((v) => el("th", { text: String(v) })));
  const rows = tb.colours.map((c) => el("tr", { "data-colour": c.id },
    el("th", { scope: "row", text: t("{colour} ({price})", { colour: c.name, price: c.cost }) }),
    ...values.map((v) => el("td", { class: "cost-cell", style: `background:${c.look.fill}33`, text: String(Math.max(0, c.cost - v)) }))));
  put(fig, el("table", { class: "cost-table" }, el("caption", { text: t("Florins to pay, by the value the die shows") }), head, ...rows));
}

function thresholdPicture(fig, facts) {
  const top = facts.max_dice * MAX_PIPS;
  const w = 1.1;
  const s = svg("svg", { viewBox: `0 0 ${top * w + 1} 4`, role: "img", width: "100%",
    "aria-label": t("At most {threshold} in all: the reward; raised, up to {max}", { threshold: facts.threshold, max: facts.threshold_max }) });
  for (let sum = 1; sum <= top; sum++) {
    const kind = sum <= facts.threshold ? "reward" : sum <= facts.threshold_max ? "raise" : "none";
    const x = 0.5 + (sum - 1) * w;
    svg("rect", { x, y: 0.6, width: w * 0.9, height: 1.6, rx: 0.15, class: `sum ${kind}`,
      fill: { reward: "#3e9a5b", raise: "#e0b12f", none: "#ddd" }[kind] }, s);
    const n = svg("text", { x: x + w * 0.45, y: 1.75, "font-size": 0.7, "text-anchor": "middle" }, s);
    n.textContent = String(sum);
  }
  const note = svg("text", { x: 0.5, y: 3.4, "font-size": 0.6 }, s);
  note.textContent = t("Green: the reward at the start; yellow: once your threshold is raised");
  put(fig, s);
}

function rewardsPicture(fig, facts) {
  const tile = (text, kind) => el("li", { class: `reward-tile ${kind}`, text });
  put(fig, el("div", { class: "reward-tiles" },
    el("h4", { text: t("Bonus tiles (early rounds)") }), el("ul", {}, ...facts.bonus_tiles.map((x) => tile(x, "bonus"))),
    el("h4", { text: t("VP tiles (last rounds)") }), el("ul", {}, ...facts.vp_tiles.map((x) => tile(x, "vp")))));
}

export default { board: boardPicture, costs: costsPicture, threshold: thresholdPicture, rewards: rewardsPicture };
