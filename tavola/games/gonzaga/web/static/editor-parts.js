// The map editor's panels beside the map (editor.js): the fiefs' shapes and castles, the
// scenario tiles, and the photo of a printed board laid under the grid.
import { I18N, svg, translatePage } from "/static/tavola/common.js";
import { list, isPair } from "./editor-data.js";
import { centre, corners, pointsAttr } from "./hexes.js";

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

// Gonzaga's words, for a page that speaks only the platform's (the editor page): added to the
// page's catalog, then the editor's words put in the page's language
export async function gonzagaWords(root) {
  if (I18N.lang === "en" || I18N.gonzaga) return;
  const res = await fetch(`/api/i18n/${encodeURIComponent(I18N.lang)}/gonzaga`).catch(() => null);
  const found = res && res.ok ? (await res.json()).messages || {} : {};
  for (const [k, v] of Object.entries(found)) if (!(k in I18N.messages)) I18N.messages[k] = v;
  I18N.gonzaga = true;  // once a page
  translatePage(root);
}

// a finding on a fief or a scenario tile: its card or row, opened and in focus
export function showPart(root, finding, fiefBox, scenarioBox) {
  const part = /^\/(fiefs|scenarios)\/(\d+)/.exec((finding && finding.where) || "");
  const box = part && (part[1] === "fiefs" ? fiefBox : scenarioBox);
  const target = box && box.querySelector(part[1] === "fiefs" ? `[data-fief="${part[2]}"]` : `[data-scenario="${part[2]}"]`);
  if (!target) return false;
  box.open = true;
  for (const x of root.querySelectorAll(".ged-part-focused")) x.classList.remove("ged-part-focused");
  target.classList.add("ged-part-focused");
  target.scrollIntoView({ block: "center" });
  const first = target.querySelector("[tabindex], input");
  if (first) first.focus({ preventScroll: true });
  return true;
}

// -- fiefs ---------------------------------------------------------------------------------------
// a fief's hexes are axial offsets [q, r] from its anchor; drawn where the table draws a hex
const axialCentre = (q, r) => centre(q + (r - (r & 1)) / 2, r);
const at = (h, q, r) => h[0] === q && h[1] === r;

// the grid of every hex three steps from the anchor, with a margin: whole cells, none cut off
const FIEF_VIEW = (() => {
  const [w, h] = [3 * Math.sqrt(3) + 0.9, 3 * 1.5 + 1.05];
  return `${-w} ${-h} ${2 * w} ${2 * h}`;
})();

function fiefCard(f, index, t, changed) {
  const hexes = list(f.hexes).filter(isPair), castles = list(f.castles).filter(isPair);
  const s = svg("svg", { viewBox: FIEF_VIEW, class: "ged-fief", role: "group", "aria-label": `${t("Fief")} ${f.number}` });
  const [ox, oy] = axialCentre(0, 0);
  for (let r = -3; r <= 3; r++) for (let q = -3 - Math.min(0, r); q <= 3 - Math.max(0, r); q++) {
    const [x, y] = axialCentre(q, r);
    const on = hexes.some((h) => at(h, q, r)), castle = castles.some((h) => at(h, q, r));
    const cell = svg("polygon", { points: pointsAttr(corners(x - ox, y - oy, 0.95)), tabindex: 0, role: "button",
      "aria-pressed": String(on), "data-qr": `${q},${r}`, class: "ged-fief-cell" + (on ? " on" : "") + (castle ? " castle" : "") }, s);
    const toggle = (asCastle) => {
      const cells = asCastle ? (f.castles = castles) : (f.hexes = hexes);
      const i = cells.findIndex((h) => at(h, q, r));
      if (i >= 0) cells.splice(i, 1); else cells.push([q, r]);
      if (!asCastle && i >= 0) f.castles = castles.filter((h) => !at(h, q, r));  // no castle off the fief
      changed();
    };
    cell.addEventListener("click", (ev) => toggle(ev.shiftKey));
    cell.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { toggle(false); ev.preventDefault(); }
      if (ev.key.toLowerCase() === "c") { toggle(true); ev.preventDefault(); }
    });
    if (castle) svg("circle", { cx: x - ox, cy: y - oy, r: 0.35, class: "ged-castle" }, s);
  }
  return el("figure", { class: "ged-fief-card", "data-fief": index }, s, el("figcaption", {}, `${t("Fief")} ${f.number}`));
}

// the fiefs of `data` drawn into `box`, drawn again after each change
export function renderFiefs(box, data, t, changed) {
  const again = () => { changed(); renderFiefs(box, data, t, changed); };
  box.replaceChildren(...list(data.fiefs).map((f, i) => (f && typeof f === "object" ? fiefCard(f, i, t, again) : null)).filter(Boolean));
}

// -- scenario tiles ------------------------------------------------------------------------------
export function renderScenarios(box, data, t, changed) {
  const again = () => { changed(); renderScenarios(box, data, t, changed); };
  const regions = list(data.regions).filter((x) => x && typeof x.id === "string");
  const rows = list(data.scenarios).map((s, i) => {
    if (!s || typeof s !== "object") return null;
    const name = el("input", { value: String(s.name || ""), size: 12, maxlength: 80, "aria-label": t("Name"), onchange: (e) => { s.name = e.target.value; changed(); } });
    const players = el("select", { "aria-label": t("Players"), onchange: (e) => { s.players = Number(e.target.value); changed(); } },
      ...[2, 3, 4].map((n) => el("option", { value: n, selected: s.players === n }, String(n))));
    const flourish = regions.map((r) => el("label", { class: "ged-flourish" }, el("input", { type: "checkbox", checked: list(s.flourishing).includes(r.id),
      onchange: (e) => { s.flourishing = list(s.flourishing).filter((x) => x !== r.id).concat(e.target.checked ? [r.id] : []); changed(); } }), String(r.name || r.id)));
    const person = el("input", { value: String(s.person || ""), size: 14, maxlength: 80, "aria-label": t("Person"), onchange: (e) => { s.person = e.target.value; changed(); } });
    const remove = el("button", { type: "button", onclick: () => { data.scenarios.splice(i, 1); again(); } }, t("Remove"));
    return el("tr", { "data-scenario": i }, el("td", {}, name), el("td", {}, players), el("td", {}, ...flourish), el("td", {}, person), el("td", {}, remove));
  }).filter(Boolean);
  const add = el("button", { type: "button", onclick: () => {
    data.scenarios = list(data.scenarios);
    data.scenarios.push({ name: t("New tile"), players: 2, flourishing: regions.slice(0, 3).map((r) => r.id), person: "" });
    again();
  } }, t("Add a tile"));
  const head = el("tr", {}, el("th", {}, t("Name")), el("th", {}, t("Players")), el("th", {}, t("Flourishing regions")), el("th", {}, t("Person")), el("th"));
  box.replaceChildren(el("table", {}, head, ...rows), add);
}

// -- regions, seas, symbols and the objective cards ---------------------------------------------
// a table of a part of the file, a row an entry, a column a field (`kind`: "text", "group" or a
// list of the file's own symbols)
function fieldTable(data, key, columns, t, changed) {
  const groups = [...new Set([...list(data.regions), ...list(data.symbols)].map((x) => x && x.objective_group).filter(Number.isInteger))].sort();
  const symbols = list(data.symbols).filter((x) => x && typeof x.id === "string");
  const control = (item, field, kind, label) => {
    const set = (v) => { item[field] = v; changed(); };
    if (kind === "text") return el("input", { value: String(item[field] ?? ""), size: 14, maxlength: 80, "aria-label": label, onchange: (e) => set(e.target.value) });
    const [choices, read] = kind === "group" ? [groups.map((g) => [g, String(g)]), Number] : [symbols.map((x) => [x.id, String(x.name || x.id)]), String];
    return el("select", { "aria-label": label, onchange: (e) => set(read(e.target.value)) },
      ...choices.map(([v, name]) => el("option", { value: v, selected: v === item[field] }, name)));
  };
  const rows = list(data[key]).map((item, i) => (item && typeof item === "object"
    ? el("tr", { [`data-${key}`]: i }, ...columns.map(([field, kind, label]) => el("td", {}, control(item, field, kind, label)))) : null)).filter(Boolean);
  return el("table", { class: `ged-${key}` }, el("tr", {}, ...columns.map(([, , label]) => el("th", {}, label))), ...rows);
}
// an objective card's two symbols as two pickers
function objectiveRows(data, t, changed) {
  const symbols = list(data.symbols).filter((x) => x && typeof x.id === "string");
  const rows = list(data.objectives).map((o, i) => {
    if (!o || typeof o !== "object") return null;
    const pair = o.symbols = Array.isArray(o.symbols) ? o.symbols : [];
    const pick = (k) => el("select", { "aria-label": `${t("Symbol")} ${k + 1}`, onchange: (e) => { pair[k] = e.target.value; changed(); } },
      ...symbols.map((x) => el("option", { value: x.id, selected: x.id === pair[k] }, String(x.name || x.id))));
    return el("tr", { "data-objectives": i }, el("td", {}, String(o.id ?? i + 1)), el("td", {}, pick(0)), el("td", {}, pick(1)));
  }).filter(Boolean);
  return el("table", { class: "ged-objectives" }, el("tr", {}, el("th", {}, t("Objective card")), el("th", {}, t("Symbol")), el("th", {}, t("Symbol"))), ...rows);
}
// the names and groups of the regions, seas and symbols, and the objective cards, as form fields
export function renderNames(box, data, t, changed) {
  const [name, group] = [t("Name"), t("Objective group")];
  box.replaceChildren(
    el("h3", {}, t("Regions")), fieldTable(data, "regions", [["name", "text", name], ["objective_group", "group", group]], t, changed),
    el("h3", {}, t("Seas")), fieldTable(data, "seas", [["name", "text", name], ["symbol", "text", t("Symbol")]], t, changed),
    el("h3", {}, t("Symbols")), fieldTable(data, "symbols", [["name", "text", name], ["meaning", "text", t("Meaning")], ["objective_group", "group", group]], t, changed),
    el("h3", {}, t("Objective cards")), objectiveRows(data, t, changed));
}

// -- the photo under the grid --------------------------------------------------------------------
// a file the person picks, shown from an object URL: it stays in their browser, never sent
export function photoPanel(root, photo, t) {
  const input = el("input", { type: "file", accept: "image/*", id: "ged-photo-file" });
  const sliders = [["ged-photo-opacity", t("Opacity"), 0, 1, 0.05, 0.5], ["ged-photo-scale", t("Size"), 20, 300, 1, 100],
    ["ged-photo-x", t("Left"), -50, 50, 0.5, 0], ["ged-photo-y", t("Top"), -50, 50, 0.5, 0]]
    .map(([id, label, min, max, step, value]) => el("input", { type: "range", id, min, max, step, value, "aria-label": label }));
  const place = () => {
    const [opacity, size, left, top] = sliders.map((s) => s.value);
    Object.assign(photo.style, { opacity, width: `${size}%`, left: `${left}%`, top: `${top}%` });
  };
  let url = null;
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    if (url) URL.revokeObjectURL(url);
    url = file ? URL.createObjectURL(file) : null;
    photo.hidden = !file;
    root.classList.toggle("tracing", !!file);
    if (file) photo.src = url; else photo.removeAttribute("src");
  });
  for (const s of sliders) s.addEventListener("input", place);
  place();
  return el("details", { class: "ged-photo-box" }, el("summary", {}, t("Photo of your board")),
    el("p", { class: "ged-note" }, t("The photo stays in your browser: it is never sent anywhere.")),
    el("label", {}, t("Photo") + " ", input),
    ...sliders.map((s) => el("label", { class: "ged-pick" }, s.getAttribute("aria-label") + " ", s)));
}
