// The chat of a game, on every game's table: players write, everyone at the table reads;
// each line is shown as text (never as HTML). A viewer may mute a seat: its lines are hidden
// on this device (remembered per game). A signed-in player may report another's line to the
// moderators (report.js); a line a moderator hid leaves every page. Loaded after table.js.
import { $, el, t } from "./common.js";
import { Table } from "./table.js";
import { Report } from "./report.js";

export const Chat = (() => {
  const c = { seat: null, maxChars: 0, mayWrite: false, lines: [], names: [], muted: new Set(), box: null };

  function muteKey() { return "mute:" + Table.state.gameId; }
  function loadMuted() {
    try { c.muted = new Set((JSON.parse(localStorage.getItem(muteKey())) || []).filter(Number.isInteger)); } catch (e) { c.muted = new Set(); }
  }
  function toggleMute(seat) {
    if (c.muted.has(seat)) c.muted.delete(seat); else c.muted.add(seat);
    localStorage.setItem(muteKey(), JSON.stringify([...c.muted]));
    render();
  }
  function nameOf(seat) { return c.names[seat] || t("Seat {n}", { n: seat + 1 }); }

  function panel() {
    if (c.box) return c.box;
    // where the page keeps it (Gonzaga: under the questions, so no column stands half empty)
    const side = document.querySelector("[data-chat-place]") || $("side");
    if (!side) return null;
    const list = el("ol", { id: "chat-lines", class: "chat-lines", "aria-live": "polite" });
    const mutes = el("div", { id: "chat-mute", class: "row chat-mute" });
    const parts = [el("h3", { text: t("Chat") }), list, mutes];
    if (c.mayWrite) {
      const input = el("input", { id: "chat-input", type: "text", maxlength: c.maxChars, autocomplete: "off",
        "aria-label": t("A message to the table"), placeholder: t("A message to the table") });
      const form = el("form", { id: "chat-form", class: "row" }, input, el("button", { type: "submit", id: "chat-send" }, t("Send")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if (Table.send({ type: "chat", text })) input.value = "";
      });
      parts.push(form);
    } else parts.push(el("p", { class: "muted", text: t("Spectators read the chat; the players write in it.") }));
    c.box = el("section", { class: "card chat", id: "chat" }, ...parts);
    side.append(c.box);
    return c.box;
  }

  function render() {
    if (!panel()) return;
    const shown = c.lines.filter((l) => !c.muted.has(l.seat));
    $("chat-lines").replaceChildren(...shown.map((l) => el("li", { "data-chat-seat": l.seat, "data-chat-n": l.n },
      el("strong", { text: t("{name}:", { name: l.name }) }), " ", el("span", { class: "chat-text", text: l.text }),
      l.seat === c.seat ? "" : " ",
      l.seat === c.seat ? "" : Report.button({ game: Table.state.gameId, line: l.n },
        t("Report this line by {name}", { name: l.name }), () => $("chat-lines")))));
    $("chat-lines").scrollTop = $("chat-lines").scrollHeight;
    const others = c.names.map((_, i) => i).filter((i) => i !== c.seat);
    $("chat-mute").replaceChildren(...others.map((i) => el("button", { type: "button", class: "small", "data-mute": i,
      "aria-pressed": String(c.muted.has(i)), onclick: () => toggleMute(i) },
    c.muted.has(i) ? t("Unmute {name}", { name: nameOf(i) }) : t("Mute {name}", { name: nameOf(i) }))));
  }

  Table.on("welcome", (msg) => {
    c.seat = msg.seat;
    c.maxChars = msg.chat ? msg.chat.max_chars : 0;
    c.mayWrite = !!(msg.chat && msg.chat.may_write);
    if (c.box) { c.box.remove(); c.box = null; }
    loadMuted();
    render();
  });
  Table.on("view", (v) => {
    const names = (v.players || []).map((p) => p.name);
    if (names.join("\n") !== c.names.join("\n")) { c.names = names; render(); }
  });
  Table.on("chat", (msg) => {
    if (msg.history) c.lines = msg.lines; else c.lines.push(...msg.lines);
    c.lines = c.lines.slice(-200);
    render();
  });
  Table.on("chat-hidden", (msg) => {
    c.lines = c.lines.filter((l) => l.n !== msg.n);
    render();
  });
  return { state: c };
})();
