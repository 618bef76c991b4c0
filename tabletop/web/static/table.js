// The platform's side of every game's table: the connection (hello with the seat link from the
// URL hash, reconnect with backoff, one move per view), presence, the replay of a finished game
// step by step, the record download and the rematch. A game's page loads common.js, then this,
// then its own script, which draws its table and calls `Table.start({...})`.
"use strict";

const Table = (() => {
  function svg(tag, attrs = {}, parent = null) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  const t = { gameId: null, token: null, ws: null, view: null, retry: 0, gone: false, sentSeq: null,
    hooks: {}, replay: null };

  function setConn(text) { if ($("conn")) $("conn").textContent = text; }
  function connect() {
    if (t.gone) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${t.gameId}`);
    t.ws = ws;
    setConn("connecting…");
    ws.onopen = () => { t.retry = 0; setConn("online"); ws.send(JSON.stringify({ type: "hello", token: t.token })); };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (t.gone || ev.code === 4404) { showGone(); return; }  // no such game: nothing to reconnect to
      setConn("offline, reconnecting…");
      t.retry = Math.min(t.retry + 1, 6);
      setTimeout(connect, 300 * t.retry);
    };
  }
  function send(msg) {
    if (t.ws && t.ws.readyState === WebSocket.OPEN) { t.ws.send(JSON.stringify(msg)); return true; }
    toast("Not connected; reconnecting…");
    return false;
  }
  // every move names the view it was made on: a move made on an old view is refused, not misplayed
  function act(action) {
    if (!t.view || t.sentSeq === t.view.seq) return false;  // one move per view: a second click is ignored
    t.sentSeq = t.view.seq;
    return send({ type: "act", seq: t.view.seq, action });
  }
  function undo() { if (t.view) send({ type: "undo", seq: t.view.seq }); }
  function check(action) { send({ type: "check", action }); }
  function rematch() { send({ type: "rematch" }); }

  function onMessage(msg) {
    const h = t.hooks;
    if (typeof Tutorial !== "undefined") Tutorial.message(msg);  // a tutorial's steps (tutorial.js)
    if (msg.type === "state") {
      if (!t.view || t.view.seq !== msg.seq) t.sentSeq = null;  // a new view: a move may be sent on it
      t.view = msg;
      document.body.dataset.seq = msg.seq;
      document.body.dataset.phase = msg.phase;
      h.view(msg);
    } else if (msg.type === "welcome") {
      if (msg.seat === null && t.token) toast("This link opens no seat: you are watching.");
    } else if (msg.type === "presence") {
      if (t.view) msg.seats.forEach((s, i) => { if (t.view.players[i]) Object.assign(t.view.players[i], s); });
      if (h.presence) h.presence(msg.seats);
    } else if (msg.type === "check") { if (h.check) h.check(msg); }
    else if (msg.type === "rematch") {
      if (h.rematch) { h.rematch(msg.link); return; }
      if (t.wantRematch) { location.href = msg.link; return; }
      if (t.view) { t.view.rematch = msg.link; h.view(t.view); }
      toast("A rematch has started: the link is on the end screen.", "info");
    } else if (msg.type === "error") {
      if (msg.code === "not-found") { showGone(); return; }
      if (msg.code === "bad-token") { t.token = null; forgetSeat(t.gameId); }
      t.sentSeq = null;
      if (h.error) h.error(msg);
      toast(sentence(msg.message));  // players read the sentence; the rule id is for programs
    }
  }
  // an unknown game: say so and show the way back, instead of reconnecting for ever
  function showGone() {
    t.gone = true;
    if (t.ws) { t.ws.onclose = null; t.ws.close(); }
    if ($("game")) $("game").hidden = true;
    if ($("gone")) $("gone").hidden = false;
    if ($("status")) $("status").textContent = "No such game";
    setConn("");
  }

  // -- the end --------------------------------------------------------------------------------
  // the end of a game: its record, its replay, a rematch (players only)
  function endLinks(name) {
    if (t.replay) return "";
    const row = el("div", { class: "row" },
      el("a", { href: `/api/games/${t.gameId}/record`, download: `${name}-${t.gameId}.json`, id: "download" }, "Download the game record"),
      el("a", { href: `/game/${t.gameId}#replay`, id: "replay-link", onclick: () => setTimeout(() => location.reload(), 0) }, "Watch the replay"));
    const v = t.view;
    if (v && v.rematch) {
      return el("div", {}, row, el("p", { id: "rematch-ready", class: "row" }, "A rematch has started: ",
        el("a", { href: v.rematch, id: "rematch-link", class: "button primary" }, v.you === null ? "watch it" : "play the rematch")));
    }
    if (!v || v.you === null) return row;
    return el("div", {}, row, el("div", { class: "row" }, el("button", { type: "button", id: "rematch", class: "primary",
      onclick: (ev) => { t.wantRematch = true; ev.target.disabled = true; rematch(); } }, "Rematch"),
    el("span", { class: "muted", text: "Same seats and bots, a new game." })));
  }

  // -- replay: the public view after each step of a finished game ------------------------------
  async function fetchStep(step) {
    const r = await fetch(`/api/games/${t.gameId}/replay/${step}`);
    const data = await r.json();
    if (!r.ok) { toast(sentence(data.message || "no replay")); return null; }
    return data;
  }
  async function showStep(step) {
    const data = await fetchStep(step);
    if (!data) return;
    t.replay.step = data.replay.step;
    t.replay.total = data.replay.total;
    $("rp-slider").max = data.replay.total;
    $("rp-slider").value = data.replay.step;
    $("rp-step").textContent = `step ${data.replay.step} of ${data.replay.total}`;
    t.view = data;
    t.hooks.view(data);
  }
  async function setupReplay() {
    t.replay = { step: 0, total: 0, timer: null };
    $("replay-bar").hidden = false;
    setConn("replay");
    const go = (f) => () => showStep(Math.max(0, Math.min(t.replay.total, f(t.replay.step))));
    $("rp-start").onclick = go(() => 0);
    $("rp-back").onclick = go((i) => i - 1);
    $("rp-next").onclick = go((i) => i + 1);
    $("rp-end").onclick = go(() => t.replay.total);
    $("rp-slider").oninput = (ev) => showStep(Number(ev.target.value));
    $("rp-play").onclick = () => {
      const r = t.replay;
      if (r.timer) { clearInterval(r.timer); r.timer = null; $("rp-play").setAttribute("aria-label", "Play"); return; }
      $("rp-play").setAttribute("aria-label", "Pause");
      r.timer = setInterval(() => {
        if (r.step >= r.total) { clearInterval(r.timer); r.timer = null; } else showStep(r.step + 1);
      }, 700);
    };
    await showStep(1e9);  // the end, clamped by the server: the number of steps
    await showStep(0);
  }

  // -- start ----------------------------------------------------------------------------------
  // hooks: view(msg) (required), check(msg), presence(seats), error(msg), rematch(link) and
  // replay() for a page with its own

  function start(hooks) {
    t.hooks = hooks;
    const m = location.pathname.match(/^\/game\/([\w-]+)/);
    if (!m) return false;
    t.gameId = m[1];
    if ($("game")) $("game").hidden = false;
    window.addEventListener("hashchange", () => location.reload());
    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash === "replay") { (hooks.replay || setupReplay)(); return true; }
    if (hash && hash !== "watch") { t.token = hash; saveSeat(t.gameId, hash); }
    else if (hash !== "watch") t.token = savedSeat(t.gameId);
    connect();
    return true;
  }

  return { svg, start, send, act, undo, check, endLinks, showGone,
    state: t, get view() { return t.view; }, get replaying() { return !!t.replay; } };
})();
