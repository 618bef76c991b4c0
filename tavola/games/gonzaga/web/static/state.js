// The state of Gonzaga's table in the browser (`ui`: the board data, the view, what the player
// is choosing), the board data's words (card, fief and symbol names), and the table's messages
// to the server, through the platform's connection (/static/tavola/table.js).
import { Table } from "/static/tavola/table.js";

export const ui = {
  board: null, byHex: new Map(), gameId: null, view: null,
  mode: "fief", rotation: 0, hover: null, pending: null, cursor: null, legalKeys: new Map(),
  plan: { region: null, action: null, privilege: false }, wedding: { first: null, second: null },
  replay: null, options: null,
};
// the planning cards and their names come from the board data (/api/board)
export function cardName(card) {
  const region = ui.board && ui.board.regions.find((r) => r.id === card);
  if (region) return region.name;
  const c = ui.board && ui.board.cards[card];
  return c ? c.name : card;
}
export function actionCards() { return Object.keys(ui.board.cards).filter((c) => ui.board.cards[c].action); }
export function weddingCard() { return actionCards().find((c) => ui.board.cards[c].wedding); }
export function fiefName(fief) { const f = ui.board.fiefs.find((x) => x.number === fief); return f ? f.name : "fief"; }
export function symbolName(id) { return (ui.board.symbols.find((x) => x.id === id) || { name: id }).name; }
export function fiefOf(fief) { return ui.board.fiefs.find((f) => f.number === fief); }
export function colourOf(p) { return ui.board.player_colours[p.colour] || p.colour; }

// the connection, one move per view, errors and presence are the platform's (table.js)
export function send(msg) { Table.send(msg); }
export function act(action) { Table.act(action); }
export function undo() { Table.undo(); }

export function showGone() { Table.showGone(); }

export function me(v) { return v.you === null || v.you === undefined ? null : v.players[v.you]; }
