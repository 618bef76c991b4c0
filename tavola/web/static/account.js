// Accounts in the header of the platform's pages: "Sign in", or the player's name (their profile),
// "My games", the leaderboard, the editions and "Sign out". Loaded after common.js; `Account.me()` tells a page
// who is signed in. Every text is the user's own (textContent) or goes through t().
import { $, api, el, num, t, toast } from "./common.js";

export const Account = (() => {
  let who = null;
  async function me() {
    if (who === null) {
      try { who = await api("/api/me"); } catch (e) { who = { user: null }; }
    }
    return who.user;
  }
  async function signOut() {
    try { await api("/api/logout", {}); } catch (e) { toast(e.message); return; }
    location.href = "/";
  }
  async function nav() {
    const box = $("account-nav");
    if (!box) return;
    const user = await me();
    const links = [el("a", { href: "/leaderboard", id: "nav-leaderboard" }, t("Leaderboard")),
      el("a", { href: "/editions", id: "nav-editions" }, t("Editions"))];  // public ones for anyone
    if (user) {
      const waiting = who.invitations || 0;  // invitations waiting for an answer
      links.push(el("a", { href: "/me", id: "nav-my-games" }, t("My games")),
        el("a", { href: "/friends", id: "nav-friends", "data-invitations": waiting },
          waiting ? t("Friends ({count})", { count: waiting }) : t("Friends")),
        ...(who.role ? [el("a", { href: "/moderation", id: "nav-moderation" }, t("Moderation"))] : []),
        el("a", { href: `/players/${encodeURIComponent(user.name)}`, id: "nav-profile", text: user.name }),
        el("button", { type: "button", id: "nav-sign-out", class: "link", onclick: signOut }, t("Sign out")));
    } else {
      links.push(el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}`, id: "nav-sign-in" }, t("Sign in")));
    }
    box.replaceChildren(...links);
    if ($("rated-choice")) $("rated-choice").hidden = !user;  // the lobby's rated-game option
    box.dataset.user = user ? user.name : "";
  }
  // a bot's measured rating at a player count, for a label ("" where none was measured)
  function botRating(offer, bot, players) {
    const table = (offer && offer.bot_ratings && offer.bot_ratings[String(players)]) || {};
    return bot in table ? t("rating {rating}", { rating: num(table[bot], 0) }) : "";
  }
  // the header again after signing in on this page (a password reset)
  function refresh() { who = null; return nav(); }
  document.addEventListener("DOMContentLoaded", nav);
  return { me, nav, refresh, botRating };
})();
