// The editions page (/editions): per game with editions, a new one from the shipped
// reconstruction, an imported JSON file, the player's own (edit, export, visibility, share
// link, delete) and the public ones. Every name is the author's own text (textContent).
import { $, copyButton, el, t, toast } from "./common.js";
import { Account } from "./account.js";
import { call } from "./editions.js";

const enc = encodeURIComponent;
const editLink = (e, key = null) => `/editions/edit?game=${enc(e.game)}&id=${enc(e.id)}${key ? `&key=${enc(key)}` : ""}`;

async function importInto(game, file, maxBytes) {
  if (!file) return;
  if (file.size > maxBytes) { toast(t("The file is {size} bytes; an edition of this game has at most {most}.", { size: file.size, most: maxBytes })); return; }
  try {
    const data = JSON.parse(await file.text());
    const name = file.name.replace(/\.json$/i, "").slice(0, 60) || t("Imported edition");
    const saved = await call("POST", "/api/editions", { game, name, data, visibility: "private" });
    location.href = editLink({ game, id: saved.id });
  } catch (e) { toast(e instanceof SyntaxError ? t("The file is not JSON: {error}", { error: e.message }) : e.message); }
}

async function setVisibility(e, visibility) {
  try {
    const full = await call("GET", `/api/editions/${enc(e.id)}`);
    await call("PUT", `/api/editions/${enc(e.id)}`, { game: e.game, name: full.name, data: full.data, visibility });
    render();
  } catch (err) { toast(err.message); }
}

function ownLine(e) {
  const vis = el("select", { "data-edition-visibility": e.id },
    ...[["private", t("private")], ["link", t("shared by link")], ["public", t("public")]].map(([v, label]) =>
      el("option", { value: v, selected: v === e.visibility }, label)));
  vis.addEventListener("change", () => setVisibility(e, vis.value));
  const share = e.visibility === "link" ? copyButton(`${location.origin}${editLink(e, e.key)}`, t("Copy the share link")) : "";
  return el("li", { "data-edition": e.id },
    el("a", { href: editLink(e), text: e.name }), " ",
    el("span", { class: "muted", text: e.playable ? `${e.describe} · ${t("version {n}", { n: e.version })}`
      : t("version {n}, a draft with problems", { n: e.version }) }), " ", vis, " ", share, " ",
    el("a", { href: `/api/editions/${enc(e.id)}?download=1`, download: "" }, t("Export")), " ",
    el("button", { type: "button", "data-edition-delete": e.id, onclick: async () => {
      if (!confirm(t("Delete the edition {name}? Games played on it stay.", { name: e.name }))) return;
      try { await call("DELETE", `/api/editions/${enc(e.id)}`); render(); } catch (err) { toast(err.message); }
    } }, t("Delete")));
}

function publicLine(e) {
  return el("li", { "data-edition": e.id }, el("a", { href: editLink(e), text: e.name }),
    el("span", { class: "muted", text: ` ${t("by {author}", { author: e.author })} · ${e.describe} ` }),
    el("a", { href: `/?game=${enc(e.game)}&edition=${enc(e.id)}` }, t("Play a game on it")));
}

async function gameSection(offer, user) {
  const found = await call("GET", `/api/editions?game=${enc(offer.name)}`);
  const own = found.editions.filter((e) => e.mine), shared = found.editions.filter((e) => !e.mine);
  const file = el("input", { type: "file", accept: "application/json,.json", hidden: true, "data-import": offer.name });
  file.addEventListener("change", () => importInto(offer.name, file.files[0], found.default.max_bytes));
  return el("section", { class: "card", "data-editions-game": offer.name },
    el("h2", { text: offer.title }),
    el("p", {}, el("a", { class: "button", href: `/editions/edit?game=${enc(offer.name)}`, "data-new-edition": offer.name }, t("New edition from the shipped reconstruction")), " ",
      ...(user ? [el("button", { type: "button", onclick: () => file.click() }, t("Import a JSON file")), file, " "] : []),
      el("a", { href: `/api/editions/default?game=${enc(offer.name)}&download=1`, download: "" }, t("Export the shipped reconstruction"))),
    el("h3", { text: t("Your editions") }),
    el("ul", {}, ...(own.length ? own.map(ownLine) : [el("li", { class: "muted", text: user ? t("none yet") : t("Sign in to save editions.") })])),
    el("h3", { text: t("Public editions") }),
    el("ul", {}, ...(shared.length ? shared.map(publicLine) : [el("li", { class: "muted", text: t("none") })])));
}

async function render() {
  try {
    const user = await Account.me();
    $("editions-sign-in").hidden = !!user;
    const games = (await call("GET", "/api/lobby")).games.filter((g) => g.editions);
    $("editions-games").replaceChildren(...await Promise.all(games.map((g) => gameSection(g, user))));
  } catch (e) { toast(e.message); }
}
render();
