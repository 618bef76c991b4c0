// Each view of the game drawn by its parts: the board's pieces, the player's card, the players,
// the panel of the move asked now, the log and the end.
import { $, t, toast } from "/static/tavola/common.js";
import { Hint } from "/static/tavola/hint.js";
import { renderActions } from "./actions.js";
import { drawBoard } from "./board.js";
import { renderEnd } from "./end.js";
import { renderYou } from "./hand.js";
import { markHints } from "./hints.js";
import { drawCursor } from "./map-input.js";
import { drawPieces } from "./pieces.js";
import { placing } from "./placing.js";
import { renderInvites, renderLog, renderPlayers, renderStatus, renderTrack } from "./players.js";
import { ui } from "./state.js";

export function render(v) {
  const first = !ui.view || ui.view.scenario.name !== v.scenario.name || !$("hexes");
  const newTurn = !ui.view || ui.view.seq !== v.seq;
  if (ui.view && ui.view.phase === "planning" && v.phase === "placing" && !ui.replay) {
    toast(t("Plans revealed. Turn order: {order}", { order: v.order.map((i) => v.players[i].name).join(" → ") }), "info");
  }
  if (v.phase === "over" && ui.view && ui.view.phase !== "over") $("toast").hidden = true;  // the end screen says it all
  if (ui.view && ui.view.round !== v.round) dismissInfo();  // the reveal's banner is old news
  const wasPlacing = !!(ui.view && ui.view.legal && ui.view.legal.kind === "place");
  ui.view = v;
  document.body.dataset.seq = v.seq;
  document.body.dataset.phase = v.phase;
  if (first) drawBoard(v.scenario);
  drawPieces(v);
  renderStatus(v);
  renderYou(v);
  renderPlayers(v);
  renderTrack(v);
  renderLog(v);
  renderEnd(v);
  renderInvites(v);
  if (newTurn) {
    ui.pending = null; ui.wedding = { first: null, second: null };
    if (!placing()) ui.cursor = null;
  }
  renderActions(v);
  markHints(Hint.marked());
  drawCursor();
  if (!wasPlacing && v.legal && v.legal.kind === "place" && !ui.replay) bringBoardIntoView();
}
function dismissInfo() { const t = $("toast"); if (t.className === "info") t.hidden = true; }
// your turn to place: the map (with the bar under it) in sight, below the header, on a phone too
function bringBoardIntoView() {
  const wrap = $("board-wrap").getBoundingClientRect();
  const top = $("top").getBoundingClientRect().bottom;
  if (wrap.top >= top - 1 && wrap.bottom <= window.innerHeight + 1) return;
  window.scrollBy({ top: wrap.top - top, behavior: "instant" });
}
