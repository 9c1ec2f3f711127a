// The public REST contract, and nothing else: every call goes through here.
// `credentials()` is the one place where a request gets its credentials and headers
// (today a bearer token kept in this browser; a cookie session with a CSRF header plugs in
// here, and the game stream below uses it too).
const TOKEN_KEY = "entrepot.token";
const PLAYER_KEY = "entrepot.player";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code;
    this.problem = problem;
  }
}

export const session = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  get player() { return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null"); },
  get signedIn() { return Boolean(this.token && this.player); },
  save(token, player) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  },
  clear() { localStorage.removeItem(TOKEN_KEY); localStorage.removeItem(PLAYER_KEY); },
};

export function credentials(headers = {}) {
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  return headers;
}

export async function call(method, path, body, accept = "application/json") {
  const headers = credentials({ Accept: accept });
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
  createPlayer: (name) => call("POST", "/players", { name }),
  me: () => call("GET", "/players/me"),
  updateMe: (changes) => call("PATCH", "/players/me", changes),
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
  game: (id) => call("GET", `/games/${id}`),
  events: (id, after = 0) => call("GET", `/games/${id}/events?after=${after}&limit=1000`),
  legal: (id, seat) => call("GET", `/games/${id}/legal-commands?seat=${seat}`),
  play: (id, seat, command, version) =>
    call("POST", `/games/${id}/commands`, { seat, command, expected_version: version }),
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
};
