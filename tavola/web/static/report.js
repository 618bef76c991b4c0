// Reporting a chat line or a player to the moderators: a small form in place (a reason from
// the list, a few words if the player wants), then the server's word that the report was
// received. Only for a signed-in player (the server refuses anyone else). Loaded after common.js.
import { api, el, sentence, t } from "./common.js";

export const Report = (() => {
  const REASONS = () => [["spam", t("Spam")], ["abuse", t("Abuse or threats")], ["cheating", t("Cheating")],
    ["name", t("Offensive name")], ["other", t("Something else")]];
  const MAX_WORDS = 500;
  const signedIn = () => /(?:^|; )tabletop_csrf=/.test(document.cookie);

  // the form under `after`, sending `target` ({game, line} or {player}); Escape or Cancel closes it
  function open(after, target, label) {
    const before = after.nextElementSibling;
    if (before && before.classList.contains("report-form")) before.remove();  // one form at a time
    const reason = el("select", { name: "reason", class: "report-reason" },
      ...REASONS().map(([value, words]) => el("option", { value }, words)));
    const words = el("textarea", { name: "text", rows: 2, maxlength: MAX_WORDS, class: "report-words" });
    const said = el("p", { class: "report-said", role: "status" });
    const send = el("button", { type: "submit", class: "small primary report-send" }, t("Send the report"));
    const cancel = el("button", { type: "button", class: "small report-cancel" }, t("Cancel"));
    const form = el("form", { class: "report-form", "aria-label": label },
      el("label", {}, t("Why?"), " ", reason), el("label", {}, t("A few words (if you wish)"), " ", words),
      el("div", { class: "row" }, send, cancel), said);
    const close = () => { form.remove(); after.focus(); };
    cancel.addEventListener("click", close);
    form.addEventListener("keydown", (ev) => { if (ev.key === "Escape") close(); });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      send.disabled = true;
      try {
        const r = await api("/api/reports", { ...target, reason: reason.value, text: words.value });
        form.replaceChildren(el("p", { class: "report-said", role: "status", text: sentence(r.message) }));
        setTimeout(() => form.remove(), 6000);
      } catch (e) {
        said.textContent = e.message;
        send.disabled = false;
      }
    });
    after.after(form);
    reason.focus();
  }

  // a "Report" button for a target, or nothing for a guest (only accounts may report)
  function button(target, label, after = null) {
    if (!signedIn()) return "";
    const b = el("button", { type: "button", class: "small link report", title: label, "aria-label": label }, t("Report"));
    b.addEventListener("click", () => open(after ? after() : b, target, label));
    return b;
  }
  return { button, open, signedIn };
})();
