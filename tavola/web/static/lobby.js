// The lobby of every game: choose a game, its seats (people or bots) and options, create it;
// join or watch listed games. What each game offers comes from the server (/api/lobby).
import { $, api, el, linkLine, saveInvites, t, toast } from "./common.js";
import { Account } from "./account.js";
import { startTutorial } from "./rules.js";

const lobby = {
  games: [], game: null, extra: { open: [], playing: [], finished: [] }, more: {}, first: {},
  timer: null, friends: [],  // friends: a signed-in player's friends, to invite
};
const SECTIONS = ["open", "playing", "finished"];
const MAX_SEATS_SHOWN = 8;  // never more than a game's own maximum; a guard against bad data

function offer(name) { return lobby.games.find((g) => g.name === name) || lobby.games[0]; }
function titleOf(name) { const g = lobby.games.find((x) => x.name === name); return g ? g.title : name; }
function levelOf(spec) {
  return (lobby.game.bot_levels || []).find((l) => l.id === spec) || { name: spec, strength: "", help: "" };
}

// -- the games on offer ---------------------------------------------------------------------------

function gameCard(g) {
  const players = g.min_players === g.max_players ? t("{n} players", { n: g.min_players }) : t("{low} to {high} players", { low: g.min_players, high: g.max_players });
  const input = el("input", { type: "radio", name: "game", value: g.name, "data-game-choice": g.name });
  input.addEventListener("change", () => chooseGame(g.name));
  return el("label", { class: "game-card" }, input,
    el("img", { src: g.picture, alt: "", loading: "lazy" }),
    el("span", { class: "game-name", text: g.title }),
    el("span", { class: "game-line", text: g.tagline }),
    el("span", { class: "muted", text: players }), learnLinks(g));
}
// the game's rules page and its tutorial (rules.js), where the game has them
function learnLinks(g) {
  const links = el("span", { class: "learn-links row" });
  if (g.rules) links.append(el("a", { href: g.rules, "data-rules": g.name }, t("Rules")));
  if (g.tutorial) {
    links.append(el("button", { type: "button", class: "primary", "data-tutorial": g.name,
      onclick: (ev) => { ev.preventDefault(); startTutorial(g.name); } }, t("Learn by playing")));
  }
  return links;
}
function chooseGame(name) {
  lobby.game = offer(name);
  const radio = document.querySelector(`[data-game-choice="${lobby.game.name}"]`);
  if (radio) radio.checked = true;
  $("create").dataset.game = lobby.game.name;
  const rows = $("seat-rows");
  const bots = lobby.game.default_bots && lobby.game.default_bots.length ? lobby.game.default_bots : [lobby.game.bots[0]];
  rows.replaceChildren(...Array.from({ length: lobby.game.default_players }, (_, i) =>
    i === 0 ? seatRow(0, "person") : seatRow(i, "bot", bots[(i - 1) % bots.length])));
  $("bots-about").replaceChildren(botsExplained());
  renderOptions();
  seatButtons();
  relabelBots();
}

// -- seats ----------------------------------------------------------------------------------------

function seatRow(i, kind, bot) {
  const kindSel = el("select", { "data-seat-kind": i, "aria-label": t("Seat {n}: a person or a bot", { n: i + 1 }) },
    el("option", { value: "person", selected: kind === "person" }, t("Person")),
    ...lobby.game.bots.map((b) => el("option", { value: "bot:" + b, selected: kind === "bot" && bot === b }, botLabel(b))));
  const help = el("div", { class: "muted bot-help", "data-seat-help": i });
  const showHelp = () => {
    const v = kindSel.value;
    help.textContent = v.startsWith("bot:") ? t("{name}: {help}.", { name: levelOf(v.slice(4)).name, help: levelOf(v.slice(4)).help }) : t("A person: gets a private link to this seat.");
    seedRule();
  };
  kindSel.addEventListener("change", showHelp);
  // a person seat other than the creator's may be kept for a friend (signed in, with friends)
  const invite = el("select", { "data-seat-invite": i, "aria-label": t("Seat {n}: invite a friend", { n: i + 1 }) },
    el("option", { value: "" }, t("no invitation")), ...lobby.friends.map((f) => el("option", { value: f }, t("invite {name}", { name: f }))));
  const showInvite = () => { invite.hidden = i === 0 || kindSel.value !== "person" || !lobby.friends.length; if (invite.hidden) invite.value = ""; };
  kindSel.addEventListener("change", showInvite);
  showInvite();
  const row = el("div", { class: "seat" }, el("div", { class: "row" }, el("span", { text: t("Seat {n}", { n: i + 1 }) }), kindSel,
    el("input", { "data-seat-name": i, placeholder: t("name (optional)"), maxlength: 40, size: 14, "aria-label": t("Seat {n}: name", { n: i + 1 }) }), invite), help);
  setTimeout(showHelp, 0);
  return row;
}
// a bot's level, strength and the rating measured at this many seats (shown where measured)
function botLabel(b, n = $("seat-rows").children.length || lobby.game.default_players) {
  const l = levelOf(b), rating = Account.botRating(lobby.game, b, n);
  const label = l.strength ? t("Bot: {name} ({strength})", { name: l.name, strength: l.strength }) : t("Bot: {name}", { name: l.name });
  return rating ? `${label} · ${rating}` : label;
}
function relabelBots() {
  for (const option of document.querySelectorAll("[data-seat-kind] option[value^='bot:']")) option.textContent = botLabel(option.value.slice(4));
}
function seatButtons() {
  const n = $("seat-rows").children.length;
  $("add-seat").disabled = n >= Math.min(lobby.game.max_players, MAX_SEATS_SHOWN);
  $("remove-seat").disabled = n <= lobby.game.min_players;
}
function addSeat() {
  const rows = $("seat-rows");
  if (rows.children.length >= lobby.game.max_players) return;
  const bots = lobby.game.default_bots && lobby.game.default_bots.length ? lobby.game.default_bots : lobby.game.bots;
  rows.append(seatRow(rows.children.length, "bot", bots[0]));
  renderOptions(); seatButtons(); relabelBots();
}
function removeSeat() {
  const rows = $("seat-rows");
  if (rows.children.length <= lobby.game.min_players) return;
  rows.lastChild.remove();
  renderOptions(); seatButtons(); seedRule(); relabelBots();
}
// a chosen seed deals known cards: the server takes one only with at most one person at the table
function seedRule() {
  const people = [...document.querySelectorAll("[data-seat-kind]")].filter((s) => s.value === "person").length;
  const seed = $("seed");
  seed.disabled = people > 1;
  if (people > 1) seed.value = "";
  $("seed-note").textContent = people > 1
    ? t("Not with several people: whoever chose the seed would know the whole deal. The game is dealt at random.")
    : t("Only for games with at most one person: a seed deals the same game every time (the same number, the same game), to practise a deal against bots. Empty: a random deal.");
}
function botsExplained() {
  return el("details", { id: "bots-help" }, el("summary", { text: t("Which bot? (from easiest to strongest)") }),
    el("ul", { class: "bot-levels" }, ...(lobby.game.bot_levels || []).map((l) => el("li", { "data-level": l.id },
      el("strong", { text: t("{name} ({strength})", { name: l.name, strength: l.strength }) }), t(": {help}.", { help: l.help })))),
    el("p", { class: "muted", id: "ratings-help", text: t("A rating next to a bot was measured in tournaments of the bots at this number of players; players' ratings on the leaderboard are on the same scale. A level with no rating has not been measured yet.") }));
}

// -- the game's own options (a scenario, rule variants...), as the game describes them ----------

function renderOptions() {
  const n = $("seat-rows").children.length;
  const plain = [], folded = [];
  const edition = editionEl();
  for (const opt of gameOptions()) (opt.advanced ? folded : plain).push(optionEl(opt, n));
  $("game-options").replaceChildren(...(edition ? [edition] : []), ...plain);
  $("advanced-options").replaceChildren(...folded);
  // the labels as the game words them (a German noun keeps its capital), as a list of names
  const names = [t("Seed"), ...gameOptions().filter((o) => o.advanced).map((o) => o.label)];
  $("advanced-summary").textContent = t("Advanced: {options}", { options: names.join(" · ") });
}
// -- the edition a game is played on: the shipped reconstruction, or the player's own or shared ones --

const editionLists = {};  // game -> its playable editions (the default first), once asked
const sharedEdition = new URLSearchParams(location.search);  // a shared link: ?edition=ID&key=KEY
async function loadEditions(game) {
  if (!game.editions || editionLists[game.name]) return;
  editionLists[game.name] = [];
  try {
    const found = await api(`/api/editions?game=${encodeURIComponent(game.name)}`);
    const list = [found.default, ...found.editions.filter((e) => e.playable_version !== null)];
    const id = sharedEdition.get("edition"), key = sharedEdition.get("key");
    if (id && !list.some((e) => e.id === id)) {
      try {
        const shared = await api(`/api/editions/${encodeURIComponent(id)}?key=${encodeURIComponent(key || "")}`);
        if (shared.game === game.name && shared.playable_version !== null) list.push({ ...shared, key });
      } catch (e) { toast(e.message); }
    }
    editionLists[game.name] = list;
  } catch (e) { editionLists[game.name] = []; }
  if (lobby.game && lobby.game.name === game.name) renderOptions();
}
function editionEl() {
  const list = editionLists[lobby.game.name];
  if (!lobby.game.editions) return null;
  if (!list) { loadEditions(lobby.game); return null; }
  const old = $("edition");
  const sel = el("select", { id: "edition" }, ...list.map((e) => el("option", { value: e.id, "data-key": e.key || "" },
    e.id === "default" ? e.name : t("{name} by {author}", { name: e.name, author: e.author || "?" }))));
  const wanted = old ? old.value : sharedEdition.get("edition");
  if (wanted && list.some((e) => e.id === wanted)) sel.value = wanted;
  sel.addEventListener("change", chooseEdition);
  if (sel.value !== "default" && !(`${lobby.game.name}/${sel.value}` in editionOptions)) queueMicrotask(chooseEdition);
  return el("span", { id: "edition-choice" }, el("label", {}, `${t("Edition")} `, sel), " ",
    el("a", { href: "/editions", class: "muted" }, t("editions")));
}
// an edition's own options (Gonzaga: the scenarios of its board), asked when it is chosen
const editionOptions = {};  // "game/id" -> the game's options on that edition
function gameOptions() {
  const sel = $("edition");
  const chosen = sel && sel.value !== "default" ? editionOptions[`${lobby.game.name}/${sel.value}`] : null;
  return chosen || lobby.game.options || [];
}
async function chooseEdition() {
  const sel = $("edition"), game = lobby.game.name, id = sel.value, at = `${game}/${id}`;
  if (id !== "default" && !(at in editionOptions)) {
    const key = sel.selectedOptions[0].dataset.key;
    try {
      const found = await api(`/api/editions/${encodeURIComponent(id)}/lobby?game=${encodeURIComponent(game)}&key=${encodeURIComponent(key || "")}`);
      editionOptions[at] = found.options;
    } catch (e) { editionOptions[at] = null; toast(e.message); }  // the game's own, then
  }
  if (lobby.game.name === game) renderOptions();
}
function editionValue() {
  const sel = $("edition");
  if (!sel || sel.value === "default") return {};
  const key = sel.selectedOptions[0].dataset.key;
  return { edition: sel.value, ...(key ? { edition_key: key } : {}) };
}

function fits(choice, n) { return choice.players === undefined || choice.players === null || choice.players === n; }
function optionEl(opt, n) {
  const choices = opt.choices.filter((c) => fits(c, n));
  if (opt.kind === "choice") {
    const old = document.querySelector(`[data-option="${opt.id}"]`);
    const sel = el("select", { id: opt.id, "data-option": opt.id },
      ...choices.map((c) => el("option", { value: c.value === null ? "" : c.value, title: c.help || false }, c.label)));
    if (old && choices.some((c) => c.value === old.value)) sel.value = old.value;
    return el("label", {}, `${opt.label} `, sel);
  }
  return el("div", { "data-option": opt.id }, ...choices.map((c) =>
    el("label", { title: c.help || false }, el("input", { type: "checkbox", "data-flag": opt.id, value: c.value }), ` ${c.label}`)));
}
function optionValues() {
  const values = {};
  for (const opt of gameOptions()) {
    if (opt.kind === "choice") { const sel = document.querySelector(`select[data-option="${opt.id}"]`); values[opt.id] = sel && sel.value !== "" ? sel.value : null; }
    else values[opt.id] = [...document.querySelectorAll(`[data-flag="${opt.id}"]:checked`)].map((c) => c.value);
  }
  return values;
}

// -- live or turn-based: time per move and misses before a bot takes the seat (the server's) --

function renderTiming(timing) {
  if (!timing) return;
  const limit = el("select", { id: "move-time" }, ...timing.choices.map((c) => el("option", { value: c.value === null ? "" : c.value }, c.label)));
  const misses = el("select", { id: "misses" }, ...timing.misses.map((m) => el("option", { value: m.value, selected: m.value === timing.default_misses }, m.label)));
  const missLabel = el("label", { id: "misses-label" }, `${timing.misses_label} `, misses);
  const sync = () => { missLabel.hidden = limit.value === ""; };
  limit.addEventListener("change", sync);
  $("timing-options").replaceChildren(el("label", {}, `${timing.label} `, limit), missLabel);
  sync();
}
function timingValue() {
  const limit = $("move-time");
  if (!limit || limit.value === "") return null;
  return { move_seconds: Number(limit.value), misses: Number($("misses").value) };
}

// -- creating a game ------------------------------------------------------------------------------

async function createGame(ev) {
  ev.preventDefault();
  const seats = [...$("seat-rows").children].map((row) => {
    const kind = row.querySelector("select").value, name = row.querySelector("input").value;
    const invite = row.querySelector("[data-seat-invite]").value;
    return kind === "person" ? { kind: "person", name, ...(invite ? { invite } : {}) } : { kind: "bot", bot: kind.slice(4), name };
  });
  const seedText = $("seed").disabled ? "" : $("seed").value;
  try {
    const g = await api("/api/games", { game: lobby.game.name, seats, seed: seedText === "" ? null : Number(seedText),
      public: $("public").checked, hints: $("hints").checked, timing: timingValue(), ...($("rated").checked ? { rated: true } : {}), ...optionValues(), ...editionValue() });
    const people = g.seats.filter((s) => s.link);
    const mine = g.you === undefined || g.you === null ? people[0] : people.find((s) => s.seat === g.you) || people[0];
    saveInvites(g.id, { seats: people.map((s) => ({ name: s.name, link: s.link })), spectator: g.spectator });
    const invited = g.seats.filter((s) => s.invited).map((s) => el("li", { "data-seat-invited": s.seat },
      t("Seat {n}: {name} is invited, and answers on their friends page.", { n: s.seat + 1, name: seats[s.seat].invite })));
    // with one person seat, go and play; with several, the links are to be sent first
    if (people.length === 1 && !invited.length) { location.href = people[0].link; return; }
    const links = people.map((s) => s === mine
      ? el("li", { class: "mine" }, el("strong", { text: t("{name} (you): ", { name: s.name }) }), el("a", { href: s.link, "data-seat-link": s.seat, class: "button primary" }, t("open your seat")))
      : linkLine(`${s.name}:`, s.link, { "data-seat-link": s.seat }));
    $("created").hidden = false;
    $("created").replaceChildren(el("h3", { text: t("{game}: game created", { game: titleOf(g.game) }) }),
      el("p", { class: "muted", text: t("Send each other player their own link, privately: whoever has a link plays that seat. You find the links again in the game, under “Invite links”.") }),
      el("ul", { class: "links" }, ...links, ...invited, linkLine(t("Spectators:"), g.spectator)));
    $("created").scrollIntoView();
  } catch (e) { toast(e.message); }
}

// -- the lists ------------------------------------------------------------------------------------

function seatWords(game) {
  return game.seats.map((s) => s.kind === "bot" && !/\bbot\b/i.test(s.name) ? t("{name} (bot) {score}", { name: s.name, score: s.score }) : t("{name} {score}", { name: s.name, score: s.score })).join(", ");
}
function gameWhat(game) {
  const round = t("round {round}", { round: game.round });
  return game.scenario ? t("{game}, {scenario}, {round}: ", { game: titleOf(game.game), scenario: game.scenario, round })
    : t("{game}, {round}: ", { game: titleOf(game.game), round });
}
function gameLine(section, game) {
  const line = el("li", { "data-game": game.id, "data-game-name": game.game },
    el("span", { class: "game-what", text: gameWhat(game) }),
    game.edition ? el("span", { class: "muted game-edition", text: t("on the edition {name}: ", { name: game.edition }) }) : "",
    seatWords(game), " ",
    game.hints ? el("span", { class: "muted hints-allowed", text: t("(hints allowed)") + " " }) : "");
  if (section === "open") {
    line.append(el("button", { type: "button", onclick: async () => {
      try { const j = await api(`/api/games/${game.id}/join`, {}); location.href = j.link; } catch (e) { toast(e.message); }
    } }, t("Join")), " ", el("a", { href: `/game/${game.id}#watch` }, t("watch")));
  } else if (section === "playing") line.append(el("a", { href: `/game/${game.id}#watch` }, t("watch")));
  else {
    const winners = (game.winners || []).map((i) => game.seats[i] && game.seats[i].name).filter(Boolean);
    if (winners.length) line.prepend(el("strong", { class: "winners", text: winners.length > 1 ? t("{names} and {last} won · ", { names: winners.slice(0, -1).join(", "), last: winners[winners.length - 1] }) : t("{name} won · ", { name: winners[0] }) }));
    line.append(el("a", { href: `/game/${game.id}#replay` }, t("replay")), " ", el("a", { href: `/api/games/${game.id}/record` }, t("record")));
  }
  return line;
}
function renderSection(section) {
  const seen = new Set(lobby.first[section].map((g) => g.id));
  const games = [...lobby.first[section], ...lobby.extra[section].filter((g) => !seen.has(g.id))];
  $(`${section}-games`).replaceChildren(...(games.length ? games.map((g) => gameLine(section, g)) : [el("li", { class: "muted", text: t("none") })]));
  $(`more-${section}`).hidden = !lobby.more[section];
}
// the lobby polls every 5 s (or as the server asks); extra pages stay until the page is left
async function listGames() {
  clearTimeout(lobby.timer);
  let wait = 5000;
  try {
    const g = await api("/api/games");
    for (const section of SECTIONS) {
      lobby.first[section] = g[section] || [];
      if (!lobby.extra[section].length) lobby.more[section] = !!(g.more && g.more[section]);
      renderSection(section);
    }
  } catch (e) {
    if (e.status === 429) wait = Math.max(wait, 1000 * e.retryAfter);
  }
  lobby.timer = setTimeout(listGames, wait);
}
async function moreGames(section) {
  const offset = lobby.first[section].length + lobby.extra[section].length;
  try {
    const page = await api(`/api/games?section=${section}&offset=${offset}`);
    lobby.extra[section].push(...page.games);
    lobby.more[section] = !!page.more;
    renderSection(section);
  } catch (e) { toast(e.message); }
}

// a signed-in player's friends, whom the seats may be kept for
async function friendNames() {
  if (!(await Account.me())) return [];
  try { return (await api("/api/friends")).friends.map((f) => f.name); } catch (e) { return []; }
}

// -- start ----------------------------------------------------------------------------------------

async function main() {
  if (location.pathname.startsWith("/game/")) {  // the server hosts no game of this link
    $("gone").hidden = false;
    $("status").textContent = t("No such game");
    return;
  }
  $("lobby").hidden = false;
  $("status").textContent = t("Lobby");
  const offered = await api("/api/lobby");
  lobby.games = offered.games;
  renderTiming(offered.timing);
  document.title = $("brand").textContent = t("Tavola");  // the site's name; a card names each game
  $("game-cards").replaceChildren(...lobby.games.map(gameCard));
  $("game-choice").hidden = lobby.games.length < 2;
  lobby.friends = await friendNames();
  const asked = new URLSearchParams(location.search).get("game");
  chooseGame(asked || lobby.games[0].name);
  $("add-seat").onclick = addSeat;
  $("remove-seat").onclick = removeSeat;
  $("create-form").onsubmit = createGame;
  // a listed or rated game starts without hints; its creator may still allow them
  for (const id of ["public", "rated"]) $(id).addEventListener("change", () => { $("hints").checked = !($("public").checked || $("rated").checked); });
  for (const section of SECTIONS) $(`more-${section}`).onclick = () => moreGames(section);
  listGames();
}
main();
