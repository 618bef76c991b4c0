// Notifications: the account page's card (e-mail, webhook, events, when to hear of a turn), the
// "forgot your password" form, and the pages reached from a message: confirm an address
// (/verify-email#TOKEN), stop e-mails (/unsubscribe/TOKEN), choose a new password
// (/reset-password#TOKEN). A token travels in the fragment, so it never reaches a server log
// or another site's Referer. Loaded after common.js (and account.js on the account page).
import { $, I18N, api, t, toast } from "./common.js";
import { Account } from "./account.js";

const Notices = (() => {
  const formError = (form, message) => { form.querySelector(".form-error").textContent = message; };

  function emailState(s) {
    if (!s.email_enabled) return t("This server sends no e-mail: it was started without an e-mail relay.");
    if (!s.email) return t("No address yet.");
    if (!s.email_verified) return t("Waiting for you to open the confirmation link sent to this address.");
    return s.email_on ? t("Confirmed: e-mails go to this address.") : t("Confirmed, but e-mails are switched off.");
  }
  function show(s) {
    $("notice-email").value = s.email || "";
    // without a relay there is nothing to type: the sentence says why
    for (const part of [$("notice-email").closest("label"), $("email-send"), $("notice-email-on").closest("label")]) part.hidden = !s.email_enabled;
    $("email-state").textContent = emailState(s);
    $("notice-email-on").checked = s.email_on;
    $("notice-email-on").disabled = !s.email_verified;
    $("notice-webhook").value = s.webhook || "";
    $("notice-format").value = s.webhook_format;
    for (const box of $("notice-events").querySelectorAll("input")) box.checked = s.events.includes(box.value);
    for (const radio of document.querySelectorAll("input[name=turn_mode]")) radio.checked = radio.value === s.turn_mode;
    $("notice-after").value = s.turn_after;
    $("notice-hour").value = s.digest_hour;
    $("notices").dataset.loaded = s.email_verified ? "verified" : (s.email ? "unverified" : "none");
  }
  function choices() {
    const mode = document.querySelector("input[name=turn_mode]:checked");
    return {
      email_on: $("notice-email-on").checked, webhook: $("notice-webhook").value.trim(),
      webhook_format: $("notice-format").value, lang: I18N.lang,
      events: [...$("notice-events").querySelectorAll("input:checked")].map((b) => b.value),
      turn_mode: mode ? mode.value : "now",
      turn_after: Number($("notice-after").value), digest_hour: Number($("notice-hour").value),
    };
  }
  async function card() {
    const user = await Account.me();
    if (!user || !$("notices")) return;
    $("notices").hidden = false;
    try { show(await api("/api/me/notifications")); } catch (e) { toast(e.message); return; }
    $("email-form").onsubmit = async (ev) => {
      ev.preventDefault();
      formError(ev.target, "");
      try {
        show(await api("/api/me/email", { email: $("notice-email").value.trim() }));
        toast(t("A confirmation link is on its way to this address."), "info");
      } catch (e) { formError(ev.target, e.message); toast(e.message); }
    };
    $("notice-form").onsubmit = async (ev) => {
      ev.preventDefault();
      formError(ev.target, "");
      try {
        show(await api("/api/me/notifications", choices()));
        toast(t("Saved."), "info");
      } catch (e) { formError(ev.target, e.message); toast(e.message); }
    };
  }
  function forgot() {
    const form = $("forgot-form");
    if (!form) return;
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      try {
        const r = await api("/api/password/forgot", { name: $("forgot-name").value });
        formError(form, "");
        form.querySelector(".muted").textContent = r.sent;
      } catch (e) { formError(form, e.message); }
    };
  }
  const token = () => decodeURIComponent(location.hash.slice(1));
  async function verifyPage() {
    try {
      await api("/api/verify-email", { token: token() });
      $("outcome").textContent = t("Your address is confirmed. Choose on your account page what you want to hear of.");
      $("outcome").dataset.ok = "1";
    } catch (e) { $("outcome").textContent = e.message; $("outcome").dataset.ok = "0"; }
    history.replaceState(null, "", location.pathname);  // the token leaves the address bar
  }
  function unsubscribePage() {
    $("stop").onclick = async () => {
      const r = await fetch(location.pathname, { method: "POST", body: "List-Unsubscribe=One-Click" });
      $("outcome").textContent = r.ok ? t("You will get no more e-mails from this site. You can switch them on again on your account page.") : t("This unsubscribe link is not valid.");
      $("outcome").dataset.ok = r.ok ? "1" : "0";
      $("stop").hidden = r.ok;
    };
  }
  function resetPage() {
    const secret = token();
    history.replaceState(null, "", location.pathname);
    $("reset-form").onsubmit = async (ev) => {
      ev.preventDefault();
      try {
        await api("/api/password/reset", { token: secret, password: $("reset-password").value });
        $("outcome").textContent = t("Your password is changed, every other device is signed out, and you are signed in here.");
        $("outcome").dataset.ok = "1";
        ev.target.hidden = true;
        Account.refresh();
      } catch (e) { formError(ev.target, e.message); $("outcome").dataset.ok = "0"; }
    };
  }
  const page = document.body.dataset.page;
  if (page === "account") { card(); forgot(); }
  else if (page === "verify-email") verifyPage();
  else if (page === "unsubscribe") unsubscribePage();
  else if (page === "reset-password") resetPage();
  return { card };
})();
