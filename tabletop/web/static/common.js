// What every page of the site shares (the lobby and each game's table): building elements,
// messages, calls to the server's API, copying links. Plain JS, loaded before the page's own.
"use strict";

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}
function toast(message, kind = "error") {
  const t = $("toast");
  t.textContent = message;
  t.className = kind;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}
// the server's messages are phrases; players read sentences
function sentence(text) { return text ? text[0].toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".") : ""; }

// a JSON call; a refusal becomes an Error carrying the server's sentence, status and code
async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  const csrf = document.cookie.match(/(?:^|; )tabletop_csrf=([^;]*)/);  // a signed-in player's request token
  if (csrf) headers["X-CSRF-Token"] = decodeURIComponent(csrf[1]);
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers, body: JSON.stringify(body) });
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
function saveInvites(gameId, invites) { localStorage.setItem(INVITES + gameId, JSON.stringify(invites)); }
function savedInvites(gameId) {
  const saved = localStorage.getItem(INVITES + gameId);
  try { return saved ? JSON.parse(saved) : null; } catch (e) { return null; }
}
function saveSeat(gameId, token) { localStorage.setItem(SEAT + gameId, token); }
function savedSeat(gameId) { return localStorage.getItem(SEAT + gameId); }
function forgetSeat(gameId) { localStorage.removeItem(SEAT + gameId); }

// the Clipboard API where the page may use it, else the old select-and-copy
async function copyText(text) {
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
function copyButton(text, label = "Copy") {
  const b = el("button", { type: "button", class: "copy", "data-copy": text, title: "Copy the link, to send it" }, label);
  b.addEventListener("click", async () => {
    const ok = await copyText(text);
    b.textContent = ok ? "Copied ✓" : "Select the link and copy it";
    setTimeout(() => { b.textContent = label; }, 2500);
  });
  return b;
}
function linkLine(label, path, attrs = {}) {
  const url = location.origin + path;
  return el("li", {}, label, " ", el("a", { href: path, class: "invite", ...attrs }, el("code", { text: url })), " ", copyButton(url));
}

// -- words ----------------------------------------------------------------------------------------

// every sentence a page shows goes through t(): the English text with {named} fields, filled in
function t(text, fields = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}
