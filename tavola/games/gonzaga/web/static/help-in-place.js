// Gonzaga's help in place (help.js): planning cards, cities, harbors, seas, rings and the sources
// of points explained in a sentence, from the board data and the rules' facts the server sends.
import { $, api, t } from "/static/tavola/common.js";
import { Help } from "/static/tavola/help.js";
import { ui } from "./state.js";

let facts = null;
api("/api/rules/gonzaga").then((d) => { facts = d.facts; }).catch(() => { facts = null; });
const board = () => ui.board;
const hexAt = (key) => board() && board().hexes.find((x) => `${x.at[0]},${x.at[1]}` === key);
const named = (list, id) => (list.find((x) => x.id === id) || { name: id }).name;

function cardSentence(node) {
  const b = board();
  if (!b) return null;
  const card = node.dataset.card;
  const info = b.cards[card];
  if (info && info.help) return t("{card}: {help}.", { card: info.name, help: info.help });
  if (info) return t("{card}: your fief goes in a region that is not flourishing, where each place scores less.", { card: info.name });
  const region = b.regions.find((r) => r.id === card);
  return region ? t("{region}: your fief goes at least partly in this region.", { region: region.name }) : null;
}

function ringOn(key) {
  const v = ui.view;
  if (!v) return null;
  const ring = v.pieces.find((p) => p.kind === "ring" && p.hexes.some((h) => `${h[0]},${h[1]}` === key));
  return ring ? v.players[ring.owner] : null;
}

function hexSentence(node) {
  const b = board();
  const key = node.dataset.hex;
  if (!b || !key) return null;
  const owner = ringOn(key);
  if (owner) return t("A ring of {player}: a Wedding put it here, and it counts as a fief of one hex.", { player: owner.name });
  const city = b.cities.find((c) => `${c.at[0]},${c.at[1]}` === key);
  if (city) {
    const symbol = b.symbols.find((s) => s.id === city.symbol) || { name: city.symbol, meaning: "" };
    return t("{city}, a city of {region} with the {symbol} symbol ({meaning}): a fief or ring on it scores, and objectives ask for it.",
      { city: city.name, region: named(b.regions, city.region), symbol: symbol.name, meaning: symbol.meaning });
  }
  const harbor = b.harbors.find((x) => `${x.at[0]},${x.at[1]}` === key);
  if (harbor) {
    return t("{harbor}, a harbor on {sea}: it scores, and {n} harbors of one sea make a sea league.",
      { harbor: harbor.name, sea: named(b.seas, harbor.sea), n: facts ? facts.league_size : "" });
  }
  const hex = hexAt(key);
  if (hex && hex.sea) {
    const sea = b.seas.find((s) => s.id === hex.sea);
    return t("{sea}: its harbors share one symbol; {n} of them covered by one player make a sea league worth {points} points.",
      { sea: sea.name, n: facts ? facts.league_size : "", points: facts ? facts.sea_league_points : "" });
  }
  return null;
}

// each source of points in a sentence (whole sentences, so each is found for translation)
const SOURCES = {
  city: () => t("Points for the cities your fiefs and rings cover."),
  harbor: () => t("Points for the harbors your fiefs and rings cover."),
  "sea-league": () => t("Points for each sea league: harbors of one sea covered by you."),
  donation: () => t("Points for fiefs given to the church."),
  "gonzaga-tile": () => t("The Gonzaga tile: the most connected fiefs at the end."),
  objective: () => t("Your hidden objective: the more of its cities you cover, the more it scores."),
};
function sourceSentence(node) { const say = SOURCES[node.dataset.source]; return say ? say() : null; }

Help.add("[data-card]", cardSentence);
Help.add("#hexes .hex[data-hex]", hexSentence, { focus: false });
Help.add("tr[data-source]", sourceSentence);
// the map's keyboard cursor: the hex under it is explained as the cursor moves
document.addEventListener("keyup", (ev) => {
  const cursor = $("cursor");
  if (!cursor || document.activeElement !== $("board")) return;
  const hex = document.querySelector(`#hexes .hex[data-hex='${cursor.dataset.hex}']`);
  if (hex) { const text = hexSentence(hex); if (text) Help.show(cursor, text); else Help.hide(); }
});
