// Signorie's help in place (help.js): the die areas, assignments, helpers, career slots, reward
// tiles and city slots explained in a sentence, from the table the server sends.
"use strict";

(() => {
  const table = () => (typeof ui !== "undefined" ? ui.table : null);
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
})();
