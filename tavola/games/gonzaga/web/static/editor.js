// Gonzaga's map editor: a person transcribes the map and pieces of their own printed box into a
// board file (an edition), over a photo of the board if they like. The platform's editor page
// (save, undo, redo, import, export, the list of findings) mounts it: mountEditor(root, data,
// host) with host = { changed(), t(text), game }. The map is drawn by the table's own code
// (board.js) from the file's data; every fact of the game is read from that data.
import { svg } from "/static/tavola/common.js";
import { drawBoard } from "./board.js";
import { centre, corners, pointsAttr, SQRT3 } from "./hexes.js";
import { ui } from "./state.js";

const TOOLS = (t) => [  // [id, key, label]
  ["land", "l", t("Land")], ["sea", "s", t("Sea")], ["off", "x", t("Off the board")],
  ["city", "c", t("City")], ["harbor", "h", t("Harbor")], ["barrier", "b", t("Barrier")],
  ["seal", "g", t("Seal")], ["church", "k", t("Church")],
];
const PAINTS = new Set(["land", "sea", "off"]);
const SPARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#*+=@$%&";

function stylesheet(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
}
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}
const list = (v) => (Array.isArray(v) ? v : []);
const isPair = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
const sameHex = (a, b) => isPair(a) && isPair(b) && a[0] === b[0] && a[1] === b[1];
const round2 = (v) => Math.round(v * 100) / 100;

// the file's data as the table's board data (wire.py's board_json), for drawBoard: what the
// server adds of its own (symbols' pictures, colours of the shipped regions and seas) from
// `looks`, the shipped board's data; whatever the file lacks is left out, never guessed
export function boardOf(d, looks) {
  const legend = d && typeof d.legend === "object" && d.legend ? d.legend : {};
  const hexes = [], scenery = [];
  list(d && d.terrain).forEach((line, r) => {
    if (typeof line !== "string") return;
    [...line].forEach((ch, c) => {
      const e = legend[ch];
      if (!e || typeof e !== "object") return;
      const [x, y] = centre(c, r);
      if (e.region || e.sea) hexes.push({ at: [c, r], x, y, region: e.region || null, sea: e.region ? null : e.sea });
      else if (e.land) scenery.push([x, y]);
    });
  });
  const shipped = (key) => Object.fromEntries(list(looks[key]).map((x) => [x.id, x.colour]));
  const regionColour = shipped("regions"), seaColour = shipped("seas");
  const point = (p) => (p && Number.isFinite(p.x) && Number.isFinite(p.y) ? [p.x, p.y] : [0, 0]);
  const named = (x) => x && typeof x === "object" && typeof x.id === "string";
  const columns = Number.isInteger(d.columns) && d.columns > 0 ? d.columns : 1;
  const rows = Number.isInteger(d.rows) && d.rows > 0 ? d.rows : 1;
  return {
    name: String(d.name || ""), columns, rows,
    width: SQRT3 * (columns + 0.5), height: 1.5 * (rows - 1) + 2,
    hexes, scenery, routes: [],
    regions: list(d.regions).filter(named).map((r) => ({ id: r.id, name: String(r.name || r.id), colour: regionColour[r.id] || r.colour || "#cccccc", seal: point(r.seal) })),
    seas: list(d.seas).filter(named).map((s) => ({ id: s.id, name: String(s.name || s.id), symbol: s.symbol, colour: seaColour[s.id] || "#a8c8dd" })),
    symbols: list(d.symbols).filter(named).map((s) => ({ id: s.id, name: String(s.name || s.id), meaning: s.meaning || "" })),
    cities: list(d.cities).filter((c) => named(c) && isPair(c.at)).map((c) => ({ ...c, name: String(c.name || c.id) })),
    harbors: list(d.harbors).filter((h) => named(h) && isPair(h.at)).map((h) => ({ ...h, name: String(h.name || h.id) })),
    barriers: list(d.barriers).flatMap((g) => list(g && g.edges)).filter((e) => isPair(e[0]) && isPair(e[1])),
    church: point(d.church), fiefs: [], cards: {}, objectives: {},
    player_colours: {}, player_looks: looks.player_looks || {}, icons: looks.icons || {},
  };
}

export function mountEditor(root, data, host) {
  const t = (text) => (host && host.t ? host.t(text) : text);
  stylesheet("/static/gonzaga/style.css");
  stylesheet("/static/gonzaga/editor.css");
  const ed = {
    data: structuredClone(data), tool: "land", cursor: [0, 0], zoom: 1, findings: [], focused: null,
    region: null, sea: null, symbol: null, range: null, place: null, looks: {}, drawn: false, queued: false,
  };
  root.classList.add("ged");
  root.replaceChildren();
  // -- the parts of the page -------------------------------------------------------------------
  const tools = el("div", { class: "ged-tools", role: "toolbar", "aria-label": t("Tools") });
  const tooling = TOOLS(t);
  for (const [id, key, label] of tooling) {
    tools.append(el("button", { type: "button", "data-tool": id, title: `${label} (${key.toUpperCase()})`,
      "aria-pressed": "false", onclick: () => choose(id) }, label));
  }
  const pick = (id, label) => el("label", { class: "ged-pick" }, label + " ", el("select", { id }));
  const options = el("div", { class: "ged-options" },
    pick("ged-region", t("Region")), pick("ged-sea", t("Sea")), pick("ged-symbol", t("Symbol")),
    el("label", { class: "ged-pick" }, t("Barrier range") + " ", el("input", { id: "ged-range", size: 10 })));
  const placeForm = el("div", { class: "ged-place", hidden: true },
    el("label", {}, t("Name") + " ", el("input", { id: "ged-place-name", size: 14, maxlength: 80 })),
    el("button", { type: "button", id: "ged-place-remove", onclick: () => removePlace() }, t("Remove")));
  const zoomIn = el("button", { type: "button", title: t("Zoom in"), onclick: () => zoomBy(1.5) }, "+");
  const zoomOut = el("button", { type: "button", title: t("Zoom out"), onclick: () => zoomBy(1 / 1.5) }, "−");
  const start = el("div", { class: "ged-start" },
    el("button", { type: "button", onclick: () => startFrom("reconstruction") }, t("Start from the reconstruction")),
    el("button", { type: "button", onclick: () => startFrom("empty") }, t("Start from an empty grid")));
  const photoInput = el("input", { type: "file", accept: "image/*", id: "ged-photo-file" });
  const slider = (id, label, min, max, step, value) => el("label", { class: "ged-pick" }, label + " ",
    el("input", { type: "range", id, min, max, step, value, oninput: placePhoto }));
  const photoBox = el("details", { class: "ged-photo-box" }, el("summary", {}, t("Photo of your board")),
    el("p", { class: "ged-note" }, t("The photo stays in your browser: it is never sent anywhere.")),
    el("label", {}, t("Photo") + " ", photoInput),
    slider("ged-photo-opacity", t("Opacity"), 0, 1, 0.05, 0.5), slider("ged-photo-scale", t("Size"), 20, 300, 1, 100),
    slider("ged-photo-x", t("Left"), -50, 50, 0.5, 0), slider("ged-photo-y", t("Top"), -50, 50, 0.5, 0));
  const status = el("p", { class: "ged-status", "aria-live": "polite" });
  const photo = el("img", { class: "ged-photo", alt: "", hidden: true });
  const map = svg("svg", { id: "board", role: "application", tabindex: 0, "aria-label": t("The map: arrows move, Enter applies the tool") });
  const canvas = el("div", { class: "ged-canvas" }, photo, map);
  const scroller = el("div", { class: "ged-map" }, canvas);
  const fiefBox = el("details", { class: "ged-fiefs" }, el("summary", {}, t("Fiefs")),
    el("p", { class: "ged-note" }, t("Click a hex to add or take it away; Shift+click (or C on a focused hex) for a castle.")),
    el("div", { class: "ged-fief-list" }));
  const scenarioBox = el("details", { class: "ged-scenarios" }, el("summary", {}, t("Scenario tiles")), el("div"));
  root.append(start, tools, options, placeForm,
    el("div", { class: "ged-zoom" }, zoomIn, zoomOut, status), scroller, photoBox, fiefBox, scenarioBox);
  const $ = (id) => root.querySelector("#" + id);

  // -- reading and changing the data ---------------------------------------------------------
  const d = () => ed.data;
  function legendKey(test, make) {
    const legend = d().legend = d().legend && typeof d().legend === "object" ? d().legend : {};
    const found = Object.keys(legend).find((k) => legend[k] && test(legend[k]));
    if (found) return found;
    const key = [...SPARE].find((ch) => !(ch in legend)) || "?";
    legend[key] = make();
    return key;
  }
  function terrainAt(c, r) {
    const line = list(d().terrain)[r];
    return typeof line === "string" ? line[c] : undefined;
  }
  function entryAt(c, r) { const e = (d().legend || {})[terrainAt(c, r)]; return e && typeof e === "object" ? e : {}; }
  function setTerrain(c, r, key) {
    const lines = list(d().terrain);
    const line = lines[r];
    if (typeof line !== "string" || c >= line.length || line[c] === key) return false;
    lines[r] = line.slice(0, c) + key + line.slice(c + 1);
    return true;
  }
  function paint(c, r) {
    let key;
    if (ed.tool === "land" && ed.region) key = legendKey((e) => e.region === ed.region, () => ({ region: ed.region }));
    else if (ed.tool === "sea" && ed.sea) key = legendKey((e) => e.sea === ed.sea && !e.region, () => ({ sea: ed.sea }));
    else if (ed.tool === "off") key = legendKey((e) => e.off && !e.land && !e.region && !e.sea, () => ({ off: true }));
    return key ? setTerrain(c, r, key) : false;
  }
  const placesOf = (kind) => (d()[kind] = list(d()[kind]));
  function placeAt(kind, c, r) { return placesOf(kind).find((p) => p && sameHex(p.at, [c, r])); }
  function newId(kind, name) {
    const base = String(name).toLowerCase().normalize("NFD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 30) || kind;
    const taken = new Set(placesOf(kind).map((p) => p && p.id));
    let id = base;
    for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
    return id;
  }
  function place(kind, c, r) {
    const found = placeAt(kind, c, r);
    if (found) { ed.place = { kind, item: found }; return false; }
    const e = entryAt(c, r);
    const name = kind === "cities" ? t("New city") : t("New harbor");
    const item = kind === "cities"
      ? { id: newId(kind, name), name, region: e.region || ed.region || "", symbol: ed.symbol || "", at: [c, r] }
      : { id: newId(kind, name), name, region: e.region || ed.region || "", sea: ed.sea || "", at: [c, r] };
    placesOf(kind).push(item);
    ed.place = { kind, item };
    return true;
  }
  function removePlace() {
    if (!ed.place) return;
    const items = placesOf(ed.place.kind);
    const i = items.indexOf(ed.place.item);
    if (i >= 0) items.splice(i, 1);
    ed.place = null;
    edited();
  }
  // the hex beyond side `i` of a hex (between its corners i and i+1), found by where it is drawn
  function across(c, r, i) {
    const [x, y] = centre(c, r), pts = corners(x, y);
    const mx = (pts[i][0] + pts[(i + 1) % 6][0]) / 2, my = (pts[i][1] + pts[(i + 1) % 6][1]) / 2;
    return ed.byCentre.get(`${Math.round((2 * mx - x) * 10)},${Math.round((2 * my - y) * 10)}`);
  }
  function toggleBarrier(a, b) {
    if (!b) return false;
    const groups = d().barriers = list(d().barriers);
    for (const g of groups) {
      const edges = list(g && g.edges);
      const i = edges.findIndex((e) => (sameHex(e[0], a) && sameHex(e[1], b)) || (sameHex(e[0], b) && sameHex(e[1], a)));
      if (i >= 0) { edges.splice(i, 1); return true; }
    }
    const name = ($("ged-range").value || "").trim() || t("Mountains");
    let group = groups.find((g) => g && g.range === name);
    if (!group) groups.push(group = { range: name, edges: [] });
    group.edges = list(group.edges);
    group.edges.push([[...a], [...b]]);
    return true;
  }
  function point(c, r) { const [x, y] = centre(c, r); return { x: round2(x), y: round2(y) }; }
  // the tool at a hex; `side`: the side of it the pointer is nearest (barriers)
  function apply(c, r, side = null) {
    ed.cursor = [c, r];
    let changed = false;
    if (PAINTS.has(ed.tool)) changed = paint(c, r);
    else if (ed.tool === "city") changed = place("cities", c, r);
    else if (ed.tool === "harbor") changed = place("harbors", c, r);
    else if (ed.tool === "barrier" && side !== null) changed = toggleBarrier([c, r], across(c, r, side));
    else if (ed.tool === "seal") {
      const region = list(d().regions).find((x) => x && x.id === ed.region);
      if (region) { region.seal = point(c, r); changed = true; }
    } else if (ed.tool === "church") { d().church = point(c, r); changed = true; }
    if (changed) edited(); else redrawSoon();
  }
  function edited() { if (host && host.changed) host.changed(); fillChoices(); redrawSoon(); }

  // -- drawing ---------------------------------------------------------------------------------
  function redrawSoon() {
    if (ed.queued) return;
    ed.queued = true;
    requestAnimationFrame(() => { ed.queued = false; redraw(); });
  }
  function redraw() {
    ui.board = boardOf(d(), ed.looks);
    ui.landCentres = null;
    drawBoard(null);
    drawGrid();
    drawMarks();
    showPlace();
    ed.drawn = true;
    root.dataset.drawn = String((Number(root.dataset.drawn) || 0) + 1);
  }
  // every position of the grid, on top: what the pointer and the cursor point at
  function drawGrid() {
    const grid = svg("g", { id: "ged-grid" }, map);
    ed.byCentre = new Map();
    const rows = list(d().terrain).length;
    for (let r = 0; r < rows; r++) {
      const line = d().terrain[r];
      for (let c = 0; c < (typeof line === "string" ? line.length : 0); c++) {
        const [x, y] = centre(c, r);
        ed.byCentre.set(`${Math.round(x * 10)},${Math.round(y * 10)}`, [c, r]);
        svg("polygon", { points: pointsAttr(corners(x, y)), "data-at": `${c},${r}`, class: "ged-cell" }, grid);
      }
    }
  }
  const same = (a, b) => !!a && !!b && a.message === b.message && a.where === b.where;
  function drawMarks() {
    const layer = svg("g", { id: "ged-marks", class: "overlay" }, map);
    const [c, r] = ed.cursor;
    svg("polygon", { points: pointsAttr(corners(...centre(c, r), 0.96)), class: "ged-cursor", id: "ged-cursor" }, layer);
    const marked = new Map();
    for (const f of ed.findings) for (const m of list(f && f.marks)) {
      const hex = /^hex:(-?\d+),(-?\d+)$/.exec(m);
      if (hex) marked.set(`${hex[1]},${hex[2]}`, marked.get(`${hex[1]},${hex[2]}`) || same(f, ed.focused));
    }
    for (const [key, focused] of marked) {
      const [x, y] = centre(...key.split(",").map(Number));
      svg("polygon", { points: pointsAttr(corners(x, y, 0.8)), class: "ged-finding" + (focused ? " focused" : ""), "data-finding": key }, layer);
    }
  }
  function describeHex(c, r) {
    const e = entryAt(c, r);
    const area = e.region ? nameOf("regions", e.region) : e.sea ? nameOf("seas", e.sea) : t("Off the board");
    const here = [placeAt("cities", c, r), placeAt("harbors", c, r)].filter(Boolean).map((p) => p.name);
    return [`${c},${r}`, area, ...here].join(" · ");
  }
  function nameOf(key, id) { const x = list(d()[key]).find((y) => y && y.id === id); return x ? String(x.name || id) : id; }
  function showPlace() {
    status.textContent = describeHex(...ed.cursor);
    const p = ed.place;
    placeForm.hidden = !p || !list(d()[p.kind]).includes(p.item);
    if (!placeForm.hidden && document.activeElement !== $("ged-place-name")) $("ged-place-name").value = p.item.name || "";
  }

  // -- choices: tools, regions, seas, symbols --------------------------------------------------
  function fillChoices() {
    const fill = (id, key, current) => {
      const sel = $(id), items = list(d()[key]).filter((x) => x && typeof x.id === "string");
      const value = items.some((x) => x.id === current) ? current : items.length ? items[0].id : null;
      sel.replaceChildren(...items.map((x) => el("option", { value: x.id }, String(x.name || x.id))));
      if (value) sel.value = value;
      return value;
    };
    ed.region = fill("ged-region", "regions", ed.region);
    ed.sea = fill("ged-sea", "seas", ed.sea);
    ed.symbol = fill("ged-symbol", "symbols", ed.symbol);
  }
  function choose(tool) {
    ed.tool = tool;
    for (const b of tools.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
    root.dataset.tool = tool;
    if (tool !== "city" && tool !== "harbor") ed.place = null;
    showPlace();
  }
  $("ged-region").addEventListener("change", (e) => { ed.region = e.target.value; });
  $("ged-sea").addEventListener("change", (e) => { ed.sea = e.target.value; });
  $("ged-symbol").addEventListener("change", (e) => {
    ed.symbol = e.target.value;
    if (ed.place && ed.place.kind === "cities") { ed.place.item.symbol = ed.symbol; edited(); }
  });
  $("ged-place-name").addEventListener("change", (e) => {
    if (!ed.place) return;
    ed.place.item.name = e.target.value.trim().slice(0, 80) || ed.place.item.name;
    edited();
  });

  // -- pointer and keyboard --------------------------------------------------------------------
  function cellOf(ev) {
    const cell = ev.target.closest && ev.target.closest(".ged-cell");
    return cell ? cell.dataset.at.split(",").map(Number) : null;
  }
  function sideOf(ev, c, r) {  // the side of the hex nearest the pointer (0: the lower right)
    const p = map.createSVGPoint(); p.x = ev.clientX; p.y = ev.clientY;
    const at = p.matrixTransform(map.getScreenCTM().inverse());
    const [x, y] = centre(c, r), pts = corners(x, y);
    let best = 0, dist = Infinity;
    pts.forEach((a, i) => {
      const b = pts[(i + 1) % 6], mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
      const dd = (mx - at.x) ** 2 + (my - at.y) ** 2;
      if (dd < dist) { dist = dd; best = i; }
    });
    return best;
  }
  map.addEventListener("pointerdown", (ev) => {
    const at = cellOf(ev);
    if (!at) return;
    map.focus({ preventScroll: true });
    ed.painting = PAINTS.has(ed.tool);
    apply(at[0], at[1], ed.tool === "barrier" ? sideOf(ev, at[0], at[1]) : null);
  });
  map.addEventListener("pointermove", (ev) => {
    if (!ed.painting || !(ev.buttons & 1)) return;
    const at = document.elementFromPoint(ev.clientX, ev.clientY);
    const cell = at && at.closest && at.closest(".ged-cell");
    if (cell) apply(...cell.dataset.at.split(",").map(Number));
  });
  addEventListener("pointerup", () => { ed.painting = false; });
  const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  map.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const move = MOVES[ev.key];
    const tool = tooling.find(([, key]) => key === ev.key.toLowerCase());
    const [c, r] = ed.cursor;
    if (move) {
      const rows = list(d().terrain).length, first = list(d().terrain)[0], cols = typeof first === "string" ? first.length : 1;
      ed.cursor = [Math.max(0, Math.min(cols - 1, c + move[0])), Math.max(0, Math.min(rows - 1, r + move[1]))];
      redrawSoon();
      keepInView();
    } else if (ev.key === "Enter" || ev.key === " ") apply(c, r);
    else if (ed.tool === "barrier" && /^[1-6]$/.test(ev.key)) apply(c, r, Number(ev.key) - 1);
    else if (ev.key === "Delete" || ev.key === "Backspace") {
      const found = placeAt("cities", c, r) || placeAt("harbors", c, r);
      if (found) { ed.place = { kind: placeAt("cities", c, r) ? "cities" : "harbors", item: found }; removePlace(); }
    } else if (ev.key === "+" || ev.key === "=") zoomBy(1.5);
    else if (ev.key === "-") zoomBy(1 / 1.5);
    else if (tool) choose(tool[0]);
    else return;
    ev.preventDefault();
  });

  // -- zoom and the view -----------------------------------------------------------------------
  function zoomBy(k) {
    ed.zoom = Math.max(1, Math.min(8, ed.zoom * k));
    canvas.style.width = `${ed.zoom * 100}%`;
    requestAnimationFrame(() => { redraw(); keepInView(); });
  }
  function screenOf(c, r) {
    const ctm = map.getScreenCTM();
    const [x, y] = centre(c, r);
    return ctm ? [ctm.a * x + ctm.e, ctm.d * y + ctm.f] : null;
  }
  function keepInView(centred = false) {
    const at = screenOf(...ed.cursor);
    if (!at) return;
    const box = scroller.getBoundingClientRect();
    const margin = centred ? box.width / 2 : 40;
    if (centred || at[0] < box.left + margin || at[0] > box.right - margin) scroller.scrollLeft += at[0] - (box.left + box.width / 2);
    if (centred || at[1] < box.top + 40 || at[1] > box.bottom - 40) scroller.scrollTop += at[1] - (box.top + box.height / 2);
  }

  // -- the photo underneath --------------------------------------------------------------------
  photoInput.addEventListener("change", () => {
    const file = photoInput.files && photoInput.files[0];
    if (ed.photoUrl) URL.revokeObjectURL(ed.photoUrl);
    ed.photoUrl = file ? URL.createObjectURL(file) : null;  // kept in this browser only
    photo.hidden = !file;
    root.classList.toggle("tracing", !!file);
    if (file) photo.src = ed.photoUrl; else photo.removeAttribute("src");
    placePhoto();
  });
  function placePhoto() {
    photo.style.opacity = $("ged-photo-opacity").value;
    photo.style.width = `${$("ged-photo-scale").value}%`;
    photo.style.left = `${$("ged-photo-x").value}%`;
    photo.style.top = `${$("ged-photo-y").value}%`;
  }

  // -- starting over ---------------------------------------------------------------------------
  async function startFrom(how) {
    if (how === "reconstruction") {
      const res = await fetch(`/api/editions/default?game=${encodeURIComponent((host && host.game) || "gonzaga")}`);
      if (!res.ok) return;
      ed.data = await res.json();
    } else {
      const off = legendKey((e) => e.off && !e.land && !e.region && !e.sea, () => ({ off: true }));
      d().terrain = list(d().terrain).map((line) => (typeof line === "string" ? off.repeat(line.length) : line));
      d().cities = []; d().harbors = [];
      d().barriers = list(d().barriers).map((g) => ({ ...g, edges: [] }));
    }
    ed.place = null;
    renderPanels();
    edited();
  }

  // -- fiefs and scenario tiles ----------------------------------------------------------------
  // a fief's hexes are axial offsets [q, r] from its anchor; drawn where the table draws them
  const axialCentre = (q, r) => centre(q + (r - (r & 1)) / 2, r);
  function fiefCard(f, index) {
    const hexes = list(f.hexes).filter(isPair), castles = list(f.castles).filter(isPair);
    const s = svg("svg", { viewBox: "-5.2 -4.6 10.4 9.2", class: "ged-fief", role: "group", "aria-label": `${t("Fief")} ${f.number}` });
    for (let r = -3; r <= 3; r++) for (let q = -3 - Math.min(0, r); q <= 3 - Math.max(0, r); q++) {
      const [x, y] = axialCentre(q, r), ox = axialCentre(0, 0);
      const on = hexes.some((h) => h[0] === q && h[1] === r), castle = castles.some((h) => h[0] === q && h[1] === r);
      const cell = svg("polygon", { points: pointsAttr(corners(x - ox[0], y - ox[1], 0.95)), tabindex: 0, role: "button",
        "aria-pressed": String(on), "data-qr": `${q},${r}`, class: "ged-fief-cell" + (on ? " on" : "") + (castle ? " castle" : "") }, s);
      const toggle = (asCastle) => {
        const list2 = asCastle ? (f.castles = castles) : (f.hexes = hexes);
        const i = list2.findIndex((h) => h[0] === q && h[1] === r);
        if (i >= 0) list2.splice(i, 1); else list2.push([q, r]);
        if (!asCastle && i >= 0) f.castles = castles.filter((h) => !(h[0] === q && h[1] === r));
        host && host.changed && host.changed();
        renderFiefs();
      };
      cell.addEventListener("click", (ev) => toggle(ev.shiftKey));
      cell.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { toggle(false); ev.preventDefault(); }
        if (ev.key.toLowerCase() === "c") { toggle(true); ev.preventDefault(); }
      });
      if (castle) svg("circle", { cx: x - ox[0], cy: y - ox[1], r: 0.35, class: "ged-castle" }, s);
    }
    return el("figure", { class: "ged-fief-card", "data-fief": index }, s, el("figcaption", {}, `${t("Fief")} ${f.number}`));
  }
  function renderFiefs() {
    const box = fiefBox.querySelector(".ged-fief-list");
    box.replaceChildren(...list(d().fiefs).map((f, i) => (f && typeof f === "object" ? fiefCard(f, i) : null)).filter(Boolean));
  }
  function renderScenarios() {
    const regions = list(d().regions).filter((x) => x && typeof x.id === "string");
    const rows = list(d().scenarios).map((s, i) => {
      if (!s || typeof s !== "object") return null;
      const changed = () => { host && host.changed && host.changed(); };
      const name = el("input", { value: String(s.name || ""), size: 12, maxlength: 80, "aria-label": t("Name"), onchange: (e) => { s.name = e.target.value; changed(); } });
      const players = el("select", { "aria-label": t("Players"), onchange: (e) => { s.players = Number(e.target.value); changed(); } },
        ...[2, 3, 4].map((n) => el("option", { value: n, selected: s.players === n }, String(n))));
      const flourish = regions.map((r) => el("label", { class: "ged-flourish" }, el("input", { type: "checkbox", checked: list(s.flourishing).includes(r.id),
        onchange: (e) => { s.flourishing = list(s.flourishing).filter((x) => x !== r.id).concat(e.target.checked ? [r.id] : []); changed(); } }), String(r.name || r.id)));
      const remove = el("button", { type: "button", onclick: () => { d().scenarios.splice(i, 1); changed(); renderScenarios(); } }, t("Remove"));
      return el("tr", { "data-scenario": i }, el("td", {}, name), el("td", {}, players), el("td", {}, ...flourish), el("td", {}, remove));
    }).filter(Boolean);
    const add = el("button", { type: "button", onclick: () => {
      d().scenarios = list(d().scenarios);
      d().scenarios.push({ name: t("New tile"), players: 2, flourishing: regions.slice(0, 3).map((r) => r.id), person: "" });
      host && host.changed && host.changed();
      renderScenarios();
    } }, t("Add a tile"));
    scenarioBox.lastChild.replaceChildren(el("table", {}, el("tr", {}, el("th", {}, t("Name")), el("th", {}, t("Players")), el("th", {}, t("Flourishing regions")), el("th")), ...rows), add);
  }
  function renderPanels() { fillChoices(); renderFiefs(); renderScenarios(); }

  // a finding on a fief or a scenario tile: its card or row, opened and in focus
  function showPart(finding) {
    const part = /^\/(fiefs|scenarios)\/(\d+)/.exec((finding && finding.where) || "");
    if (!part) return false;
    const box = part[1] === "fiefs" ? fiefBox : scenarioBox;
    box.open = true;
    const target = box.querySelector(part[1] === "fiefs" ? `[data-fief="${part[2]}"]` : `[data-scenario="${part[2]}"]`);
    if (!target) return false;
    for (const x of root.querySelectorAll(".ged-part-focused")) x.classList.remove("ged-part-focused");
    target.classList.add("ged-part-focused");
    target.scrollIntoView({ block: "center" });
    const first = target.querySelector("[tabindex], input");
    if (first) first.focus({ preventScroll: true });
    return true;
  }

  // -- starting --------------------------------------------------------------------------------
  choose("land");
  renderPanels();
  placePhoto();
  fetch("/api/gonzaga/board").then((res) => (res.ok ? res.json() : {})).catch(() => ({}))
    .then((looks) => { ed.looks = looks || {}; redraw(); });

  return {
    current() { return structuredClone(ed.data); },
    set(next) { ed.data = structuredClone(next); ed.place = null; renderPanels(); redraw(); },
    showFindings(findings) { ed.findings = list(findings); if (!ed.findings.some((f) => same(f, ed.focused))) ed.focused = null; if (ed.looks) redrawSoon(); },
    focus(finding) {
      ed.focused = finding;
      if (showPart(finding)) return;
      const first = list(finding && finding.marks).map((m) => /^hex:(-?\d+),(-?\d+)$/.exec(m)).find(Boolean);
      if (first) ed.cursor = [Number(first[1]), Number(first[2])];
      if (first && ed.zoom < 2) { ed.zoom = 2; canvas.style.width = "200%"; }
      redraw();
      if (first) keepInView(true);
      map.focus({ preventScroll: true });
    },
  };
}
