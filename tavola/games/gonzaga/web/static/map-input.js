// The map under the pointer and the keyboard: a hex chosen by a click or a tap (a fief's
// position, a Wedding's ring), the keyboard's cursor (arrows, Enter, R to turn, Esc), and zoom.
import { $, svg, t, toast } from "/static/tavola/common.js";
import { renderActions } from "./actions.js";
import { centre, corners, hexKey, pointsAttr } from "./hexes.js";
import { layoutNames } from "./names.js";
import { choose, commitFief, commitWedding, placing, rotateBy, showHex, updatePreview } from "./placing.js";
import { ui } from "./state.js";

// the keyboard cursor: a hex outlined on the map while the map has the focus, in a layer of its
// own, so that moving it redraws nothing else
export function drawCursor() {
  const board = $("board");
  if (!board || !$("hexes")) return;
  let g = $("cursor-layer");
  if (!g) g = svg("g", { id: "cursor-layer", class: "overlay" }, board);
  else board.appendChild(g);  // on top of everything drawn since
  g.replaceChildren();
  if (!placing() || !ui.cursor || document.activeElement !== board) return;
  const [x, y] = centre(ui.cursor[0], ui.cursor[1]);
  svg("polygon", { points: pointsAttr(corners(x, y, 1.0)), class: "cursor-halo" }, g);
  svg("polygon", { points: pointsAttr(corners(x, y, 1.0)), class: "cursor", id: "cursor", "data-hex": hexKey(ui.cursor) }, g);
}

// -- the fief preview that follows the pointer (or the keyboard cursor) --------------------------

// the map's hex under the pointer, as drawn (null off the map)
function boardPoint(ev) {
  const hex = document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.dataset && e.dataset.hex && e.closest("#hexes"));
  return hex ? hex.dataset.hex.split(",").map(Number) : null;
}

// -- the keyboard cursor ------------------------------------------------------------------------

// where the cursor starts: the best placement at the fief's current turn, or the first ring hex
function startCursor() {
  const legal = ui.view.legal;
  if (ui.mode === "wedding") {
    // the ring hex nearest the middle of them all, not a corner of the map
    const options = [...(ui.weddingOptions || [])].map((k) => k.split(",").map(Number));
    const xy = options.map(([c, r]) => centre(c, r));
    const mx = xy.reduce((a, p) => a + p[0], 0) / xy.length, my = xy.reduce((a, p) => a + p[1], 0) / xy.length;
    let best = null, dist = Infinity;
    options.forEach((h, i) => { const d = (xy[i][0] - mx) ** 2 + (xy[i][1] - my) ** 2; if (d < dist) { dist = d; best = h; } });
    ui.cursor = best;
  } else {
    let here = legal.placements.filter((p) => p[2] === ui.rotation).sort((a, b) => b[3] - a[3])[0];
    if (!here && legal.placements.length) {  // nothing fits as the fief is turned: turn it to the best
      here = [...legal.placements].sort((a, b) => b[3] - a[3])[0];
      rotateBy(here[2] - ui.rotation);
    }
    ui.cursor = here ? [here[0], here[1]] : [Math.floor(ui.board.columns / 2), Math.floor(ui.board.rows / 2)];
  }
}
function moveCursor(dc, dr) {
  if (!ui.cursor) startCursor();
  else {
    const c = Math.max(0, Math.min(ui.board.columns - 1, ui.cursor[0] + dc));
    const r = Math.max(0, Math.min(ui.board.rows - 1, ui.cursor[1] + dr));
    ui.cursor = [c, r];
  }
  if (!ui.cursor) return;
  showHex(ui.cursor);
  if (ui.mode === "fief") { ui.pending = null; ui.hover = ui.cursor; updatePreview(); }
  drawCursor();
}
function mapEnter() {
  if (!ui.cursor) { moveCursor(0, 0); return; }
  if (ui.mode === "fief") {
    if (ui.pending && hexKey(ui.pending) === hexKey(ui.cursor)) commitFief();
    else choose(ui.cursor);
  } else weddingPick(ui.cursor, true);
}

// Esc: the position chosen, or the rings put, are let go
function cancelChoice() {
  if (!placing()) return;
  if (ui.mode === "fief") { ui.pending = null; updatePreview(); } else { ui.wedding = { first: null, second: null }; renderActions(ui.view); }
}
// a ring on a highlighted hex (mouse or keyboard); the keyboard's Enter on a chosen ring arranges
function weddingPick(h, byKey) {
  const key = hexKey(h);
  const chosen = [ui.wedding.first, ui.wedding.second].some((x) => x && hexKey(x) === key);
  if (chosen) { if (byKey) commitWedding(); return; }
  if (!ui.weddingOptions || !ui.weddingOptions.has(key)) {
    toast(ui.wedding.first ? t("A second ring goes on a free hex next to the first.") : t("The first ring goes on a free land hex of your planned region."));
    return;
  }
  if (!ui.wedding.first) ui.wedding.first = h; else ui.wedding.second = h;
  ui.cursor = h;
  renderActions(ui.view);
}

// where the skip link takes the keyboard: the map while placing, the first card while planning
export function moveControl() {
  if (placing()) return $("board");
  return document.querySelector("#region-cards button:not([disabled])") || $("actions");
}

export function setupBoardEvents() {
  const s = $("board");
  s.setAttribute("tabindex", "0");
  s.setAttribute("aria-describedby", "preview-info");
  s.addEventListener("pointerdown", () => { ui.pointing = true; });
  s.addEventListener("pointermove", (ev) => {
    if (!placing() || ui.mode !== "fief" || ev.pointerType === "touch") return;
    const h = boardPoint(ev);
    if ((ui.hover && hexKey(ui.hover)) === (h && hexKey(h))) return;
    ui.hover = h;
    if (!ui.pending) updatePreview();
  });
  s.addEventListener("pointerleave", () => { ui.hover = null; if (!ui.pending) updatePreview(); });
  // a click chooses; it never places, however often it comes (a double click, two taps)
  s.addEventListener("click", (ev) => {
    ui.pointing = false;
    if (!placing()) return;
    const h = boardPoint(ev);
    if (!h) return;
    if (ui.mode === "fief") choose(h); else weddingPick(h, false);
  });
  s.addEventListener("focus", () => {
    if (placing() && !ui.pointing && !ui.cursor) { startCursor(); if (ui.mode === "fief" && !ui.pending) { ui.hover = ui.cursor; updatePreview(); } }
    drawCursor();
  });
  s.addEventListener("blur", () => { ui.pointing = false; drawCursor(); });
  s.addEventListener("wheel", (ev) => { if (placing() && ui.mode === "fief") { ev.preventDefault(); rotateBy(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", (ev) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const onMap = ev.target === s;
    if (ev.key === "r" || ev.key === "R") { if (placing() && ui.mode === "fief") { ev.preventDefault(); rotateBy(ev.shiftKey ? -1 : 1); } return; }
    if (ev.key === "Escape") { cancelChoice(); return; }
    if (!onMap || !placing()) return;  // Enter on a button or a link is that button's, never a second move
    if (moves[ev.key]) { ev.preventDefault(); moveCursor(...moves[ev.key]); } else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); mapEnter(); }
  });
  const zoom = (step) => {
    const scroller = $("board-scroll");
    const cx = (scroller.scrollLeft + scroller.clientWidth / 2) / scroller.scrollWidth;
    const cy = (scroller.scrollTop + scroller.clientHeight / 2) / scroller.scrollHeight;
    ui.zoom = Math.max(1, Math.min(4, (ui.zoom || 1) + step));  // 1 to 4 times: the first step doubles
    $("board").style.setProperty("--zoom", ui.zoom);
    scroller.scrollLeft = cx * scroller.scrollWidth - scroller.clientWidth / 2;
    scroller.scrollTop = cy * scroller.scrollHeight - scroller.clientHeight / 2;
  };
  $("zoom-in").onclick = () => zoom(1);
  $("zoom-out").onclick = () => zoom(-1);
  new ResizeObserver(() => requestAnimationFrame(() => layoutNames())).observe(s);
  $("rot-left").onclick = () => rotateBy(-1);
  $("rot-right").onclick = () => rotateBy(1);
  $("confirm").onclick = () => { if (ui.pending) commitFief(); };
}
