// Gonzaga in the browser. Native modules, no build step: the server sends the board geometry once
// and a view of the game after every change; the modules beside this one draw them and send the
// player's choices. This one starts the table: the board data, then the platform's connection
// (/static/tavola/table.js) with the table's hooks.
import { $, api } from "/static/tavola/common.js";
import { Table } from "/static/tavola/table.js";
import { onHint } from "./actions.js";
import { drawBoard } from "./board.js";
import { onRematch } from "./end.js";
import { unpack } from "./legal.js";
import { moveControl, setupBoardEvents } from "./map-input.js";
import { onPresence } from "./players.js";
import { setupReplay } from "./replay.js";
import { ui } from "./state.js";
import { render } from "./view.js";

async function main() {
  const m = location.pathname.match(/^\/game\/([\w-]+)/);
  if (!m) { location.replace("/"); return; }  // the lobby is the site's own page
  ui.gameId = m[1];
  $("game").hidden = false;
  // the board this game is played on: the shipped one, or an edition's
  [ui.board, ui.options] = await Promise.all([api("/api/gonzaga/board?game=" + encodeURIComponent(ui.gameId)), api("/api/gonzaga/options?game=" + encodeURIComponent(ui.gameId))]);
  setupBoardEvents();
  Table.start({ view: (v) => render(unpack(v)), presence: onPresence, rematch: onRematch, hint: onHint,
    replay: () => { drawBoard(null); setupReplay(); }, moveControl });
}
main();

// the table's state, for whoever looks inside the page (the browser tests import it)
export { ui };
