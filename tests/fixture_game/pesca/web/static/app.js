// Pesca's table: the seat's card, a button for each legal move, the log.
import { $, el, sentence, t } from "/static/tavola/common.js";
import { Table } from "/static/tavola/table.js";

function render(v) {
  const mine = v.you === null ? null : v.hands[v.you];
  $("card").textContent = mine === null ? t("{n} cards in the deck", { n: v.deck })
    : t("Your card: {card}", { card: mine });
  $("moves").replaceChildren(...(v.legal || []).map((m) =>
    el("button", { type: "button", onclick: () => Table.act(m.action) }, sentence(m.text))));
  $("log").replaceChildren(...v.log.map((entry) => el("li", { text: sentence(entry.text) })));
}

Table.start({ view: render });
