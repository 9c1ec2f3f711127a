// Entrepot's web client: plain ES modules on the public REST API, no build step.
// Pages register themselves (pages.js); other modules (accounts, lobby, correspondence)
// plug in the same way by adding their import below.
import { api, session } from "./api.js";
import { el, findPage } from "./pages.js";
import { language, setLanguage, t } from "./i18n.js";
import "./home.js";
import "./game.js";
import "./settings.js";

let leave = () => {};

function header() {
  const who = document.getElementById("who");
  const lang = el("select", { id: "language", "aria-label": t("Language") },
    el("option", { value: "en", selected: language() === "en" }, "English"),
    el("option", { value: "fr", selected: language() === "fr" }, "Français"));
  lang.addEventListener("change", () => { setLanguage(lang.value); route(); });
  const signedIn = session.signedIn;
  who.replaceChildren(lang, " ",
    signedIn ? el("a", { href: "#/settings" }, t("Settings")) : null, " ",
    signedIn ? `${session.player.name} ` : null,
    signedIn ? el("button", { onclick: () => { session.clear(); location.hash = "#/"; route(); } }, t("Sign out")) : null);
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
  leave();
  leave = () => {};
  document.documentElement.lang = language();
  header();
  const page = findPage(location.hash) || findPage("#/");
  leave = page.render(...page.params) || (() => {});
  tabTitle();
  document.getElementById("main").focus();
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
