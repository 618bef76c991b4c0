// The players: the status line, each player's card (rating, points, presence), the score track,
// the log, and the seat links the game's creator keeps.
import { $, el, linkLine, ratingWords, savedInvites, t } from "/static/tavola/common.js";
import { Table } from "/static/tavola/table.js";
import { lookStyle, lookTitle } from "./board.js";
import { fiefPicture } from "./hand.js";
import { cardName, fiefName, ui } from "./state.js";

export function onPresence(seats) {
  const v = ui.view;
  if (!v) return;
  seats.forEach((s, i) => { if (v.players[i]) Object.assign(v.players[i], s); });
  renderPlayers(v);
}

export function renderStatus(v) {
  const parts = [t("Round {round}", { round: v.round }), `${v.scenario.name}`];
  if (v.phase === "planning") parts.push(t("Planning"));
  else if (v.phase === "placing") parts.push(t("Placing: {name}", { name: v.players[v.current].name }));
  else parts.push(t("Game over"));
  parts.push(lastTurnText(v));
  if (v.you === null) parts.push(ui.replay ? t("Replay") : t("Watching"));
  $("status").textContent = parts.filter(Boolean).join(" · ");
}
function lastTurnText(v) {
  if (v.phase === "over") return t("ended after round {round}", { round: v.round });
  if (v.final_round !== null) return t("Last Turn: round {round} is the last", { round: v.final_round });
  if (v.last_turn_check !== null) return t("Last Turn card ({name}): check after round {round}", { name: v.players[v.last_turn_holder].name, round: v.last_turn_check });
  return "";
}

function botLevel(spec) {
  return (ui.options && ui.options.bot_levels || []).find((b) => b.id === spec) || { id: spec, name: spec, strength: "", help: "" };
}
// a bot's rating measured by tournaments, where one was measured at this player count
export function renderPlayers(v) {
  const rows = [];
  v.players.forEach((p, i) => {
    const state = v.phase === "planning" ? (p.has_planned ? t("planned") : t("planning…")) : v.phase === "placing" ? (v.current === i ? t("placing") : "") : "";
    const plan = p.plan ? p.plan.text : "";
    // presence is for live games: a replay has nobody online or away
    const strength = botLevel(p.bot).strength;
    const who = p.kind === "bot" ? (strength ? t("{strength} bot", { strength }) : t("bot")) + ratingWords(p) : ui.replay ? "" : (p.connected ? t("online") : t("away"));
    rows.push(el("tr", { class: (i === v.you ? "me " : "") + (v.current === i ? "turn" : ""), "data-seat": i },
      el("td", {}, el("span", { class: "swatch", style: lookStyle(p.colour), title: lookTitle(p.colour) }), p.name, who ? el("small", { class: "muted presence", text: t(" ({who})", { who }) }) : ""),
      el("td", { class: "score", text: String(p.score) }), el("td", { text: String(p.rings) }),
      el("td", { class: "fief-cell" }, p.fief !== null ? fiefPicture(p.fief, `url(#pl-${p.colour})`, 0, 44, 26) : "–"),
      el("td", { text: plan || state })));
    // the rest of the player's public board
    const leagues = p.leagues.map((s) => (ui.board.seas.find((x) => x.id === s) || { name: s }).name);
    const details = [t("fiefs left {n}", { n: p.fiefs_left })];
    if (p.fief !== null) details.push(t("fief this round: {fief}", { fief: fiefName(p.fief) }));
    if (p.resting.length) details.push(t("resting: {cards}", { cards: p.resting.map(cardName).join(", ") }));
    if (leagues.length) details.push(t("sea leagues: {seas}", { seas: leagues.join(", ") }));
    rows.push(el("tr", { class: "details" }, el("td", { colspan: 5, class: "muted", text: details.join(" · ") })));
  });
  $("players").replaceChildren(el("h3", { text: t("Players") }),
    el("table", {}, el("thead", {}, el("tr", {}, ...[t("Player"), t("Score"), t("Rings"), t("Fief"), t("Plan")].map((h) => el("th", { text: h })))), el("tbody", {}, ...rows)),
    el("div", { class: "muted", text: v.order.length ? t("Turn order: {order}", { order: v.order.map((i) => v.players[i].name).join(" → ") }) : "" }));
}

export function renderTrack(v) {
  const max = Math.max(50, ...v.players.map((p) => p.score));
  $("track").replaceChildren(...v.players.map((p) => el("div", { class: "track-row" },
    el("span", { class: "track-name", text: p.name, title: p.name }),
    el("span", { class: "track-bar", style: `width:${(55 * p.score / max).toFixed(1)}%;${lookStyle(p.colour)}` }),
    el("span", { text: String(p.score) }))));
}

export function renderLog(v) {
  const items = v.log.map((e) => {
    const li = el("li", { text: e.text });
    for (const ev of e.events) li.append(el("span", { class: "pts", text: ev.text }));
    return li;
  }).reverse();
  $("log").replaceChildren(...items);
}

// the creator of a game keeps its seat links on this device, to send them again
export function renderInvites(v) {
  const box = $("invites");
  const data = savedInvites(ui.gameId);
  if (!data || v.phase === "over" || ui.replay) { box.hidden = true; return; }
  const others = data.seats.filter((s) => !s.link.endsWith("#" + Table.state.token));
  if (!others.length) { box.hidden = true; return; }
  if (!box.hidden && box.dataset.game === ui.gameId) return;  // built once: keeps it open and its buttons' feedback
  box.hidden = false;
  box.dataset.game = ui.gameId;
  box.replaceChildren(el("details", {}, el("summary", { text: t("Invite links (you created this game)") }),
    el("p", { class: "muted", text: t("Send each player their own link, privately: whoever has a link plays that seat.") }),
    el("ul", { class: "links" }, ...others.map((s) => linkLine(`${s.name}:`, s.link)),
      linkLine(t("Spectators:"), data.spectator))));
}
