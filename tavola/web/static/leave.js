// A player who ran out of time for good (tavola/web/leaving.py): the other people at the table
// choose whether a bot plays the seat to the end or the game ends now; a game ended that way says
// so above the table, with its record and replay. Loaded after table.js; it follows the views.
import { $, el, t, when } from "./common.js";
import { Table } from "./table.js";

export const Leave = (() => {
  function box() {
    let b = $("leave-box");
    if (!b) {
      b = el("section", { id: "leave-box", class: "card leave-box", role: "status", hidden: true });
      const header = document.querySelector("header");
      if (header) header.after(b); else document.body.prepend(b);
    }
    return b;
  }
  function nameOf(v, seat) { return v.players && v.players[seat] ? v.players[seat].name : ""; }

  function choice(c, v) {
    const votes = Object.values(c.votes || {});
    const card = el("div", { class: "leave-choice", "data-leaver": c.seat },
      el("p", { class: "leave-question", text: t("{name} ran out of time for good. Should a bot play the seat to the end, or should the game end now?", { name: c.name }) }),
      el("p", { class: "muted", text: t("More than half of the players asked for the end ends the game; otherwise the bot plays on. Unanswered by {date}, the answers given decide.", { date: when(c.closes) }) }),
      el("p", { class: "leave-count", text: t("Answers: {end} to end the game, {bot} for the bot, of {voters}.", { end: votes.filter((x) => x === "end").length, bot: votes.filter((x) => x === "bot").length, voters: c.voters.length }) }));
    if (c.voters.includes(v.you)) {
      const mine = (c.votes || {})[v.you];
      const button = (value, label) => el("button", { type: "button", class: value === "end" ? "primary" : "",
        "data-choice": value, "aria-pressed": String(mine === value),
        onclick: () => Table.send({ type: "leave", seat: c.seat, choice: value }) }, label);
      card.append(el("div", { class: "row" }, button("bot", t("Let the bot play on")), button("end", t("End the game now"))));
    }
    return card;
  }

  function render(v) {
    const b = box();
    if (Table.replaying) { b.hidden = true; return; }
    if (v.ended) {
      const name = nameOf(v, v.ended.leaver);
      b.replaceChildren(el("h2", { text: t("The game has ended") }),
        el("p", { id: "leave-ended", text: t("{name} left; the others ended the game: {name} is last, the others are placed by their scores.", { name }) }),
        Table.endLinks(v.game || "game"));
      b.hidden = false;
      document.body.dataset.ended = "yes";
      return;
    }
    const open = v.leave || [];
    b.hidden = !open.length;
    b.replaceChildren(...open.map((c) => choice(c, v)));
  }

  Table.on("view", render);
  return { render };
})();
