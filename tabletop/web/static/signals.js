// Your-turn signals on every game's table: the tab's title and icon change when it is your
// move, an optional sound and an optional browser notification (both off until the player
// switches them on; remembered on this device), and the time left for the move in a
// turn-based game. Loaded after table.js; it follows the views the server sends.
"use strict";

const Signals = (() => {
  const PREF = "signals:";
  const s = { view: null, mine: false, title: null, icon: null, timer: null, box: null };

  function pref(name) { return localStorage.getItem(PREF + name) === "on"; }
  function setPref(name, on) { localStorage.setItem(PREF + name, on ? "on" : "off"); }

  // a seat a bot took for good is not the player's to move any more
  function myMove(v) {
    return !!(v && v.timing && v.you !== null && v.you !== undefined && !Table.replaying
      && v.timing.to_move.includes(v.you) && !(v.timing.replaced || []).includes(v.you));
  }

  // -- title and icon --------------------------------------------------------------------------
  function iconLink() { return document.querySelector("link[rel~='icon']"); }
  function mark(mine) {
    const link = iconLink();
    if (mine) {
      if (s.title === null) s.title = document.title;
      if (link && s.icon === null) s.icon = link.getAttribute("href");
      document.title = t("▶ Your move · {title}", { title: s.title });
      if (link) link.setAttribute("href", "/static/tabletop/your-move.svg");
    } else {
      if (s.title !== null) document.title = s.title;
      if (link && s.icon !== null) link.setAttribute("href", s.icon);
      s.title = null; s.icon = null;
    }
    document.body.dataset.yourMove = mine ? "yes" : "no";
  }

  // -- sound and notification ------------------------------------------------------------------
  function beep() {
    try {
      const ctx = new (window.AudioContext || window.webkitAudioContext)();
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 660; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.18);
      osc.onended = () => ctx.close();
    } catch (e) { /* no sound on this browser */ }
  }
  function notify() {
    if (!pref("notify") || !document.hidden || !("Notification" in window)) return;
    if (Notification.permission !== "granted") return;
    try { new Notification(t("Your move in {title}", { title: s.title || document.title })); } catch (e) { /* not allowed */ }
  }
  async function toggleNotify() {
    if (pref("notify")) { setPref("notify", false); controls(); return; }
    if (!("Notification" in window)) { toast(t("This browser cannot show notifications.")); return; }
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (answer !== "granted") { toast(t("Notifications are not allowed for this site in your browser.")); return; }
    setPref("notify", true); controls();
  }

  // -- time left -------------------------------------------------------------------------------
  function span(seconds) {
    const x = Math.max(0, Math.floor(seconds));
    const d = Math.floor(x / 86400), h = Math.floor(x % 86400 / 3600), m = Math.floor(x % 3600 / 60), sec = x % 60;
    if (d) return t("{d} d {h} h", { d, h });
    if (h) return t("{h} h {m} min", { h, m });
    if (m) return t("{m} min {s} s", { m, s: sec });
    return t("{s} s", { s: sec });
  }
  function clockText(v) {
    const deadlines = (v && v.timing && v.timing.deadlines) || {};
    const seats = Object.keys(deadlines).map(Number);
    if (!seats.length || Table.replaying) return "";
    const now = Date.now() / 1000;
    const away = (seat) => { const until = (v.timing.vacation || {})[seat]; return until && until > now ? until : null; };
    if (seats.includes(v.you)) {
      if (away(v.you)) return t("You are on vacation until {date}: your clock stands still", { date: when(away(v.you)) });
      return t("{time} left for your move", { time: span(deadlines[v.you] - now) });
    }
    const first = seats.reduce((a, b) => (deadlines[a] <= deadlines[b] ? a : b));
    const who = v.players && v.players[first] ? v.players[first].name : "";
    if (away(first)) return t("{name} is on vacation until {date}", { name: who, date: when(away(first)) });
    return t("{name} has {time} left", { name: who, time: span(deadlines[first] - now) });
  }
  function tick() { if (s.box) s.box.querySelector("#turn-clock").textContent = clockText(s.view); }

  // -- the controls in the header ---------------------------------------------------------------
  function controls() {
    if (!s.box) {
      s.box = el("span", { id: "signals", class: "signals" },
        el("span", { id: "turn-clock", "aria-live": "off" }),
        el("button", { type: "button", id: "sound-toggle", class: "small" }),
        el("button", { type: "button", id: "notify-toggle", class: "small" }));
      s.box.querySelector("#sound-toggle").addEventListener("click", () => { setPref("sound", !pref("sound")); if (pref("sound")) beep(); controls(); });
      s.box.querySelector("#notify-toggle").addEventListener("click", toggleNotify);
      const conn = $("conn");
      if (conn) conn.before(s.box); else document.querySelector("header").append(s.box);
    }
    const sound = s.box.querySelector("#sound-toggle"), note = s.box.querySelector("#notify-toggle");
    sound.textContent = pref("sound") ? t("Sound: on") : t("Sound: off");
    sound.setAttribute("aria-pressed", String(pref("sound")));
    sound.title = t("A sound when it becomes your move");
    note.textContent = pref("notify") ? t("Notify: on") : t("Notify: off");
    note.setAttribute("aria-pressed", String(pref("notify")));
    note.title = t("A browser notification when it becomes your move while this tab is in the background");
  }

  function onView(v) {
    s.view = v;
    if (v.you === null || v.you === undefined) { mark(false); tick(); if (!s.box) controlsForWatchers(); return; }
    controls();
    const mine = myMove(v);
    if (mine && !s.mine) { if (pref("sound")) beep(); notify(); }
    s.mine = mine;
    mark(mine);
    tick();
  }
  // spectators see the clock, not the toggles
  function controlsForWatchers() {
    controls();
    s.box.querySelector("#sound-toggle").hidden = true;
    s.box.querySelector("#notify-toggle").hidden = true;
  }

  Table.on("view", onView);
  s.timer = setInterval(tick, 1000);
  return { state: s, span };
})();
