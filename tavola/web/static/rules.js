// The rules page of a game (/rules/NAME): the game's rule document in the page's language, from
// the server, with room for pictures that the game's own script (/static/NAME/rules-pictures.js)
// draws from the game's data. Also the start of a tutorial ("Learn by playing").
import { $, I18N, api, el, saveSeat, t, toast } from "./common.js";


// a tutorial of `game` starts on the server; the page goes to the learner's seat
export async function startTutorial(game) {
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

// a game's pictures: its module's default export, { picture name -> async (figure, facts) => void }
async function painters(game) {
  try {
    return (await import(`/static/${encodeURIComponent(game)}/rules-pictures.js`)).default || {};
  } catch (e) {
    throw new Error(t("The pictures could not be loaded."));
  }
}

async function drawPictures(game, facts) {
  const paints = await painters(game);
  for (const fig of document.querySelectorAll("figure.rules-picture")) {
    const paint = paints[fig.dataset.picture];
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
  const cookie = I18N.cookie || "lang";
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
