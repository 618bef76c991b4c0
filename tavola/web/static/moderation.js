// The moderators' page (/moderation): the open reports with what surrounds them (the chat lines
// around a reported line, the game, the player), an action on each with its reason, and the audit
// log. Every text is a player's own (textContent) or goes through t(). Loaded after account.js.
import { $, api, el, t, toast, when } from "./common.js";

const Moderation = (() => {
  const REASONS = () => ({ spam: t("Spam"), abuse: t("Abuse or threats"), cheating: t("Cheating"),
    name: t("Offensive name"), other: t("Something else") });
  const ACTIONS = () => ({ hide: t("Hide the line for everyone"), mute: t("Mute the player's chat"),
    suspend: t("Suspend the account"), dismiss: t("Dismiss the report") });
  const PERIODS = () => ({ hour: t("an hour"), day: t("a day"), week: t("a week"), month: t("a month"), forever: t("for good") });
  let role = null;

  // a name, null for a guest, false for an account deleted since
  function playerLink(name) {
    if (name === false) return el("em", { text: t("a deleted account") });
    return name ? el("a", { href: `/players/${encodeURIComponent(name)}`, text: name }) : el("em", { text: t("a guest") });
  }

  // the chat lines around the reported one (marked), hidden ones said so
  function context(r) {
    return el("ol", { class: "chat-lines moderation-context" }, ...r.context.map((l) => el("li", { "data-chat-n": l.n, class: l.n === r.line ? "reported" : "" },
      el("strong", { text: t("{name}:", { name: l.name }) }), " ",
      l.n === r.line ? el("mark", { text: l.text }) : el("span", { text: l.text }),
      l.hidden ? el("span", { class: "tag", text: t("hidden") }) : "")));
  }

  // the actions a report allows (a guest's line: hide or dismiss); none on an admin's, for a moderator
  function actionForm(r) {
    if (r.admin && role !== "admin") return el("p", { class: "muted", text: t("The player is an admin: only an admin acts on this report.") });
    const kinds = Object.entries(ACTIONS()).filter(([k]) => (k !== "hide" || r.game) && (!["mute", "suspend"].includes(k) || r.player));
    const action = el("select", { name: "action" }, ...kinds.map(([value, words]) => el("option", { value }, words)));
    const period = el("select", { name: "period" });
    const periodBox = el("label", {}, t("For how long"), " ", period);
    const reason = el("input", { name: "reason", required: true, maxlength: 500, autocomplete: "off" });
    const fillPeriods = () => {
      const forever = action.value === "suspend";
      period.replaceChildren(...Object.entries(PERIODS()).filter(([k]) => forever || k !== "forever").map(([value, words]) => el("option", { value }, words)));
      periodBox.hidden = !["mute", "suspend"].includes(action.value);
    };
    action.addEventListener("change", fillPeriods);
    fillPeriods();
    const form = el("form", { class: "moderation-act", "aria-label": t("Action on report {id}", { id: r.id }) },
      el("label", {}, t("Action"), " ", action), periodBox,
      el("label", {}, t("Reason (written to the audit log)"), " ", reason),
      el("button", { type: "submit", class: "primary" }, t("Do it")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = { report: r.id, action: action.value, reason: reason.value };
      if (!periodBox.hidden) body.period = period.value;
      try {
        await api("/api/moderation/act", body);
        toast(t("Done."), "ok");
        load();
      } catch (e) { toast(e.message); }
    });
    return form;
  }

  function report(r) {
    const what = r.game === null ? t("A player") : t("A chat line");
    const li = el("li", { "data-report": r.id, class: "report" },
      el("h3", {}, `${what} · ${REASONS()[r.reason] || r.reason}`),
      el("p", {}, t("Reported by {name}", { name: r.reporter || "?" }), " · ", el("span", { class: "muted", text: when(r.at) })),
      el("p", {}, t("Player:"), " ", playerLink(r.player)));
    if (r.game) li.append(el("p", {}, t("Game:"), " ", el("a", { href: r.watch, text: r.game })), context(r));
    if (r.text) li.append(el("blockquote", { class: "report-words", text: r.text }));
    li.append(actionForm(r));
    return li;
  }

  function entryWords(a) {
    const until = a.until ? when(a.until) : "";
    return {
      hide: t("hid a chat line"), dismiss: t("dismissed a report"),
      mute: t("muted the chat until {date}", { date: until }),
      suspend: a.forever ? t("suspended the account for good") : t("suspended the account until {date}", { date: until }),
      grant: t("role {role} given", { role: a.role }), revoke: t("role {role} taken", { role: a.role }),
    }[a.action] || a.action;
  }

  function entry(a) {
    return el("li", { "data-audit": a.action },
      el("span", { class: "muted", text: when(a.at) }), " · ",
      el("strong", { text: a.by === false ? t("a deleted account") : a.by || t("the command line") }), " ", entryWords(a),
      a.player !== null ? " · " : "", a.player !== null ? playerLink(a.player) : "",
      a.game ? " · " : "", a.game ? el("a", { href: `/game/${a.game}#watch`, text: a.game }) : "",
      ...(a.by !== null ? [" · ", el("span", { class: "audit-why", text: t("why: {reason}", { reason: a.reason }) })] : []));
  }

  async function load() {
    let page;
    try { page = await api("/api/moderation"); } catch (e) {
      $("reports").replaceChildren(el("li", { class: "muted", text: e.message }));
      return;
    }
    role = page.you.role;
    $("reports").replaceChildren(...(page.reports.length ? page.reports.map(report) : [el("li", { class: "muted", text: t("No open report.") })]));
    $("audit").replaceChildren(...(page.audit.length ? page.audit.map(entry) : [el("li", { class: "muted", text: t("Nothing done yet.") })]));
  }
  load();
  return { load };
})();
