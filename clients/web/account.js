// Accounts in the web client: sign up, sign in (password or mailed link), forgotten
// password, sign out, and the account page (address, password, sessions, tokens).
// The session lives in an HttpOnly cookie the server sets; this code never holds a secret
// beyond showing a new personal token once.
import { api, ApiError, session } from "./api.js";
import { currentVisit, stillOn } from "./pages.js";
import { t } from "./i18n.js";

const OLD_TOKEN_KEY = "entrepot.token";  // where the client kept a token before sessions
const OLD_PLAYER_KEY = "entrepot.player";
const SCOPE_WORDS = {
  read: "see games and your profile",
  play: "play: create and join games, move, write messages",
  notifications: "webhooks and notification stream",
  account: "manage tokens, sessions, address and password",
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function say(message) {
  const notice = document.getElementById("notice");
  notice.textContent = message;
  if (message) setTimeout(() => { if (notice.textContent === message) notice.textContent = ""; }, 8000);
}

async function guarded(action) {
  try { return await action(); } catch (error) {
    say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error));
    return undefined;
  }
}

function field(id, label, attrs = {}) {
  const input = el("input", { id, ...attrs });
  return [el("label", { for: id }, t(label)), " ", input, " "];
}

function when(iso) { return iso ? new Date(iso).toLocaleString(document.documentElement.lang) : t("never"); }

const AFTER_KEY = "entrepot.after";  // the page asked for before signing in (not a secret)

// where to go once signed in: back to an OAuth consent page that sent us here, or to the
// game a mail linked to (kept across the sign-in link's new tab), else home
function afterSignIn(route) {
  const next = new URLSearchParams(location.search).get("next");
  if (next && next.startsWith("/oauth/authorize?")) { location.assign(next); return; }
  if (location.search) history.replaceState(null, "", "/#/");
  const wanted = localStorage.getItem(AFTER_KEY) || "#/";
  localStorage.removeItem(AFTER_KEY);
  const target = /^#\/games\/[0-9a-f-]+$/.test(wanted) ? wanted : "#/";
  if (location.hash !== target) location.hash = target;  // routes on hashchange
  else route();
}

/** Who is signed in (asks the server once per page load): true when someone is. */
export async function restore() {
  if (session.player) return true;
  const kept = localStorage.getItem(OLD_TOKEN_KEY);
  if (kept) {  // a browser that kept a token before sessions: trade it for a session once
    localStorage.removeItem(OLD_TOKEN_KEY);
    localStorage.removeItem(OLD_PLAYER_KEY);
    try { await api.signInWithToken(kept); } catch { /* revoked or unknown: sign in anew */ }
  }
  try {
    const current = await api.currentSession();
    session.player = { id: current.player_id, name: current.name };
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}

export async function signOut(route) {
  await guarded(async () => {
    await api.signOut();
    session.clear();
    if (location.hash !== "#/") location.hash = "#/";  // routes on hashchange
    else route();
  });
}

/** The sign-in and sign-up page. */
export function signInPage(main, route) {
  if (/^#\/games\/[0-9a-f-]+$/.test(location.hash)) localStorage.setItem(AFTER_KEY, location.hash);
  const name = field("name", "Your name", { required: true, maxlength: 64, autocomplete: "nickname" });
  const newEmail = field("new-email", "Your email (to sign in from any browser)",
    { type: "email", autocomplete: "email" });
  const newPassword = field("new-password", "Choose a password (8 characters or more)",
    { type: "password", minlength: 8, autocomplete: "new-password" });
  const email = field("email", "Email", { type: "email", required: true, autocomplete: "username" });
  const password = field("password", "Password", { type: "password", autocomplete: "current-password" });
  const value = (parts) => parts[2].value.trim();
  main.replaceChildren(
    el("section", {},
      el("h2", {}, t("New player")),
      el("form", {
        onsubmit: (event) => { event.preventDefault(); guarded(async () => {
          const mail = value(newEmail);
          const secret = newPassword[2].value;
          if (Boolean(mail) !== Boolean(secret)) { say(t("Give both an email and a password, or neither.")); return; }
          const created = await api.createPlayer(value(name), mail || undefined, secret || undefined);
          await api.signInWithToken(created.token);  // this browser's session; the token is not kept
          session.player = { id: created.id, name: created.name };
          say(mail ? t("Welcome! We sent a mail to {mail} to confirm the address.", { mail }) : "");
          afterSignIn(route);
        }); },
      }, el("p", {}, ...name), el("p", {}, ...newEmail), el("p", {}, ...newPassword),
      el("button", { class: "primary", type: "submit" }, t("Create my account"))),
      el("p", {}, t("With only a name, your account lives in this browser until you add an email and a password on your account page."))),
    el("section", {},
      el("h2", {}, t("I have an account")),
      el("form", {
        onsubmit: (event) => { event.preventDefault(); guarded(async () => {
          await api.signIn(value(email), password[2].value);
          await restore();
          say("");
          afterSignIn(route);
        }); },
      }, el("p", {}, ...email), el("p", {}, ...password),
      el("button", { class: "primary", type: "submit", id: "sign-in" }, t("Sign in"))),
      el("p", {},
        el("button", { type: "button", id: "send-link", onclick: () => guarded(async () => {
          if (!value(email)) { say(t("Write your email first.")); return; }
          await api.askSignInLink(value(email));
          say(t("If {email} is a confirmed address of an account, a sign-in link is on its way.", { email: value(email) }));
        }) }, t("Email me a sign-in link")), " ",
        el("button", { type: "button", id: "forgot", onclick: () => guarded(async () => {
          if (!value(email)) { say(t("Write your email first.")); return; }
          await api.askPasswordReset(value(email));
          say(t("If {email} is a confirmed address of an account, a link to choose a new password is on its way.", { email: value(email) }));
        }) }, t("I forgot my password")))));
}

/** The links of sign-in and reset mails (#/signin/TOKEN, #/reset/TOKEN): true if handled. */
export function linkPages(main, route) {
  const signin = location.hash.match(/^#\/signin\/([A-Za-z0-9_-]+)$/);
  if (signin) {
    main.replaceChildren(el("section", {}, el("h2", {}, t("Sign in with your link")),
      el("button", { class: "primary", onclick: () => guarded(async () => {
        await api.signInWithLink(signin[1]);
        session.clear();
        await restore();
        afterSignIn(route);
      }) }, t("Sign me in"))));
    return true;
  }
  const reset = location.hash.match(/^#\/reset\/([A-Za-z0-9_-]+)$/);
  if (reset) {
    const password = field("reset-password", "New password (8 characters or more)",
      { type: "password", minlength: 8, required: true, autocomplete: "new-password" });
    main.replaceChildren(el("section", {}, el("h2", {}, t("Choose a new password")),
      el("form", { onsubmit: (event) => { event.preventDefault(); guarded(async () => {
        await api.completeReset(reset[1], password[2].value);
        session.clear();
        await restore();
        say(t("Your new password is set. Every other device was signed out."));
        afterSignIn(route);
      }); } }, el("p", {}, ...password), el("button", { class: "primary", type: "submit" }, t("Save my password")))));
    return true;
  }
  return false;
}

/** The account page (#/account): true if this is it. */
export function accountPage(main, route) {
  if (location.hash !== "#/account") return false;
  guarded(() => drawAccount(main, route));
  return true;
}

async function drawAccount(main, route) {
  const visit = currentVisit();
  const [me, sessions, tokens] = await Promise.all([api.me(), api.sessions(), api.tokens()]);
  if (!stillOn(visit)) return;  // the player went elsewhere meanwhile
  const redraw = () => guarded(() => drawAccount(main, route));
  const email = field("account-email", "Email", { type: "email", value: me.email || "", autocomplete: "email" });
  const current = field("current-password", "Current password (if you have one)",
    { type: "password", autocomplete: "current-password" });
  const password = field("account-password", "New password", { type: "password", minlength: 8,
    autocomplete: "new-password" });
  const tokenName = field("token-name", "Name", { required: true, maxlength: 100 });
  const scopes = Object.entries(SCOPE_WORDS).map(([scope, words]) => el("label", {},
    el("input", { type: "checkbox", name: "scope", value: scope, checked: scope !== "account" }), ` ${t(words)} `));
  const shown = el("div", { id: "new-token", "aria-live": "polite" });
  main.replaceChildren(
    el("section", {}, el("h2", {}, t("Email and password")),
      el("p", {}, me.email
        ? `${t("Your address is {email}", { email: me.email })}${me.email_verified ? t(" (confirmed).") : t(" (not confirmed yet: see your mail).")}`
        : t("No email yet: add one and a password to sign in from any browser.")),
      el("form", { onsubmit: (event) => { event.preventDefault(); guarded(async () => {
        await api.setEmail(email[2].value.trim());
        say(t("Saved. Confirm the address with the link we mailed you."));
        redraw();
      }); } }, el("p", {}, ...email), el("button", { type: "submit" }, t("Save my email"))),
      el("form", { onsubmit: (event) => { event.preventDefault(); guarded(async () => {
        await api.setPassword(password[2].value, current[2].value || undefined);
        say(t("Your password is saved."));
        redraw();
      }); } }, el("p", {}, ...current), el("p", {}, ...password),
      el("button", { type: "submit" }, t("Save my password")))),
    el("section", {}, el("h2", {}, t("Where you are signed in")),
      el("ul", { id: "sessions" }, sessions.sessions.map((s) => el("li", {},
        `${s.user_agent || t("a browser")} · ${t("since")} ${when(s.created_at)} · ${t("last seen")} ${when(s.last_seen_at)} `,
        s.current ? el("strong", {}, t("(this browser) ")) : null,
        s.current
          ? el("button", { onclick: () => signOut(route) }, t("Sign out"))
          : el("button", { onclick: () => guarded(async () => { await api.endSession(s.id); redraw(); }) },
            t("Sign that device out")))))),
    el("section", {}, el("h2", {}, t("Personal tokens")),
      el("p", {}, t("Tokens let a program (a bot, the terminal client) act for you, within what you allow.")),
      el("ul", { id: "tokens" }, tokens.tokens.map((tok) => el("li", {},
        `${tok.kind === "oauth" ? `${t("Application")} ${tok.client_id}` : tok.name} · ${t("may")} ${tok.scopes.map((scope) => t(scope)).join(", ")}`
        + ` · ${t("made")} ${when(tok.created_at)} · ${t("last used")} ${when(tok.last_used_at)} `,
        el("button", { onclick: () => guarded(async () => {
          await api.revokeToken(tok.id); say(t("“{name}” no longer works.", { name: tok.name })); redraw();
        }) }, t("Revoke"))))),
      el("form", { onsubmit: (event) => { event.preventDefault(); guarded(async () => {
        const chosen = scopes.map((label) => label.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
        if (!chosen.length) { say(t("Choose at least one thing the token may do.")); return; }
        const made = await api.createToken(tokenName[2].value.trim(), chosen);
        await drawAccount(main, route);
        document.getElementById("new-token").replaceChildren(
          el("p", {}, t("Your new token “{name}”. Copy it now: it is shown only this once.", { name: made.name })),
          el("code", { id: "new-token-value" }, made.token));
      }); } }, el("p", {}, ...tokenName), el("fieldset", {}, el("legend", {}, t("It may")), scopes),
      el("button", { type: "submit" }, t("Create the token"))), shown),
    el("p", {}, el("a", { href: "#/" }, t("Back to your games"))));
}
