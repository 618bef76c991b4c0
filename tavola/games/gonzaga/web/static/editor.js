// Gonzaga's map editor: a person transcribes the map and pieces of their own printed box into a
// board file (an edition), over a photo of the board if they like. The platform's editor page
// (save, undo, redo, import, export, the list of findings) mounts it: mountEditor(root, data,
// host) with host = { changed(), t(text), game }. The map is drawn by the table's own code
// (board.js) from the file's data (editor-data.js); every fact of the game is read from it.
import { svg } from "/static/tavola/common.js";
import { drawBoard } from "./board.js";
import { addPlace, boardOf, emptied, entryAt, fileOf, list, MAX_SIDE, movePlace, paint, placeAt, pointAt, removePlace, resized, toggleBarrier } from "./editor-data.js";
import { areaName, describe, drawMarksOn, hexesOf, same } from "./editor-marks.js";
import { el, gonzagaWords, photoPanel, renderFiefs, renderNames, renderScenarios, showPart } from "./editor-parts.js";
import { centre, corners, pointsAttr } from "./hexes.js";
import { ui } from "./state.js";

const TOOLS = (t) => [  // [id, key, label]; the first, chosen at the start, changes nothing
  ["select", "v", t("Select")], ["land", "l", t("Land")], ["sea", "s", t("Sea")], ["off", "x", t("Off the board")],
  ["city", "c", t("City")], ["harbor", "h", t("Harbor")], ["barrier", "b", t("Barrier")],
  ["seal", "g", t("Seal")], ["church", "k", t("Church")],
];
const PAINTS = new Set(["land", "sea", "off"]);
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const PICKS = { select: ["cities", "harbors"], city: ["cities"], harbor: ["harbors"] };  // what a tool picks up to move

function stylesheet(href) {
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
}

export function mountEditor(root, data, host) {
  const t = (text) => (host && host.t ? host.t(text) : text);
  stylesheet("/static/gonzaga/style.css");
  stylesheet("/static/gonzaga/editor.css");
  const ed = { data: fileOf(data), tool: "select", cursor: [0, 0], zoom: 1, findings: [], focused: null,
    region: null, sea: null, symbol: null, place: null, looks: {}, queued: false, byCentre: new Map() };
  const d = () => ed.data;
  // -- the parts of the page -------------------------------------------------------------------
  const tooling = TOOLS(t);
  const tools = el("div", { class: "ged-tools", role: "toolbar", "aria-label": t("Tools") },
    ...tooling.map(([id, key, label]) => el("button", { type: "button", "data-tool": id, title: `${label} (${key.toUpperCase()})`,
      "aria-pressed": "false", onclick: () => choose(id) }, label)));
  const pick = (id, label) => el("label", { class: "ged-pick" }, label + " ", el("select", { id }));
  const options = el("div", { class: "ged-options" },
    pick("ged-region", t("Region")), pick("ged-sea", t("Sea")), pick("ged-symbol", t("Symbol")),
    el("label", { class: "ged-pick" }, t("Barrier range") + " ", el("input", { id: "ged-range", size: 10, maxlength: 80 })));
  const placeForm = el("div", { class: "ged-place ged-unchosen", inert: true },
    el("label", {}, t("Name") + " ", el("input", { id: "ged-place-name", size: 14, maxlength: 80 })),
    el("button", { type: "button", id: "ged-place-remove", onclick: () => removeChosen() }, t("Remove")));
  const start = el("details", { class: "ged-start" }, el("summary", {}, t("Grid")),
    el("button", { type: "button", onclick: () => startFrom("reconstruction") }, t("Start from the reconstruction")),
    el("button", { type: "button", onclick: () => startFrom("empty") }, t("Start from an empty grid")),
    ...[["ged-columns", t("Columns")], ["ged-rows", t("Rows")]].map(([id, label]) => el("label", { class: "ged-pick" }, label + " ",
      el("input", { id, type: "number", min: 1, max: 80, onchange: () => startFrom("size") }))));
  const status = el("p", { class: "ged-status", "aria-live": "polite" });
  const zoom = el("div", { class: "ged-zoom" },
    el("button", { type: "button", title: t("Zoom in"), onclick: () => zoomBy(1.5) }, "+"),
    el("button", { type: "button", title: t("Zoom out"), onclick: () => zoomBy(1 / 1.5) }, "−"), status);
  const photo = el("img", { class: "ged-photo", alt: "", hidden: true });
  const map = svg("svg", { id: "board", role: "application", tabindex: 0, "aria-label": t("The map: arrows move, Enter applies the tool") });
  const canvas = el("div", { class: "ged-canvas" }, photo, map);
  const scroller = el("div", { class: "ged-map" }, canvas);
  const fiefList = el("div", { class: "ged-fief-list" });
  const fiefBox = el("details", { class: "ged-fiefs" }, el("summary", {}, t("Fiefs")),
    el("p", { class: "ged-note" }, t("Click a hex to add or take it away; Shift+click (or C on a focused hex) for a castle.")), fiefList);
  const namesBox = el("details", { class: "ged-names" }, el("summary", {}, t("Regions, seas and symbols")), el("div"));
  const scenarioList = el("div");
  const scenarioBox = el("details", { class: "ged-scenarios" }, el("summary", {}, t("Scenario tiles")), scenarioList);
  root.classList.add("ged");
  root.replaceChildren(start, tools, options, placeForm, zoom, scroller, photoPanel(root, photo, t), fiefBox, namesBox, scenarioBox);
  const $ = (id) => root.querySelector("#" + id);

  // -- changing the data -----------------------------------------------------------------------
  const changed = () => host && host.changed && host.changed();
  const edited = () => { changed(); fillChoices(); redrawSoon(); };
  // the hex beyond side `i` of a hex (between its corners i and i+1), found by where it is drawn
  function across(c, r, i) {
    const [x, y] = centre(c, r), pts = corners(x, y);
    const mx = (pts[i][0] + pts[(i + 1) % 6][0]) / 2, my = (pts[i][1] + pts[(i + 1) % 6][1]) / 2;
    return ed.byCentre.get(`${Math.round((2 * mx - x) * 10)},${Math.round((2 * my - y) * 10)}`);
  }
  function place(kind, c, r) {
    const found = placeAt(d(), kind, c, r);
    ed.place = { kind, item: found || addPlace(d(), kind, c, r, { name: kind === "cities" ? t("New city") : t("New harbor"),
      region: ed.region, symbol: ed.symbol, sea: ed.sea }) };
    return !found;
  }
  // the city or harbor on a hex the tool can pick up (to select or move it)
  function pickAt(c, r) {
    for (const kind of PICKS[ed.tool] || []) { const item = placeAt(d(), kind, c, r); if (item) return { kind, item }; }
    return null;
  }
  function moveChosen(c, r) {
    if (!ed.place || !movePlace(d(), ed.place.item, c, r)) return false;
    ed.cursor = [c, r];
    edited();
    return true;
  }
  function removeChosen() {
    if (ed.place && removePlace(d(), ed.place.kind, ed.place.item)) { ed.place = null; edited(); }
  }
  // the tool at a hex; `side`: the side of it the pointer is nearest (barriers)
  function apply(c, r, side = null) {
    ed.cursor = [c, r];
    let done = false;
    if (ed.tool === "select") ed.place = pickAt(c, r);
    else if (PAINTS.has(ed.tool)) done = paint(d(), c, r, ed.tool, ed.region, ed.sea);
    else if (ed.tool === "city" || ed.tool === "harbor") done = place(ed.tool === "city" ? "cities" : "harbors", c, r);
    else if (ed.tool === "barrier" && side !== null) done = toggleBarrier(d(), [c, r], across(c, r, side), $("ged-range").value.trim() || t("Mountains"));
    else if (ed.tool === "seal") {
      const region = list(d().regions).find((x) => x && x.id === ed.region);
      if (region) { region.seal = pointAt(c, r); done = true; }
    } else if (ed.tool === "church") { d().church = pointAt(c, r); done = true; }
    if (done) edited(); else redrawSoon();
  }

  // -- drawing ---------------------------------------------------------------------------------
  function redrawSoon() {
    if (ed.queued) return;
    ed.queued = true;
    requestAnimationFrame(() => { ed.queued = false; redraw(); });
  }
  function redraw() {
    ui.board = boardOf(d(), ed.looks);
    ui.landCentres = null;  // the table draws one board; here the land changes
    drawBoard(null);
    drawGrid();
    drawMarksOn(svg("g", { id: "ged-marks", class: "overlay" }, map), d(), ed.cursor, ed.findings, ed.focused);
    showPlace();
    if (!root.dataset.drawn) performance.mark("gonzaga-editor-drawn");  // the load time, as measured
    root.dataset.drawn = String((Number(root.dataset.drawn) || 0) + 1);
  }
  // every position of the grid, on top: what the pointer and the cursor point at
  function drawGrid() {
    const grid = svg("g", { id: "ged-grid" }, map);
    ed.byCentre = new Map();
    list(d().terrain).slice(0, MAX_SIDE).forEach((line, r) => {
      for (let c = 0; c < (typeof line === "string" ? Math.min(line.length, MAX_SIDE) : 0); c++) {
        const [x, y] = centre(c, r);
        ed.byCentre.set(`${Math.round(x * 10)},${Math.round(y * 10)}`, [c, r]);
        svg("polygon", { points: pointsAttr(corners(x, y)), "data-at": `${c},${r}`, class: "ged-cell" }, grid);
      }
    });
  }
  const nameOf = (key, id) => areaName(d(), key, id);
  function showPlace() {
    const [c, r] = ed.cursor, e = entryAt(d(), c, r);
    const area = e.region ? nameOf("regions", e.region) : e.sea ? nameOf("seas", e.sea) : t("Off the board");
    const here = [placeAt(d(), "cities", c, r), placeAt(d(), "harbors", c, r)].filter(Boolean).map((p) => p.name);
    status.textContent = [`${c},${r}`, area, ...here].join(" · ");
    const p = ed.place;
    const none = !p || !list(d()[p.kind]).includes(p.item);  // its room kept: the map does not move
    placeForm.classList.toggle("ged-unchosen", none);
    placeForm.inert = none;
    if (none) return;
    if (document.activeElement !== $("ged-place-name")) $("ged-place-name").value = p.item.name || "";
    const [key, id] = p.kind === "cities" ? ["symbol", "ged-symbol"] : ["sea", "ged-sea"];  // the place's own
    if ([...$(id).options].some((o) => o.value === p.item[key])) $(id).value = ed[key] = p.item[key];
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
    if (!PICKS[tool]) ed.place = null;
    showPlace();
  }
  $("ged-region").addEventListener("change", (e) => { ed.region = e.target.value; });
  $("ged-sea").addEventListener("change", (e) => {
    ed.sea = e.target.value;
    if (ed.place && ed.place.kind === "harbors") { ed.place.item.sea = ed.sea; edited(); }
  });
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
  const cellAt = (target) => { const cell = target && target.closest && target.closest(".ged-cell"); return cell ? cell.dataset.at.split(",").map(Number) : null; };
  function sideOf(ev, c, r) {  // the side of the hex nearest the pointer (0: the lower right)
    const p = map.createSVGPoint(); p.x = ev.clientX; p.y = ev.clientY;
    const at = p.matrixTransform(map.getScreenCTM().inverse());
    const pts = corners(...centre(c, r));
    const far = pts.map((a, i) => { const b = pts[(i + 1) % 6]; return ((a[0] + b[0]) / 2 - at.x) ** 2 + ((a[1] + b[1]) / 2 - at.y) ** 2; });
    return far.indexOf(Math.min(...far));
  }
  map.addEventListener("pointerdown", (ev) => {
    const at = cellAt(ev.target);
    if (!at) return;
    map.focus({ preventScroll: true });
    ed.painting = PAINTS.has(ed.tool);
    const picked = pickAt(...at);
    if (picked) { ed.place = picked; ed.dragging = true; ed.cursor = at; redrawSoon(); return; }
    apply(at[0], at[1], ed.tool === "barrier" ? sideOf(ev, ...at) : null);
  });
  map.addEventListener("pointermove", (ev) => {  // painting: dragged over several hexes
    const at = ed.painting && (ev.buttons & 1) && cellAt(document.elementFromPoint(ev.clientX, ev.clientY));
    if (at) apply(...at);
  });
  addEventListener("pointerup", (ev) => {  // a city or harbor dragged: moved where it is let go
    const at = ed.dragging && cellAt(document.elementFromPoint(ev.clientX, ev.clientY));
    ed.painting = ed.dragging = false;
    if (at && ed.place && (at[0] !== ed.place.item.at[0] || at[1] !== ed.place.item.at[1])) moveChosen(...at);
  });
  map.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const move = MOVES[ev.key], tool = tooling.find(([, key]) => key === ev.key.toLowerCase());
    const [c, r] = move && ev.shiftKey && ed.place ? ed.place.item.at : ed.cursor;
    if (move) {
      const rows = list(d().terrain).length, first = list(d().terrain)[0], cols = typeof first === "string" ? first.length : 1;
      const next = [Math.max(0, Math.min(cols - 1, c + move[0])), Math.max(0, Math.min(rows - 1, r + move[1]))];
      if (ev.shiftKey && ed.place) moveChosen(...next);  // Shift+arrow: the chosen city or harbor moves
      else ed.cursor = next;
      redrawSoon();
      keepInView();
    } else if (ev.key === "Enter" || ev.key === " ") apply(c, r);
    else if (ed.tool === "barrier" && /^[1-6]$/.test(ev.key)) apply(c, r, Number(ev.key) - 1);
    else if (ev.key === "Delete" || ev.key === "Backspace") {
      const kind = placeAt(d(), "cities", c, r) ? "cities" : "harbors", item = placeAt(d(), kind, c, r);
      if (item) { ed.place = { kind, item }; removeChosen(); }
    } else if (ev.key === "+" || ev.key === "=") zoomBy(1.5);
    else if (ev.key === "-") zoomBy(1 / 1.5);
    else if (tool) choose(tool[0]);
    else return;
    ev.preventDefault();
  });

  // -- zoom and the view -----------------------------------------------------------------------
  function zoomTo(z) { ed.zoom = Math.max(1, Math.min(8, z)); canvas.style.width = `${ed.zoom * 100}%`; }
  function zoomBy(k) { zoomTo(ed.zoom * k); requestAnimationFrame(() => { redraw(); keepInView(); }); }
  function keepInView(centred = false) {
    const ctm = map.getScreenCTM();
    if (!ctm) return;
    const [x, y] = centre(...ed.cursor), sx = ctm.a * x + ctm.e, sy = ctm.d * y + ctm.f;
    const box = scroller.getBoundingClientRect();
    if (centred || sx < box.left + 40 || sx > box.right - 40) scroller.scrollLeft += sx - (box.left + box.width / 2);
    if (centred || sy < box.top + 40 || sy > box.bottom - 40) scroller.scrollTop += sy - (box.top + box.height / 2);
  }

  // -- starting (again) ------------------------------------------------------------------------
  function renderPanels() {
    fillChoices();
    $("ged-columns").value = list(d().terrain)[0] ? String(list(d().terrain)[0]).length : 0;
    $("ged-rows").value = list(d().terrain).length;
    renderFiefs(fiefList, d(), t, changed);
    renderScenarios(scenarioList, d(), t, changed);
    renderNames(namesBox.lastChild, d(), t, edited);
  }
  async function startFrom(how) {
    if (how === "reconstruction") {
      const res = await fetch(`/api/editions/default?game=${encodeURIComponent((host && host.game) || "gonzaga")}`);
      if (!res.ok) return;
      ed.data = await res.json();
    } else if (how === "size") {
      const [columns, rows] = ["ged-columns", "ged-rows"].map((id) => Math.max(1, Math.min(80, Math.round(Number($(id).value)) || 1)));
      resized(d(), columns, rows);
    } else emptied(d());
    ed.place = null;
    renderPanels();
    edited();
  }
  choose("select");
  renderPanels();
  Promise.all([fetch("/api/gonzaga/board").then((res) => (res.ok ? res.json() : {})).catch(() => ({})), gonzagaWords(root)])
    .then(([found]) => { ed.looks = found || {}; redraw(); });

  return {
    current() { return structuredClone(ed.data); },
    set(next) { ed.data = fileOf(next); ed.place = null; renderPanels(); redraw(); },
    showFindings(findings) {
      ed.findings = list(findings);
      if (!ed.findings.some((f) => same(f, ed.focused))) ed.focused = null;
      redrawSoon(); },
    describe: (finding) => describe(d(), finding, t),
    focus(finding) {
      ed.focused = finding;
      if (showPart(root, finding, fiefBox, scenarioBox)) return;
      const first = hexesOf(d(), finding)[0];
      if (first) ed.cursor = first;
      if (first && ed.zoom < 2) zoomTo(2);
      redraw();
      if (first) keepInView(true);
      map.focus({ preventScroll: true });
    },
  };
}
