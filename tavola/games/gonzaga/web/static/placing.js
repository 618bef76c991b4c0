// Placing: a fief (turned, previewed, checked by the server, then placed) or a Wedding's two
// rings, chosen on the map (map-input.js); the list of placements worth a click; what a
// placement scores.
import { $, el, svg, t, toast } from "/static/tavola/common.js";
import { Hint } from "/static/tavola/hint.js";
import { renderYou } from "./hand.js";
import { centre, corners, hexKey, pointsAttr } from "./hexes.js";
import { hexIndex, legalKey, scoreWords, weddingKey } from "./legal.js";
import { keysHint, touchScreen } from "./panel.js";
import { act, cardName, colourOf, fiefOf, me, ui, weddingCard } from "./state.js";

// a tap or a click only chooses; placing is always the separate button (or Enter)
function placingHint(n) {
  return touchScreen()
    ? t("Your fief fits in {n} ways (white dots: where it fits as it is turned now). Tap the map to choose a position; the ⟲ ⟳ buttons turn the fief; then press “Place fief” to place it.", { n })
    : t("Your fief fits in {n} ways (white dots: where it fits as it is turned now). Point at the map: the fief follows; R, the wheel or ⟲ ⟳ turn it. Click to choose a position, then press “Place fief” to place it.", { n });
}

// -- names of places, so that positions read as the map does ----------------------------------

function placeNames() {
  if (!ui.placeAt) {
    ui.placeAt = new Map();
    for (const c of ui.board.cities) ui.placeAt.set(hexKey(c.at), c.name);
    for (const h of ui.board.harbors) ui.placeAt.set(hexKey(h.at), h.name);
  }
  return ui.placeAt;
}
// "Paris, Calais", or "near Reims" for a placement on empty hexes
function whereWords(cells) {
  const at = placeNames();
  const names = cells.map((h) => at.get(hexKey(h))).filter(Boolean);
  if (names.length) return names.join(", ");
  const [x0, y0] = centre(cells[0][0], cells[0][1]);
  let best = null, dist = Infinity;
  for (const p of [...ui.board.cities, ...ui.board.harbors]) {
    const [x, y] = centre(p.at[0], p.at[1]);
    const d = (x - x0) ** 2 + (y - y0) ** 2;
    if (d < dist) { dist = d; best = p; }
  }
  return best ? t("near {place}", { place: best.name }) : "";
}
function pointsWords(n) { return n === 1 ? t("{n} point", { n }) : t("{n} points", { n }); }

// `redraw` draws the whole panel again, after a choice of what to place or a new start
export function renderPlacing(box, v, legal, redraw) {
  ui.legalKeys = new Map();
  const same = fiefOf(legal.fief).same;  // the other ways of laying a symmetric fief on the same hexes
  for (const p of legal.placements) {
    ui.legalKeys.set(legalKey([p[0], p[1]], p[2]), p);
    for (const [j, k] of same) ui.legalKeys.set(legalKey(p[4][j], (p[2] + k) % 6), p);
  }
  const canWed = legal.weddings.length > 0;
  if (ui.mode === "wedding" && !canWed) ui.mode = "fief";
  const plan = legal.plan;
  const best = bestPlacements(legal);
  const donation = legal.donation_points === undefined ? "" : ` (+${legal.donation_points})`;
  const modeButtons = el("div", { class: "row" },
    el("button", { type: "button", id: "mode-fief", class: ui.mode === "fief" ? "on" : "", disabled: !legal.placements.length, onclick: () => { ui.mode = "fief"; ui.cursor = null; redraw(); } }, t("Place your fief")),
    canWed ? el("button", { type: "button", id: "mode-wedding", class: ui.mode === "wedding" ? "on" : "", onclick: () => { ui.mode = "wedding"; ui.pending = null; ui.cursor = null; redraw(); } }, t("Wedding (rings)")) : "",
    el("button", { type: "button", id: "donate", onclick: () => { if (confirm(t("Give your fief to the church for {points} points instead of placing it?", { points: legal.donation_points || "" }))) act({ type: "donate" }); } }, donation ? t("Donate to the church (+{points})", { points: legal.donation_points }) : t("Donate to the church")));
  const children = [el("h3", { text: t("Your turn: {plan}", { plan: plan.text }) }), modeButtons];
  if (ui.mode === "fief") {
    children.push(el("p", { class: "muted", id: "place-help", text: legal.placements.length
      ? placingHint(legal.placements.length)
      : t("No legal placement for this plan: donate (or arrange a Wedding with the {card} card).", { card: cardName(weddingCard()) }) }));
    if (legal.placements.length) children.push(keysHint(t("R and Shift+R turn the fief; Enter chooses the position under the cursor, Enter again places the fief")));
    if (best.length) {
      children.push(el("div", { class: "muted", text: t("Best placements (click to see one on the map):") }), el("ol", { id: "best" }, ...best.map(([c, r, rot, pts, cells, rank]) =>
        el("li", rank ? { class: "hinted", "data-hint-mark": rank } : {}, el("a", { href: "#", "data-anchor": `${c},${r}`, "data-rotation": rot, "data-points": pts,
          onclick: (ev) => { ev.preventDefault(); ui.rotation = rot; choose([c, r]); showHex([c, r]); } }, t("{points} · {where}", { points: pointsWords(pts), where: whereWords(cells) }))))));
    }
    $("place-bar").hidden = false;
    markAnchors();
    updatePreview();
  } else {
    children.push(el("p", { id: "wedding-help", class: "muted", text: ui.wedding.first
      ? t("Click a highlighted hex beside the first ring for a second ring (optional), then arrange the Wedding.")
      : t("Click a highlighted land hex of {region} for the first ring. The fief drawn is discarded.", { region: cardName(plan.region) }) }));
    children.push(keysHint(t("Enter puts a ring on the highlighted hex under the cursor; Enter on a ring you have put arranges the Wedding")));
    const go = el("button", { type: "button", class: "primary", id: "wedding-go", disabled: !ui.wedding.first,
      onclick: commitWedding }, t("Arrange the Wedding"));
    const reset = el("button", { type: "button", onclick: () => { ui.wedding = { first: null, second: null }; redraw(); } }, t("Start again"));
    children.push(el("div", { class: "row" }, go, reset, el("span", { id: "wedding-info" })));
    markWedding(legal);
  }
  box.replaceChildren(...children);
  if (ui.mode === "wedding" && ui.wedding.first) showWeddingCheck();  // into the bar just made
  for (const a of box.querySelectorAll("#best a")) enterPlaces(a);
}
// the placements worth a click: those a hint names (so each can be seen on the map), then the
// five that score most; a placement covering the same hexes as one listed is the same
// placement (a symmetric fief turned) and is listed once
function bestPlacements(legal) {
  const seen = new Set(), out = [];
  const add = (p, [c, r, rot], rank) => {
    if (seen.has(p)) return false;
    seen.add(p);
    out.push([c, r, rot, p[3], p[4], rank]);
    return true;
  };
  (Hint.marked() || []).forEach((m, i) => {
    const a = m.action, found = a.type === "fief" && ui.legalKeys.get(legalKey(a.anchor, a.rotation));
    if (found) add(found, [a.anchor[0], a.anchor[1], a.rotation], String(i + 1));
  });
  let more = 5;
  for (const p of [...legal.placements].sort((a, b) => b[3] - a[3])) {
    if (more <= 0) break;
    if (add(p, p, "")) more -= 1;
  }
  return out;
}

export function clearMarks() { if ($("marks")) $("marks").replaceChildren(); if ($("preview")) $("preview").replaceChildren(); }

function markAnchors() {
  const g = $("marks");
  g.replaceChildren();
  for (const h of ui.board.hexes) {
    if (ui.legalKeys.has(legalKey(h.at, ui.rotation))) svg("circle", { cx: h.x, cy: h.y, r: 0.22, class: "anchor-dot" }, g);
  }
}

function markWedding(legal) {
  const g = $("marks");
  g.replaceChildren();
  const firsts = new Set(), pairs = legal.weddings.filter((w) => w[1]);
  for (const [a, b] of legal.weddings) if (!b) firsts.add(hexKey(a));
  let options = [...firsts].map((k) => k.split(",").map(Number));
  if (ui.wedding.first) {
    const f = hexKey(ui.wedding.first);
    options = [];
    if (!ui.wedding.second) {
      for (const [a, b] of pairs) {
        if (hexKey(a) === f) options.push(b);
        else if (hexKey(b) === f) options.push(a);
      }
    }
  }
  for (const [c, r] of options) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: pointsAttr(corners(x, y, 0.8)), class: "wed-first", "data-wedding-option": hexKey([c, r]) }, g);
  }
  for (const h of [ui.wedding.first, ui.wedding.second]) {
    if (!h) continue;
    const [x, y] = centre(h[0], h[1]);
    svg("circle", { cx: x, cy: y, r: 0.62, class: "ring", stroke: colourOf(me(ui.view)) }, g);
  }
  ui.weddingOptions = new Set(options.map(hexKey));
}

export function placing() { const v = ui.view; return !!(v && v.legal && v.legal.kind === "place"); }

export function updatePreview() {
  const g = $("preview");
  if (!g) return;
  g.replaceChildren();
  const v = ui.view;
  if (!placing() || ui.mode !== "fief") return;
  const anchor = ui.pending || ui.hover;
  const info = $("preview-info");
  const confirmBtn = $("confirm");
  confirmBtn.disabled = true;
  confirmBtn.textContent = t("Place fief");  // no points on the button before a position is chosen
  $("place-bar").dataset.rotation = ui.rotation;
  info.className = "";
  if (!anchor) { info.textContent = touchScreen() ? t("Tap the map to try a position for your fief.") : t("Point at the map to try a position for your fief."); return; }
  // a legal position shows the hexes it covers; any other only the hex pointed at
  const hit = ui.legalKeys.get(legalKey(anchor, ui.rotation));
  const cells = hit ? hit[4] : [anchor], castles = new Set(hit ? hit[5].map(hexKey) : []);
  const colour = colourOf(me(v));
  for (const [c, r] of cells) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: pointsAttr(corners(x, y, 0.95)), class: hit ? "preview-ok" : "preview-bad", fill: colour }, g);
    if (castles.has(hexKey([c, r]))) { const t = svg("text", { x, y: y - 0.45, class: "glyph", "font-size": 0.55 }, g); t.textContent = "♜"; }
  }
  if (hit) {
    // the points with each city, harbor and sea league (the detail names the places already)
    const detail = hit[6].length ? hit[6].join(", ") : whereWords(cells);
    const points = pointsWords(hit[3]);
    if (ui.pending) {
      info.textContent = t("Chosen: {points} ({detail}). Press “Place fief” to place it, or choose again.", { points, detail });
      confirmBtn.disabled = false;
      confirmBtn.textContent = t("Place fief: {points}", { points });
    } else info.textContent = t("Here: {points} ({detail}). Click to choose this position.", { points, detail });
  } else {
    info.className = "bad";
    info.textContent = t("Not here: {reason}.", { reason: notHere(anchor) });
  }
}
// why a position is not legal, from the legal ones: turned another way it may fit here
function notHere(anchor) {
  const turns = [1, 2, 3, 4, 5].filter((k) => ui.legalKeys.has(legalKey(anchor, (ui.rotation + k) % 6)));
  return turns.length ? t("turned this way it does not fit here; turned another way it does")
    : t("it fits nowhere from this hex with your plan; the dots show where it fits as turned");
}
function weddingAction() { return { type: "wedding", first: ui.wedding.first, second: ui.wedding.second }; }
function showWeddingCheck() {
  const w = $("wedding-info");
  if (!w || !ui.wedding.first) return;
  const legal = ui.view.legal, score = legal.weddingScores.get(weddingKey(ui.wedding.first, ui.wedding.second));
  if (!score) { w.textContent = ""; return; }  // only listed rings can be chosen
  w.className = "";
  const rings = [ui.wedding.first, ui.wedding.second].filter(Boolean);
  const events = [...scoreWords(legal, rings.map(hexIndex), [], 0), ...score.leagues];
  const where = rings.length > 1 ? t("two rings {where}", { where: whereWords(rings) }) : t("a ring {where}", { where: whereWords(rings) });
  w.textContent = t("{points}: {detail}.", { points: pointsWords(score.points), detail: events.length ? events.join(", ") : where });
  $("wedding-go").textContent = t("Arrange the Wedding: {points}", { points: pointsWords(score.points) });
}

// Enter on a best placement already chosen places it, as Enter on the map does; a click only chooses
function enterPlaces(link) {
  link.addEventListener("keydown", (ev) => {
    const anchor = link.dataset.anchor.split(",").map(Number);
    const chosen = ui.pending && hexKey(ui.pending) === hexKey(anchor) && ui.rotation === Number(link.dataset.rotation);
    if (ev.key === "Enter" && chosen) { ev.preventDefault(); commitFief(); }
  });
}

// choosing never places: placing is always a separate, deliberate action
export function choose(hex) {
  if (!placing() || ui.mode !== "fief") return;
  ui.pending = hex;
  ui.cursor = hex;
  markAnchors();
  updatePreview();
}
export function commitFief() {
  const v = ui.view;
  if (!placing() || !ui.pending) return;
  const hit = ui.legalKeys.get(legalKey(ui.pending, ui.rotation));
  if (!hit) { toast(t("That position is not legal; the message below the map says why.")); return; }
  act({ type: "fief", fief: v.legal.fief, anchor: ui.pending, rotation: ui.rotation });
}
export function commitWedding() { if (placing() && ui.wedding.first) act(weddingAction()); }
export function rotateBy(d) {
  ui.rotation = (ui.rotation + d + 6) % 6;
  if (placing() && ui.mode === "fief") { markAnchors(); updatePreview(); renderYou(ui.view); }
}

// bring a hex into sight: the board above the side panel on a phone, the hex when zoomed in
export function showHex(hex) {
  const wrap = $("board-wrap").getBoundingClientRect();
  if (wrap.top < 0 || wrap.top > window.innerHeight / 2) $("board-wrap").scrollIntoView({ block: "start" });
  const scroller = $("board-scroll");
  const b = ui.board;
  const [x, y] = centre(hex[0], hex[1]);
  scroller.scrollLeft = (x + 1.2) / (b.width + 1.4) * scroller.scrollWidth - scroller.clientWidth / 2;
  scroller.scrollTop = (y + 1.2) / (b.height + 1.4) * scroller.scrollHeight - scroller.clientHeight / 2;
}
