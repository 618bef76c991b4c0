// Signorie in the browser. Native modules, no build step: the server sends the table's printed facts
// once (/api/signorie/table) and a view of the game after every change; this file draws them and
// sends the player's choices. Every name, value, cost and sentence comes from the server; the
// connection, replay and links are the platform's (/static/tavola/table.js).
import { $, el, linkLine, placeToast, ratingWords, savedInvites, sentence, svg, t, toast } from "/static/tavola/common.js";
import { Hint } from "/static/tavola/hint.js";
import { Table } from "/static/tavola/table.js";
import * as parts from "./table-parts.js";

export const ui = { table: null, view: null, pick: null, choice: null, pending: null, checks: new Map() };

// -- looks: each player's colour with a second cue (a letter in a shape) ------------------------

const SHAPES = {
  circle: (g) => svg("circle", { cx: 10, cy: 10, r: 8.5 }, g),
  square: (g) => svg("rect", { x: 2, y: 2, width: 16, height: 16, rx: 2 }, g),
  triangle: (g) => svg("path", { d: "M10 1.5L19 18H1z" }, g),
  diamond: (g) => svg("path", { d: "M10 1L19 10L10 19L1 10z" }, g),
};
function look(colour) { return ui.table.looks[colour] || { fill: "#999", ink: "#fff", letter: "?", shape: "circle", name: colour }; }
function playerLook(seat) { return look(ui.view.players[seat].colour); }
// a meeple, disc or marker of a seat: its colour, its shape and its letter
function mark(seat, extra = "", size = 20) {
  const p = ui.view.players[seat];
  const l = look(p.colour);
  const s = svg("svg", { viewBox: "0 0 20 20", width: size, height: size, class: "mark", role: "img",
    "aria-label": extra ? t("{name} ({colour}), {what}", { name: p.name, colour: l.name, what: extra }) : t("{name} ({colour})", { name: p.name, colour: l.name }) });
  const title = svg("title", {}, s);
  title.textContent = s.getAttribute("aria-label");
  const g = svg("g", { fill: l.fill, stroke: "#2b1d10", "stroke-width": 1.2 }, s);
  SHAPES[l.shape](g);
  const txt = svg("text", { x: 10, y: l.shape === "triangle" ? 15.5 : 14, "text-anchor": "middle", "font-size": 10,
    "font-weight": "bold", fill: l.ink }, s);
  txt.textContent = l.letter;
  return s;
}
function sexSign(sex) { return sex === "female" ? "♀" : "♂"; }
function colourOf(id) { return parts.colourOf(ui.table, id); }
function dieFace(colour, value, attrs = {}, tag = "span") { return parts.dieFace(colourOf(colour), value, attrs, tag); }
function tileChip(tile, extra = "") { return parts.tileChip(ui.table, tile, extra); }
// a count with its noun: t("{n} florin") for one, t("{n} florins") for any other number
function florins(n) { return n === 1 ? t("{n} florin", { n }) : t("{n} florins", { n }); }
function nameOf(seat) { return ui.view.players[seat].name; }
function me(v) { return v.you === null || v.you === undefined ? null : v.players[v.you]; }

// -- rendering a view ------------------------------------------------------------------------

function render(v) {
  const newView = !ui.view || ui.view.seq !== v.seq;
  if (newView && ui.view && !Table.replaying) toastOthers(ui.view, v);
  ui.view = v;
  if (newView) { ui.pick = null; ui.choice = null; ui.checks.clear(); ui.sending = false; sendPending(v); if (!ui.sending) activateAlways(v); }
  document.body.dataset.sending = ui.sending ? "1" : "";
  renderStatus(v);
  renderRewards(v);
  renderOrder(v);
  renderDice(v);
  renderCities(v);
  renderTracks(v);
  renderPlayers(v);
  renderRewardStep(v);
  renderSummary(v);
  renderEnd(v);
  renderInvites(v);
  renderLog(v);
  renderActions(v);
  placeToast();  // the question may have moved under a message still shown
}
// what the others just did, as a pop-up when the log is out of sight (a phone, a long page)
function logInSight() {
  const r = $("log").getBoundingClientRect();
  return r.height > 0 && r.top < innerHeight && r.bottom > 0;
}
function toastOthers(old, v) {
  if (v.log.length <= old.log.length || v.phase === "over" || logInSight()) return;
  const news = v.log.slice(old.log.length).filter((e) => e.seat === null || e.seat !== v.you);
  if (!news.length) return;
  const lines = news.slice(-3).map((e) => e.text);
  toast((news.length > 3 ? "…\n" : "") + lines.join("\n"), "info");
}
function renderStatus(v) {
  const fields = { round: v.round, rounds: v.rounds, phase: v.phase_name, name: v.mover === null ? "" : nameOf(v.mover) };
  $("status").textContent = v.phase === "over" || v.mover === null ? t("Round {round} of {rounds} · {phase}", fields)
    : v.mover === v.you ? t("Round {round} of {rounds} · {phase} · your move", fields)
      : t("Round {round} of {rounds} · {phase} · {name}'s move", fields);
}
function renderRewards(v) {
  $("rewards").replaceChildren(...v.rewards.map((r) => el("li", {
    class: `reward ${r.kind}${r.current ? " current" : ""}${r.done ? " done" : ""}`, "data-round": r.round },
  el("span", { class: "round", text: t("Round {round}", { round: r.round }) }), el("span", { text: r.text }))));
}
function renderOrder(v) {
  const chip = (seat) => el("li", { class: "chip" + (v.mover === seat ? " moving" : ""), "data-seat": seat },
    mark(seat), el("span", { text: nameOf(seat) }));
  const playing = v.order.filter((s) => !v.players[s].passed);
  const passed = v.order.filter((s) => v.players[s].passed);
  $("order").replaceChildren(...playing.map(chip));
  $("order").after($("passed") || el("div", { id: "passed" }));
  $("passed").replaceChildren(el("span", { class: "muted", text: passed.length ? t("Passed:") + " " : "" }),
    ...passed.map((s) => el("span", { class: "chip passed" }, mark(s, t("passed")), el("span", { text: nameOf(s) }))));
}
function legalDice(v) { return v.legal && v.legal.kind === "turn" ? v.legal.dice : []; }
function renderDice(v) {
  const dice = legalDice(v);
  const cols = ui.table.colours.map((c, ci) => {
    const d = v.dice[ci];
    const faces = [...new Set(d.values)].flatMap((value) => {
      const n = d.values.filter((x) => x === value).length;
      const opt = dice.findIndex((x) => x.colour === c.id && x.value === value);
      const info = dice[opt];
      const attrs = { "data-die": `${c.id}-${value}`, title: t("{colour} {value}: pay {florins}", { colour: c.name, value, florins: florins(Math.max(0, c.cost - value)) }) };
      if (info) {
        Object.assign(attrs, { type: "button", class: "die pick" + (ui.pick === opt ? " on" : ""), disabled: !info.ok,
          title: info.ok ? attrs.title : `${attrs.title}. ${sentence(info.why)}`, onclick: () => pickDie(opt) });
      }
      return Array.from({ length: n }, () => dieFace(c.id, value, attrs, info ? "button" : "span"));
    });
    const placed = d.placed.map(([seat, value]) => el("span", { class: "placed" }, mark(seat, t("took {colour} {value}", { colour: c.name, value }), 16), dieFace(c.id, value)));
    const slots = v.assignments.filter((a) => a.colour === c.id).map((a) => el("div", { class: "assignment", "data-slot": a.slot, title: a.effect.text },
      el("span", { class: "sex", "aria-label": a.sex, text: sexSign(a.sex) }), el("b", { text: a.name }),
      el("span", { class: "muted", text: " " + (a.most > 1 ? t("{effect} (1 to {most} meeples, each)", { effect: a.effect.text, most: a.most }) : a.effect.text) })));
    return el("div", { class: "colour", style: `--die:${c.look.fill}`, "data-colour": c.id },
      el("div", { class: "colour-head" }, el("b", { text: c.name }), el("span", { class: "cost", text: t("cost {n}", { n: c.cost }) })),
      el("div", { class: "signoria", title: c.signoria.text }, el("span", { class: "muted", text: t("Signoria:") + " " }), el("b", { text: c.signoria.name }),
        el("span", { class: "muted", text: ` (${c.signoria.text})` })),
      el("div", { class: "faces" }, ...(faces.length ? faces : [el("span", { class: "muted", text: t("no dice left") })])),
      el("div", { class: "assignments" }, ...slots),
      el("div", { class: "placed-row" }, ...placed),
      el("div", { class: "ring muted", text: t("hires into the {colour} helpers", { colour: colourOf(c.ring).name }) }));
  });
  $("dice").replaceChildren(...cols);
}
function renderCities(v) {
  $("cities").replaceChildren(...v.cities.map((city) => el("div", { class: "city", "data-city": city.name },
    el("h4", { text: city.name }),
    parts.citySlots(city.slots.map((s) => s.value), city.slots, (k) => {
      const m = city.slots[k].meeple;
      return { extra: m ? " filled" : "", content: m ? [mark(m[0], m[1] === 1 ? t("female meeple") : t("male meeple"), 18),
        el("span", { class: "sex", text: sexSign(m[1] === 1 ? "female" : "male") })] : [] };
    }),
    el("div", { class: "city-tiles" },  // a label and its tile wrap together, never apart
      el("span", { class: "city-tile" }, el("span", { class: "muted", text: t("Marriage") }), tileChip(city.marriage)),
      el("span", { class: "city-tile" }, el("span", { class: "muted", text: t("Mission") }), tileChip(city.mission))))));
}
function renderTracks(v) {
  const tb = ui.table;
  const meeples = (ti, s) => v.players.flatMap((p) => {
    const n = p.career[ti][s.slot];
    const tr = tb.tracks[ti];
    return n ? [el("span", { class: "count" }, mark(p.seat, n === 1 ? t("{n} meeple on the {track} track, slot {slot}", { n, track: tr.name, slot: s.slot + 1 })
      : t("{n} meeples on the {track} track, slot {slot}", { n, track: tr.name, slot: s.slot + 1 }), 16), n > 1 ? `×${n}` : "")] : [];
  });
  $("tracks").replaceChildren(parts.careerTable(tb, meeples));
  const discs = (i) => v.players.filter((p) => p.initiative === i).sort((a, b) => b.initiative_stack - a.initiative_stack)
    .map((p) => mark(p.seat, t("initiative slot {n}", { n: i }), 16));
  $("initiative").replaceChildren(parts.initiativeTrack(tb, discs));
}
function renderPlayers(v) {
  $("players").replaceChildren(...v.players.map((p) => playerBoard(v, p)));
}
// a bot's rating measured by tournaments, where one was measured at this player count
function playerBoard(v, p) {
  const tb = ui.table;
  const l = look(p.colour);
  // presence is for live games: a replay has nobody online or away
  const who = p.kind === "bot" ? t("bot") + ratingWords(p) : Table.replaying ? "" : p.connected ? t("online") : p.claimed ? t("away") : t("seat free");
  const head = el("h3", { class: "pb-head" }, mark(p.seat, "", 22), el("span", { class: "name", text: p.seat === v.you ? t("{name} (you)", { name: p.name }) : p.name }),
    el("small", { class: "muted", text: who ? ` ${l.name} · ${who}` : ` ${l.name}` }),
    el("span", { class: "vp-total", "data-vp": p.vp, text: t("{n} VP", { n: p.vp }) }));
  const facts = el("div", { class: "facts" },
    el("span", { class: "florins", "data-florins": p.florins, text: florins(p.florins) }),
    el("span", { text: p.passed ? t("{n}. in turn order, passed", { n: p.place }) : t("{n}. in turn order", { n: p.place }) }),
    el("span", { class: "supply", text: t("supply {male} {female}", { male: sexSign("male") + p.supply.male, female: sexSign("female") + p.supply.female }) }),
    el("span", { class: "stock muted", text: t("stock {male} {female}", { male: sexSign("male") + p.stock.male, female: sexSign("female") + p.stock.female }) }),
    el("span", { class: "threshold" + (p.dice_sum > p.threshold ? " over" : ""), "data-sum": p.dice_sum, "data-threshold": p.threshold,
      text: t("dice {sum} / threshold {threshold}", { sum: p.dice_sum, threshold: p.threshold }) }));
  const slots = el("div", { class: "action-slots" }, ...tb.colours.map((c, ci) => el("span", { class: "aslot", style: `--die:${c.look.fill}`, title: t("{colour} action slot", { colour: c.name }) },
    p.taken[ci] ? dieFace(c.id, p.taken[ci]) : el("span", { class: "die empty", text: c.name.slice(0, 2), title: c.name }))));
  const helpers = el("div", { class: "helpers" }, ...tb.colours.map((c) => el("div", { class: "hcol", style: `--die:${c.look.fill}` },
    ...c.helpers.map((h) => el("span", { class: "helper" + (p.helpers[h.index] ? " hired" : ""), title: h.text, "data-helper": h.index },
      el("b", { title: t("hire cost: {florins}", { florins: florins(h.cost) }), text: `${h.cost}` }), el("span", { text: h.effect.text }))))));
  const helpersNote = el("p", { class: "helpers-note muted", text: t("Helpers: the number is the hire cost in florins; a hired helper acts each time you use a die of its column's colour.") });
  const board = tb.boards[p.colour] || [];
  const rows = p.rows.map((r, ri) => {
    const houses = (board[ri] || []).map((hi) => tb.houses[hi].name);
    const left = [...r.tiles];
    const shields = houses.map((h) => {
      const k = left.findIndex((x) => x && x.house === h);
      if (k >= 0) { const tile = left[k]; left[k] = null; return tileChip(tile); }
      return parts.shield(tb, h);
    });
    const scoring = r.count >= tb.rules.row_min;
    return el("div", { class: "plan-row" + (scoring ? " scoring" : ""), "data-row": r.row,
      title: scoring ? t("{n} tiles: this row scores its tiles at the end of the game", { n: r.count })
        : t("{n} of {min} tiles: a row scores at the end of the game once it holds {min}", { n: r.count, min: tb.rules.row_min }) },
      el("span", { class: "row-name", text: tb.rows[ri].name }), ...shields,
      r.down ? el("span", { class: "down", title: t("face-down alliance tiles"), text: t("+{n} face down", { n: r.down }) }) : "");
  });
  const brides = el("div", { class: "brides" }, el("span", { class: "muted", text: t("Brides") + " " }),
    ...parts.brideChips(tb, p.brides));
  return el("section", { class: "card player" + (p.seat === v.you ? " mine" : "") + (v.mover === p.seat ? " moving" : ""),
    "data-seat": p.seat, style: `--seat:${l.fill}` }, head, facts, slots, helpersNote, helpers, el("div", { class: "plan" }, ...rows), brides);
}
function renderRewardStep(v) {
  const box = $("reward-step");
  const r = v.reward_step;
  if (!r || v.phase === "over") { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(el("h3", { text: t("Rewards of round {round}: {reward}", { round: r.round, reward: r.reward }) }),
    el("ul", {}, ...r.lines.map((line) => el("li", { text: line }))),
    r.waiting.length ? el("p", { class: "muted", text: t("Still to take the reward: {names}", { names: r.waiting.map(nameOf).join(", ") }) }) : "");
}
// the end of a round in one table, shown until its reader dismisses it (remembered per game)
const SUMMARY = "signorie-summary:";
function summaryDismissed(round) {
  try { return localStorage.getItem(SUMMARY + Table.state.gameId) === String(round); } catch (e) { return false; }
}
function dismissSummary(round) {
  try { localStorage.setItem(SUMMARY + Table.state.gameId, String(round)); } catch (e) { /* private mode */ }
  $("round-summary").hidden = true;
}
function renderSummary(v) {
  const box = $("round-summary");
  const s = v.round_summary;
  if (!s || !s.done || v.phase === "over" || (!Table.replaying && summaryDismissed(s.round))) { box.hidden = true; return; }
  box.hidden = false;
  const head = el("tr", {}, ...[t("Player"), t("Initiative"), t("Dice / threshold"), t("Reward"), t("Wedding")].map((h) => el("th", { text: h })));
  const rows = s.rows.map((r) => el("tr", { "data-seat": r.seat, class: r.qualified ? "" : "over" },
    el("td", {}, mark(r.seat, "", 16), " ", r.seat === v.you ? t("You") : nameOf(r.seat)),
    el("td", { class: "num", text: t("{n} VP", { n: r.initiative }) }),
    el("td", { class: "num", text: `${r.sum} / ${r.threshold}` }),
    el("td", { text: r.reward }),
    el("td", { text: r.wedding || "—" })));
  box.replaceChildren(el("h3", { text: t("Round {round} is over", { round: s.round }) }),
    el("div", { class: "scroll" }, el("table", { id: "summary-table" }, el("thead", {}, head), el("tbody", {}, ...rows))),
    el("p", { id: "summary-order", text: t("Turn order of the next round: {order}", { order: s.order.map((i) => i === v.you ? t("you") : nameOf(i)).join(" → ") }) }),
    el("p", { class: "muted", text: t("A player whose dice add up to more than their threshold gets no reward.") }),
    el("div", { class: "row" }, el("button", { type: "button", id: "summary-ok", class: "primary", onclick: () => dismissSummary(s.round) }, t("Got it"))));
}
function renderEnd(v) {
  const box = $("end");
  const f = v.final;
  if (!f) { box.hidden = true; return; }
  box.hidden = false;
  const head = el("tr", {}, el("th", { text: t("Points from") }), ...v.players.map((p) => el("th", {}, mark(p.seat), " ", p.name)));
  const rows = f.rows.map((r) => el("tr", { "data-source": r.source }, el("td", { text: r.name }),
    ...r.points.map((n, s) => el("td", { class: "num", "data-seat": s, text: String(n) }))));
  rows.push(el("tr", { class: "total" }, el("td", { text: t("Total") }), ...f.totals.map((n) => el("td", { class: "num", text: String(n) }))));
  rows.push(el("tr", { class: "place" }, el("td", { text: t("Place") }), ...f.places.map((n) => el("td", { class: "num", text: String(n) }))));
  const winners = f.winners.map(nameOf);
  box.replaceChildren(el("h2", { text: t("Game over") }),
    el("p", { class: "winner", id: "winner", text: winners.length === 1 ? t("Winner: {name}", { name: winners[0] })
      : t("Winners: {names}", { names: winners.join(", ") }) }),
    el("div", { class: "scroll" }, el("table", { id: "final-table", class: "by-source" }, el("thead", {}, head), el("tbody", {}, ...rows))),
    f.end.length ? el("details", {}, el("summary", { text: t("The end scoring, line by line") }), el("ul", {}, ...f.end.map((x) => el("li", { text: x })))) : "",
    el("p", { class: "muted", text: f.note }),
    Table.endLinks("signorie"));
}
// the creator of a game keeps its seat links on this device, to send them again
function renderInvites(v) {
  const box = $("invites");
  const data = savedInvites(Table.state.gameId);
  const others = data ? data.seats.filter((s) => !s.link.endsWith("#" + Table.state.token)) : [];
  // the spectators' link too, even in a game where the creator is the only person
  if (!data || !data.spectator || v.phase === "over" || Table.replaying) { box.hidden = true; return; }
  if (!box.hidden) return;  // built once: keeps it open and its buttons' feedback
  box.hidden = false;
  box.replaceChildren(el("details", {}, el("summary", { text: others.length ? t("Invite links (you created this game)") : t("Spectator link (you created this game)") }),
    others.length ? el("p", { class: "muted", text: t("Send each player their own link, privately: whoever has a link plays that seat.") }) : "",
    el("ul", { class: "links" }, ...others.map((s) => linkLine(t("{name}:", { name: s.name }), s.link)), linkLine(t("Spectators:"), data.spectator))));
}
function renderLog(v) {
  const items = v.log.map((e) => el("li", { class: "log-" + e.kind, text: e.text })).reverse();
  $("log").replaceChildren(...items);
}

// -- choosing: select, see the preview, then confirm ------------------------------------------

function actionKey(a) { const { seat, ...rest } = a; return JSON.stringify(rest); }
// a hint's moves, numbered as in the hint's list, on the dice and choices they name
function markHints(moves) {
  document.querySelectorAll("[data-hint-mark]").forEach((b) => { delete b.dataset.hintMark; b.classList.remove("hinted"); });
  const L = ui.view && ui.view.legal;
  if (!L || !moves) return;
  moves.forEach((m, i) => {
    const key = actionKey(m.action), rank = String(i + 1), found = [];
    (L.dice || []).forEach((d) => { if (d.action && actionKey(d.action) === key) found.push(...document.querySelectorAll(`[data-die-choice='${d.colour}-${d.value}']`)); });
    found.push(...choiceMarks(L.choices, key));
    // the die picked is the hint's: its action too (the move's next step)
    const picked = ui.pick !== null && L.dice ? L.dice[ui.pick] : null;
    if (picked && picked.action && actionKey(picked.action) === key && m.then && m.then.length) found.push(...choiceMarks(picked.choices, actionKey(m.then[0])));
    (L.options || []).forEach((o, k) => {
      if (actionKey(o.action) !== key) return;
      found.push(...(o.action.type === "pass" && $("pass") ? [$("pass")] : []), ...document.querySelectorAll(`[data-option='${k}']`));
    });
    for (const b of found) { b.classList.add("hinted"); b.dataset.hintMark = (b.dataset.hintMark ? b.dataset.hintMark + " " : "") + rank; }
  });
}
// the buttons of `choices` (a die's actions) whose action has `key`
function choiceMarks(choices, key) {
  const found = [];
  (choices || []).forEach((ch) => {
    const items = ch.kind === "assignment" ? ch.counts.map((n) => [n.action, `assignment-${ch.sex}-${n.meeples}`])
      : [[ch.action, ch.kind === "helper" ? `helper-${ch.helper}` : ch.kind]];
    for (const [a, attr] of items) if (a && actionKey(a) === key) found.push(...document.querySelectorAll(`[data-choice='${attr}']`));
  });
  return found;
}
function pickDie(i) {
  const v = ui.view;
  if (!v.legal || v.legal.kind !== "turn" || !v.legal.dice[i].ok) return;
  ui.pick = i;
  ui.choice = null;
  renderDice(v);
  renderActions(v);
  markHints(Hint.marked());
  // a die picked on the board (below the question on a phone): its actions come into sight
  if ($("picked")) $("picked").scrollIntoView({ block: "nearest" });
}
function choose(choice) {
  ui.choice = choice;
  if (!ui.checks.has(actionKey(choice.checked))) Table.check(choice.checked);
  renderActions(ui.view);
  markHints(Hint.marked());
  const c = $("confirm");
  if (c) c.focus();
}
function cancel() { ui.pick = null; ui.choice = null; renderDice(ui.view); renderActions(ui.view); markHints(Hint.marked()); }
function confirm() {
  const c = ui.choice;
  if (!c) return;
  if (c.then) ui.pending = c.then;  // the die first; its action goes with the next view
  if (Table.act(c.checked)) { const b = $("confirm"); if (b) b.disabled = true; }
}
// a die and its action are one choice for the player, two steps for the rules
function sendPending(v) {
  const a = ui.pending;
  if (!a || !v.legal) return;
  ui.pending = null;
  if (v.legal.kind !== "choose") return;
  const match = v.legal.options.find((o) => actionKey(o.action) === actionKey(a));
  if (match) ui.sending = Table.act(match.action);
  else toast(t("That action is no longer open: choose again."));
}
// the player's setting "always activate helpers" (on unless switched off; kept on this device):
// a helper the game says is never worth refusing (`legal.always`) is activated without asking,
// by sending that legal answer. After an undo the question is asked, or it could not be undone
const ALWAYS = "signorie:always-activate";
function alwaysOn() { try { return localStorage.getItem(ALWAYS) !== "off"; } catch (e) { return true; } }
function setAlways(on) { try { localStorage.setItem(ALWAYS, on ? "on" : "off"); } catch (e) { /* private mode */ } }
function activateAlways(v) {
  const L = v.legal;
  if (L && L.kind !== "helpers") ui.undone = false;
  if (!L || !L.always || Table.replaying || ui.undone || !alwaysOn()) return;
  ui.sending = Table.act(L.always);
}
function settingsEl(v) {
  if (v.you === null || v.you === undefined) return "";
  const box = el("input", { type: "checkbox", id: "always-activate", checked: alwaysOn() });
  box.addEventListener("change", () => { setAlways(box.checked); if (box.checked) activateAlways(ui.view); renderActions(ui.view); });
  return el("label", { class: "setting muted", for: "always-activate" }, box, " " + t("Always activate a helper that only brings gains, without asking"));
}
function onCheck(msg) {
  ui.checks.set(actionKey(msg.action), msg);
  if (ui.choice && actionKey(ui.choice.checked) === actionKey(msg.action)) renderActions(ui.view);
}

function renderActions(v) {
  const box = $("actions");
  if (v.phase === "over") { box.hidden = true; return; }
  box.hidden = false;
  if (Table.replaying) {  // what was just played, then what the table waits for
    const last = (v.log || []).length ? v.log[v.log.length - 1].text : "";
    box.replaceChildren(el("h3", { text: t("Replay") }), el("p", { id: "replay-last", class: "replay-last", text: last }),
      el("p", { class: "muted", text: v.question || "" }));
    return;
  }
  if (!v.legal || ui.sending) {
    delete document.body.dataset.asks;
    const text = v.you === null ? (v.question || "") : ui.sending ? t("Sending your move…") : t("Waiting: {question}", { question: v.question || "" });
    box.replaceChildren(el("h3", { text: v.you === null ? t("Watching") : t("Waiting") }), el("p", { id: "waiting", text }), undoEl(v), settingsEl(v));
    return;
  }
  const L = v.legal;
  document.body.dataset.asks = L.kind;  // on a phone the part of the board asked about follows
  const parts = [el("h3", { id: "question", text: t("Your move: {question}", { question: L.question }) })];
  if (L.kind === "turn") parts.push(...turnPanel(v, L));
  else if (L.kind === "choose") parts.push(...choicesPanel(v, L.choices, t("{colour} die placed: choose its action", { colour: colourOf(L.colour).name }), null));
  else parts.push(...optionsPanel(v, L));
  parts.push(previewEl(v), undoEl(v), settingsEl(v));
  box.replaceChildren(...parts);
  numberKeys(box);
  // a long list may push Confirm below the screen: bring the preview into sight
  if (ui.choice && $("preview")) $("preview").scrollIntoView({ block: "nearest" });
}
// a die over the threshold costs the round's reward: said before it is taken
function overWarning(v, d) {
  const p = v.players[v.you];
  return t("Careful: with this die your dice add up to {sum}, over your threshold of {threshold}: you would get no reward this round.", { sum: p.dice_sum + d.value, threshold: p.threshold });
}
function turnPanel(v, L) {
  const out = [];
  if (ui.pick === null) {
    out.push(el("p", { class: "muted", text: t("Pick a die (on the board or here), see the actions it allows, then confirm.") }));
    out.push(el("div", { class: "die-list" }, ...L.dice.map((d, i) => d.ok
      ? el("button", { type: "button", class: "die-choice key" + (d.over ? " over" : ""), "data-die-choice": `${d.colour}-${d.value}`, onclick: () => pickDie(i),
        title: d.over ? overWarning(v, d) : "" },
        dieFace(d.colour, d.value), " " + t("pay {n}", { n: d.cost }), d.over ? el("span", { class: "warn", text: " " + t("over threshold") }) : "")
      : el("span", { class: "die-choice closed", title: sentence(d.why) }, dieFace(d.colour, d.value), el("small", { text: ` ${sentence(d.why)}` })))));
    if (L.can_pass) {
      const pass = L.options.find((o) => o.action.type === "pass");
      out.push(el("div", { class: "row" }, el("button", { type: "button", id: "pass", class: "key", onclick: () => choose({ checked: pass.action, text: pass.text }) }, pass.text)));
    }
    return out;
  }
  const d = L.dice[ui.pick];
  const c = colourOf(d.colour);
  out.push(el("p", { id: "picked" }, dieFace(d.colour, d.value), " " + t("{colour} {value}: you pay {florins}. Its actions:", { colour: c.name, value: d.value, florins: florins(d.cost) })));
  if (d.over) out.push(el("p", { id: "threshold-warning", class: "warn", text: overWarning(v, d) }));
  out.push(...choicesPanel(v, d.choices, null, d));
  out.push(el("div", { class: "row" }, el("button", { type: "button", id: "other-die", onclick: cancel }, t("Another die"))));
  return out;
}
// the Signoria action, the two assignments (how many meeples) and the helpers of a die's colour
function choicesPanel(v, choices, title, die) {
  const out = title ? [el("p", { text: title })] : [];
  const pick = (item, label) => () => choose(die
    ? { checked: die.action, then: item.action, text: label }
    : { checked: item.action, text: label });
  const isOn = (a) => ui.choice && actionKey(ui.choice.then || ui.choice.checked) === actionKey(a);
  const list = el("ul", { class: "choices" });
  for (const ch of choices) {
    const kind = ui.table.kinds[ch.kind];
    let body;
    if (ch.kind === "assignment") {
      body = el("div", { class: "row" }, ...ch.counts.map((n) => el("button", { type: "button", class: "key" + (isOn(n.action) ? " on" : ""),
        disabled: !n.ok, title: n.ok ? n.effect : sentence(n.why), "data-choice": `assignment-${ch.sex}-${n.meeples}`,
        onclick: pick(n, t("{kind} {name}: {meeples} {sign}, {effect}", { kind, name: ch.name, meeples: n.meeples, sign: sexSign(ch.sex), effect: n.effect })) },
      `${n.meeples} ${sexSign(ch.sex)}: ${n.effect}`)));
    } else {
      const label = ch.kind === "helper" ? t("Hire the {helper} for {florins}", { helper: ch.name, florins: florins(ch.cost) }) : t("{kind}: {name} ({effect})", { kind, name: ch.name, effect: ch.effect });
      body = el("button", { type: "button", class: "key" + (isOn(ch.action) ? " on" : ""), disabled: !ch.ok, "data-choice": ch.kind === "helper" ? `helper-${ch.helper}` : ch.kind,
        onclick: pick(ch, label) }, ...(ch.kind === "helper" ? [el("span", { class: "effect", text: ch.effect }), el("span", { class: "price", text: t("hire for {florins}", { florins: florins(ch.cost) }) })]
          : [`${ch.name}: ${ch.effect}`]));
    }
    const closedCounts = ch.kind === "assignment" && ch.ok ? ch.counts.filter((n) => !n.ok) : [];
    list.append(el("li", { class: "choice" + (ch.ok ? "" : " closed") },
      el("span", { class: "kind", text: ch.kind === "assignment" ? `${kind} ${sexSign(ch.sex)} ${ch.name}` : kind }), body,
      ch.ok ? "" : el("small", { class: "why", text: sentence(ch.why) }),
      ...closedCounts.map((n) => el("small", { class: "why", text: t("{meeples} {sign}: {why}", { meeples: n.meeples, sign: sexSign(ch.sex), why: sentence(n.why) }) }))));
  }
  out.push(list);
  return out;
}
function optionsPanel(v, L) {
  const out = [];
  if (L.kind === "advance") out.push(el("p", { text: L.points === 1 ? t("{n} advancement point left.", { n: L.points }) : t("{n} advancement points left.", { n: L.points }) }));
  if (L.kind === "wedding") {
    out.push(el("p", { text: t("A wedding brings {gain}.", { gain: L.gain }) }));
    out.push(el("p", { class: "muted", text: t("A bride marries one of your sons: each married man rolls one die of every Offspring roll (sons and daughters for your supply), and some reward tiles pay per married man.") }));
  }
  const isOn = (a) => ui.choice && actionKey(ui.choice.checked) === actionKey(a);
  out.push(el("div", { class: "options" }, ...L.options.map((o, i) => {
    const extra = [];
    if (o.vp !== undefined) extra.push(t("{n} VP", { n: o.vp }));
    if (o.tile) extra.push(t("takes {tile} to the {row}", { tile: o.tile.text, row: o.row }));
    if (o.tile_note) extra.push(o.tile_note);
    return el("button", { type: "button", class: "key option" + (isOn(o.action) ? " on" : ""), "data-option": i,
      onclick: () => choose({ checked: o.action, text: o.text }) }, o.text, extra.length ? el("small", { text: ` · ${extra.join(" · ")}` }) : "");
  }), ...(L.closed || []).map((c) => el("button", { type: "button", class: "closed-option", disabled: true, "data-closed": c.city },
    c.city, el("small", { class: "why", text: ` · ${sentence(c.why)}` })))));
  return out;
}
// a die and its action are one choice: the die's check brings what each of its actions adds
function thenOf(check, c) {
  if (!check || !check.ok || !c.then || !check.then) return null;
  return check.then.find((x) => actionKey(x.action) === actionKey(c.then)) || null;
}
function previewEl(v) {
  const c = ui.choice;
  if (!c) return "";
  const check = ui.checks.get(actionKey(c.checked));
  const then = thenOf(check, c);
  const lines = [];
  if (check && check.ok) {
    for (const e of check.events) lines.push(el("li", { text: e }));
    if (then) for (const e of then.events) lines.push(el("li", { text: e }));
    else if (c.then) lines.push(el("li", { text: t("Then: {choice}.", { choice: c.text }) }));
    const next = then ? then.next : check.next;
    if (next) lines.push(el("li", { class: "next", text: sentence(next) }));
    const die = ui.pick !== null && v.legal && v.legal.dice ? v.legal.dice[ui.pick] : null;
    if (die && die.over) lines.push(el("li", { class: "warn", text: overWarning(v, die) }));
  }
  const signed = (n) => `${n >= 0 ? "+" : ""}${n}`;
  const vp = check && check.ok ? check.points + (then ? then.points : 0) : 0;
  const fl = check && check.ok ? check.florins + (then ? then.florins : 0) : 0;
  const gain = !check || !check.ok ? "" : t("{vp} VP, {florins} florins", { vp: signed(vp), florins: signed(fl) });
  return el("div", { id: "preview", class: "preview" },
    el("h4", { text: t("Your choice: {choice}", { choice: c.text }) }),
    check ? (check.ok ? el("p", { id: "gain", text: gain }) : el("p", { class: "bad", text: sentence(check.message) })) : el("p", { class: "muted", text: t("Checking…") }),
    el("ul", {}, ...lines),
    el("div", { class: "row confirm-bar" },
      el("button", { type: "button", id: "confirm", class: "primary", disabled: !check || !check.ok, onclick: confirm }, el("span", { text: t("Confirm") }), el("span", { class: "key-hint", text: " " + t("(Enter)") })),
      el("button", { type: "button", id: "cancel", onclick: cancel }, el("span", { text: t("Cancel") }), el("span", { class: "key-hint", text: " " + t("(Esc)") }))));
}
function undoEl(v) {
  if (!v.can_undo || Table.replaying) return "";
  return el("div", { class: "row" }, el("button", { type: "button", id: "undo", onclick: () => { ui.pending = null; ui.undone = true; Table.undo(); } }, el("kbd", { text: "U" }), t("Undo my last step")),
    el("span", { class: "muted", text: t("Possible until someone else moves or dice are rolled.") }));
}
// keys press the open choices in order: 1-9, then 0, then letters (p is Pass, u is Undo);
// Enter confirms; Esc cancels
const CHOICE_KEYS = [..."1234567890", ..."abcdefghijklmnoqrstvwxyz"];
function numberKeys(box) {
  const pass = $("pass");
  if (pass && !pass.disabled) { pass.dataset.key = "p"; pass.prepend(el("kbd", { text: "P" })); }
  const keys = [...box.querySelectorAll("button.key:not(:disabled)")].filter((b) => b !== pass);
  keys.slice(0, CHOICE_KEYS.length).forEach((b, i) => {
    b.dataset.key = CHOICE_KEYS[i];
    b.prepend(el("kbd", { text: CHOICE_KEYS[i].toUpperCase() }));
  });
}
document.addEventListener("keydown", (ev) => {
  if (ev.target && /input|textarea|select/i.test(ev.target.tagName)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") { cancel(); return; }
  if (ev.key === "Enter" && ui.choice && $("confirm") && !$("confirm").disabled) {
    if (document.activeElement && document.activeElement.tagName === "BUTTON" && document.activeElement.id !== "confirm") return;
    ev.preventDefault(); confirm(); return;
  }
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : "";
  if (key === "u" && $("undo")) { ev.preventDefault(); $("undo").click(); return; }
  if (key) {
    const b = $("actions").querySelector(`button[data-key="${key}"]`);
    if (b) { ev.preventDefault(); b.click(); }
  }
});

// -- start -----------------------------------------------------------------------------------

// a game on an edition (its own component data) is drawn from that edition's table
async function tableFor(v) {
  const edition = v.components || "";
  if ((ui.table.components || "") === edition) return;
  ui.table = await fetch("/api/signorie/table?edition=" + encodeURIComponent(edition)).then((r) => r.json());
}
async function main() {
  ui.table = await fetch("/api/signorie/table").then((r) => r.json());
  document.title = ui.table.title;
  let drawn = Promise.resolve();  // views are drawn in the order they come
  const draw = (v) => { render(v); markHints(Hint.marked()); };
  Table.start({ view: (v) => {
    if ((ui.table.components || "") === (v.components || "")) { draw(v); return; }
    drawn = drawn.then(() => tableFor(v)).then(() => draw(ui.view && ui.view.seq > v.seq ? ui.view : v));
  }, hint: markHints, check: onCheck, error: () => { ui.pending = null; if (ui.sending) { ui.sending = false; ui.undone = true; renderActions(ui.view); } },
    presence: () => ui.view && renderPlayers(ui.view) });
}
main();
