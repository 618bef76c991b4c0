// The account pages: sign in / sign up (/account), "My games" (/me), "Your move" (/your-move), a player's profile
// (/players/NAME) and the leaderboard (/leaderboard); which one is the body's data-page.
import { $, Waiting, api, duration, el, linkLine, num, t, toast, when } from "./common.js";
import { Account } from "./account.js";
import { Report } from "./report.js";

const GAMES = {};  // name -> the lobby's offer of that game (title, player counts, bot ratings)
function titleOf(name) { return GAMES[name] ? GAMES[name].title : name; }
function rating(x) { return num(x, 1); }
function seatList(game) {
  return game.seats.map((s, i) => (s.kind === "bot" ? t("{name} (bot)", { name: s.name }) : s.name) +
    (game.over ? ` ${s.score}` : "") + (i === game.seat ? " ★" : "")).join(", ");
}

// -- sign in / sign up ------------------------------------------------------------------------------

// where to go after signing in: `next` as the browser itself reads it, and only if that is on this
// site (the parser drops tabs and newlines and reads a backslash as "/", so a test of the text
// alone lets "/<tab>/host" out); the very URL checked is the one followed
function nextPage() {
  let url;
  try { url = new URL(new URLSearchParams(location.search).get("next") || "/", location.origin); } catch (e) { return "/"; }
  return url.origin === location.origin ? url.href : "/";
}
async function submitAccount(ev, path) {
  ev.preventDefault();
  const form = ev.target;
  try {
    await api(path, { name: form.querySelector("[name=name]").value, password: form.querySelector("[name=password]").value });
    location.href = nextPage();
  } catch (e) {
    form.querySelector(".form-error").textContent = e.message;
    toast(e.message);
  }
}
async function accountPage() {
  $("sign-in-form").onsubmit = (ev) => submitAccount(ev, "/api/login");
  $("sign-up-form").onsubmit = (ev) => submitAccount(ev, "/api/signup");
  const user = await Account.me();
  if (user) {
    document.body.dataset.signedIn = "yes";  // the account's own cards come before the forms
    $("signed-in").textContent = t("You are signed in as {name}.", { name: user.name });
    vacationCard();
    dataCard();
  }
}

// the player's own data: downloaded as one file, or the account deleted once its password is
// typed again and the deletion confirmed (tavola/web/privacy.py)
function dataCard() {
  $("your-data").hidden = false;
  const form = $("delete-form");
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    if (!$("delete-sure").checked) return;
    try {
      await api("/api/me/delete", { confirm: $("delete-confirm").value });
    } catch (e) {
      form.querySelector(".form-error").textContent = e.message;
      toast(e.message);
      return;
    }
    location.href = "/?deleted=1";
  };
}

// days off: the clocks of all the player's games stand still (tavola/web/vacations.py)
async function vacationCard() {
  const form = $("vacation-form");
  const show = (v) => {
    $("vacation").hidden = false;
    $("vacation-left").textContent = t("{left} of {days} vacation days left in {year}.", { left: v.left, days: v.days_per_year, year: v.year });
    $("vacation-now").textContent = v.until ? t("You are on vacation until {date}.", { date: when(v.until) }) : t("You are not on vacation.");
    $("vacation-taken").replaceChildren(...v.taken.map((x) => el("li", { "data-auto": x.auto ? "yes" : "no",
      text: t(x.auto ? "{start} to {until}, taken when a clock ran out" : "{start} to {until}", { start: when(x.start), until: when(x.until) }) })));
    $("vacation-end").hidden = !v.until;
    $("vacation-days").max = String(Math.max(1, v.left));
    $("vacation-take").disabled = v.left === 0;
    $("vacation").dataset.until = v.until || "";
    $("vacation").dataset.left = String(v.left);
    form.querySelector(".form-error").textContent = "";
  };
  const call = async (path, body) => {
    try { show(await api(path, body)); } catch (e) {
      form.querySelector(".form-error").textContent = e.message;
      toast(e.message);
    }
  };
  form.onsubmit = (ev) => { ev.preventDefault(); call("/api/me/vacation", { days: Number($("vacation-days").value) }); };
  $("vacation-end").onclick = () => call("/api/me/vacation/end", {});
  await call("/api/me/vacation");
}

// -- my games ---------------------------------------------------------------------------------------

function myLine(game) {
  const line = el("li", { "data-game": game.id },
    el("span", { class: "game-what", text: t("{game}, round {round}: ", { game: titleOf(game.game), round: game.round ?? "–" }) }),
    seatList(game), " ");
  if (game.rated) line.append(el("span", { class: "tag", text: t("rated") }), " ");
  if (game.over) {
    line.prepend(el("strong", { class: game.won ? "won" : "lost", text: game.won ? t("You won · ") : t("Finished · ") }));
    line.append(el("a", { href: `/game/${game.id}#replay` }, t("replay")));
  } else if (game.link) line.append(el("a", { href: game.link, class: "button", "data-open": game.id }, t("Open your seat")));
  return line;
}
async function myGamesPage() {
  const user = await Account.me();
  if (!user) { $("need-sign-in").hidden = false; return; }
  $("my-games").hidden = false;
  $("who").textContent = t("Games of {name}", { name: user.name });
  const load = async () => {
    try {
      const mine = await api("/api/me/games");
      for (const section of ["waiting", "running", "finished"]) {
        const games = mine[section];
        $(`my-${section}`).replaceChildren(...(games.length ? games.map(myLine) : [el("li", { class: "muted", text: t("none") })]));
      }
      document.title = mine.waiting.length ? t("({count}) My games", { count: mine.waiting.length }) : t("My games");
    } catch (e) { toast(e.message); }
    setTimeout(load, 10000);
  };
  load();
}

// -- your move: every game waiting for you, the soonest deadline first ----------------------------

function waitingLine(game) {
  const left = game.left === null ? t("no time limit") : t("{time} left", { time: duration(game.left) });
  return el("li", { "data-game": game.id },
    el("span", { class: "game-what", text: t("{game}, round {round}: ", { game: titleOf(game.game), round: game.round ?? "–" }) }),
    seatList(game), " ", el("span", { class: game.left === null ? "left muted" : "left", text: left }), " ",
    game.link ? el("a", { href: game.link, class: "button primary", "data-open": game.id }, t("Open your seat")) : "");
}
async function yourMovePage() {
  const user = await Account.me();
  if (!user) { $("need-sign-in").hidden = false; return; }
  $("your-move").hidden = false;
  const load = async () => {
    try {
      const mine = await api("/api/me/your-move");
      $("waiting-games").replaceChildren(...(mine.games.length ? mine.games.map(waitingLine) :
        [el("li", { class: "muted", text: t("No game is waiting for your move.") })]));
      $("your-move").dataset.count = mine.count;
      document.title = mine.count ? t("({count}) Your move", { count: mine.count }) : t("Your move");
      Waiting.load();
    } catch (e) { toast(e.message); }
    setTimeout(load, 30000);
  };
  load();
}

// -- a player's profile ---------------------------------------------------------------------------

// the player's friends (none shown to someone they blocked); add them, block them
async function profileFriends(p) {
  $("profile-friends-box").hidden = p.friends === null || p.friends === undefined;
  $("profile-friends").replaceChildren(...(p.friends && p.friends.length ? p.friends.map((n) => el("li", { "data-friend": n }, profileLink(n))) : none(t("No friend yet."))));
  const user = await Account.me();
  if (!user || p.you) return;
  const reload = () => profilePage();
  $("profile-actions").hidden = false;
  $("profile-actions").replaceChildren(
    p.blocked ? "" : el("button", { type: "button", id: "profile-friend", class: p.friend ? "" : "primary",
      onclick: () => post(p.friend ? "/api/friends/remove" : "/api/friends", { name: p.name }, reload) }, p.friend ? t("Remove from your friends") : t("Add as a friend")),
    " ", el("button", { type: "button", id: "profile-block",
      onclick: () => post(p.blocked ? "/api/blocks/remove" : "/api/blocks", { name: p.name }, reload) }, p.blocked ? t("Unblock") : t("Block")),
    " ", Report.button({ player: p.name }, t("Report {name} to the moderators", { name: p.name }), () => $("profile-actions")));
  $("profile-actions").dataset.friend = p.friend ? "yes" : "no";
  $("profile-actions").dataset.blocked = p.blocked ? "yes" : "no";
}
async function profilePage() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(name)}`); } catch (e) {
    $("profile-name").textContent = e.message;
    return;
  }
  $("profile-name").textContent = p.name;
  document.title = p.name;
  profileFriends(p);
  if (p.vacation_until) {
    $("profile-vacation").hidden = false;
    $("profile-vacation").textContent = t("On vacation until {date}", { date: when(p.vacation_until) });
  }
  $("profile-ratings").replaceChildren(...(p.ratings.length ? p.ratings.map((r) => el("tr", { "data-rating": `${r.game}-${r.players}` },
    el("td", { text: titleOf(r.game) }), el("td", { text: t("{n} players", { n: r.players }) }),
    el("td", { class: "num", text: rating(r.rating) }), el("td", { class: "num", text: String(r.games) }))) :
    [el("tr", {}, el("td", { colspan: 4, class: "muted", text: t("No rated game yet.") }))]));
  $("profile-games").replaceChildren(...(p.games.length ? p.games.map((g) => {
    const li = el("li", { "data-game": g.id || "" }, el("strong", { class: g.won ? "won" : "lost", text: g.won ? t("Won · ") : t("Played · ") }),
      el("span", { class: "game-what", text: t("{game}: ", { game: titleOf(g.game) }) }), seatList(g), " ",
      el("span", { class: "muted", text: when(g.updated) }));
    if (g.rating) li.append(" ", el("span", { class: "tag", text: t("rating {before} → {after}", { before: rating(g.rating.before), after: rating(g.rating.after) }) }));
    if (g.id) li.append(" ", el("a", { href: `/game/${g.id}#replay` }, t("replay")));
    return li;
  }) : [el("li", { class: "muted", text: t("No finished game yet.") })]));
}

// -- friends, invitations, blocks -----------------------------------------------------------------

const STATUS_WORDS = () => ({ waiting: t("waiting for an answer"), accepted: t("accepted"), declined: t("declined"), expired: t("not answered in time") });
function profileLink(name) { return el("a", { href: `/players/${encodeURIComponent(name)}`, text: name }); }
async function post(path, body, done) {
  try { const r = await api(path, body); await done(r); } catch (e) { toast(e.message); }
}
function invitedLine(i, reload) {
  const li = el("li", { "data-invitation": `${i.game}:${i.seat}`, "data-status": i.status },
    t("{by} invites you to a game of {game}, seat {seat}", { by: i.by, game: titleOf(i.game_name), seat: i.seat + 1 }), " ");
  if (i.status === "waiting" || i.status === "expired") {
    const path = `/api/invitations/${encodeURIComponent(i.game)}/${i.seat}`;
    li.append(el("button", { type: "button", class: "primary", "data-accept": "", onclick: () => post(`${path}/accept`, {}, (r) => { location.href = r.link; }) }, t("Accept")), " ",
      el("button", { type: "button", "data-decline": "", onclick: () => post(`${path}/decline`, {}, reload) }, t("Decline")));
  } else li.append(el("span", { class: "tag", text: STATUS_WORDS()[i.status] }));
  return li;
}
// a seat declined or not answered in time: to another friend, a bot, or anyone
function giveSeat(i, friends, reload) {
  const path = `/api/invitations/${encodeURIComponent(i.game)}/${i.seat}/give`;
  const who = el("select", { "data-give-friend": "", "aria-label": t("Invite another friend") },
    ...friends.filter((f) => f.name !== i.to).map((f) => el("option", { value: f.name }, f.name)));
  const offer = GAMES[i.game_name] || { bots: [] };
  const levelName = (b) => ((offer.bot_levels || []).find((l) => l.id === b) || { name: b }).name;
  const bot = el("select", { "data-give-bot": "", "aria-label": t("Give the seat to a bot") }, ...offer.bots.map((b) => el("option", { value: b }, levelName(b))));
  const box = el("span", { class: "row" });
  if (who.options.length) box.append(who, el("button", { type: "button", "data-give": "invite", onclick: () => post(path, { invite: who.value }, reload) }, t("Invite")));
  box.append(bot, el("button", { type: "button", "data-give": "bot", onclick: () => post(path, { bot: bot.value }, reload) }, t("Give to the bot")),
    el("button", { type: "button", "data-give": "open", onclick: () => post(path, { open: true }, async (r) => { toast(t("The seat is open to anyone: send its link."), "info"); box.replaceChildren(linkLine(t("Seat link:"), r.link)); }) }, t("Open to anyone")));
  return box;
}
function sentLine(i, friends, reload) {
  const li = el("li", { "data-sent": `${i.game}:${i.seat}`, "data-status": i.status },
    t("{to}, seat {seat} of a game of {game}:", { to: i.to, seat: i.seat + 1, game: titleOf(i.game_name) }), " ",
    el("span", { class: "tag", text: STATUS_WORDS()[i.status] }), " ");
  if (i.status === "declined" || i.status === "expired") li.append(giveSeat(i, friends, reload));
  else if (i.status === "waiting") li.append(el("span", { class: "muted", text: t("until {when}", { when: when(i.until) }) }));
  return li;
}
function friendLine(f, reload) {
  const games = f.games.map((g) => el("li", { "data-friend-game": g.id },
    t("{game}, round {round}", { game: titleOf(g.game), round: g.round ?? "–" }), " ",
    el("a", { href: `/game/${g.id}#watch` }, t("watch")), g.open ? el("span", { class: "tag", text: t("a seat is free") }) : ""));
  return el("li", { "data-friend": f.name }, profileLink(f.name), " ",
    el("button", { type: "button", class: "link", "data-unfriend": f.name, onclick: () => post("/api/friends/remove", { name: f.name }, reload) }, t("Remove")),
    games.length ? el("ul", { class: "friend-games" }, ...games) : "");
}
function none(text) { return [el("li", { class: "muted", text })]; }
async function friendsPage() {
  const user = await Account.me();
  if (!user) { $("need-sign-in").hidden = false; return; }
  $("friends-page").hidden = false;
  const load = async () => {
    let f;
    try { f = await api("/api/friends"); } catch (e) { toast(e.message); return; }
    $("invited").replaceChildren(...(f.invited.length ? f.invited.map((i) => invitedLine(i, load)) : none(t("No invitation."))));
    $("friends").replaceChildren(...(f.friends.length ? f.friends.map((x) => friendLine(x, load)) : none(t("No friend yet."))));
    $("sent").replaceChildren(...(f.sent.length ? f.sent.map((i) => sentLine(i, f.friends, load)) : none(t("No invitation."))));
    $("blocked").replaceChildren(...(f.blocked.length ? f.blocked.map((name) => el("li", { "data-blocked": name }, profileLink(name), " ",
      el("button", { type: "button", class: "link", "data-unblock": name, onclick: () => post("/api/blocks/remove", { name }, load) }, t("Unblock")))) : none(t("Nobody."))));
    $("friends-page").dataset.loaded = String(Date.now());
  };
  const form = (id, path, input) => {
    $(id).onsubmit = (ev) => { ev.preventDefault(); post(path, { name: $(input).value }, () => { $(input).value = ""; return load(); }); };
  };
  form("add-friend-form", "/api/friends", "friend-name");
  form("block-form", "/api/blocks", "block-name");
  load();
}

// -- the leaderboard ------------------------------------------------------------------------------

async function leaderboardPage() {
  const params = new URLSearchParams(location.search);
  const gameSel = $("board-game"), countSel = $("board-players");
  gameSel.replaceChildren(...Object.values(GAMES).map((g) => el("option", { value: g.name }, g.title)));
  gameSel.value = params.get("game") && GAMES[params.get("game")] ? params.get("game") : Object.keys(GAMES)[0];
  const counts = () => {
    const g = GAMES[gameSel.value];
    const keep = countSel.value || params.get("players");
    countSel.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) =>
      el("option", { value: g.min_players + i }, t("{n} players", { n: g.min_players + i }))));
    if ([...countSel.options].some((o) => o.value === keep)) countSel.value = keep;
  };
  const show = async () => {
    history.replaceState(null, "", `/leaderboard?game=${gameSel.value}&players=${countSel.value}`);
    const b = await api(`/api/leaderboard?game=${gameSel.value}&players=${countSel.value}`);
    const rows = [...b.people.map((p) => ({ ...p, kind: "person" })), ...b.bots.map((x) => ({ ...x, kind: "bot" }))]
      .sort((x, y) => y.rating - x.rating);
    let place = 0;
    $("board-rows").replaceChildren(...(rows.length ? rows.map((r) => {
      if (r.kind === "person") place += 1;
      const who = r.kind === "person" ? el("a", { href: `/players/${encodeURIComponent(r.name)}`, text: r.name })
        : el("span", { text: t("{name} bot (fixed, measured by tournaments)", { name: r.name }) });
      return el("tr", { class: r.kind, "data-name": r.kind === "person" ? r.name : `bot:${r.bot}` },
        el("td", { class: "num", text: r.kind === "person" ? String(place) : "" }), el("td", {}, who),
        el("td", { class: "num", text: rating(r.rating) }), el("td", { class: "num", text: r.kind === "person" ? String(r.games) : "" }));
    }) : [el("tr", {}, el("td", { colspan: 4, class: "muted", text: t("No rated game yet.") }))]));
    $("board").dataset.loaded = `${gameSel.value}-${countSel.value}`;
  };
  gameSel.onchange = () => { counts(); show(); };
  countSel.onchange = show;
  counts();
  show();
}

async function accountPages() {
  try { for (const g of (await api("/api/lobby")).games) GAMES[g.name] = g; } catch (e) { /* titles stay names */ }
  const page = document.body.dataset.page;
  if (page === "account") accountPage();
  else if (page === "me") myGamesPage();
  else if (page === "your-move") yourMovePage();
  else if (page === "profile") profilePage();
  else if (page === "leaderboard") leaderboardPage();
  else if (page === "friends") friendsPage();
}
accountPages();
