// What every page of the site shares (the lobby and each game's table): building elements,
// messages, calls to the server's API, copying links. A module: each page's scripts import what
// they use from it.
export const $ = (id) => document.getElementById(id);
// an SVG element, set with `attrs` and put in `parent`
export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}
export function toast(message, kind = "error") {
  const t = $("toast");
  t.textContent = message;
  t.className = kind;
  t.hidden = false;
  placeToast();
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}
// a message never covers the header, nor what a player is reading meanwhile: the tutorial's card
// in its place, the question the page asks (`#question`) and the hint's heading. It goes just
// below the header, or below those of them where it would be; a page that keeps its messages at
// the bottom (--toast-at: bottom, a phone) has them go above those parts instead. Again on scroll
const UNCOVERED = "#tutorial, #question, #hint h3";
export function placeToast() {
  const box = $("toast");
  if (!box || box.hidden) return;
  const header = document.querySelector("header");
  const below = (header ? Math.max(0, header.getBoundingClientRect().bottom) : 0) + 6;
  box.style.bottom = "";
  if (getComputedStyle(box).getPropertyValue("--toast-at").trim() === "bottom") {
    box.style.top = "";
    toastAbove(box, below);
    return;
  }
  box.style.top = `${Math.round(topPast(box, below))}px`;
}
// the boxes of the parts a message leaves uncovered, as they are on the screen now
function uncoveredBoxes() {
  return [...document.querySelectorAll(UNCOVERED)].filter((node) => getComputedStyle(node).position !== "fixed")
    .map((node) => node.getBoundingClientRect()).filter((r) => r.height);
}
// a message kept at the bottom moves up past each part it would cover (from the bottom up); one
// that would then reach the header goes under it, at the top, past those parts
function toastAbove(box, below) {
  let at = box.getBoundingClientRect();
  for (const r of uncoveredBoxes().reverse()) {
    const hit = r.left < at.right && r.right > at.left && at.top < r.bottom + 6 && at.bottom > r.top - 6;
    if (!hit) continue;
    const top = r.top - 6 - at.height;
    if (top < below) { box.style.bottom = "auto"; box.style.top = `${Math.round(topPast(box, below))}px`; return; }
    box.style.bottom = `${Math.round(innerHeight - r.top + 6)}px`;
    at = box.getBoundingClientRect();
  }
}
// the first top from `top` down where the message covers none of those parts (in the page's order)
function topPast(box, top) {
  const across = box.getBoundingClientRect();
  for (const r of uncoveredBoxes()) {
    const under = r.left < across.right && r.right > across.left;
    if (under && top < r.bottom + 6 && top + box.offsetHeight > r.top - 6) top = r.bottom + 6;
  }
  return top;
}
addEventListener("scroll", placeToast, { passive: true });
addEventListener("resize", placeToast);
// the server's messages are phrases; players read sentences
export function sentence(text) { return text ? text[0].toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".") : ""; }

// a JSON call; a refusal becomes an Error carrying the server's sentence, status and code
// a GET, or with a body a POST (or `method`: PUT, DELETE)
export async function api(path, body, method = body === undefined ? "GET" : "POST") {
  const headers = { "Content-Type": "application/json" };
  const csrf = document.cookie.match(/(?:^|; )tabletop_csrf=([^;]*)/);  // a signed-in player's request token
  if (csrf) headers["X-CSRF-Token"] = decodeURIComponent(csrf[1]);
  const r = await fetch(path, method === "GET" ? {} : { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  let data = {};
  try { data = await r.json(); } catch (e) { data = {}; }
  if (!r.ok) {
    const err = new Error(sentence(data.message || r.statusText));
    err.status = r.status; err.code = data.code; err.retryAfter = Number(r.headers.get("Retry-After")) || 0;
    throw err;
  }
  return data;
}

// -- seat links ---------------------------------------------------------------------------------

// the creator of a game keeps its seat links on this device (to send them again from the table),
// and every player the token of their own seat (to come back to it without the link)
const INVITES = "invites:";
const SEAT = "seat:";
export function saveInvites(gameId, invites) { localStorage.setItem(INVITES + gameId, JSON.stringify(invites)); }
export function savedInvites(gameId) {
  const saved = localStorage.getItem(INVITES + gameId);
  try { return saved ? JSON.parse(saved) : null; } catch (e) { return null; }
}
export function saveSeat(gameId, token) { localStorage.setItem(SEAT + gameId, token); }
export function savedSeat(gameId) { return localStorage.getItem(SEAT + gameId); }
export function forgetSeat(gameId) { localStorage.removeItem(SEAT + gameId); }

// the Clipboard API where the page may use it, else the old select-and-copy
export async function copyText(text) {
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) { await navigator.clipboard.writeText(text); return true; }
  } catch (e) { /* not allowed here: fall back */ }
  const area = el("textarea", { readonly: true, "aria-hidden": "true", style: "position:fixed;top:0;left:0;width:1px;height:1px;opacity:0" });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}
export function copyButton(text, label = t("Copy")) {
  const b = el("button", { type: "button", class: "copy", "data-copy": text, title: t("Copy the link, to send it") }, label);
  b.addEventListener("click", async () => {
    const ok = await copyText(text);
    b.textContent = ok ? t("Copied ✓") : t("Select the link and copy it");
    setTimeout(() => { b.textContent = label; }, 2500);
  });
  return b;
}
export function linkLine(label, path, attrs = {}) {
  const url = location.origin + path;
  return el("li", {}, label, " ", el("a", { href: path, class: "invite", ...attrs }, el("code", { text: url })), " ", copyButton(url));
}

// -- words ----------------------------------------------------------------------------------------

// every sentence a page shows goes through t(): the English text with {named} fields, looked up
// in the page's catalog (window.I18N, loaded from the server's /i18n.js before this script) and
// filled in; a sentence the catalog lacks shows in English
export const I18N = window.I18N || { lang: "en", languages: { en: "English" }, cookie: "lang", messages: {} };
export function t(text, fields = {}) {
  const said = Object.prototype.hasOwnProperty.call(I18N.messages, text) ? I18N.messages[text] : text;
  return said.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}
// numbers as the page's language writes them (1,234 / 1.234)
// numbers as the page's language writes them (28,4 in German); `digits`: fixed decimals
export function num(n, digits = null) {
  const fixed = digits === null ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number(n).toLocaleString(I18N.lang, fixed);
}
// a moment (seconds since 1970) as the page's language writes dates and times
export function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(I18N.lang, { dateStyle: "medium", timeStyle: "short" }) : "";
}
// a length of time in words: "2 d 3 h", "3 h 20 min", "4 min 10 s", "9 s"
export function duration(seconds) {
  const x = Math.max(0, Math.floor(seconds));
  const d = Math.floor(x / 86400), h = Math.floor(x % 86400 / 3600), m = Math.floor(x % 3600 / 60), sec = x % 60;
  if (d) return t("{d} d {h} h", { d, h });
  if (h) return t("{h} h {m} min", { h, m });
  if (m) return t("{m} min {s} s", { m, s: sec });
  return t("{s} s", { s: sec });
}
// a bot's measured rating after its name, at every table
export function ratingWords(p) { return p.rating === null || p.rating === undefined ? "" : ` · ${t("rating {rating}", { rating: num(p.rating, 0) })}`; }

// the words written in a page's HTML: each text and title, aria-label, placeholder, translated
// where the catalog has them (the same strings `tavola i18n extract` reads from the page)
export function translatePage(root = document.body) {
  if (I18N.lang === "en") return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.replace(/\s+/g, " ").trim();
    if (text && Object.prototype.hasOwnProperty.call(I18N.messages, text)) {
      const [, before, after] = node.nodeValue.match(/^(\s*)[\s\S]*?(\s*)$/);
      node.nodeValue = before + I18N.messages[text] + after;
    }
  }
  for (const attr of ["title", "aria-label", "placeholder"]) {
    for (const e of root.querySelectorAll(`[${attr}]`)) {
      const text = e.getAttribute(attr).replace(/\s+/g, " ").trim();
      if (Object.prototype.hasOwnProperty.call(I18N.messages, text)) e.setAttribute(attr, I18N.messages[text]);
    }
  }
  if (document.title && Object.prototype.hasOwnProperty.call(I18N.messages, document.title)) document.title = I18N.messages[document.title];
}

// the language: chosen in every page's header, remembered in a cookie (the server reads it) and
// in localStorage (which outlives a cleared cookie); the page reloads in the new language
export function chooseLanguage(lang) {
  try { localStorage.setItem(I18N.cookie, lang); } catch (e) { /* private mode: the cookie remembers */ }
  document.cookie = `${I18N.cookie}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
  location.reload();
}
function languageSelector() {
  const select = el("select", { id: "language", "aria-label": t("Language"), title: t("Language") },
    ...Object.entries(I18N.languages).map(([code, name]) => el("option", { value: code, selected: code === I18N.lang }, name)));
  select.addEventListener("change", () => chooseLanguage(select.value));
  return select;
}
function setUpLanguage() {
  document.documentElement.lang = I18N.lang;
  let kept = null;
  try { kept = localStorage.getItem(I18N.cookie); } catch (e) { kept = null; }
  const cookie = document.cookie.split("; ").some((c) => c.startsWith(I18N.cookie + "="));
  if (kept && kept in I18N.languages && kept !== I18N.lang && !cookie && !sessionStorage.getItem("lang-restored")) {
    sessionStorage.setItem("lang-restored", "1");  // once: a browser refusing cookies never loops
    chooseLanguage(kept);
    return;
  }
  translatePage();
  const header = $("top");
  // a page that offers the languages itself (the rules, as links) shows each language once
  if (header && !$("language") && !document.querySelector("[data-languages]")) header.append(languageSelector());
}
setUpLanguage();

// every page ends with a link to what the site keeps about its players (/privacy)
function privacyFooter() {
  if ($("privacy-link") || document.body.dataset.page === "privacy") return;
  document.body.append(el("footer", { class: "site-footer" }, el("a", { href: "/privacy", id: "privacy-link" }, t("Privacy"))));
}
if (document.body) privacyFooter(); else document.addEventListener("DOMContentLoaded", privacyFooter);

// -- games waiting for you ------------------------------------------------------------------------

// a signed-in player's header shows how many games wait for their move (a link to "Your move"); a
// page with #waiting-note (the lobby, "My games") says it in a sentence; after a move at a table,
// `Waiting.after(gameId)` offers the next game waiting. Guests (no session's request token) ask
// nothing.
export const Waiting = (() => {
  const signedIn = () => /(?:^|; )tabletop_csrf=/.test(document.cookie);
  function sentence(count) {
    return count === 1 ? t("One game is waiting for your move.") : t("{count} games are waiting for your move.", { count });
  }
  function show(count) {
    if (count === null || count === undefined) return;
    let link = $("nav-your-move");
    if (!link) {
      link = el("a", { href: "/your-move", id: "nav-your-move", class: "your-move-count" }, t("Your move"), " ", el("span", { class: "count" }));
      const header = $("top");
      if (!header) return;
      const before = $("account-nav") || $("language");
      if (before) before.before(link); else header.append(link);
    }
    link.querySelector(".count").textContent = num(count);
    link.dataset.count = count;
    link.classList.toggle("some", count > 0);
    link.title = count ? sentence(count) : t("No game is waiting for your move.");
    const note = $("waiting-note");
    if (note) {
      note.replaceChildren(...(count ? [sentence(count), " ", el("a", { href: "/your-move", class: "button primary" }, t("Your move"))] : []));
      note.hidden = !count;
    }
  }
  async function load(after = null) {
    if (!signedIn()) return null;
    try {
      const got = await api(after ? `/api/me/waiting?after=${encodeURIComponent(after)}` : "/api/me/waiting");
      show(got.count);
      return got;
    } catch (e) { return null; }  // too many asks, or offline: the count stays as it was
  }
  // after a move at the table of `gameId`: a "Next game" button to the seat of the next game
  // waiting, if there is one
  async function after(gameId) {
    const got = await load(gameId);
    const old = $("next-game");
    if (old) old.remove();
    if (!got || !got.next || !got.next.link) return;
    const link = el("a", { href: got.next.link, id: "next-game", class: "button primary", "data-game": got.next.id }, t("Next game"));
    const count = $("nav-your-move");
    if (count) count.after(link); else if ($("top")) $("top").append(link);
  }
  function clear() { const old = $("next-game"); if (old) old.remove(); }
  document.addEventListener("DOMContentLoaded", () => load());
  addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
  return { load, after, clear };
})();
