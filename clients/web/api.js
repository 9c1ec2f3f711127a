// The public REST contract, and nothing else: every call goes through here.
const TOKEN_KEY = "entrepot.token";
const PLAYER_KEY = "entrepot.player";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code;
  }
}

export const session = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  get player() { return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null"); },
  save(token, player) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  },
  clear() { localStorage.removeItem(TOKEN_KEY); localStorage.removeItem(PLAYER_KEY); },
};

export async function call(method, path, body, accept = "application/json") {
  const headers = { Accept: accept };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`/v1${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
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
