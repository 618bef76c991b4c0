// The edition editor's shell (/editions/edit?game=G&id=ID): name, visibility, Save, Export,
// Import, Undo/Redo and the live list of problems, around the game's own editor module (its
// `mountEditor(root, data, host)`, see docs/editions.md) or, for a game without one, a JSON text.
import { $, api, el, t, toast } from "./common.js";
import { Account } from "./account.js";

const CHECK_DELAY = 600;  // ms after the last change before the data is checked
const UNDO_STEPS = 100;

// a request of any method, as common.js's `api` sends it
export const call = (method, path, body) => api(path, body, method);

// The editor of a game without its own module: the data as JSON text.
export function mountTextEditor(root, data, host) {
  const area = el("textarea", { id: "edition-text", spellcheck: "false", rows: 24, cols: 80, "aria-label": host.t("The edition's data (JSON)") });
  area.value = JSON.stringify(data, null, 1);
  area.addEventListener("input", () => host.changed());
  root.replaceChildren(area);
  return {
    current() { return JSON.parse(area.value); },
    set(value) { area.value = JSON.stringify(value, null, 1); },
    showFindings() {},
    focus(finding) {
      // the line the finding's JSON Pointer ends on, as far as the text shows it
      const last = (finding.where || "").split("/").pop();
      const at = last ? area.value.indexOf(`"${last}"`) : -1;
      area.focus();
      if (at >= 0) area.setSelectionRange(at, at + last.length + 2);
    },
  };
}

const state = { game: "", id: null, key: null, mine: true, editor: null, undo: [], redo: [], timer: null, maxBytes: 0, last: "" };

function snapshot() {
  try { return JSON.stringify(state.editor.current()); } catch (e) { return null; }
}
function changed() {
  const now = snapshot();
  if (now !== null && now !== state.last) {
    if (state.last) state.undo.push(state.last);
    if (state.undo.length > UNDO_STEPS) state.undo.shift();
    state.redo = [];
    state.last = now;
  }
  undoButtons();
  clearTimeout(state.timer);
  state.timer = setTimeout(check, CHECK_DELAY);
}
function undoButtons() {
  $("edition-undo").disabled = !state.undo.length;
  $("edition-redo").disabled = !state.redo.length;
}
function step(from, to) {
  if (!from.length) return;
  to.push(state.last);
  state.last = from.pop();
  state.editor.set(JSON.parse(state.last));
  undoButtons();
  clearTimeout(state.timer);
  state.timer = setTimeout(check, CHECK_DELAY);
}
export const undo = () => step(state.undo, state.redo);
export const redo = () => step(state.redo, state.undo);

function showFindings(findings, note = "") {
  state.editor.showFindings(findings);
  // the finding in the game's words, and where it is in the game's words if its editor says them
  // (region, city, hex); its place in the data (a JSON Pointer) only as a tooltip
  const place = (f) => (state.editor.describe ? state.editor.describe(f) : "");
  const items = findings.map((f) => el("li", {}, el("button", { type: "button", class: "finding", "data-where": f.where,
    title: f.where || "", onclick: () => state.editor.focus(f) }, f.message), place(f) ? el("span", { class: "muted finding-place", text: place(f) }) : ""));
  $("edition-findings").replaceChildren(...(items.length ? items : [el("li", { class: "muted", id: "edition-no-findings", text: t("No problems: a game can be played on it.") })]));
  $("edition-describe").textContent = note;
}
export async function check() {
  let data;
  try { data = state.editor.current(); } catch (e) {
    showFindings([{ message: t("The text is not JSON: {error}", { error: e.message }), where: "", marks: [] }]);
    return null;
  }
  try {
    const found = await call("POST", "/api/editions/check", { game: state.game, data });
    showFindings(found.findings, found.describe);
    return found;
  } catch (e) {
    if (e.code === "rate-limited") { state.timer = setTimeout(check, 1000 * Math.max(1, e.retryAfter)); return null; }
    showFindings([{ message: e.message, where: "", marks: [] }]);
    return null;
  }
}

async function save() {
  let data;
  try { data = state.editor.current(); } catch (e) { toast(t("The text is not JSON: {error}", { error: e.message })); return; }
  const body = { game: state.game, name: $("edition-name").value, data, visibility: $("edition-visibility").value };
  try {
    const saved = state.id && state.mine ? await call("PUT", `/api/editions/${encodeURIComponent(state.id)}`, body)
      : await call("POST", "/api/editions", body);
    state.id = saved.id; state.mine = true;
    window.history.replaceState(null, "", `/editions/edit?game=${encodeURIComponent(state.game)}&id=${encodeURIComponent(saved.id)}`);
    showFindings(saved.findings, saved.describe);
    state.key = null;
    playLink(saved.playable ? saved.id : null);
    savedNote(saved);
  } catch (e) { toast(e.message); $("edition-saved").textContent = e.message; }
}

// what was saved, under which name and version, and where to find it: the editions page, and
// the lobby with it chosen to create a game on it (once it has no problems)
function savedNote(saved) {
  const fields = { name: saved.name, n: saved.version };
  const said = saved.playable ? t("Saved “{name}” as version {n}.", fields)
    : t("Saved “{name}” as version {n}, a draft: no game can be played on it until its problems are fixed.", fields);
  $("edition-saved").replaceChildren(said, " ",
    el("a", { id: "edition-saved-list", href: "/editions" }, t("It is listed on your editions page.")),
    ...(saved.playable ? [" ", el("a", { id: "edition-saved-play", href: $("edition-play").getAttribute("href") }, t("Create a game on it"))] : []));
}

// the lobby, with this edition chosen (a link edition's key with it, for whoever was given it)
function playLink(id) {
  $("edition-play").hidden = !id;
  if (id) $("edition-play").href = `/?game=${encodeURIComponent(state.game)}&edition=${encodeURIComponent(id)}${state.key ? `&key=${encodeURIComponent(state.key)}` : ""}`;
}

function exportFile() {
  let data;
  try { data = state.editor.current(); } catch (e) { toast(t("The text is not JSON: {error}", { error: e.message })); return; }
  const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" })),
    download: `${state.game}-edition.json` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
export async function importFile(file) {
  if (!file) return;
  if (file.size > state.maxBytes) { toast(t("The file is {size} bytes; an edition of this game has at most {most}.", { size: file.size, most: state.maxBytes })); return; }
  try {
    state.editor.set(JSON.parse(await file.text()));
    changed();
  } catch (e) { toast(t("The file is not JSON: {error}", { error: e.message })); }
}

function bar(name, visibility) {
  const choices = [["private", t("private")], ["link", t("shared by link")], ["public", t("public")]];
  const vis = el("select", { id: "edition-visibility" }, ...choices.map(([v, label]) => el("option", { value: v, selected: v === visibility }, label)));
  const file = el("input", { type: "file", id: "edition-import", accept: "application/json,.json", hidden: true });
  file.addEventListener("change", () => importFile(file.files[0]));
  $("edition-bar").replaceChildren(
    el("label", {}, `${t("Name")} `, el("input", { id: "edition-name", value: name, maxlength: 60, size: 30 })), " ",
    el("label", {}, `${t("Visibility")} `, vis), " ",
    el("button", { type: "button", id: "edition-save", class: "primary", onclick: save }, t("Save")), " ",
    el("button", { type: "button", id: "edition-export", onclick: exportFile }, t("Export")), " ",
    el("button", { type: "button", id: "edition-import-button", onclick: () => file.click() }, t("Import")), file, " ",
    el("button", { type: "button", id: "edition-undo", title: "Ctrl+Z", onclick: undo }, t("Undo")), " ",
    el("button", { type: "button", id: "edition-redo", title: "Ctrl+Y", onclick: redo }, t("Redo")), " ",
    el("a", { id: "edition-play", class: "button", hidden: true }, t("Play a game on it")),
    el("p", { id: "edition-saved", class: "muted", "aria-live": "polite" }),
    el("p", { id: "edition-describe", class: "muted" }));
}

async function mountEditor(offer, data) {
  const host = { changed, t, game: state.game };
  const root = $("edition-editor");
  if (offer.editor) {
    try { return (await import(offer.editor)).mountEditor(root, data, host); } catch (e) { toast(e.message); }
  }
  return mountTextEditor(root, data, host);
}

async function start() {
  const q = new URLSearchParams(location.search);
  state.game = q.get("game") || "";
  state.id = q.get("id"); state.key = q.get("key");
  const user = await Account.me();
  try {
    const offer = (await call("GET", "/api/lobby")).games.find((g) => g.name === state.game);
    if (!offer || !offer.editions) throw new Error(t("This game has no editions."));
    const listed = await call("GET", `/api/editions?game=${encodeURIComponent(state.game)}`);
    state.maxBytes = listed.default.max_bytes;
    let edition;
    if (state.id) {
      edition = await call("GET", `/api/editions/${encodeURIComponent(state.id)}${state.key ? `?key=${encodeURIComponent(state.key)}` : ""}`);
      state.mine = edition.mine;
    } else edition = { name: "", visibility: "private", data: await call("GET", `/api/editions/default?game=${encodeURIComponent(state.game)}`) };
    bar(edition.name, edition.visibility);
    if (!user) $("edition-saved").textContent = t("Sign in to save editions.");
    if (!state.mine) $("edition-save").textContent = t("Save a copy");
    if (state.id && edition.playable_version !== null) playLink(state.id);
    state.editor = await mountEditor(offer, edition.data);
    state.last = snapshot() || "";
    undoButtons();
    await check();
  } catch (e) {
    $("edition-error").hidden = false;
    $("edition-error").textContent = e.message;
  }
}

// the editor's page runs the shell; the editions page only borrows `call`
if (document.body.dataset.page === "edition") {
  document.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || !state.editor) return;
    const key = ev.key.toLowerCase();
    if (key === "z" && !ev.shiftKey) { ev.preventDefault(); undo(); }
    else if (key === "y" || (key === "z" && ev.shiftKey)) { ev.preventDefault(); redo(); }
  });
  start();
}
