// Planning: the secret choice of a region card and an action card for the round.
import { el, t } from "/static/tavola/common.js";
import { undoEl } from "./panel.js";
import { act, actionCards, cardName, me, ui } from "./state.js";

// `redraw` draws the whole panel again, after each choice of a card
export function renderPlanning(box, v, legal, redraw) {
  const sel = ui.plan;
  if (sel.region && !legal.regions.includes(sel.region)) sel.region = null;
  if (sel.action && !legal.actions.includes(sel.action)) sel.action = null;
  if (!legal.privilege) sel.privilege = false;
  const actions = actionCards();
  const regionButtons = legal.region_cards.map((card) => {
    const resting = !legal.regions.includes(card);
    const best = legal.best[card] || {};
    // a resting card cannot be played: it gets no hint, only why it is out
    const hint = actions.map((a) => `${cardName(a)} ${best[a] === null || best[a] === undefined ? "–" : best[a]}`).join(" · ");
    return el("button", { type: "button", class: "plancard" + (sel.region === card ? " on" : "") + (resting ? " resting" : ""),
      disabled: resting, "data-card": card, "aria-pressed": sel.region === card ? "true" : "false", onclick: () => { sel.region = card; redraw(); } },
    cardName(card), el("small", { text: resting ? t("resting this round") : hint }));
  });
  const actionButtons = actions.map((card) => {
    const resting = !legal.actions.includes(card);
    return el("button", { type: "button", class: "plancard" + (sel.action === card ? " on" : "") + (resting ? " resting" : ""),
      disabled: resting, "data-card": card, "aria-pressed": sel.action === card ? "true" : "false", onclick: () => { sel.action = card; redraw(); } },
    cardName(card), el("small", { text: resting ? t("resting this round") : ui.board.cards[card].help }));
  });
  const me_ = me(v);
  const kpWhy = me_.resting.includes("privilege") ? t("resting this round") : t("no ring left");
  const kp = el("button", { type: "button", class: "plancard" + (sel.privilege ? " on" : "") + (legal.privilege ? "" : " resting"), disabled: !legal.privilege, id: "privilege", "data-card": "privilege",
    "aria-pressed": sel.privilege ? "true" : "false", onclick: () => { sel.privilege = !sel.privilege; redraw(); } },
  cardName("privilege"), el("small", { text: legal.privilege ? ui.board.cards.privilege.help : kpWhy }));
  const go = el("button", { type: "button", class: "primary", id: "plan-go", disabled: !(sel.region && sel.action),
    onclick: () => { act({ type: "plan", region: sel.region, action: sel.action, privilege: sel.privilege }); ui.plan = { region: null, action: null, privilege: false }; } }, t("Plan"));
  box.replaceChildren(el("h3", { text: t("Plan your move (round {round})", { round: v.round }) }),
    el("div", { class: "muted", text: t("Region card: where your fief goes. Each shows the most points your fief could score there now, under each action card.") }),
    el("div", { class: "cards", id: "region-cards" }, ...regionButtons),
    el("div", { class: "muted", text: t("Action card: what your fief may cover, and your place in the turn order.") }), el("div", { class: "cards", id: "action-cards" }, ...actionButtons, kp),
    el("div", { class: "row" }, go, el("span", { class: "muted", text: t("Your choice stays secret until everyone has planned.") })), undoEl(v));
}
