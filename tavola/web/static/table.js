// The platform's side of every game's table: the connection (hello with the seat link from the
// URL hash, reconnect with backoff, one move per view), presence, the replay of a finished game
// step by step, the record download and the rematch. A game's page loads this module and the
// table's other parts (signals.js, chat.js, …), then its own, which draws its table and calls
// `Table.start({...})`.
import { $, I18N, el, forgetSeat, saveSeat, savedSeat, sentence, t, toast } from "./common.js";
import { applied } from "./changes.js";

export const Table = (() => {
  const tb = { gameId: null, token: null, ws: null, view: null, retry: 0, gone: false, sentSeq: null,
    hooks: {}, replay: null, listeners: {} };

  // the platform's own page parts (signals.js, chat.js, hint.js) follow the messages they need:
  // Table.on("message" | "view" | "welcome" | "chat" | "hint" | "error", fn)
  function on(type, fn) { (tb.listeners[type] = tb.listeners[type] || []).push(fn); }
  function emit(type, msg) { for (const fn of tb.listeners[type] || []) fn(msg); }

  function setConn(text) { if ($("conn")) $("conn").textContent = text; }
  function connect() {
    if (tb.gone) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${tb.gameId}`);
    tb.ws = ws;
    setConn(t("connecting…"));
    ws.onopen = () => { tb.retry = 0; setConn(t("online")); ws.send(JSON.stringify({ type: "hello", token: tb.token, lang: I18N.lang, changes: true })); };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (tb.gone || ev.code === 4404) { showGone(); return; }  // no such game: nothing to reconnect to
      if (tb.ws !== ws) return;
      tb.resync = true;  // the next view is the game as stored: a move may be sent on it
      // a restart answers every move it plays before it closes: one sent and not answered was not played
      tb.resend = ev.code === 1012 || tb.restarting;
      if (tb.resend) {
        // the server restarts (another process, or this one again, takes the table): at once, with a
        // little jitter so that a whole server's players do not all arrive in the same instant
        tb.restarting = false;
        tb.retry = 0;
        setConn(t("the server is restarting: reconnecting…"));
        setTimeout(connect, 50 + Math.random() * 450);
        return;
      }
      setConn(t("offline, reconnecting…"));
      tb.retry = Math.min(tb.retry + 1, 6);
      setTimeout(connect, 300 * tb.retry);
    };
  }
  // the first view on a new connection: the game as stored. After a restart, a move we sent that
  // it does not show was not played: send it again (after a mere drop it may be still on its way)
  function resync(msg) {
    tb.resync = false;
    const last = tb.lastAct;
    tb.lastAct = null;
    tb.sentSeq = null;
    if (tb.resend && last && last.seq === msg.seq && msg.legal) {
      tb.sentSeq = msg.seq;
      tb.lastAct = last;
      send({ type: "act", seq: last.seq, action: last.action });
    }
  }
  function send(msg) {
    if (tb.ws && tb.ws.readyState === WebSocket.OPEN) { tb.ws.send(JSON.stringify(msg)); return true; }
    toast(t("Not connected; reconnecting…"));
    return false;
  }
  // every move names the view it was made on: a move made on an old view is refused, not misplayed
  function act(action) {
    if (!tb.view || tb.sentSeq === tb.view.seq) return false;  // one move per view: a second click is ignored
    tb.sentSeq = tb.view.seq;
    tb.lastAct = { seq: tb.view.seq, action };
    return send({ type: "act", seq: tb.view.seq, action });
  }
  function undo() { if (tb.view) send({ type: "undo", seq: tb.view.seq }); }
  function check(action) { send({ type: "check", action }); }
  function rematch() { send({ type: "rematch" }); }

  // after a full view, the server sends each view as its change from the one before, numbered
  // (changes.js): one that does not follow the last view, or does not fit it, asks for the full
  // view (once, until it comes)
  function changed(msg) {
    if (tb.view && typeof tb.n === "number" && msg.n === tb.n + 1) {
      try {
        const view = applied(tb.view, { set: msg.set, drop: msg.drop, edit: msg.edit });
        view.n = tb.n = msg.n;
        return view;
      } catch (e) { /* asks for the full view below */ }
    }
    if (!tb.askedFull) {
      tb.askedFull = true;
      document.body.dataset.fullViewsAsked = (Number(document.body.dataset.fullViewsAsked) || 0) + 1;
      send({ type: "state" });
    }
    return null;
  }

  // a game on an edition says which in the header, by its name (the author's text)
  function showEdition(name) {
    let tag = $("edition-tag");
    if (!name) { if (tag) tag.remove(); return; }
    if (!tag) {
      tag = el("span", { id: "edition-tag", class: "muted" });
      const top = $("top");
      if (top) top.append(tag);
    }
    tag.textContent = t("Edition: {name}", { name });
  }
  function onMessage(msg) {
    const h = tb.hooks;
    if (msg.type === "change") {
      msg = changed(msg);
      if (!msg) return;
    } else if (msg.type === "state") {
      tb.n = msg.n;
      tb.askedFull = false;
    }
    emit("message", msg);  // every message, before the table's: a tutorial's steps (tutorial.js)
    if (msg.type === "state") {
      if (!tb.view || tb.view.seq !== msg.seq) { tb.sentSeq = null; tb.lastAct = null; }  // a new view: a move may be sent on it
      tb.view = msg;
      if (tb.resync) document.body.dataset.resyncs = (Number(document.body.dataset.resyncs) || 0) + 1;  // views resynced after a reconnection
      if (tb.resync) resync(msg);
      document.body.dataset.seq = msg.seq;
      document.body.dataset.phase = msg.phase;
      h.view(msg);
      showEdition(msg.edition);
      emit("view", msg);
    } else if (msg.type === "chat" || msg.type === "chat-hidden") { emit(msg.type, msg); }
    else if (msg.type === "hint") { emit("hint", msg); }
    else if (msg.type === "restarting") { tb.restarting = true; setConn(t("the server is restarting: reconnecting…")); }
    else if (msg.type === "welcome") {
      emit("welcome", msg);
      if (msg.seat === null && tb.token) toast(t("This link opens no seat: you are watching."));
    } else if (msg.type === "presence") {
      if (tb.view) msg.seats.forEach((s, i) => { if (tb.view.players[i]) Object.assign(tb.view.players[i], s); });
      if (h.presence) h.presence(msg.seats);
    } else if (msg.type === "check") { if (h.check) h.check(msg); }
    else if (msg.type === "rematch") {
      if (h.rematch) { h.rematch(msg.link); return; }
      if (tb.wantRematch) { location.href = msg.link; return; }
      if (tb.view) { tb.view.rematch = msg.link; h.view(tb.view); }
      toast(t("A rematch has started: the link is on the end screen."), "info");
    } else if (msg.type === "error") {
      if (msg.code === "not-found") { showGone(); return; }
      // a rated game's seat is for a signed-in player: sign in, then come back to this seat
      if (msg.code === "sign-in") { tb.gone = true; location.href = `/account?next=${encodeURIComponent(location.pathname + location.hash)}`; return; }
      if (msg.code === "bad-token") { tb.token = null; forgetSeat(tb.gameId); showBadLink(); return; }
      if (msg.code === "restarting") { tb.restarting = true; return; }  // sent again once reconnected (resync)
      tb.sentSeq = null;
      emit("error", msg);
      if (h.error) h.error(msg);
      toast(sentence(msg.message));  // players read the sentence; the rule id is for programs
    }
  }
  // an unknown game: say so and show the way back, instead of reconnecting for ever
  function showGone() {
    tb.gone = true;
    if (tb.ws) { tb.ws.onclose = null; tb.ws.close(); }
    if ($("game")) $("game").hidden = true;
    if ($("gone")) $("gone").hidden = false;
    if ($("status")) $("status").textContent = t("No such game");
    setConn("");
  }

  // a link to a real game that opens none of its seats: say so, and offer to watch the game
  // or go to the lobby, instead of an empty table under a toast
  function showBadLink() {
    if ($("bad-link")) return;
    if ($("game")) $("game").hidden = true;
    const card = el("section", { class: "card" },
      el("h2", { text: t("This link opens no seat of this game") }),
      el("p", { text: t("It may be mistyped, cut short or from an earlier game: ask whoever sent it for the seat's link again. Meanwhile you can watch the game.") }),
      el("p", { class: "row" },
        el("a", { href: `/game/${tb.gameId}#watch`, id: "bad-link-watch", class: "button primary",
          onclick: () => setTimeout(() => location.reload(), 0) }, t("Watch this game")),
        el("a", { href: "/", id: "bad-link-lobby", class: "button" }, t("To the lobby"))));
    const box = el("main", { id: "bad-link", role: "alert" }, card);
    const header = document.querySelector("header");
    if (header) header.after(box); else document.body.prepend(box);
    if ($("status")) $("status").textContent = t("This link opens no seat of this game");
  }

  // -- the end --------------------------------------------------------------------------------
  // the end of a game: its record, its replay, a rematch (players only)
  function endLinks(name) {
    if (tb.replay) return "";
    const row = el("div", { class: "row" },
      el("a", { href: `/api/games/${tb.gameId}/record`, download: `${name}-${tb.gameId}.json`, id: "download" }, t("Download the game record")),
      el("a", { href: `/game/${tb.gameId}#replay`, id: "replay-link", onclick: () => setTimeout(() => location.reload(), 0) }, t("Watch the replay")),
      el("a", { href: `/game/${tb.gameId}/review#${tb.view && tb.view.you !== null && tb.view.you !== undefined ? tb.view.you : 0}`, id: "review-link" }, t("Review the game")));
    const v = tb.view;
    if (v && v.rematch) {
      return el("div", {}, row, el("p", { id: "rematch-ready", class: "row" }, t("A rematch has started:"), " ",
        el("a", { href: v.rematch, id: "rematch-link", class: "button primary" }, v.you === null ? t("watch it") : t("play the rematch"))));
    }
    if (!v || v.you === null) return row;
    return el("div", {}, row, el("div", { class: "row" }, el("button", { type: "button", id: "rematch", class: "primary",
      onclick: (ev) => { tb.wantRematch = true; ev.target.disabled = true; rematch(); } }, t("Rematch")),
    el("span", { class: "muted", text: t("Same seats and bots, a new game.") })));
  }

  // -- replay: the public view after each step of a finished game ------------------------------
  async function fetchStep(step) {
    const r = await fetch(`/api/games/${tb.gameId}/replay/${step}`);
    const data = await r.json();
    if (!r.ok) { toast(sentence(data.message || t("no replay"))); return null; }
    return data;
  }
  // each click moves on from the step last asked for, and an answer to an earlier request is
  // dropped: quick clicks on "step forward" go as many steps, whatever order the answers come in
  async function showStep(step) {
    const asked = ++tb.replay.asked;
    tb.replay.want = step;
    const data = await fetchStep(step);
    if (!data || asked !== tb.replay.asked) return;
    tb.replay.want = data.replay.step;
    tb.replay.step = data.replay.step;
    tb.replay.total = data.replay.total;
    $("rp-slider").max = data.replay.total;
    $("rp-slider").value = data.replay.step;
    $("rp-step").textContent = t("step {step} of {total}", { step: data.replay.step, total: data.replay.total });
    tb.view = data;
    tb.hooks.view(data);
  }
  async function setupReplay() {
    tb.replay = { step: 0, total: 0, timer: null, asked: 0, want: 0 };
    $("replay-bar").hidden = false;
    setConn("replay");
    const go = (f) => () => showStep(Math.max(0, Math.min(tb.replay.total, f(tb.replay.want))));
    $("rp-start").onclick = go(() => 0);
    $("rp-back").onclick = go((i) => i - 1);
    $("rp-next").onclick = go((i) => i + 1);
    $("rp-end").onclick = go(() => tb.replay.total);
    $("rp-slider").oninput = (ev) => showStep(Number(ev.target.value));
    $("rp-play").onclick = () => {
      const r = tb.replay;
      if (r.timer) { clearInterval(r.timer); r.timer = null; $("rp-play").setAttribute("aria-label", "Play"); return; }
      $("rp-play").setAttribute("aria-label", "Pause");
      r.timer = setInterval(() => {
        if (r.step >= r.total) { clearInterval(r.timer); r.timer = null; } else showStep(r.step + 1);
      }, 700);
    };
    await showStep(1e9);  // the end, clamped by the server: the number of steps
    await showStep(0);
  }

  // -- the keyboard's way to the move -----------------------------------------------------------
  // the first stop of Tab on a table: a link that takes the focus to the control of the move
  // asked now (hooks.moveControl(): the map while placing, the first card while planning), past
  // the header's links and buttons; hidden until it has the focus
  function addSkipLink(moveControl) {
    const link = el("a", { href: "#", id: "skip-to-move", class: "skip-link",
      onclick: (ev) => {
        ev.preventDefault();
        const target = moveControl() || $("game");
        if (!target) return;
        if (!target.hasAttribute("tabindex") && !target.matches("a, button, input, select, textarea")) target.setAttribute("tabindex", "-1");
        target.focus();
      } }, t("Skip to your move"));
    document.body.prepend(link);
  }

  // -- start ----------------------------------------------------------------------------------
  // hooks: view(msg) (required), check(msg), presence(seats), error(msg), rematch(link),
  // replay() for a page with its own, and moveControl() for the skip link (see addSkipLink)

  function start(hooks) {
    tb.hooks = hooks;
    const m = location.pathname.match(/^\/game\/([\w-]+)/);
    if (!m) return false;
    tb.gameId = m[1];
    if ($("game")) $("game").hidden = false;
    if (hooks.moveControl) addSkipLink(hooks.moveControl);
    window.addEventListener("hashchange", () => location.reload());
    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash === "replay") { (hooks.replay || setupReplay)(); return true; }
    if (hash && hash !== "watch") { tb.token = hash; saveSeat(tb.gameId, hash); }
    else if (hash !== "watch") tb.token = savedSeat(tb.gameId);
    connect();
    return true;
  }

  return { start, send, act, undo, check, endLinks, showGone, on,
    state: tb, get view() { return tb.view; }, get replaying() { return !!tb.replay; } };
})();
