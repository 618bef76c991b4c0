// Signorie's help in place (help.js): the die areas, assignments, helpers, career slots, reward
// tiles, city slots and the words of a player's board (supply, stock, threshold, plan rows,
// brides) explained in a sentence, from the table the server sends.
import { t } from "/static/tavola/common.js";
import { Help } from "/static/tavola/help.js";
import { ui } from "./app.js";

const table = () => ui.table;
const colour = (id) => table() && table().colours.find((c) => c.id === id);

Help.add("#dice .colour[data-colour] .colour-head", (node) => {
  const c = colour(node.closest("[data-colour]").dataset.colour);
  return c ? t("{colour} dice cost {price} florins minus the value shown; use one for the {signoria} Signoria action, an assignment or a helper of this colour.",
    { colour: c.name, price: c.cost, signoria: c.signoria.name }) : null;
});
Help.add("#dice .assignment[data-slot]", (node) => t("An assignment: send 1 or more meeples of this sex with a die of this colour; it gives {effect}.",
  { effect: node.getAttribute("title") || "" }));
Help.add(".helper[data-helper]", (node) => {
  const h = table() && table().colours.flatMap((c) => c.helpers).find((x) => String(x.index) === node.dataset.helper);
  return h ? t("Helper: {helper}. Once hired, it acts again each time you take a die of its column; hiring costs {cost} florins.",
    { helper: h.text, cost: h.cost }) : null;
});
Help.add("#tracks thead th", (node) => {
  const i = [...node.parentNode.children].indexOf(node) - 1;
  const slot = table() && table().career[i];
  return slot ? t("A career slot worth {vp} VP (rank {rank}); at the end a meeple still here scores half of it.", { vp: slot.vp, rank: slot.rank }) : null;
});
Help.add("#rewards .reward[data-round]", (node) => t("The reward tile of round {round}: at the round's end, players whose dice add up to no more than their threshold receive it.",
  { round: node.dataset.round }));
Help.add("#cities .slot", (node) => t("A city slot worth {value}: a daughter married here or a son on a mission takes it.",
  { value: node.querySelector(".value") ? node.querySelector(".value").textContent : "" }));
// the words of a player's board
const rules = () => (table() ? table().rules : {});
Help.add(".player .supply", () => t("Supply: the sons (♂) and daughters (♀) ready to act. Assignments, careers, missions and marriages send meeples from here."));
Help.add(".player .stock", () => t("Stock: family members not yet born. An Offspring roll brings them into the supply: a die showing 1 to {female} brings a daughter, {male} or more a son.",
  { female: rules().offspring_female_max, male: rules().offspring_female_max + 1 }));
Help.add(".player .threshold[data-threshold]", (node) => t("This round's dice add up to {sum}. At or under the threshold of {threshold} the round's reward is taken at its end; assignments raise the threshold, up to {max}.",
  { sum: node.dataset.sum, threshold: node.dataset.threshold, max: rules().threshold_max }));
Help.add(".player .plan-row[data-row]", (node) => t("A row of the secret plan ({row}): alliance tiles of the houses on its shields go here. At the end of the game a row with at least {min} tiles scores its tiles.",
  { row: node.querySelector(".row-name").textContent, min: rules().row_min }));
Help.add(".player .bride[data-vp]", (node) => t("A bride slot worth {vp} VP: a wedding puts a bride here and scores it. Each bride makes a married son, and some Offspring rolls and reward tiles count married sons.",
  { vp: node.dataset.vp }));
