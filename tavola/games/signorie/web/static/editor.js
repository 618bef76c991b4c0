// Signorie's component editor: every value of a component file on one page, grouped as on the
// printed material, each with its status and its source (or reason), and beside each group a
// picture of that part drawn from the data by the table's own drawing code (table-parts.js), from
// the table the server builds of the data. The fields, their choices and bounds come from the
// file's JSON Schema; no game fact is written here. The platform's editions page mounts it
// (`mountEditor`) and does saving, undo, import and export; it calls `showFindings` with the
// problems of the data, each at its field (a JSON Pointer).
import { I18N, el, sentence, t as translate } from "/static/tavola/common.js";
import * as parts from "./table-parts.js";

// the parts of the file as the printed material groups them: top-level keys of the file format;
// `items`: the picture's drawing of each item of a list of the file, in the file's order
const SECTIONS = (t) => [
  { id: "dice", title: t("Die slots and costs"), keys: ["action_slots"], items: ".action-slot-list > .colour",
    picture: (tb) => [parts.actionSlots(tb), parts.costTable(tb)] },
  { id: "helpers", title: t("Helper columns"), keys: ["helper_slots"], picture: (tb) => [parts.helperColumns(tb)] },
  { id: "assignments", title: t("Assignment tiles"), keys: ["assignment_slots", "assignment_tiles"], picture: (tb) => [parts.assignmentTiles(tb)] },
  { id: "rewards", title: t("Reward tiles"), keys: ["bonus_tiles", "vp_tiles"], picture: (tb) => [parts.rewardTiles(tb)] },
  { id: "tracks", title: t("Career and initiative tracks"), keys: ["career_tracks", "initiative_track"],
    picture: (tb, read) => [inOrder(parts.careerTable(tb), "tr", read("/career_tracks/slots/value", tb.career.length), 1),
      inOrder(parts.initiativeTrack(tb), "", read("/initiative_track/value", tb.initiative.length), 0)] },
  { id: "cities", title: t("Cities and their slots"), keys: ["cities"], items: ".city",
    picture: (tb) => tb.cities.map((c) => el("div", { class: "city" }, el("h4", { text: c.name }), parts.citySlots(c.slots, c.places))) },
  { id: "brides", title: t("Bride slots"), keys: ["bride_slots"], picture: (tb) => [el("div", { class: "brides" }, ...parts.brideChips(tb))] },
  { id: "plans", title: t("Plans"), keys: ["player_boards"], items: ".board-plan",
    picture: (tb) => Object.keys(tb.boards).map((colour) => el("div", { class: "board-plan" }, el("h4", { text: (tb.looks[colour] || {}).name || colour }), parts.planRows(tb, colour))) },
  { id: "houses", title: t("Houses and alliance tiles"), keys: ["houses", "alliance_tiles"], picture: (tb) => [parts.houseTiles(tb)] },
  { id: "rules", title: t("Rules"), keys: ["rules"] },
  { id: "file", title: t("About the file"), keys: ["format", "about"] },
];
const CHECK_DELAY = 300;  // ms after the last change before the picture is drawn again
const GZIP_TYPE = "gzip";

function label(name) { return String(name).replaceAll("_", " "); }
// `node`'s drawing of a list (each of its `rows`, or itself, past `skip` heading cells) put in
// the order the printed material reads it, the same as its fields
function inOrder(node, rows, order, skip) {
  for (const row of rows ? node.querySelectorAll(rows) : [node]) {
    const cells = [...row.children].slice(skip);
    if (cells.length === order.length) row.append(...order.map((i) => cells[i]));
  }
  return node;
}
function partsOf(where) { return String(where || "").split("/").slice(1).map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~")); }
function pointer(parts) { return parts.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join(""); }
function clone(x) { return JSON.parse(JSON.stringify(x)); }

// component data to the server, gzipped: a component file is larger than a plain request may be
export async function postData(path, body) {
  const text = JSON.stringify(body);
  const headers = { "Content-Type": "application/json" };
  const csrf = document.cookie.match(/(?:^|; )tabletop_csrf=([^;]*)/);
  if (csrf) headers["X-CSRF-Token"] = decodeURIComponent(csrf[1]);
  let payload = text;
  if (typeof CompressionStream === "function") {
    payload = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream(GZIP_TYPE))).arrayBuffer();
    headers["Content-Encoding"] = GZIP_TYPE;
  }
  const r = await fetch(path, { method: "POST", headers, body: payload });
  let data = {};
  try { data = await r.json(); } catch (e) { data = {}; }
  if (!r.ok) {
    const err = new Error(sentence(data.message || r.statusText));
    err.status = r.status; err.code = data.code;
    throw err;
  }
  return data;
}

export function mountEditor(root, data, host = {}) {
  // the editor's words are Signorie's: its catalog is fetched when the page lacks it (the
  // editions page speaks the platform's), the host fills in the fields
  const say = host.t || translate;
  let own = {};
  const t = (text, fields) => say(Object.prototype.hasOwnProperty.call(own, text) ? own[text] : text, fields);
  // names: every place's label in the game's words; order: the lists printed in another order
  // than the file's, each as its indices in printed order (both from the server: `places.py`)
  const ed = { data: clone(data), schema: null, places: new Map(), timer: null, asked: 0, names: {}, order: {} };
  let ids = 0;
  const nextId = () => `ed-${++ids}`;
  loadStyle();

  // -- the schema: what each field holds -------------------------------------------------------
  const resolve = (s) => {
    let node = s || {};
    while (node.$ref) node = ed.schema.$defs[node.$ref.split("/").pop()] || {};
    if (node.anyOf) {
      const real = node.anyOf.find((x) => x.type !== "null");
      return { ...resolve(real), nullable: node.anyOf.some((x) => x.type === "null"), default: node.default };
    }
    return node;
  };
  const isSourced = (s) => s.properties && s.properties.value && s.properties.status;
  const blank = (s) => {
    s = resolve(s);
    if (s.default !== undefined && s.default !== null) return clone(s.default);
    if (s.enum) return s.enum[0];
    if (s.type === "integer" || s.type === "number") return s.minimum || 0;
    if (s.type === "string") return "";
    if (s.type === "boolean") return false;
    if (s.type === "array") return [];
    if (isSourced(s)) return { value: blank(s.properties.value), status: "provisional", reason: "" };
    if (s.properties) return Object.fromEntries((s.required || []).map((k) => [k, blank(s.properties[k])]));
    return {};
  };

  // -- reading and writing the data at a path ---------------------------------------------------
  const at = (path) => path.reduce((node, key) => (node == null ? undefined : node[key]), ed.data);
  const put = (path, value) => {
    const parent = at(path.slice(0, -1));
    if (parent !== undefined && parent !== null) parent[path[path.length - 1]] = value;
    changed();
  };
  const drop = (path) => {
    const parent = at(path.slice(0, -1));
    if (Array.isArray(parent)) parent.splice(Number(path[path.length - 1]), 1);
    else if (parent) delete parent[path[path.length - 1]];
    changed(true);
  };
  function changed(rebuild = false) {
    if (rebuild) draw();
    if (host.changed) host.changed();
    clearTimeout(ed.timer);
    ed.timer = setTimeout(drawPictures, CHECK_DELAY);
  }

  // -- the fields -------------------------------------------------------------------------------
  const place = (path, node) => { node.dataset.where = pointer(path); ed.places.set(pointer(path), node); return node; };
  // a field's label: the place's name in the game's words (the file's path only in its title)
  const nameOf = (path, fallback) => ed.names[pointer(path)] || fallback;
  const caption = (tag, path, name, attrs = {}) => el(tag, { ...attrs, text: name, title: pointer(path), "data-name-of": pointer(path) });
  function relabel() {
    root.querySelectorAll("[data-name-of]").forEach((x) => {
      const name = ed.names[x.dataset.nameOf];
      if (name && x.textContent !== name) x.textContent = name;
    });
  }
  // a list's indices in the order the printed material reads them (the file's when no other)
  function printedOrder(path, n) {
    const order = ed.order[pointer(path)];
    const whole = Array.isArray(order) && order.length === n && [...order].sort((a, b) => a - b).every((x, i) => x === i);
    return whole ? order : Array.from({ length: n }, (_, i) => i);
  }

  function field(path, name, s, value) {
    s = resolve(s);
    if (isSourced(s) && value && typeof value === "object" && !Array.isArray(value)) return sourced(path, name, s, value);
    if (s.type === "array" || Array.isArray(value)) return list(path, name, s, value);
    if (s.properties || s.additionalProperties || (value && typeof value === "object")) return group(path, name, s, value);
    return scalar(path, name, s, value);
  }

  function scalar(path, name, s, value) {
    const id = nextId();
    let input;
    if (s.enum) {
      input = el("select", { id }, ...s.enum.map((v) => el("option", { value: String(v), text: t(label(v)) })));
      input.value = String(value);
      input.addEventListener("change", () => put(path, s.enum.find((v) => String(v) === input.value)));
    } else if (s.type === "integer" || s.type === "number" || typeof value === "number") {
      input = el("input", { id, type: "number", step: 1, inputmode: "numeric", value: String(value ?? "") });
      if (s.minimum !== undefined) input.min = s.minimum;
      if (s.maximum !== undefined) input.max = s.maximum;
      input.addEventListener("input", () => put(path, input.value === "" || Number.isNaN(Number(input.value)) ? input.value : Number(input.value)));
    } else if (s.type === "boolean" || typeof value === "boolean") {
      input = el("input", { id, type: "checkbox" });
      input.checked = Boolean(value);
      input.addEventListener("change", () => put(path, input.checked));
    } else {
      const long = typeof value === "string" && value.length > 60;
      input = el(long ? "textarea" : "input", { id, ...(long ? { rows: 2 } : { type: "text" }) });
      input.value = value ?? "";
      input.addEventListener("input", () => put(path, input.value));
    }
    return place(path, el("div", { class: "ed-field" }, caption("label", path, name, { for: id }), input, ...optional(path, s)));
  }

  // a value with its status: known (with its source) or provisional (with the designer's reason)
  function sourced(path, name, s, value) {
    const statusId = nextId(), noteId = nextId();
    const status = el("select", { id: statusId, class: "ed-status" }, ...["known", "provisional"].map((v) => el("option", { value: v, text: t(v) })));
    status.value = value.status;
    const noteKey = () => (at([...path, "status"]) === "known" ? "source" : "reason");
    const noteLabel = el("label", { for: noteId, text: t(noteKey()) });
    const note = el("input", { id: noteId, type: "text", class: "ed-note" });
    note.value = value[noteKey()] || "";
    status.addEventListener("change", () => {
      const node = at(path);
      const text = node.source || node.reason || "";
      node.status = status.value;
      delete node.source; delete node.reason;
      node[noteKey()] = text;
      noteLabel.textContent = t(noteKey());
      changed();
    });
    note.addEventListener("input", () => { at(path)[noteKey()] = note.value; changed(); });
    const box = el("fieldset", { class: "ed-sourced " + value.status },
      caption("legend", path, name), field([...path, "value"], t("value"), s.properties.value, value.value),
      el("div", { class: "ed-label" },
        place([...path, "status"], el("span", { class: "ed-field" }, el("label", { for: statusId, text: t("status") }), status)),
        place([...path, noteKey()], el("span", { class: "ed-field ed-note-field" }, noteLabel, note))));
    status.addEventListener("change", () => { box.className = "ed-sourced " + status.value; });
    return place(path, box);
  }

  function group(path, name, s, value) {
    const box = el("fieldset", { class: "ed-group" }, caption("legend", path, name));
    const props = s.properties || {};
    const obj = value && typeof value === "object" ? value : {};
    const fixed = s.additionalProperties && s.additionalProperties.propertyNames;
    for (const key of Object.keys(props)) {
      if (key in obj) box.append(field([...path, key], nameOf([...path, key], t(label(key))), props[key], obj[key]));
      else box.append(el("button", { type: "button", class: "ed-add", text: t("Add {field}", { field: t(label(key)) }),
        onclick: () => { obj[key] = blank(props[key]); put(path, obj); draw(); } }));
    }
    const extra = Object.keys(obj).filter((k) => !(k in props));
    for (const key of extra) {
      const entry = field([...path, key], nameOf([...path, key], t(label(key))), s.additionalProperties || {}, obj[key]);
      if (s.additionalProperties && !fixed && !/^[0-9]+$/.test(key)) entry.prepend(renameKey(path, obj, key));
      box.append(entry);
    }
    box.append(...optional(path, s));
    return place(path, box);
  }

  // a key of a map the data names (a house's alliance tiles): renamed where it stands
  function renameKey(path, obj, key) {
    const id = nextId();
    const input = el("input", { id, type: "text", class: "ed-key", value: key });
    input.addEventListener("change", () => {
      const name = input.value;
      if (!name || name in obj) { input.value = key; return; }
      const entries = Object.entries(obj).map(([k, v]) => [k === key ? name : k, v]);
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, Object.fromEntries(entries));
      changed(true);
    });
    return el("span", { class: "ed-field" }, el("label", { for: id, text: t("name") }), input);
  }

  function list(path, name, s, value) {
    const items = Array.isArray(value) ? value : [];
    const inline = items.every((x) => x === null || typeof x !== "object");
    const box = el("fieldset", { class: "ed-list" + (inline ? " inline" : "") }, caption("legend", path, name),
      el("ol", {}, ...printedOrder(path, items.length).map((i) => el("li", {},
        field([...path, i], nameOf([...path, i], inline ? `${i + 1}` : `${name} ${i + 1}`), s.items || {}, items[i])))));
    box.append(el("div", { class: "ed-list-buttons" },
      el("button", { type: "button", class: "ed-add", text: t("Add one"),
        onclick: () => { items.push(items.length ? clone(items[items.length - 1]) : blank(s.items || {})); put(path, items); draw(); } }),
      items.length ? el("button", { type: "button", class: "ed-remove", text: t("Remove the last"),
        onclick: () => drop([...path, items.length - 1]) }) : ""));
    return place(path, box);
  }

  // a field the file may leave out: removed with a button (its "Add" button is on its group)
  function optional(path, s) {
    const parentSchema = s;
    return parentSchema && parentSchema.nullable && path.length
      ? [el("button", { type: "button", class: "ed-remove", text: t("Remove"), onclick: () => drop(path) })] : [];
  }

  // -- the page ---------------------------------------------------------------------------------
  const fileFindings = el("ul", { class: "ed-file-findings", "aria-live": "polite" });
  const pictures = new Map();
  function draw() {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.closest("[data-where]") : null;
    const again = focused ? focused.dataset.where : null;
    ed.places.clear();
    ids = 0;
    const schema = ed.schema ? resolve(ed.schema) : { properties: {} };
    const named = SECTIONS(t);
    const known = new Set(named.flatMap((x) => x.keys));
    const others = Object.keys(ed.data && typeof ed.data === "object" ? ed.data : {}).filter((k) => !known.has(k));
    const sections = [...named, ...(others.length ? [{ id: "other", title: t("Other fields"), keys: others }] : [])];
    const nav = el("nav", { class: "ed-nav", "aria-label": t("Parts of the components") },
      ...sections.map((x) => el("a", { href: `#ed-section-${x.id}`, text: x.title })));
    pictures.clear();
    const blocks = sections.map((x) => {
      const fig = el("figure", { class: "ed-picture", "aria-live": "polite" });
      if (x.picture) pictures.set(x.id, { fig, draw: x.picture, keys: x.keys, items: x.items });
      const fields = x.keys.filter((k) => ed.data && k in ed.data)
        .map((k) => field([k], nameOf([k], t(label(k))), (schema.properties || {})[k] || {}, ed.data[k]));
      return el("section", { class: "ed-section", id: `ed-section-${x.id}`, "data-section": x.id },
        el("h2", { text: x.title }), x.picture ? fig : "", el("div", { class: "ed-fields" }, ...fields));
    });
    root.replaceChildren(el("div", { class: "signorie-editor" }, nav, fileFindings, ...blocks, balancePanel()));
    if (ed.table) paint(ed.table, ed.wrong || []);
    if (again && ed.places.get(again)) {
      const input = ed.places.get(again).querySelector("input, select, textarea, button");
      if (input) input.focus();
    }
    if (ed.findings) show(ed.findings);
  }

  // the parts' pictures of the last table without problems; a part a finding is about is marked
  // (crossed-out frame, a warning sign and a sentence: not by colour alone), the others as drawn
  // (crossed-out frame, a warning sign and a sentence: not by colour alone), and in it the item
  // it is about where the picture draws one per item of the list; the other parts as drawn
  function paint(tb, findings) {
    const wrong = findings.map((f) => partsOf(f.where)).filter((p) => p.length);
    for (const [id, { fig, draw: picture, keys, items }] of pictures) {
      const mine = wrong.filter((p) => keys.includes(p[0]));
      fig.classList.toggle("stale", mine.length > 0);
      fig.toggleAttribute("data-finding", mine.length > 0);
      fig.replaceChildren(...picture(tb, (where, n) => printedOrder(partsOf(where), n)), mine.length ? el("figcaption", { class: "ed-stale-note", "data-part": id,
        text: t("This part has a problem: the picture shows it as it was before.") }) : "");
      const drawn = items ? fig.querySelectorAll(items) : [];
      const found = mine.map((p) => (/^[0-9]+$/.test(p[1] || "") ? drawn[Number(p[1])] : null));
      found.forEach((x) => x && x.classList.add("ed-wrong-item"));
      // items marked: only they fade (they show what was); a finding on the part as a whole: all
      fig.classList.toggle("by-item", found.length > 0 && found.every(Boolean));
    }
  }

  async function drawPictures() {
    const asked = ++ed.asked;
    try {
      const answer = await postData("/api/signorie/edition/table", ed.data);
      if (asked !== ed.asked) return;  // a later change is being drawn
      ed.names = answer.names || {};
      const reorder = JSON.stringify(answer.order || {}) !== JSON.stringify(ed.order);
      ed.order = answer.order || {};
      ed.wrong = answer.table ? [] : answer.findings || [];
      if (answer.table) ed.table = answer.table;
      if (reorder && ed.ready) draw(); else { relabel(); if (ed.table) paint(ed.table, ed.wrong); }
    } catch (e) {
      if (ed.table) paint(ed.table, ed.wrong || []);
    }
  }

  // -- findings at their fields -----------------------------------------------------------------
  function placeOf(where) {
    let p = where || "";
    while (p && !ed.places.has(p)) p = p.slice(0, p.lastIndexOf("/"));
    return p ? ed.places.get(p) : null;
  }
  function show(findings) {
    ed.findings = findings || [];
    root.querySelectorAll(".ed-finding").forEach((x) => x.remove());
    root.querySelectorAll("[aria-invalid]").forEach((x) => x.removeAttribute("aria-invalid"));
    fileFindings.replaceChildren();
    for (const f of ed.findings) {
      const where = placeOf(f.where);
      const note = el("p", { class: "ed-finding", role: "alert", "data-where": f.where || "", text: t(f.message) });
      if (!where) { fileFindings.append(el("li", {}, note)); continue; }
      // the field's own input; a value with its status: the value's
      const own = ":scope > input, :scope > select, :scope > textarea";
      const value = ":scope > .ed-field > input, :scope > .ed-field > select, :scope > .ed-field > textarea";
      const inputs = where.querySelectorAll(where.classList.contains("ed-sourced") ? value : own);
      inputs.forEach((x) => x.setAttribute("aria-invalid", "true"));
      where.append(note);
    }
  }
  function focus(finding) {
    const where = placeOf(finding && finding.where);
    if (!where) { fileFindings.scrollIntoView({ block: "center" }); return; }
    where.scrollIntoView({ block: "center" });
    const input = where.querySelector("input, select, textarea");
    if (input) input.focus();
  }

  // -- the balance check ------------------------------------------------------------------------
  function balancePanel() {
    const gamesId = nextId(), playersId = nextId();
    const games = el("input", { id: gamesId, type: "number", min: 1, max: 1000, step: 1, value: "200", inputmode: "numeric" });
    const players = el("select", { id: playersId }, ...[2, 3, 4].map((n) => el("option", { value: String(n), text: String(n) })));
    players.value = "4";
    const bar = el("progress", { class: "ed-progress", max: 1, value: 0, hidden: true });
    const status = el("p", { class: "ed-balance-status", "aria-live": "polite" });
    const report = el("div", { class: "ed-balance-report" });
    const run = el("button", { type: "button", class: "ed-balance-run", text: t("Run the balance check") });
    run.addEventListener("click", async () => {
      run.disabled = true; report.replaceChildren(); bar.hidden = false; bar.value = 0;
      status.textContent = t("Starting…");
      try {
        let check = await postData("/api/signorie/balance", { data: ed.data, games: Number(games.value), players: Number(players.value) });
        while (!check.finished) {
          bar.max = check.games; bar.value = check.done;
          status.textContent = t("{done} of {games} games played ({seconds} s)", check);
          await new Promise((r) => setTimeout(r, 1000));
          const r = await fetch(`/api/signorie/balance/${encodeURIComponent(check.id)}`);
          const answer = await r.json().catch(() => ({}));
          if (!r.ok) throw new Error(sentence(answer.message || r.statusText));
          check = answer;
        }
        bar.value = bar.max;
        status.textContent = check.error ? sentence(check.error) : t("{done} games played in {seconds} s.", check);
        if (check.report) report.replaceChildren(...markdownTables(check.report));
      } catch (e) {
        status.textContent = e.message;
      } finally {
        run.disabled = false;
      }
    });
    return el("section", { class: "ed-section ed-balance", id: "ed-section-balance" },
      el("h2", { text: t("Balance check") }),
      el("p", { class: "muted", text: t("Bots play games on these components in the background; the report shows how often each seat wins and each component is used.") }),
      el("div", { class: "ed-balance-form" },
        el("span", { class: "ed-field" }, el("label", { for: gamesId, text: t("Games") }), games),
        el("span", { class: "ed-field" }, el("label", { for: playersId, text: t("Players") }), players), run),
      bar, status, report);
  }

  const api = {
    current: () => clone(ed.data),
    set(next) { ed.data = clone(next); draw(); clearTimeout(ed.timer); drawPictures(); },
    showFindings: show,
    focus,
  };
  draw();
  if (I18N.lang && I18N.lang !== "en") {
    fetch(`/api/i18n/${encodeURIComponent(I18N.lang)}/signorie`).then((r) => r.json())
      .then((found) => {
        own = found.messages || {};
        // the table's parts (table-parts.js) speak the page's catalog: lend them the game's words
        for (const [k, v] of Object.entries(own)) if (!Object.prototype.hasOwnProperty.call(I18N.messages, k)) I18N.messages[k] = v;
        draw();
      }).catch(() => {});
  }
  // the fields are drawn again once the schema and the first answer (names, orders) are in
  const first = drawPictures();
  fetch("/api/signorie/edition/schema").then((r) => r.json())
    .then(async (schema) => { ed.schema = schema; await first; ed.ready = true; draw(); }).catch(() => {});
  return api;
}

// the balance report's Markdown as headings, paragraphs and tables (the same tables as the
// report of the command line)
export function markdownTables(text) {
  const out = [];
  let rows = [];
  const flush = () => {
    if (!rows.length) return;
    const cells = (line) => line.trim().replace(/^\||\|$/g, "").split("|").map((x) => x.trim());
    const [head, , ...body] = rows;
    out.push(el("div", { class: "scroll" }, el("table", { class: "ed-report-table" },
      el("thead", {}, el("tr", {}, ...cells(head).map((x) => el("th", { text: x })))),
      el("tbody", {}, ...body.map((line) => el("tr", {}, ...cells(line).map((x) => el("td", { text: x.replaceAll("**", "") }))))))));
    rows = [];
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("|")) { rows.push(line); continue; }
    flush();
    const heading = line.match(/^(#+)\s+(.*)$/);
    if (heading) out.push(el(heading[1].length <= 2 ? "h3" : "h4", { text: heading[2] }));
    else if (line.trim() && !line.startsWith("```")) out.push(el("p", { text: line.replaceAll("**", "").replaceAll("`", "") }));
  }
  flush();
  return out;
}

function loadStyle() {
  if (document.querySelector("link[data-signorie-editor]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/signorie/editor.css", "data-signorie-editor": "1" }));
}
