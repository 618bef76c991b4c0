// Your-turn signals on every game's table: the tab's title and icon change when it is your
// move, an optional sound and an optional browser notification (both off until the player
// switches them on; remembered on this device), and the time left for the move in a
// turn-based game; after your move, a "Next game" button when another game waits for you.
// Loaded after table.js; it follows the views the server sends.
import { $, Waiting, api, duration, el, t, toast, when } from "./common.js";
import { Table } from "./table.js";

export const Signals = (() => {
  const PREF = "signals:";
  const s = { view: null, mine: false, seen: false, title: null, icon: null, timer: null, box: null };

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
      if (link) link.setAttribute("href", "/static/tavola/your-move.svg");
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
  const span = duration;  // common.js
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

  // -- a reminder to the player the game waits for (signed-in players; once a day per seat) ---
  function waitedFor(v) {
    const seats = Object.keys((v && v.timing && v.timing.deadlines) || {}).map(Number);
    const signedIn = /(?:^|; )tabletop_csrf=/.test(document.cookie);
    if (!signedIn || Table.replaying || v.you === null || v.you === undefined || seats.includes(v.you)) return null;
    const others = seats.filter((x) => !(v.timing.replaced || []).includes(x));
    return others.length ? others[0] : null;
  }
  async function nudge() {
    const seat = waitedFor(s.view);
    if (seat === null) return;
    const name = s.view.players && s.view.players[seat] ? s.view.players[seat].name : "";
    try {
      await api(`/api/games/${location.pathname.split("/")[2]}/nudge`, { seat });
      toast(t("{name} is reminded that the game waits for them.", { name }), "info");
    } catch (e) { toast(e.message); }
  }

  // -- the controls in the header ---------------------------------------------------------------
  function controls() {
    if (!s.box) {
      s.box = el("span", { id: "signals", class: "signals" },
        el("span", { id: "turn-clock", "aria-live": "off" }),
        el("button", { type: "button", id: "sound-toggle", class: "small" }),
        el("button", { type: "button", id: "notify-toggle", class: "small" }),
        el("button", { type: "button", id: "nudge", class: "small", hidden: true }));
      s.box.querySelector("#sound-toggle").addEventListener("click", () => { setPref("sound", !pref("sound")); if (pref("sound")) beep(); controls(); });
      s.box.querySelector("#notify-toggle").addEventListener("click", toggleNotify);
      s.box.querySelector("#nudge").addEventListener("click", nudge);
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
    const waited = waitedFor(s.view), remind = s.box.querySelector("#nudge");
    remind.hidden = waited === null;
    if (waited !== null) {
      const name = s.view.players && s.view.players[waited] ? s.view.players[waited].name : "";
      remind.textContent = t("Remind {name}", { name });
      remind.title = t("Send {name} a reminder by their chosen notifications (once a day)", { name });
    }
  }

  function onView(v) {
    s.view = v;
    if (v.you === null || v.you === undefined) { mark(false); tick(); if (!s.box) controlsForWatchers(); return; }
    controls();
    const mine = myMove(v);
    if (mine && !s.mine) { if (pref("sound")) beep(); notify(); }
    // your move again (not on the page's first view): the header's count anew, no "Next game"
    if (mine && !s.mine && s.seen) { Waiting.clear(); Waiting.load(); }
    s.seen = true;
    // your move made: the next game waiting for you, if any (common.js)
    if (!mine && s.mine && !Table.replaying) Waiting.after(location.pathname.split("/")[2]);
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
