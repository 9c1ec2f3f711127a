// The public REST contract, and nothing else: every call goes through here.
// The browser is signed in by the session cookie (HttpOnly: this code never sees it);
// every change carries the session's CSRF token from the entrepot_csrf cookie.
const CSRF_COOKIE = "entrepot_csrf";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code;
  }
}

// who is signed in (account.js fills it from the session); nothing is kept in localStorage
export const session = {
  player: null,
  get csrf() {
    const found = document.cookie.split("; ").find((c) => c.startsWith(`${CSRF_COOKIE}=`));
    return found ? decodeURIComponent(found.slice(CSRF_COOKIE.length + 1)) : null;
  },
  clear() { this.player = null; },
};

export async function call(method, path, body, accept = "application/json", extraHeaders = {}) {
  const headers = { Accept: accept, ...extraHeaders };
  if (!SAFE.has(method) && session.csrf) headers["X-CSRF-Token"] = session.csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`/v1${path}`, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
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
  titles: () => call("GET", "/titles"),
  myGames: () => call("GET", "/games?player=me&limit=100"),
  openGames: () => call("GET", "/games?status=waiting&limit=50"),
  createGame: (title, options, seats) => call("POST", "/games", { title, options, seats }),
  join: (id, seat) => call("POST", `/games/${id}/seats/${seat}/join`, {}),
  accept: (id, seat) => call("POST", `/games/${id}/seats/${seat}/accept`, {}),
  decline: (id, seat) => call("POST", `/games/${id}/seats/${seat}/decline`, {}),
  game: (id) => call("GET", `/games/${id}`),
  legal: (id, seat) => call("GET", `/games/${id}/legal-commands?seat=${seat}`),
  play: (id, seat, command, version) =>
    call("POST", `/games/${id}/commands`, { seat, command, expected_version: version }),
  board: (id, seat, at) => {
    const query = new URLSearchParams();
    if (seat !== null && seat !== undefined) query.set("seat", seat);
    if (at) query.set("at", at);
    return call("GET", `/games/${id}/board.svg?${query}`, undefined, "image/svg+xml");
  },
  messages: (id) => call("GET", `/games/${id}/messages`),
  say: (id, text) => call("POST", `/games/${id}/messages`, { text }),
  exportRecord: (id) => call("GET", `/games/${id}/export`),
  cancel: (id) => call("POST", `/games/${id}/abort`),
  streamUrl: (id, after) => `/v1/games/${id}/stream?after=${after}`,
};
