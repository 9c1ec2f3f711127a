// Entrepot's web client: plain ES modules on the public REST API, no build step.
// Pages register themselves (pages.js); accounts (account.js), the lobby (lobby.js) and
// correspondence (correspondence.js, mounted by the game page) plug in the same way.
import { accountPage, linkPages, restore, signInPage, signOut } from "./account.js";
import { api, ApiError, session } from "./api.js";
import { lobbyRoute } from "./lobby.js";
import { beginVisit, el, findPage, registerPage, say, stillOn } from "./pages.js";
import { language, setLanguage, t } from "./i18n.js";
import "./home.js";
import "./game.js";
import "./settings.js";

let leave = () => {};
const main = () => document.getElementById("main");

async function guarded(action) {
  try { return await action(); } catch (error) {
    say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error));
    return undefined;
  }
}

// the links of sign-in and reset mails (#/signin/TOKEN, #/reset/TOKEN)
const LINK = /^#\/(?:signin|reset)\/[A-Za-z0-9_-]+$/;
registerPage(LINK, () => { linkPages(main(), route); });
// the account page: address, password, sessions, personal tokens
registerPage(/^#\/account$/, () => {
  if (!session.signedIn) signInPage(main(), route);
  else accountPage(main(), route);
});
// the lobby, profiles, leaderboards, the archive and the games to watch (lobby.js)
// each visit draws into its own box: a page still loading when the player moves on
// draws into a box no longer on the page
registerPage(/^#\/(?:lobby|players\/[0-9a-f-]+|leaderboard(?:\/\w+)?|archive(?:\?.*)?|watch)$/, () => {
  if (!session.signedIn) { signInPage(main(), route); return () => {}; }
  const box = el("div", { class: "lobby-page" });
  main().replaceChildren(box);
  const ui = { main: box, el, guarded, say };
  lobbyRoute(location.hash, ui);
  return () => { lobbyRoute("", ui); };  // stops the page's live updates
});

function header() {
  const who = document.getElementById("who");
  who.setAttribute("aria-label", t("Account"));
  const lang = el("select", { id: "language", "aria-label": t("Language") },
    el("option", { value: "en", selected: language() === "en" }, "English"),
    el("option", { value: "fr", selected: language() === "fr" }, "Français"));
  lang.addEventListener("change", () => { setLanguage(lang.value); route(); });
  const signedIn = session.signedIn;
  // (replaceChildren writes a null as the text "null": a visitor gets the switch alone)
  who.replaceChildren(lang, ...(signedIn ? [" ",
    el("a", { href: "#/settings" }, t("Settings")), " ",
    el("a", { href: "#/account", id: "account-link" }, t("Account")), " ",
    `${session.player.name} `,
    el("button", { onclick: () => signOut(route) }, t("Sign out"))] : []));
}

// the tab's title counts the games waiting for you: "(2) Entrepot"
async function tabTitle() {
  if (!session.signedIn) { document.title = "Entrepot"; return; }
  try {
    const me = session.player;
    const page = await api.myGames();
    const waiting = page.games.filter((g) => g.status === "active" && g.seats.some((s) => s.player_id === me.id && g.to_act.includes(s.index))).length;
    document.title = waiting ? `(${waiting}) Entrepot` : "Entrepot";
  } catch { /* keep the last title */ }
}

async function route() {
  const mine = beginVisit();
  leave();
  leave = () => {};
  document.documentElement.lang = language();
  // who is signed in (the session cookie), read before any page is drawn; a mail's
  // sign-in or reset link is opened as it is
  if (!LINK.test(location.hash)) await guarded(restore);
  if (!stillOn(mine)) return;  // another route began meanwhile: it draws
  header();
  const page = findPage(location.hash) || findPage("#/");
  leave = page.render(...page.params) || (() => {});
  tabTitle();
  main().focus();
}

window.addEventListener("hashchange", route);
setInterval(tabTitle, 15000);
// a game page says when it changed; the count is read again at most every 3 s
let counted = 0;
window.addEventListener("entrepot:games-changed", () => {
  if (Date.now() - counted < 3000) return;
  counted = Date.now();
  tabTitle();
});
route();
