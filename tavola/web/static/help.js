// Help in place: a short sentence on what a thing on the table is, shown while the pointer rests
// on it, while it has the keyboard focus, or for a few seconds after a tap. Each game says what
// it explains with `Help.add(selector, (node) => sentence or null)` (its help-in-place.js); the
// sentences come from the game's data and words. Things that cannot take the focus are made
// focusable, so the keyboard reaches every explanation.
import { el } from "./common.js";

export const Help = (() => {
  const rules = [];
  const h = { tip: null, node: null, by: null, timer: null, queued: false };
  const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  function add(selector, say, options = {}) { rules.push({ selector, say, focus: options.focus !== false }); later(); }

  function tip() {
    if (!h.tip) {
      h.tip = el("div", { id: "help-tip", role: "tooltip", hidden: true });
      document.body.append(h.tip);
    }
    return h.tip;
  }
  // the explained thing under `target`, and its sentence
  function find(target) {
    if (!target || !target.closest) return null;
    for (const rule of rules) {
      const node = target.closest(rule.selector);
      if (!node) continue;
      const text = rule.say(node);
      if (text) return { node, text };
    }
    return null;
  }
  function show(node, text, x = null, y = null) {
    const box = tip();
    if (h.node && h.node !== node) h.node.removeAttribute("aria-describedby");
    h.node = node;
    box.textContent = text;
    box.hidden = false;
    node.setAttribute("aria-describedby", "help-tip");
    const r = node.getBoundingClientRect();
    const left = x === null ? r.left : x + 12;
    const top = y === null ? r.bottom + 6 : y + 16;
    box.style.left = Math.max(4, Math.min(left, innerWidth - box.offsetWidth - 4)) + "px";
    box.style.top = (top + box.offsetHeight > innerHeight ? Math.max(4, r.top - box.offsetHeight - 6) : top) + "px";
    document.body.dataset.help = text;
  }
  function hide(node = null) {
    if (node && node !== h.node) return;
    clearTimeout(h.timer);
    if (h.node) h.node.removeAttribute("aria-describedby");
    h.node = null;
    if (h.tip) h.tip.hidden = true;
    delete document.body.dataset.help;
  }
  // `by` is what asked: the pointer, a tap or the focus; the pointer going elsewhere (a scroll
  // moves what is under it) never hides what the focus or a tap asked for
  function at(target, by, x = null, y = null) {
    const found = find(target);
    if (found) { show(found.node, found.text, x, y); h.by = by; }
    else if (h.by === by || by !== "pointer") hide();
    return found;
  }

  // things the keyboard cannot reach yet get a tab stop (those of the map have its cursor)
  function reach() {
    h.queued = false;
    for (const rule of rules) {
      if (!rule.focus) continue;
      for (const node of document.querySelectorAll(rule.selector)) {
        node.dataset.helpAt = "";
        if (!node.matches(FOCUSABLE)) node.setAttribute("tabindex", "0");
      }
    }
  }
  function later() { if (!h.queued) { h.queued = true; requestAnimationFrame(reach); } }

  document.addEventListener("pointerover", (ev) => { if (ev.pointerType === "mouse") at(ev.target, "pointer", ev.clientX, ev.clientY); });
  document.addEventListener("pointerout", (ev) => {
    if (h.by === "pointer" && h.node && !(ev.relatedTarget && h.node.contains(ev.relatedTarget))) hide(h.node);
  });
  document.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType === "mouse") return;
    if (at(ev.target, "tap")) { clearTimeout(h.timer); h.timer = setTimeout(() => hide(), 4000); }
  });
  document.addEventListener("focusin", (ev) => at(ev.target, "focus"));
  document.addEventListener("focusout", (ev) => hide(find(ev.target) ? find(ev.target).node : null));
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hide(); });
  new MutationObserver(later).observe(document.documentElement, { childList: true, subtree: true });

  return { add, show, hide, at };
})();
