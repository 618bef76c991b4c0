// Signorie's pictures on its rules page, drawn from the table (/api/signorie/table) and the rules'
// facts (/api/rules/signorie): a player board's helper columns, what each die costs, the
// threshold and the reward tiles. Every number comes from data, none is written here.
import { api, el, svg, t } from "/static/tavola/common.js";
import { costTable, helperColumns } from "./table-parts.js";

let tablePromise = null;
const table = () => (tablePromise = tablePromise || api("/api/signorie/table"));
const MAX_PIPS = 6;  // the faces of a die

function put(fig, node) { fig.insertBefore(node, fig.querySelector("figcaption")); }

async function boardPicture(fig) { put(fig, helperColumns(await table())); }

async function costsPicture(fig) { put(fig, costTable(await table())); }

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
