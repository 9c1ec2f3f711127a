// The public REST contract, and nothing else: every call goes through here.
// `credentials()` is the one place where a request gets its credentials and headers: the
// browser is signed in by the session cookie (HttpOnly: this code never sees it), and every
// change carries the session's CSRF token from the entrepot_csrf cookie. Nothing is kept in
// localStorage (account.js trades a token an older client kept there for a session, once).
import { refusalWords } from "./i18n.js";

const CSRF_COOKIE = "entrepot_csrf";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export class ApiError extends Error {
  constructor(status, problem) {
    super(refusalWords(problem.code, problem.detail || problem.title || `HTTP ${status}`));
    this.status = status;
    this.code = problem.code;
    this.problem = problem;
  }
}

// who is signed in: account.js's restore() fills `player` from the session at start-up
export const session = {
  player: null,
  get signedIn() { return Boolean(this.player); },
  get csrf() {
    const found = document.cookie.split("; ").find((c) => c.startsWith(`${CSRF_COOKIE}=`));
    return found ? decodeURIComponent(found.slice(CSRF_COOKIE.length + 1)) : null;
  },
  clear() { this.player = null; },
};

export function credentials(headers = {}, method = "GET") {
  if (!SAFE.has(method) && session.csrf) headers["X-CSRF-Token"] = session.csrf;
  return headers;
}

export async function call(method, path, body, accept = "application/json", extraHeaders = {}) {
  const headers = credentials({ Accept: accept, ...extraHeaders }, method);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`/v1${path}`, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    let problem = {};
    try { problem = await response.json(); } catch { /* not JSON: keep the status */ }
    throw new ApiError(response.status, problem);
  }
  if (accept !== "application/json") return response.text();
  return response.status === 204 ? null : response.json();
}

export const api = {
  createPlayer: (name, email, password) =>
    call("POST", "/players", email ? { name, email, password } : { name }),
  // accounts (account.js)
  signIn: (email, password) => call("POST", "/sessions", { email, password }),
  signInWithLink: (token) => call("POST", "/sessions", { link_token: token }),
  signInWithToken: (token) => call("POST", "/sessions", undefined, "application/json",
    { Authorization: `Bearer ${token}` }),
  currentSession: () => call("GET", "/sessions/current"),
  signOut: () => call("DELETE", "/sessions/current"),
  askSignInLink: (email) => call("POST", "/sessions/link", { email }),
  askPasswordReset: (email) => call("POST", "/password-reset", { email }),
  completeReset: (token, password) => call("POST", "/password-reset/complete", { token, password }),
  setPassword: (password, current) => call("PUT", "/players/me/password",
    current ? { password, current_password: current } : { password }),
  setEmail: (email) => call("PATCH", "/players/me", { email }),
  sessions: () => call("GET", "/players/me/sessions"),
  endSession: (id) => call("DELETE", `/players/me/sessions/${id}`),
  tokens: () => call("GET", "/players/me/tokens"),
  createToken: (name, scopes) => call("POST", "/players/me/tokens", { name, scopes }),
  revokeToken: (id) => call("DELETE", `/players/me/tokens/${id}`),
  me: () => call("GET", "/players/me"),
  updateMe: (changes) => call("PATCH", "/players/me", changes),
  vacationStatus: () => call("GET", "/players/me/vacation"),
  vacation: (from, until) => call("PUT", "/players/me/vacation", { from, until }),
  endVacation: () => call("DELETE", "/players/me/vacation"),
  webhooks: () => call("GET", "/players/me/webhooks"),
  addWebhook: (url, events) => call("POST", "/players/me/webhooks", { url, events }),
  removeWebhook: (id) => call("DELETE", `/players/me/webhooks/${id}`),
  findPlayers: (prefix) => call("GET", `/players?name=${encodeURIComponent(prefix)}`),
  titles: () => call("GET", "/titles"),
  titleDetail: (id) => call("GET", `/titles/${id}`),
  myGames: () => call("GET", "/games?player=me&limit=100"),
  openGames: () => call("GET", "/games?status=waiting&limit=50"),
  liveGames: () => call("GET", "/games?status=active&limit=20"),
  createGame: (body) => call("POST", "/games", body),
  join: (id, seat) => call("POST", `/games/${id}/seats/${seat}/join`, {}),
  accept: (id, seat) => call("POST", `/games/${id}/seats/${seat}/accept`, {}),
  decline: (id, seat) => call("POST", `/games/${id}/seats/${seat}/decline`, {}),
  resign: (id, seat) => call("POST", `/games/${id}/resign`, { seat }),
  abort: (id) => call("POST", `/games/${id}/abort`, {}),
  cancel: (id) => call("POST", `/games/${id}/abort`, {}),  // a waiting game ends at once
  game: (id) => call("GET", `/games/${id}`),
  events: (id, after = 0) => call("GET", `/games/${id}/events?after=${after}&limit=1000`),
  legal: (id, seat) => call("GET", `/games/${id}/legal-commands?seat=${seat}`),
  // the answer also tells what the seat may play next (`legal_commands`)
  play: (id, seat, command, version) =>
    call("POST", `/games/${id}/commands?include=legal_commands`, { seat, command, expected_version: version }),
  board: (id, seat, at) => {
    const query = new URLSearchParams();
    if (seat !== null && seat !== undefined) query.set("seat", seat);
    if (at) query.set("at", at);
    return call("GET", `/games/${id}/board.svg?${query}`, undefined, "image/svg+xml");
  },
  state: (id, at) => call("GET", `/games/${id}/state?at=${at}`),
  messages: (id) => call("GET", `/games/${id}/messages`),
  say: (id, text, channel = "table", seat = null) => call("POST", `/games/${id}/messages`, seat === null ? { text, channel } : { text, channel, seat }),
  exportRecord: (id) => call("GET", `/games/${id}/export`),
  streamUrl: (id, after) => `/v1/games/${id}/stream?after=${after}`,
  // the signed-in player's notifications from now on (the session cookie authenticates it)
  playerStreamUrl: () => "/v1/players/me/stream?after=latest",
};
