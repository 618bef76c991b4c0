// Gonzaga in the browser. Plain JS, no build step: the server sends the board geometry once and
// a view of the game after every change; this file draws them and sends the player's choices.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
const AXIAL_DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
const CARD = { inactive: "Inactive Regions", harbors: "Harbors", cities: "Cities",
  alliance: "Alliance", privilege: "King's Privilege" };
const ACTIONS = ["harbors", "cities", "alliance"];

const ui = {
  board: null, byHex: new Map(), gameId: null, token: null, ws: null, view: null,
  mode: "fief", rotation: 0, hover: null, pending: null, legalKeys: new Map(),
  plan: { region: null, action: null, privilege: false }, wedding: { first: null, second: null },
  checkTimer: null, checkKey: null, replay: null, retry: 0,
};

// ---------------------------------------------------------------------------------------------
// small tools

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}
function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
function toast(message, kind = "error") {
  const t = $("toast");
  t.textContent = message;
  t.className = kind;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}
function cardName(card) {
  const region = ui.board && ui.board.regions.find((r) => r.id === card);
  return region ? region.name : (CARD[card] || card);
}
// symbols are SVG paths from the server (the shapes of the printed board's legend)
function icon(parent, name, x, y, size, fill) {
  const d = ui.board.icons[name];
  if (!d) {
    const t = svg("text", { x, y, class: "glyph", fill }, parent);
    t.textContent = (name || "?")[0].toUpperCase();
    return t;
  }
  return svg("path", { d, fill, transform: `translate(${x} ${y}) scale(${size})` }, parent);
}
function iconEl(name, px = 16, fill = "#3b2a1a") {
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("viewBox", "-1.1 -1.1 2.2 2.2");
  s.setAttribute("width", px); s.setAttribute("height", px);
  s.setAttribute("class", "icon");
  const title = svg("title", {}, s);
  title.textContent = symbolName(name);
  icon(s, name, 0, 0, 1, fill);
  return s;
}
function symbolName(id) { return (ui.board.symbols.find((x) => x.id === id) || { name: id }).name; }
function colourOf(p) { return ui.board.player_colours[p.colour] || p.colour; }

// hex geometry: the board's pixel frame (circumradius 1), pointy-top, odd-r offset rows
function centre(c, r) { return [SQRT3 * (c + 0.5 * (r & 1)), 1.5 * r]; }
function corners(x, y, k = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (30 + 60 * i);
    pts.push([x + k * Math.cos(a), y + k * Math.sin(a)]);
  }
  return pts;
}
function pointsAttr(pts) { return pts.map((p) => p[0].toFixed(3) + "," + p[1].toFixed(3)).join(" "); }
function toAxial(c, r) { return [c - (r - (r & 1)) / 2, r]; }
function toOffset(q, r) { return [q + (r - (r & 1)) / 2, r]; }
function rotate(q, r, turns) { for (let i = 0; i < ((turns % 6) + 6) % 6; i++) [q, r] = [-r, q + r]; return [q, r]; }
function pixelToHex(x, y) {
  const q = (SQRT3 / 3 * x - y / 3), r = 2 / 3 * y;
  let rx = Math.round(q), rz = Math.round(r), ry = Math.round(-q - r);
  const dx = Math.abs(rx - q), dz = Math.abs(rz - r), dy = Math.abs(ry + q + r);
  if (dx > dy && dx > dz) rx = -ry - rz; else if (dy <= dz) rz = -rx - ry;
  return toOffset(rx, rz);
}
function hexKey(h) { return h[0] + "," + h[1]; }
function fiefCells(fief, anchor, rotation) {
  const shape = ui.board.fiefs.find((f) => f.number === fief);
  const [q0, r0] = toAxial(anchor[0], anchor[1]);
  return shape.hexes.map(([dq, dr]) => { const [a, b] = rotate(dq, dr, rotation); return toOffset(q0 + a, r0 + b); });
}
function fiefCastles(fief, anchor, rotation) {
  const shape = ui.board.fiefs.find((f) => f.number === fief);
  const [q0, r0] = toAxial(anchor[0], anchor[1]);
  return shape.castles.map(([dq, dr]) => { const [a, b] = rotate(dq, dr, rotation); return toOffset(q0 + a, r0 + b); });
}
function cellsKey(cells) { return cells.map(hexKey).sort().join(";"); }

// ---------------------------------------------------------------------------------------------
// the board, drawn once from the board data

function drawBoard(scenario) {
  const b = ui.board;
  const root = $("board");
  root.replaceChildren();
  root.setAttribute("viewBox", `-1.2 -1.2 ${b.width + 1.4} ${b.height + 1.4}`);
  root.style.setProperty("--board-aspect", `${b.width + 1.4} / ${b.height + 1.4}`);
  const inactive = new Set(scenario ? scenario.inactive : []);
  const regionColour = Object.fromEntries(b.regions.map((r) => [r.id, r.colour]));
  const seaColour = Object.fromEntries(b.seas.map((s) => [s.id, s.colour]));
  const base = svg("g", { id: "hexes" }, root);
  for (const [x, y] of b.scenery) svg("polygon", { points: pointsAttr(corners(x, y)), fill: "#d6cfbf", class: "hex" }, base);
  ui.byHex.clear();
  for (const h of b.hexes) {
    ui.byHex.set(hexKey(h.at), h);
    const fill = h.region ? regionColour[h.region] : seaColour[h.sea] || "#a8c8dd";
    svg("polygon", { points: pointsAttr(corners(h.x, h.y)), fill, "data-hex": hexKey(h.at),
      class: "hex" + (h.region && inactive.has(h.region) ? " inactive" : "") }, base);
  }
  // region borders, coasts and barriers on the shared edges
  const lines = svg("g", {}, root);
  const barrier = new Set(b.barriers.map(([a, c]) => hexKey(a) + "|" + hexKey(c)));
  for (const h of b.hexes) {
    const [q, r] = toAxial(h.at[0], h.at[1]);
    AXIAL_DIRS.forEach(([dq, dr], i) => {
      const n = toOffset(q + dq, r + dr);
      const other = ui.byHex.get(hexKey(n));
      if (!other || hexKey(n) < hexKey(h.at)) return;
      const pts = corners(h.x, h.y);
      const [p1, p2] = [pts[(i + 5) % 6], pts[i]];
      let cls = null;
      if (barrier.has(hexKey(h.at) + "|" + hexKey(n)) || barrier.has(hexKey(n) + "|" + hexKey(h.at))) cls = "barrier";
      else if (h.region && other.region && h.region !== other.region) cls = "border";
      else if (!!h.region !== !!other.region) cls = "coast";
      if (cls) svg("line", { x1: p1[0], y1: p1[1], x2: p2[0], y2: p2[1], class: cls }, lines);
    });
  }
  // names of regions and seas, at the middle of their hexes
  const names = svg("g", { class: "overlay" }, root);
  const groups = new Map();
  for (const h of b.hexes) {
    const k = h.region ? "r:" + h.region : "s:" + h.sea;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(h);
  }
  for (const [k, hs] of groups) {
    const mx = hs.reduce((s, h) => s + h.x, 0) / hs.length, my = hs.reduce((s, h) => s + h.y, 0) / hs.length;
    const best = hs.reduce((a, h) => ((h.x - mx) ** 2 + (h.y - my) ** 2 < (a.x - mx) ** 2 + (a.y - my) ** 2 ? h : a));
    const isRegion = k.startsWith("r:");
    const item = isRegion ? b.regions.find((r) => "r:" + r.id === k) : b.seas.find((s) => "s:" + s.id === k);
    const t = svg("text", { x: best.x, y: best.y + (isRegion ? 2.2 : 0), class: isRegion ? "regionname" : "seaname" }, names);
    t.textContent = item.name.toUpperCase ? (isRegion ? item.name.toUpperCase() : item.name) : item.name;
  }
  const routes = svg("g", { class: "overlay" }, root);
  for (const pts of b.routes) svg("polyline", { points: pointsAttr(pts), class: "route" }, routes);
  svg("g", { id: "pieces", class: "overlay" }, root);
  // places on top of pieces so their names stay readable
  const places = svg("g", { class: "overlay", id: "places" }, root);
  const seaSymbol = Object.fromEntries(b.seas.map((s) => [s.id, s.symbol]));
  for (const c of b.cities) {
    const [x, y] = centre(c.at[0], c.at[1]);
    svg("circle", { cx: x, cy: y, r: 0.5, fill: "#fffaf0", stroke: "#3b2a1a", "stroke-width": 0.08 }, places);
    icon(places, c.symbol, x, y, 0.32, "#3b2a1a");
    const t = svg("text", { x, y: y + 1.05, class: "label" }, places);
    t.textContent = c.name;
  }
  for (const hb of b.harbors) {
    const [x, y] = centre(hb.at[0], hb.at[1]);
    svg("circle", { cx: x, cy: y, r: 0.5, fill: "#1f4e79", stroke: "#fffaf0", "stroke-width": 0.08 }, places);
    icon(places, seaSymbol[hb.sea], x, y, 0.32, "#fffaf0");
    const t = svg("text", { x, y: y + 1.05, class: "label" }, places);
    t.textContent = hb.name;
  }
  // seals (flourishing or inactive) and the church
  const seals = svg("g", { class: "overlay", id: "seals" }, root);
  for (const r of b.regions) {
    const [x, y] = r.seal;
    const flourishing = scenario && scenario.flourishing.includes(r.id);
    svg("circle", { cx: x, cy: y, r: 1.0, fill: flourishing ? "#c9a227" : "#8d8d8d", stroke: "#3b2a1a",
      "stroke-width": 0.1, "data-seal": r.id }, seals);
    const t = svg("text", { x, y: y + 0.1, class: "glyph", fill: "#fffaf0", "font-size": 0.9 }, seals);
    t.textContent = flourishing ? "✦" : "✕";
    const l = svg("text", { x, y: y + 1.75, class: "label" }, seals);
    l.textContent = r.name + (scenario ? (flourishing ? " · flourishing" : " · inactive") : "");
  }
  const [cx, cy] = b.church;
  svg("rect", { x: cx - 1.4, y: cy - 1.2, width: 2.8, height: 2.4, rx: 0.3, fill: "#fffaf0", stroke: "#3b2a1a", "stroke-width": 0.08 }, seals);
  icon(seals, "church", cx, cy - 0.3, 0.6, "#3b2a1a");
  const cl = svg("text", { x: cx, y: cy + 0.8, class: "label", id: "church-label" }, seals);
  cl.textContent = "Church";
  svg("g", { id: "marks", class: "overlay" }, root);
  svg("g", { id: "preview", class: "overlay" }, root);
}

function drawPieces(v) {
  const g = $("pieces");
  g.replaceChildren();
  for (const pc of v.pieces) {
    const p = v.players[pc.owner];
    const colour = colourOf(p);
    if (pc.kind === "fief") {
      const grp = svg("g", { "data-piece": "fief", "data-owner": pc.owner }, g);
      for (const [c, r] of pc.hexes) {
        const [x, y] = centre(c, r);
        svg("polygon", { points: pointsAttr(corners(x, y, 0.97)), fill: colour, class: "piece" }, grp);
      }
      for (const [c, r] of pc.castles) {
        const [x, y] = centre(c, r);
        const t = svg("text", { x, y: y - 0.45, class: "glyph", fill: "#1b130c", "font-size": 0.55 }, grp);
        t.textContent = "♜";
      }
    } else {
      const [c, r] = pc.hexes[0];
      const [x, y] = centre(c, r);
      svg("circle", { cx: x, cy: y, r: 0.62, class: "ring", stroke: colour, "data-piece": "ring" }, g);
    }
  }
  const last = [...v.log].reverse().find((e) => e.kind === "turn" && e.hexes.length);
  if (last) {
    for (const [c, r] of last.hexes) {
      const [x, y] = centre(c, r);
      svg("polygon", { points: pointsAttr(corners(x, y, 0.85)), class: "last-move" }, g);
    }
  }
  if (v.final) {  // the revealed objectives: each player's covered objective cities, ringed in their colour
    const byName = Object.fromEntries(ui.board.cities.map((c) => [c.name, c]));
    v.final.table.forEach((row, k) => {
      for (const name of row.objective_cities) {
        const c = byName[name];
        if (!c) continue;
        const [x, y] = centre(c.at[0], c.at[1]);
        svg("circle", { cx: x, cy: y, r: 0.78 + 0.3 * k, class: "objective-halo" }, g);
        const mark = svg("circle", { cx: x, cy: y, r: 0.78 + 0.3 * k, class: "objective-mark", stroke: colourOf(v.players[row.seat]), "data-objective": row.seat }, g);
        svg("title", {}, mark).textContent = `${row.name}'s objective: ${name}`;
      }
    });
  }
  $("church-label").textContent = `Church (${v.church.length})`;
}

// ---------------------------------------------------------------------------------------------
// connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${ui.gameId}`);
  ui.ws = ws;
  $("conn").textContent = "connecting…";
  ws.onopen = () => { ui.retry = 0; $("conn").textContent = "online"; ws.send(JSON.stringify({ type: "hello", token: ui.token })); };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    $("conn").textContent = "offline, reconnecting…";
    ui.retry = Math.min(ui.retry + 1, 6);
    setTimeout(connect, 300 * ui.retry);
  };
}
function send(msg) {
  if (msg.type === "act" && msg.seq === undefined && ui.view) msg.seq = ui.view.seq;  // a move names the view it was made on
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg));
  else toast("Not connected; reconnecting…");
}

// legal placements arrive as parallel arrays (compact); the page works with rows
function unpack(v) {
  const p = v.legal && v.legal.placements;
  if (p && !Array.isArray(p)) v.legal.placements = p.columns.map((c, i) => [c, p.rows[i], p.rotations[i], p.points[i]]);
  return v;
}

function onMessage(msg) {
  if (msg.type === "state") render(unpack(msg));
  else if (msg.type === "welcome") {
    if (msg.seat === null && ui.token) toast("This link opens no seat: you are watching.");
  } else if (msg.type === "presence") {
    if (ui.view) { msg.seats.forEach((s, i) => Object.assign(ui.view.players[i], s)); renderPlayers(ui.view); }
  } else if (msg.type === "check") onCheck(msg);
  else if (msg.type === "error") {
    if (msg.code === "bad-token") { ui.token = null; localStorage.removeItem("gonzaga:" + ui.gameId); }
    toast(msg.message + (msg.rule ? ` [${msg.rule}]` : ""));
  }
}

// ---------------------------------------------------------------------------------------------
// rendering a view

function render(v) {
  const first = !ui.view || ui.view.scenario.name !== v.scenario.name || !$("hexes");
  const newTurn = !ui.view || ui.view.seq !== v.seq;
  if (ui.view && ui.view.phase === "planning" && v.phase === "placing" && !ui.replay) {
    toast(`Plans revealed. Turn order: ${v.order.map((i) => v.players[i].name).join(" → ")}`, "info");
  }
  if (v.phase === "over" && ui.view && ui.view.phase !== "over") $("toast").hidden = true;  // the end screen says it all
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
  if (newTurn) { ui.pending = null; ui.wedding = { first: null, second: null }; }
  renderActions(v);
}

function me(v) { return v.you === null || v.you === undefined ? null : v.players[v.you]; }

function renderStatus(v) {
  const parts = [`Round ${v.round}`, `${v.scenario.name}`];
  if (v.phase === "planning") parts.push("Planning");
  else if (v.phase === "placing") parts.push(`Placing: ${v.players[v.current].name}`);
  else parts.push("Game over");
  parts.push(lastTurnText(v));
  if (v.you === null) parts.push(ui.replay ? "Replay" : "Watching");
  $("status").textContent = parts.join(" · ");
}
function lastTurnText(v) {
  if (v.phase === "over") return `ended after round ${v.round}`;
  if (v.final_round !== null) return v.phase === "over" ? `Last Turn was round ${v.final_round}` : `Last Turn: round ${v.final_round} is the last`;
  if (v.last_turn_check !== null) return `Last Turn card (${v.players[v.last_turn_holder].name}): check after round ${v.last_turn_check}`;
  return "";
}

function renderYou(v) {
  const box = $("you");
  const p = me(v);
  if (!p) { box.replaceChildren(el("h3", { text: ui.replay ? "Replay" : "Spectator" }), el("p", { class: "muted", text: "You see what every player sees; hidden cards stay hidden." })); return; }
  const objective = p.objective ? objectiveEl(v, p) : "";
  box.replaceChildren(
    el("h3", {}, el("span", { class: "swatch", style: `background:${colourOf(p)}` }), `${p.name} (you)`),
    el("div", { class: "row", id: "you-score", text: `Score ${p.score} · Rings left ${p.rings} · Fiefs left ${p.fiefs_left}` }),
    el("div", { class: "row", id: "you-fief" }, p.fief !== null ? `Fief card drawn this round: ${p.card} (fief ${p.fief})` : "Fief of this round played"),
    fiefPicture(p.fief, colourOf(p)),
    handEl(v, p),
    el("div", { class: "muted", id: "you-objective" }, objective),
  );
}
// the planning cards: in hand, resting (played last round) or played this round
function handEl(v, p) {
  const regions = ui.board.regions.map((r) => r.id).filter((r) => v.scenario.flourishing.includes(r));
  const cards = [...regions, "inactive", ...ACTIONS, "privilege"];
  const chips = cards.map((c) => {
    const state = p.played.includes(c) ? "played" : p.resting.includes(c) ? "resting" : "hand";
    return el("span", { class: `chip ${state}`, title: { played: "played this round", resting: "resting: played last round, back after this round's reveal", hand: "in hand" }[state], "data-card": c }, cardName(c));
  });
  return el("div", { class: "hand", id: "hand" }, el("span", { class: "muted", text: "Planning cards: " }), ...chips);
}
function objectiveEl(v, p) {
  const symbols = ui.board.objectives[String(p.objective)] || [];
  const cities = ui.board.cities.filter((c) => symbols.includes(c.symbol));
  const seat = v.players.indexOf(p);
  const covered = cities.filter((c) => v.pieces.some((pc) => pc.owner === seat && pc.hexes.some((h) => h[0] === c.at[0] && h[1] === c.at[1])));
  const box = el("span", {}, `Secret objective ${p.objective}: `);
  symbols.forEach((s, i) => box.append(i ? " + " : "", iconEl(s), " " + symbolName(s)));
  box.append(` — ${cities.map((c) => (covered.includes(c) ? "✓" : "") + c.name).join(", ")}; covered ${covered.length} of 6`);
  return box;
}
function fiefPicture(fief, colour) {
  const box = el("div");
  if (fief === null || fief === undefined) return box;
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("width", "120"); s.setAttribute("height", "70");
  const cells = fiefCells(fief, [0, 0], ui.rotation || 0);
  const castles = new Set(fiefCastles(fief, [0, 0], ui.rotation || 0).map(hexKey));
  const pts = cells.map(([c, r]) => centre(c, r));
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  s.setAttribute("viewBox", `${Math.min(...xs) - 1.1} ${Math.min(...ys) - 1.1} ${Math.max(...xs) - Math.min(...xs) + 2.2} ${Math.max(...ys) - Math.min(...ys) + 2.2}`);
  cells.forEach(([c, r], i) => {
    const [x, y] = pts[i];
    svg("polygon", { points: pointsAttr(corners(x, y, 0.97)), fill: colour, class: "piece" }, s);
    if (castles.has(hexKey([c, r]))) { const t = svg("text", { x, y, class: "glyph", "font-size": 0.8 }, s); t.textContent = "♜"; }
  });
  box.append(s);
  return box;
}

function renderPlayers(v) {
  const rows = [];
  v.players.forEach((p, i) => {
    const state = v.phase === "planning" ? (p.has_planned ? "planned" : "planning…") : v.phase === "placing" ? (v.current === i ? "placing" : "") : "";
    const plan = p.plan ? `${cardName(p.plan.region)} / ${p.plan.privilege ? "KP + " : ""}${cardName(p.plan.action)}` : "";
    const who = p.kind === "bot" ? `${p.bot} bot` : (p.connected ? "online" : "away");
    rows.push(el("tr", { class: (i === v.you ? "me " : "") + (v.current === i ? "turn" : ""), "data-seat": i },
      el("td", {}, el("span", { class: "swatch", style: `background:${colourOf(p)}` }), p.name, el("small", { class: "muted", text: ` (${who})` })),
      el("td", { class: "score", text: String(p.score) }), el("td", { text: String(p.rings) }),
      el("td", { text: p.fief !== null ? String(p.card) : "–" }),
      el("td", { text: plan || state })));
    // the rest of the player's public board
    const leagues = p.leagues.map((s) => (ui.board.seas.find((x) => x.id === s) || { name: s }).name);
    const details = [`fiefs left ${p.fiefs_left}`];
    if (p.resting.length) details.push(`resting: ${p.resting.map(cardName).join(", ")}`);
    if (leagues.length) details.push(`sea leagues: ${leagues.join(", ")}`);
    rows.push(el("tr", { class: "details" }, el("td", { colspan: 5, class: "muted", text: details.join(" · ") })));
  });
  $("players").replaceChildren(el("h3", { text: "Players" }),
    el("table", {}, el("thead", {}, el("tr", {}, ...["Player", "Score", "Rings", "Card", "Plan"].map((h) => el("th", { text: h })))), el("tbody", {}, ...rows)),
    el("div", { class: "muted", text: v.order.length ? "Turn order: " + v.order.map((i) => v.players[i].name).join(" → ") : "" }));
}

function renderTrack(v) {
  const max = Math.max(50, ...v.players.map((p) => p.score));
  $("track").replaceChildren(...v.players.map((p) => el("div", { class: "track-row" },
    el("span", { style: "width:5rem;overflow:hidden;white-space:nowrap", text: p.name }),
    el("span", { class: "track-bar", style: `width:${(70 * p.score / max).toFixed(1)}%;background:${colourOf(p)}` }),
    el("span", { text: String(p.score) }))));
}

function renderLog(v) {
  const items = v.log.map((e) => {
    const li = el("li", { text: e.text });
    for (const ev of e.events) li.append(el("span", { class: "pts", text: ev.text }));
    return li;
  }).reverse();
  $("log").replaceChildren(...items);
}

// the creator of a game keeps its seat links on this device, to send them again
function renderInvites(v) {
  const box = $("invites");
  const saved = localStorage.getItem("gonzaga:invites:" + ui.gameId);
  if (!saved || v.phase === "over" || ui.replay) { box.hidden = true; return; }
  const data = JSON.parse(saved);
  const others = data.seats.filter((s) => !s.link.endsWith("#" + ui.token));
  if (!others.length) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(el("details", {}, el("summary", { text: "Invite links (you created this game)" }),
    el("ul", { class: "links" }, ...others.map((s) => el("li", {}, `${s.name}: `, el("code", { text: location.origin + s.link }))),
      el("li", {}, "Spectators: ", el("code", { text: location.origin + data.spectator })))));
}

function renderEnd(v) {
  const box = $("end");
  if (!v.final) { box.hidden = true; return; }
  box.hidden = false;
  const names = v.final.winners.map((i) => v.players[i].name).join(" and ");
  const rows = v.final.table.map((r) => el("tr", { class: v.final.winners.includes(r.seat) ? "me" : "" },
    el("td", {}, el("span", { class: "swatch", style: `background:${ui.board.player_colours[r.colour]}` }), r.name),
    el("td", { text: String(r.before_final) }), el("td", { title: `largest group: ${r.largest_group} connected pieces`, text: `${r.gonzaga_tile} (${r.largest_group})` }),
    el("td", { title: r.objective_cities.join(", ") }, ...(r.objective_symbols || []).map((s) => iconEl(s, 14)), ` ${r.objective_cities.length}/6 → ${r.objective_points}`),
    el("td", { text: String(r.score) })));
  const children = [el("h2", { text: "Game over" }),
    el("p", { class: "winner", id: "winner", text: `Winner: ${names}` }),
    el("table", { id: "final-table" }, el("thead", {}, el("tr", {}, ...["Player", "In play", "Gonzaga tile", "Objective", "Total"].map((h) => el("th", { text: h })))), el("tbody", {}, ...rows)),
    el("p", { class: "muted", text: "Gonzaga tile: 15 points for the largest group of connected fiefs and rings (group size in brackets). Objectives: the cities of the card's two symbols covered, 0 to 6, for 0, 2, 5, 10, 15, 25 or 35 points." })];
  if (!ui.replay) {
    children.push(el("div", { class: "row" },
      el("a", { href: `/api/games/${ui.gameId}/record`, download: `gonzaga-${ui.gameId}.json`, id: "download" }, "Download the game record"),
      el("a", { href: `/game/${ui.gameId}#replay`, onclick: () => setTimeout(() => location.reload(), 0) }, "Watch the replay")));
  }
  box.replaceChildren(...children);
}

// ---------------------------------------------------------------------------------------------
// actions: planning and placing

function renderActions(v) {
  const box = $("actions");
  $("place-bar").hidden = true;
  clearMarks();
  const legal = v.legal;
  box.hidden = v.phase === "over";
  if (v.phase === "over") return;
  if (v.you === null) { box.replaceChildren(el("h3", { text: v.phase === "planning" ? "Players are planning" : `${v.players[v.current].name} is placing` })); return; }
  if (!legal) {
    const p = me(v);
    let text = "Waiting…";
    if (v.phase === "planning") {
      const plan = p.plan;
      text = `Your plan (secret until everyone has planned): ${cardName(plan.region)} / ${plan.privilege ? "King's Privilege + " : ""}${cardName(plan.action)}. Waiting for ${v.players.filter((q) => !q.has_planned).map((q) => q.name).join(", ")}.`;
    } else if (v.phase === "placing") text = `Waiting for ${v.players[v.current].name} to place.`;
    box.replaceChildren(el("h3", { text: "Waiting" }), el("p", { id: "waiting", text }));
    return;
  }
  if (legal.kind === "plan") renderPlanning(box, v, legal);
  else renderPlacing(box, v, legal);
}

function renderPlanning(box, v, legal) {
  const sel = ui.plan;
  if (sel.region && !legal.regions.includes(sel.region)) sel.region = null;
  if (sel.action && !legal.actions.includes(sel.action)) sel.action = null;
  if (!legal.privilege) sel.privilege = false;
  const regionButtons = legal.region_cards.map((card) => {
    const resting = !legal.regions.includes(card);
    const best = legal.best[card] || {};
    const hint = ACTIONS.map((a) => `${CARD[a][0]} ${best[a] === null || best[a] === undefined ? "–" : best[a]}`).join(" · ");
    return el("button", { type: "button", class: "plancard" + (sel.region === card ? " on" : "") + (resting ? " resting" : ""),
      disabled: resting, "data-card": card, onclick: () => { sel.region = card; renderActions(ui.view); } },
    cardName(card), el("small", { text: resting ? "resting" : "best: " + hint }));
  });
  const actionButtons = ACTIONS.map((card) => el("button", { type: "button",
    class: "plancard" + (sel.action === card ? " on" : "") + (legal.actions.includes(card) ? "" : " resting"),
    disabled: !legal.actions.includes(card), "data-card": card, onclick: () => { sel.action = card; renderActions(ui.view); } },
  CARD[card], el("small", { text: { harbors: "1–2 harbors, no city", cities: "1–3 cities or empty hexes", alliance: "city + harbor, or a Wedding" }[card] })));
  const kp = el("button", { type: "button", class: "plancard" + (sel.privilege ? " on" : ""), disabled: !legal.privilege, id: "privilege",
    onclick: () => { sel.privilege = !sel.privilege; renderActions(ui.view); } }, "King's Privilege", el("small", { text: legal.privilege ? "move first, costs a ring" : "resting or no ring" }));
  const go = el("button", { type: "button", class: "primary", id: "plan-go", disabled: !(sel.region && sel.action),
    onclick: () => { send({ type: "act", action: { type: "plan", region: sel.region, action: sel.action, privilege: sel.privilege } }); ui.plan = { region: null, action: null, privilege: false }; } }, "Plan");
  box.replaceChildren(el("h3", { text: `Plan your move (round ${v.round})` }),
    el("div", { class: "muted", text: "Region card (best points your fief could score now under Harbors / Cities / Alliance):" }),
    el("div", { class: "cards", id: "region-cards" }, ...regionButtons),
    el("div", { class: "muted", text: "Action card:" }), el("div", { class: "cards", id: "action-cards" }, ...actionButtons, kp),
    el("div", { class: "row" }, go, el("span", { class: "muted", text: "Your choice stays secret until everyone has planned." })));
}

function renderPlacing(box, v, legal) {
  ui.legalKeys = new Map();
  for (const [c, r, rot, pts] of legal.placements) ui.legalKeys.set(cellsKey(fiefCells(legal.fief, [c, r], rot)), { anchor: [c, r], rotation: rot, points: pts });
  const canWed = legal.weddings.length > 0;
  if (ui.mode === "wedding" && !canWed) ui.mode = "fief";
  const plan = legal.plan;
  const best = [...legal.placements].sort((a, b) => b[3] - a[3]).slice(0, 5);
  const modeButtons = el("div", { class: "row" },
    el("button", { type: "button", id: "mode-fief", class: ui.mode === "fief" ? "on" : "", disabled: !legal.placements.length, onclick: () => { ui.mode = "fief"; renderActions(ui.view); } }, `Place fief ${legal.fief}`),
    canWed ? el("button", { type: "button", id: "mode-wedding", class: ui.mode === "wedding" ? "on" : "", onclick: () => { ui.mode = "wedding"; ui.pending = null; renderActions(ui.view); } }, "Wedding (rings)") : "",
    el("button", { type: "button", id: "donate", onclick: () => { if (confirm("Donate this fief to the church for 3 points?")) send({ type: "act", action: { type: "donate" } }); } }, "Donate to the church (+3)"));
  const children = [el("h3", { text: `Your turn: ${cardName(plan.region)} / ${plan.privilege ? "King's Privilege + " : ""}${cardName(plan.action)}` }), modeButtons];
  if (ui.mode === "fief") {
    children.push(el("p", { class: "muted", text: legal.placements.length
      ? `${legal.placements.length} legal placements. Move over the map: the fief follows and snaps; R, the wheel or ⟲ ⟳ rotate; click to choose, click again or press “Place fief” to commit.`
      : "No legal placement for this plan: donate (or arrange a Wedding with the Alliance card)." }));
    if (best.length) {
      children.push(el("div", { class: "muted", text: "Best placements:" }), el("ol", { id: "best" }, ...best.map(([c, r, rot, pts]) =>
        el("li", {}, el("a", { href: "#", "data-anchor": `${c},${r}`, "data-rotation": rot, "data-points": pts,
          onclick: (ev) => { ev.preventDefault(); ui.rotation = rot; choose([c, r]); showHex([c, r]); } }, `${pts} points at ${c},${r}, rotation ${rot}`)))));
    }
    $("place-bar").hidden = false;
    markAnchors();
    updatePreview();
  } else {
    children.push(el("p", { id: "wedding-help", class: "muted", text: ui.wedding.first
      ? "Click a hex beside the first ring for a second ring (optional), then arrange the Wedding."
      : `Click a land hex of ${cardName(plan.region)} for the first ring. The fief drawn is discarded.` }));
    const go = el("button", { type: "button", class: "primary", id: "wedding-go", disabled: !ui.wedding.first,
      onclick: () => send({ type: "act", action: { type: "wedding", first: ui.wedding.first, second: ui.wedding.second } }) }, "Arrange the Wedding");
    const reset = el("button", { type: "button", onclick: () => { ui.wedding = { first: null, second: null }; renderActions(ui.view); } }, "Start again");
    children.push(el("div", { class: "row" }, go, reset, el("span", { id: "wedding-info" })));
    markWedding(legal);
    if (ui.wedding.first) requestCheck({ type: "wedding", first: ui.wedding.first, second: ui.wedding.second });
  }
  box.replaceChildren(...children);
}

function clearMarks() { if ($("marks")) $("marks").replaceChildren(); if ($("preview")) $("preview").replaceChildren(); }

function markAnchors() {
  const g = $("marks");
  g.replaceChildren();
  const legal = ui.view.legal;
  for (const h of ui.board.hexes) {
    const key = cellsKey(fiefCells(legal.fief, h.at, ui.rotation));
    if (ui.legalKeys.has(key)) svg("circle", { cx: h.x, cy: h.y, r: 0.22, class: "anchor-dot" }, g);
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
    for (const [a, b] of pairs) {
      if (hexKey(a) === f) options.push(b);
      else if (hexKey(b) === f) options.push(a);
    }
  }
  for (const [c, r] of options) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: pointsAttr(corners(x, y, 0.8)), class: "wed-first" }, g);
  }
  for (const h of [ui.wedding.first, ui.wedding.second]) {
    if (!h) continue;
    const [x, y] = centre(h[0], h[1]);
    svg("circle", { cx: x, cy: y, r: 0.62, class: "ring", stroke: colourOf(me(ui.view)) }, g);
  }
  ui.weddingOptions = new Set(options.map(hexKey));
}

// -- the fief preview that follows the pointer ---------------------------------------------------

function boardPoint(ev) {
  const s = $("board");
  const pt = s.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(s.getScreenCTM().inverse());
  return pixelToHex(p.x, p.y);
}

function placing() { const v = ui.view; return v && v.legal && v.legal.kind === "place"; }

function updatePreview() {
  const g = $("preview");
  if (!g) return;
  g.replaceChildren();
  const v = ui.view;
  if (!placing() || ui.mode !== "fief") return;
  const anchor = ui.pending || ui.hover;
  const info = $("preview-info");
  const confirmBtn = $("confirm");
  confirmBtn.disabled = true;
  $("place-bar").dataset.rotation = ui.rotation;
  if (!anchor) { info.textContent = `Rotation ${ui.rotation}. Point at the map.`; info.className = ""; return; }
  const cells = fiefCells(v.legal.fief, anchor, ui.rotation);
  const castles = new Set(fiefCastles(v.legal.fief, anchor, ui.rotation).map(hexKey));
  const hit = ui.legalKeys.get(cellsKey(cells));
  const colour = colourOf(me(v));
  for (const [c, r] of cells) {
    const [x, y] = centre(c, r);
    svg("polygon", { points: pointsAttr(corners(x, y, 0.95)), class: hit ? "preview-ok" : "preview-bad", fill: colour }, g);
    if (castles.has(hexKey([c, r]))) { const t = svg("text", { x, y: y - 0.45, class: "glyph", "font-size": 0.55 }, g); t.textContent = "♜"; }
  }
  if (hit) {
    info.className = "";
    info.textContent = `Fief ${v.legal.fief} at ${anchor[0]},${anchor[1]} rotation ${ui.rotation}: ${hit.points} points` + (ui.pending ? " (chosen)" : "");
    confirmBtn.disabled = !ui.pending;
    confirmBtn.textContent = `Place fief (+${hit.points})`;
    requestCheck({ type: "fief", fief: v.legal.fief, anchor, rotation: ui.rotation });
  } else {
    info.className = "bad";
    info.textContent = `Not here (rotation ${ui.rotation})…`;
    confirmBtn.textContent = "Place fief";
    requestCheck({ type: "fief", fief: v.legal.fief, anchor, rotation: ui.rotation });
  }
}

function requestCheck(action) {
  const key = JSON.stringify(action);
  if (key === ui.checkKey) return;
  ui.checkKey = key;
  clearTimeout(ui.checkTimer);
  ui.checkTimer = setTimeout(() => send({ type: "check", action }), 90);
}
function onCheck(msg) {
  if (!msg.action || JSON.stringify(stripPlayer(msg.action)) !== ui.checkKey) return;
  if (!msg.ok) { onCheckError(msg); return; }
  const detail = msg.events.length ? ` (${msg.events.join(", ")})` : "";
  if (msg.action.type === "wedding") { const w = $("wedding-info"); if (w) w.textContent = `${msg.points} points${detail}`; return; }
  const info = $("preview-info");
  info.className = "";
  const a = msg.action;
  info.textContent = `Fief ${a.fief} at ${a.anchor[0]},${a.anchor[1]} rotation ${a.rotation}: ${msg.points} points${detail}` + (ui.pending ? " (chosen)" : "");
}
function onCheckError(msg) {
  const target = ui.mode === "wedding" ? $("wedding-info") : $("preview-info");
  if (target) { target.className = "bad"; target.textContent = `Illegal: ${msg.message}` + (msg.rule ? ` [${msg.rule}]` : ""); }
}
function stripPlayer(a) { const { player, ...rest } = a; if (rest.type === "wedding" && rest.second === undefined) rest.second = null; return rest; }

function choose(hex) {
  if (!placing() || ui.mode !== "fief") return;
  const cells = fiefCells(ui.view.legal.fief, hex, ui.rotation);
  const hit = ui.legalKeys.get(cellsKey(cells));
  if (ui.pending && hexKey(ui.pending) === hexKey(hex) && hit) { commitFief(); return; }
  ui.pending = hex;
  markAnchors();
  updatePreview();
}
// bring a hex into sight: the board above the side panel on a phone, the hex when zoomed in
function showHex(hex) {
  const wrap = $("board-wrap").getBoundingClientRect();
  if (wrap.top < 0 || wrap.top > window.innerHeight / 2) $("board-wrap").scrollIntoView({ block: "start" });
  const scroller = $("board-scroll");
  const b = ui.board;
  const [x, y] = centre(hex[0], hex[1]);
  scroller.scrollLeft = (x + 1.2) / (b.width + 1.4) * scroller.scrollWidth - scroller.clientWidth / 2;
  scroller.scrollTop = (y + 1.2) / (b.height + 1.4) * scroller.scrollHeight - scroller.clientHeight / 2;
}
function commitFief() {
  const v = ui.view;
  const cells = fiefCells(v.legal.fief, ui.pending, ui.rotation);
  const hit = ui.legalKeys.get(cellsKey(cells));
  if (!hit) { toast("That position is not legal; the message below the map says why."); return; }
  send({ type: "act", action: { type: "fief", fief: v.legal.fief, anchor: ui.pending, rotation: ui.rotation } });
}
function rotateBy(d) {
  ui.rotation = (ui.rotation + d + 6) % 6;
  if (placing() && ui.mode === "fief") { markAnchors(); updatePreview(); renderYou(ui.view); }
}

function setupBoardEvents() {
  const s = $("board");
  s.addEventListener("pointermove", (ev) => {
    if (!placing() || ui.mode !== "fief" || ev.pointerType === "touch") return;
    const h = boardPoint(ev);
    if (ui.hover && hexKey(ui.hover) === hexKey(h)) return;
    ui.hover = h;
    if (!ui.pending) updatePreview();
  });
  s.addEventListener("pointerleave", () => { ui.hover = null; if (!ui.pending) updatePreview(); });
  s.addEventListener("click", (ev) => {
    if (!placing()) return;
    const h = boardPoint(ev);
    if (ui.mode === "fief") { choose(h); return; }
    const key = hexKey(h);
    if (!ui.weddingOptions || !ui.weddingOptions.has(key)) { toast(ui.wedding.first ? "A second ring goes on a free hex next to the first." : "The first ring goes on a free land hex of your planned region."); return; }
    if (!ui.wedding.first) ui.wedding.first = h; else ui.wedding.second = h;
    renderActions(ui.view);
  });
  s.addEventListener("wheel", (ev) => { if (placing() && ui.mode === "fief") { ev.preventDefault(); rotateBy(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "r" || ev.key === "R") rotateBy(ev.shiftKey ? -1 : 1);
    else if (ev.key === "Escape") { ui.pending = null; updatePreview(); }
    else if (ev.key === "Enter" && ui.pending) commitFief();
  });
  const zoom = (f) => {
    const scroller = $("board-scroll");
    const cx = (scroller.scrollLeft + scroller.clientWidth / 2) / scroller.scrollWidth;
    const cy = (scroller.scrollTop + scroller.clientHeight / 2) / scroller.scrollHeight;
    ui.zoom = Math.max(1, Math.min(4, (ui.zoom || 1) * f));
    $("board").style.setProperty("--zoom", ui.zoom);
    scroller.scrollLeft = cx * scroller.scrollWidth - scroller.clientWidth / 2;
    scroller.scrollTop = cy * scroller.scrollHeight - scroller.clientHeight / 2;
  };
  $("zoom-in").onclick = () => zoom(1.5);
  $("zoom-out").onclick = () => zoom(1 / 1.5);
  $("rot-left").onclick = () => rotateBy(-1);
  $("rot-right").onclick = () => rotateBy(1);
  $("confirm").onclick = () => { if (ui.pending) commitFief(); };
}

// ---------------------------------------------------------------------------------------------
// replay of a finished game

async function loadStep(step) {
  const r = await fetch(`/api/games/${ui.gameId}/replay/${step}`);
  const msg = await r.json();
  if (!r.ok) { toast(msg.message); return; }
  ui.replay = msg.replay;
  render(msg);
  $("rp-slider").max = msg.replay.total;
  $("rp-slider").value = msg.replay.step;
  $("rp-step").textContent = `move ${msg.replay.step} of ${msg.replay.total}`;
}
function setupReplay() {
  $("replay-bar").hidden = false;
  const go = (f) => () => loadStep(Math.max(0, Math.min(ui.replay.total, f(ui.replay.step))));
  $("rp-start").onclick = go(() => 0);
  $("rp-back").onclick = go((s) => s - 1);
  $("rp-next").onclick = go((s) => s + 1);
  $("rp-end").onclick = go(() => ui.replay.total);
  $("rp-slider").oninput = (ev) => loadStep(Number(ev.target.value));
  $("rp-play").onclick = () => {
    if (ui.playing) { clearInterval(ui.playing); ui.playing = null; $("rp-play").textContent = "▶ play"; return; }
    $("rp-play").textContent = "❚❚ pause";
    ui.playing = setInterval(() => { if (ui.replay.step >= ui.replay.total) { clearInterval(ui.playing); ui.playing = null; } else loadStep(ui.replay.step + 1); }, 500);
  };
  loadStep(0);
}

// ---------------------------------------------------------------------------------------------
// lobby

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || r.statusText);
  return data;
}

let options = null;
function seatRow(i, kind, bot) {
  const kindSel = el("select", { "data-seat-kind": i },
    el("option", { value: "person", selected: kind === "person" }, "Person"),
    ...options.bots.map((b) => el("option", { value: "bot:" + b, selected: kind === "bot" && bot === b }, `Bot: ${b}`)));
  return el("div", { class: "row seat" }, el("span", { text: `Seat ${i + 1}` }), kindSel,
    el("input", { "data-seat-name": i, placeholder: "name (optional)", maxlength: 40, size: 14 }));
}
function refreshScenarios() {
  const n = $("seat-rows").children.length;
  const sel = $("scenario");
  sel.replaceChildren(el("option", { value: "" }, "Random"),
    ...options.scenarios.filter((s) => s.players === n).map((s) => el("option", { value: s.name, title: s.person },
      `${s.name}: ${s.flourishing.map((r) => options.regions[r] || r).join(", ")} flourish`)));
}
async function showLobby() {
  $("lobby").hidden = false;
  $("status").textContent = "Lobby";
  options = await api("/api/options");
  const rows = $("seat-rows");
  const defaultBot = options.bots.includes("greedy") ? "greedy" : options.bots[0];
  rows.replaceChildren(seatRow(0, "person"), seatRow(1, "bot", defaultBot), seatRow(2, "bot", options.bots.includes("random") ? "random" : defaultBot));
  refreshScenarios();
  $("variants").replaceChildren(...Object.entries(options.variants).map(([id, text]) =>
    el("label", { title: text }, el("input", { type: "checkbox", "data-variant": id }), ` Variant ${id}: ${text}`)));
  $("add-seat").onclick = () => { if (rows.children.length < 4) { rows.append(seatRow(rows.children.length, "bot", defaultBot)); refreshScenarios(); } };
  $("remove-seat").onclick = () => { if (rows.children.length > 2) { rows.lastChild.remove(); refreshScenarios(); } };
  $("create-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const seats = [...rows.children].map((row, i) => {
      const kind = row.querySelector("select").value, name = row.querySelector("input").value;
      return kind === "person" ? { kind: "person", name } : { kind: "bot", bot: kind.slice(4), name };
    });
    const seedText = $("seed").value;
    try {
      const variants = [...document.querySelectorAll("[data-variant]:checked")].map((c) => c.dataset.variant);
      const g = await api("/api/games", { seats, scenario: $("scenario").value || null, seed: seedText === "" ? null : Number(seedText),
        variants, public: $("public").checked });
      const links = g.seats.filter((s) => s.link).map((s) => el("li", {}, `${s.name}: `, el("a", { href: s.link, "data-seat-link": s.seat }, "play this seat"), " ", el("code", { text: location.origin + s.link })));
      $("created").hidden = false;
      $("created").replaceChildren(el("h3", { text: "Game created" }),
        el("p", { class: "muted", text: "Each link opens one seat; send the others to the other players. Keep yours: it brings you back after a reload." }),
        el("ul", { class: "links" }, ...links, el("li", {}, "Spectators: ", el("a", { href: g.spectator }, "watch"), " ", el("code", { text: location.origin + g.spectator }))));
      // with one person seat, go and play; with several, the links are to be sent first
      const people = g.seats.filter((s) => s.link);
      localStorage.setItem("gonzaga:invites:" + g.id, JSON.stringify({
        seats: people.map((s) => ({ name: s.name, link: s.link })), spectator: g.spectator }));
      if (people.length === 1) location.href = people[0].link;
      else $("created").scrollIntoView();
    } catch (e) { toast(e.message); }
  };
  listGames();
  setInterval(listGames, 5000);
}
async function listGames() {
  const g = await api("/api/games");
  const none = () => el("li", { class: "muted", text: "none" });
  const line = (game, extra) => el("li", {}, `${game.scenario}, round ${game.round}: `,
    game.seats.map((s) => `${s.name}${s.kind === "bot" ? " (" + s.bot + ")" : ""} ${s.score}`).join(", "), " ", ...extra);
  if (!g.open.length) g.open = null;
  $("open-games").replaceChildren(...(g.open || []).map((game) => line(game, [el("button", { type: "button", onclick: async () => {
    try { const j = await api(`/api/games/${game.id}/join`, {}); location.href = j.link; } catch (e) { toast(e.message); }
  } }, "Join"), " ", el("a", { href: `/game/${game.id}#watch` }, "watch")])));
  if (!g.open) $("open-games").replaceChildren(none());
  $("playing-games").replaceChildren(...g.playing.map((game) => line(game, [el("a", { href: `/game/${game.id}#watch` }, "watch")])));
  if (!g.playing.length) $("playing-games").replaceChildren(none());
  if (!g.finished.length) { $("finished-games").replaceChildren(none()); return; }
  $("finished-games").replaceChildren(...g.finished.map((game) => line(game, [el("a", { href: `/game/${game.id}#replay` }, "replay"), " ", el("a", { href: `/api/games/${game.id}/record` }, "record")])));
}

// ---------------------------------------------------------------------------------------------
// start

async function main() {
  const m = location.pathname.match(/^\/game\/([\w-]+)/);
  if (!m) { showLobby(); return; }
  ui.gameId = m[1];
  $("game").hidden = false;
  ui.board = await (await fetch("/api/board")).json();
  setupBoardEvents();
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash === "replay") { drawBoard(null); setupReplay(); return; }
  if (hash && hash !== "watch") { ui.token = hash; localStorage.setItem("gonzaga:" + ui.gameId, hash); }
  else if (hash !== "watch") ui.token = localStorage.getItem("gonzaga:" + ui.gameId);
  connect();
}
window.addEventListener("hashchange", () => location.reload());
main();
