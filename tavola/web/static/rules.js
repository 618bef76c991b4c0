// The rules page of a game (/rules/NAME): the game's rule document in the page's language, from
// the server, with room for pictures that the game's own script (/static/NAME/rules-pictures.js)
// draws from the game's data. Also the start of a tutorial ("Learn by playing").
"use strict";

const RulesPictures = {};  // game name -> { picture name -> async (figure, facts) => void }

// a tutorial of `game` starts on the server; the page goes to the learner's seat
async function startTutorial(game) {
  try {
    const started = await api(`/api/tutorials/${encodeURIComponent(game)}`, {});
    const [path, token] = started.link.split("#");
    saveSeat(started.id, token);
    location.href = started.link;
    return path;
  } catch (e) {
    toast(e.message);
    return null;
  }
}

function svgEl(tag, attrs = {}, parent = null) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = el("script", { src });
    s.onload = resolve;
    s.onerror = () => reject(new Error(t("The pictures could not be loaded.")));
    document.body.append(s);
  });
}

async function drawPictures(game, facts) {
  await loadScript(`/static/${encodeURIComponent(game)}/rules-pictures.js`);
  const painters = RulesPictures[game] || {};
  for (const fig of document.querySelectorAll("figure.rules-picture")) {
    const paint = painters[fig.dataset.picture];
    if (!paint) continue;
    await paint(fig, facts);
    fig.dataset.drawn = "true";
  }
  document.body.dataset.pictures = "drawn";
}

function languageLinks(game, data) {
  const names = { en: "English", de: "Deutsch", it: "Italiano" };
  $("rules-langs").replaceChildren(...data.languages.map((code) => el("a", {
    href: `/rules/${game}?lang=${code}`, lang: code, hreflang: code,
    "aria-current": code === data.lang ? "true" : null,
    class: code === data.lang ? "on" : null, onclick: () => remember(code) }, names[code] || code)));
}
// the language chosen here is the one of every page (the cookie the server reads)
function remember(code) {
  const cookie = (typeof I18N !== "undefined" && I18N.cookie) || "lang";
  document.cookie = `${cookie}=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

async function showRules() {
  const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const lang = new URLSearchParams(location.search).get("lang");
  let data;
  try {
    data = await api(`/api/rules/${encodeURIComponent(game)}` + (lang ? `?lang=${encodeURIComponent(lang)}` : ""));
  } catch (e) {
    $("rules-text").replaceChildren(el("p", { text: e.message }));
    return;
  }
  document.documentElement.lang = data.lang;
  document.title = t("{game}: the rules", { game: data.title });
  // the document is the server's own rendering of the game's rule file, everything escaped
  $("rules-text").innerHTML = data.html;
  $("rules-text").removeAttribute("aria-busy");
  languageLinks(game, data);
  if (data.tutorial) {
    $("rules-start").hidden = false;
    $("rules-tutorial").onclick = () => startTutorial(game);
  }
  try {
    await gameWords(game, data.lang);
    await drawPictures(game, data.facts);
  } catch (e) { toast(e.message); }
}
// the pictures' labels are the game's words: its catalog joins the page's
async function gameWords(game, lang) {
  if (lang === "en") return;
  const words = await api(`/api/i18n/${encodeURIComponent(lang)}/${encodeURIComponent(game)}`);
  Object.assign(I18N.messages, words.messages);
}

if ($("rules-text")) showRules();
