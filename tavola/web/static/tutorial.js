// The tutorial's panel on a game's table: what to do now and why (the server's script, sent with
// every view as `tutorial`), the next place to click outlined, and the kind words of a refused
// move. The step counter is the server's: a die and its action, confirmed at once, count as one
// step. The targets are the game page's own elements, named by the game's tutorial script; the
// outline moves to the next one after each click on it, and follows the page as it is redrawn.
import { $, el, sentence, t } from "./common.js";
import { Table } from "./table.js";

export const Tutorial = (() => {
  // `read`: how many pages the learner has turned after each move (by the move's number)
  const s = { step: null, key: null, clicked: 0, refusal: null, queued: false, observer: null, read: {} };

  // a page that keeps a place for the panel (`#tutorial-place`, next to its question) has it
  // there, in the page's flow, where it never covers the preview or the button it asks for;
  // elsewhere it floats in a corner
  function panel() {
    let box = $("tutorial");
    if (!box) {
      const place = $("tutorial-place");
      box = el("section", { id: "tutorial", class: "card" + (place ? " in-flow" : ""), role: "region",
        "aria-live": "polite", "aria-label": t("Tutorial") });
      (place || document.body).append(box);
    }
    return box;
  }

  // every message of the table passes here first: views carry the step, errors the refusal
  function message(msg) {
    // a move off the script is refused when made, or already when checked (a preview)
    const refused = msg.type === "error" || (msg.type === "check" && msg.ok === false);
    if (refused && msg.code === "tutorial" && s.step) {
      s.refusal = sentence(msg.message);
      render();
    } else if (msg.type === "state" && msg.tutorial) {
      const step = msg.tutorial;
      const key = `${msg.seq}:${step.step}:${step.your_move}:${step.done}`;
      if (key !== s.key) { s.key = key; s.clicked = 0; s.refusal = null; }
      s.step = step;
      render();
      watch();
    }
  }

  // the page to read now, if the move just made brought pages not all turned yet
  function page() {
    const step = s.step;
    const pages = (step && step.pages) || [];
    const read = s.read[step && step.after] || 0;
    return read < pages.length ? { page: pages[read], n: step.page_from + read } : null;
  }
  // a page to read: while it is read the card floats over the table, which is free to look at
  // (nothing is asked of it), and the part the page is about comes into sight above it
  function renderPage(box, step, { page: p, n }) {
    const next = el("button", { type: "button", id: "tutorial-next", class: "primary", onclick: () => {
      s.read[step.after] = (s.read[step.after] || 0) + 1;
      render();
      if (!page()) box.scrollIntoView({ block: "nearest" });  // back to the card, in its place
    } }, t("Next"));
    box.replaceChildren(el("div", { class: "step-count", id: "tutorial-count", text: t("Step {n} of {total}", { n, total: step.steps }) }),
      el("h3", { id: "tutorial-title", text: p.title }), el("p", { id: "tutorial-say", text: p.say }), el("div", { class: "row" }, next));
    box.dataset.step = String(n);
    box.classList.add("reading");
    mark();
    const look = p.look.length ? document.querySelector(p.look[0]) : null;
    if (look && s.shown !== `${step.after}:${n}`) look.scrollIntoView({ block: "start" });
    s.shown = `${step.after}:${n}`;  // once: the views that follow leave the scroll alone
  }

  function render() {
    const step = s.step;
    const box = panel();
    const reading = page();
    if (reading) { renderPage(box, step, reading); return; }
    box.classList.remove("reading");
    const count = step.done ? t("Lesson complete") : t("Step {n} of {total}", { n: Math.min(step.step, step.steps), total: step.steps });
    const parts = [el("div", { class: "step-count", id: "tutorial-count", text: count }),
      el("h3", { id: "tutorial-title", text: step.title })];
    if (step.step === 1 && !step.done) parts.push(el("p", { id: "tutorial-intro", text: step.intro }));
    if (step.say !== step.title) parts.push(el("p", { id: "tutorial-say", text: step.say }));
    if (s.refusal) parts.push(el("p", { id: "tutorial-refusal", class: "refusal", text: s.refusal }));
    if (step.done) {
      parts.push(el("div", { class: "row" }, el("a", { href: "/", class: "button primary", id: "tutorial-lobby" }, t("Back to the lobby")),
        el("button", { type: "button", id: "tutorial-close", onclick: () => { box.hidden = true; } }, t("Play on"))));
    }
    box.replaceChildren(...parts);
    box.dataset.step = step.done ? "done" : String(step.step);
    mark();
  }

  // the current target outlined: the first not yet clicked of this step's targets
  function mark() {
    s.queued = false;
    for (const old of document.querySelectorAll(".tutorial-target")) old.classList.remove("tutorial-target");
    for (const old of document.querySelectorAll(".tutorial-look")) old.classList.remove("tutorial-look");
    const step = s.step;
    delete document.body.dataset.tutorialTarget;
    const reading = page();
    if (reading) {  // the part of the table the page is about, and Next
      for (const sel of reading.page.look) for (const node of document.querySelectorAll(sel)) node.classList.add("tutorial-look");
      document.body.dataset.tutorialTarget = "#tutorial-next";
      $("tutorial-next").classList.add("tutorial-target");
      return;
    }
    if (!step || step.done || !step.your_move || !step.highlight.length) return;
    const i = current(step);
    const selector = step.highlight[i];
    const node = document.querySelector(selector);
    document.body.dataset.tutorialTarget = selector;
    if (node) node.classList.add("tutorial-target");
  }
  // the next target: after the last one clicked, past those already chosen (pressed); when it
  // cannot be used (a button still disabled: an earlier choice was undone or refused), the
  // first one not yet chosen
  function current(step) {
    const nodes = step.highlight.map((sel) => document.querySelector(sel));
    const usable = (n) => n && !n.disabled;
    const chosen = (n) => n && (n.getAttribute("aria-pressed") === "true" || n.classList.contains("on"));
    let i = Math.min(s.clicked, nodes.length - 1);
    while (i < nodes.length - 1 && chosen(nodes[i])) i += 1;
    if (!usable(nodes[i])) {
      const first = nodes.findIndex((n) => usable(n) && !chosen(n));
      if (first >= 0) i = first;
    }
    s.clicked = i;
    return i;
  }
  function later() { if (!s.queued) { s.queued = true; requestAnimationFrame(mark); } }

  // the page redraws its panels after every choice: the outline is put back each time
  function watch() {
    if (s.observer) return;
    s.observer = new MutationObserver(later);
    s.observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener("click", (ev) => {
      const step = s.step;
      if (!step || !step.your_move || step.done || page()) return;
      const node = document.querySelector(step.highlight[current(step)]);
      if (node && node.contains(ev.target) && s.clicked < step.highlight.length - 1) s.clicked += 1;
      setTimeout(later, 0);
    }, true);
  }

  Table.on("message", message);
  return { message, get step() { return s.step; } };
})();
