// The lobby, challenges, profiles, leaderboards, the archive and watching (issue 30):
// pages of their own, on the public REST API only. app.js hands a route here first
// (lobbyRoute) and leaves it to this module's navigation bar.
import { call, session } from "./api.js";
import { t } from "./i18n.js";
import { titleName } from "./words.js";

const lobbyApi = {
  lobby: (title) => call("GET", `/lobby?limit=100${title ? `&title=${encodeURIComponent(title)}` : ""}`),
  titles: () => call("GET", "/titles"),
  findPlayers: (name) => call("GET", `/players?name=${encodeURIComponent(name)}&limit=10`),
  profile: (id) => call("GET", `/players/${id}`),
  invitations: () => call("GET", "/players/me/invitations"),
  leaderboard: (title) => call("GET", `/titles/${encodeURIComponent(title)}/leaderboard?limit=100`),
  games: (query) => call("GET", `/games?${new URLSearchParams(query)}`),
  create: (body) => call("POST", "/games", body),
  join: (id, seat) => call("POST", `/games/${id}/seats/${seat}/join`, {}),
  accept: (id, seat) => call("POST", `/games/${id}/seats/${seat}/accept`, {}),
  decline: (id, seat) => call("POST", `/games/${id}/seats/${seat}/decline`, {}),
};

const CLOCKS = [["", "no clock"], ["PT12H", "12 hours a move"], ["P1D", "1 day a move"],
  ["P2D", "2 days a move"], ["P3D", "3 days a move"], ["P1W", "1 week a move"]];

// --- words ------------------------------------------------------------------------------
export function durationWords(iso) {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso || "");
  if (!m) return iso || "";
  const names = ["week", "day", "hour", "minute", "second"];
  return m.slice(1).map((n, i) => (n ? `${n} ${t(`${names[i]}${n === "1" ? "" : "s"}`)}` : null))
    .filter(Boolean).join(" ");
}

function clockWords(control) {
  if (!control) return t("no clock");
  if (control.per_move) return `${durationWords(control.per_move)} ${t("a move")}`;
  if (control.bank) return `${t("a time bank of")} ${durationWords(control.bank)}`;
  return t("a clock");
}

function optionWords(options) {
  const parts = Object.entries(options || {}).map(([k, v]) => (k === "variant" ? t(`${v}`.replace(/_/g, " ")) : `${t(k.replace(/_/g, " "))}: ${Array.isArray(v) ? v.map((x) => t(String(x).replace(/_/g, " "))).join(", ") : t(String(v))}`));
  return parts.length ? parts.join(", ") : t("standard rules");
}

function ratingWords(who) {
  return `${who.rating}${who.provisional ? ` (${t("provisional")})` : ""}`;
}

function seatNames(game) {
  return game.seats.map((s) => s.name || (s.ai ? t("computer ({level})", { level: t(s.ai) }) : t("open seat"))).join(", ");
}

function when(text) {
  return text ? new Date(text).toLocaleString() : "";
}

// --- the pages ----------------------------------------------------------------------------
let leave = () => {};

export async function lobbyRoute(hash, ui) {
  leave();
  leave = () => {};
  const routes = [
    [/^#\/lobby$/, () => lobbyPage(ui)],
    [/^#\/players\/([0-9a-f-]+)$/, (m) => profilePage(ui, m[1])],
    [/^#\/leaderboard(?:\/(\w+))?$/, (m) => leaderboardPage(ui, m[1])],
    [/^#\/archive(?:\?(.*))?$/, (m) => archivePage(ui, new URLSearchParams(m[1] || ""))],
    [/^#\/watch$/, () => watchPage(ui)],
  ];
  for (const [pattern, page] of routes) {
    const match = hash.match(pattern);
    if (match) { await ui.guarded(() => page(match)); return true; }
  }
  return false;
}

export function lobbyNav(el) {
  const me = session.player;
  return el("nav", { id: "lobby-nav", "aria-label": t("Lobby and players") },
    el("a", { href: "#/" }, t("My games")), " · ",
    el("a", { href: "#/lobby" }, t("Lobby")), " · ",
    el("a", { href: "#/watch" }, t("Watch")), " · ",
    el("a", { href: "#/archive" }, t("Archive")), " · ",
    el("a", { href: "#/leaderboard" }, t("Leaderboards")),
    me ? [" · ", el("a", { href: `#/players/${me.id}` }, t("My profile"))] : null);
}

function gameOptionsChooser(el, titles, prefix) {
  const title = el("select", { id: `${prefix}-title` }, titles.map((tl) => el("option", { value: tl.id }, tl.name)));
  const form = el("select", { id: `${prefix}-form` });
  const seats = el("select", { id: `${prefix}-seats` });
  const fill = () => {
    const tl = titles.find((x) => x.id === title.value);
    form.replaceChildren(...(tl.variants.length > 1 ? tl.variants : ["standard"]).map((v) => el("option", { value: v }, t(v.replace(/_/g, " ")))));
    seats.replaceChildren(...Array.from({ length: tl.max_players - Math.max(2, tl.min_players) + 1 },
      (_, i) => el("option", { value: Math.max(2, tl.min_players) + i }, t("{n} players", { n: Math.max(2, tl.min_players) + i }))));
  };
  title.addEventListener("change", fill);
  fill();
  const options = () => {
    const tl = titles.find((x) => x.id === title.value);
    return tl.variants.length > 1 ? { variant: form.value } : {};
  };
  return { title, form, seats, options };
}

async function lobbyPage({ main, el, guarded, say }) {
  const me = session.player;
  const titles = await lobbyApi.titles();
  const list = el("ul", { class: "games", id: "seeks", "aria-live": "polite" });
  const invitationsBox = el("ul", { class: "games", id: "invitations" });

  function drawSeeks(games) {
    list.replaceChildren(...(games.length ? games.map((g) => {
      const open = g.seats.filter((s) => s.status === "open");
      const mine = g.seats.some((s) => me && s.player_id === me.id);
      const band = g.rating_range ? ` · ${t("for ratings {min} to {max}", { min: g.rating_range.min ?? t("any"), max: g.rating_range.max ?? t("any") })}` : "";
      return el("li", { "data-game": g.id },
        el("strong", {}, g.title), ` ${optionWords(g.options)} · ${t("{n} players", { n: g.seats.length })} · ${clockWords(g.time_control)}`
        + ` · ${g.rated ? t("rated") : t("unrated")}${band} · ${t("posted by")} `,
        el("a", { href: `#/players/${g.creator.id}` }, g.creator.name), ` (${ratingWords(g.creator)})`,
        mine ? el("span", { class: "badge" }, t("yours"))
          : open.map((s) => el("button", {
            onclick: () => guarded(async () => { await lobbyApi.join(g.id, s.index); location.hash = `#/games/${g.id}`; }),
          }, open.length > 1 ? t("Join (seat {n})", { n: s.index + 1 }) : t("Join"))));
    }) : [el("li", {}, t("No open game right now. Post one below."))]));
  }

  async function drawInvitations() {
    const found = (await lobbyApi.invitations()).invitations;
    invitationsBox.replaceChildren(...(found.length ? found.map((i) => el("li", {},
      `${i.challenger.name} (${ratingWords(i.challenger)}) ${t("invites you to")} ${titleName(i.game.title)}, ${optionWords(i.game.options)},`
      + ` ${clockWords(i.time_control)}, ${i.game.rated ? t("rated") : t("unrated")} `,
      el("button", { onclick: () => guarded(async () => { await lobbyApi.accept(i.game.id, i.seat); location.hash = `#/games/${i.game.id}`; }) }, t("Accept")),
      el("button", { onclick: () => guarded(async () => { await lobbyApi.decline(i.game.id, i.seat); await drawInvitations(); }) }, t("Decline"))))
      : [el("li", {}, t("No invitation is waiting for you."))]));
  }

  // posting a seek
  const seek = gameOptionsChooser(el, titles, "seek");
  const clock = el("select", { id: "seek-clock" }, CLOCKS.map(([v, words]) => el("option", { value: v }, t(words))));
  const rated = el("input", { id: "seek-rated", type: "checkbox", checked: true });
  const hidden = el("input", { id: "seek-private", type: "checkbox" });
  const low = el("input", { id: "seek-min", type: "number", step: 50 });
  const high = el("input", { id: "seek-max", type: "number", step: 50 });
  const seekForm = el("form", {
    onsubmit: (e) => { e.preventDefault(); guarded(async () => {
      const count = Number(seek.seats.value);
      const body = { title: seek.title.value, options: seek.options(), rated: rated.checked, private: hidden.checked,
        seats: [{ player_id: me.id }, ...Array.from({ length: count - 1 }, () => ({ open: true }))] };
      if (clock.value) body.time_control = { per_move: clock.value };
      if (low.value || high.value) body.rating_range = { min: low.value ? Number(low.value) : null, max: high.value ? Number(high.value) : null };
      await lobbyApi.create(body);
      say("");
    }); },
  }, el("label", { for: "seek-title" }, `${t("Game")} `, seek.title), el("label", { for: "seek-form" }, `${t("Form")} `, seek.form),
  el("label", { for: "seek-seats" }, `${t("Players")} `, seek.seats), el("label", { for: "seek-clock" }, `${t("Clock")} `, clock),
  el("label", { for: "seek-rated" }, rated, ` ${t("Rated")}`), el("label", { for: "seek-private" }, hidden, ` ${t("Private (hidden from the lobby, the archive and spectators)")}`),
  el("label", { for: "seek-min" }, `${t("Lowest rating welcome")} `, low), el("label", { for: "seek-max" }, `${t("Highest rating welcome")} `, high),
  el("button", { class: "primary", type: "submit" }, t("Post the game")));

  // challenging a player by name
  const name = el("input", { id: "challenge-name", autocomplete: "off", maxlength: 64 });
  const found = el("ul", { class: "games", id: "challenge-found" });
  const challenge = gameOptionsChooser(el, titles, "challenge");
  const challengeClock = el("select", { id: "challenge-clock" }, CLOCKS.map(([v, words]) => el("option", { value: v }, t(words))));
  const challengeForm = el("form", {
    onsubmit: (e) => { e.preventDefault(); guarded(async () => {
      const players = (await lobbyApi.findPlayers(name.value.trim())).players.filter((p) => p.id !== me.id);
      found.replaceChildren(...(players.length ? players.map((p) => el("li", {}, el("a", { href: `#/players/${p.id}` }, p.name),
        el("button", { onclick: () => guarded(async () => {
          const body = { title: challenge.title.value, options: challenge.options(), seats: [{ player_id: me.id }, { player_id: p.id }] };
          if (challengeClock.value) body.time_control = { per_move: challengeClock.value };
          const game = await lobbyApi.create(body);
          location.hash = `#/games/${game.id}`;
        }) }, `Challenge ${p.name}`))) : [el("li", {}, t("Nobody by that name."))]));
    }); },
  }, el("label", { for: "challenge-name" }, `${t("Player's name")} `, name),
  el("label", { for: "challenge-title" }, `${t("Game")} `, challenge.title), el("label", { for: "challenge-form" }, `${t("Form")} `, challenge.form),
  el("label", { for: "challenge-clock" }, `${t("Clock")} `, challengeClock),
  el("button", { type: "submit" }, t("Find")));

  main.replaceChildren(lobbyNav(el),
    el("section", {}, el("h2", {}, t("Open games")), list),
    el("section", {}, el("h2", {}, t("Invitations for you")), invitationsBox),
    el("section", {}, el("h2", {}, t("Post an open game")), seekForm),
    el("section", {}, el("h2", {}, t("Challenge a player")), challengeForm, found));
  drawSeeks((await lobbyApi.lobby()).games);
  await drawInvitations();
  leave = followLobby(drawSeeks);
}

// the lobby's Server-Sent Events: each message is the lobby as it is now
function followLobby(draw) {
  const controller = new AbortController();
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch("/v1/lobby/stream?limit=100", { headers: { Accept: "text/event-stream" }, signal: controller.signal });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const lines = buffer.slice(0, cut).split("\n");
            buffer = buffer.slice(cut + 2);
            const data = lines.find((l) => l.startsWith("data: "));
            if (lines.includes("event: lobby") && data) draw(JSON.parse(data.slice(6)).games);
          }
        }
      } catch { if (controller.signal.aborted) return; }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return () => controller.abort();
}

function sparkline(el, history) {
  if (history.length < 2) return null;
  const values = history.map((h) => h.rating);
  const lo = Math.min(...values); const hi = Math.max(...values); const span = Math.max(1, hi - lo);
  const points = values.map((v, i) => `${(i / (values.length - 1)) * 200},${40 - ((v - lo) / span) * 36 - 2}`).join(" ");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 200 40"); svg.setAttribute("width", "200"); svg.setAttribute("height", "40");
  svg.setAttribute("role", "img"); svg.setAttribute("aria-label", t("rating from {first} to {last}", { first: values[0], last: values[values.length - 1] }));
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", points); line.setAttribute("fill", "none"); line.setAttribute("stroke", "#2e7d32"); line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

async function profilePage({ main, el }, id) {
  const p = await lobbyApi.profile(id);
  const titles = [...new Set([...Object.keys(p.ratings), ...Object.keys(p.stats)])].sort();
  main.replaceChildren(lobbyNav(el),
    el("section", {}, el("h2", { id: "profile-name" }, p.name),
      titles.length ? el("table", { id: "profile-ratings" },
        el("thead", {}, el("tr", {}, ["Game", "Rating", "Rated games", "Played", "Won", "Lost", "History"].map((h) => el("th", {}, t(h))))),
        el("tbody", {}, titles.map((tl) => {
          const r = p.ratings[tl]; const s = p.stats[tl] || { played: 0, won: 0, lost: 0 };
          return el("tr", {}, el("td", {}, el("a", { href: `#/leaderboard/${tl}` }, tl)),
            el("td", {}, r ? ratingWords(r) : "not rated yet"), el("td", {}, r ? String(r.games) : "0"),
            el("td", {}, String(s.played)), el("td", {}, String(s.won)), el("td", {}, String(s.lost)),
            el("td", {}, r ? sparkline(el, r.history) : null));
        })))
        : el("p", {}, t("No finished game yet.")),
      el("p", {}, t("The rating is the OpenSkill estimate shown cautiously: 1000 + 40 × (skill − 3 × uncertainty); provisional while the uncertainty is high."))),
    el("section", {}, el("h2", {}, t("Recent games")), gameList(el, p.recent_games, id)),
    el("p", {}, el("a", { href: `#/archive?player=${id}` }, t("All their finished games"))));
}

function gameList(el, games, me) {
  if (!games.length) return el("p", {}, t("None."));
  return el("ul", { class: "games" }, games.map((g) => {
    const mine = g.seats.filter((s) => s.player_id === me).map((s) => s.index);
    const won = g.result && mine.some((s) => g.result.winners.includes(s));
    return el("li", { "data-game": g.id }, el("a", { href: `#/games/${g.id}` }, `${titleName(g.title)}, ${optionWords(g.options)}`),
      ` ${seatNames(g)} · ${when(g.updated_at)}`,
      g.result && me ? el("span", { class: "badge" }, won ? t("won") : t("lost")) : null,
      g.result && !me ? ` · ${t("won by")} ${g.result.winners.map((w) => g.seats[w].name || t("computer")).join(", ")}` : null);
  }));
}

async function leaderboardPage({ main, el }, title) {
  const titles = await lobbyApi.titles();
  const chosen = title || titles[0].id;
  const board = await lobbyApi.leaderboard(chosen);
  main.replaceChildren(lobbyNav(el),
    el("section", {}, el("h2", {}, `${t("Leaderboard:")} ${titles.find((tl) => tl.id === chosen)?.name || chosen}`),
      el("p", {}, titles.map((tl) => [el("a", { href: `#/leaderboard/${tl.id}` }, tl.name), " "])),
      board.players.length ? el("ol", { id: "leaderboard" }, board.players.map((p) => el("li", {},
        el("a", { href: `#/players/${p.id}` }, p.name), ` ${ratingWords(p)} · ${t("{n} rated games", { n: p.games })}`)))
        : el("p", {}, t("Nobody is rated in this game yet."))));
}

async function archivePage({ main, el, guarded }, query) {
  const me = session.player;
  const titles = await lobbyApi.titles();
  const player = el("input", { id: "archive-player", value: query.get("name") || "", placeholder: t("anyone") });
  const title = el("select", { id: "archive-title" }, el("option", { value: "" }, t("any game")), titles.map((tl) => el("option", { value: tl.id, selected: query.get("title") === tl.id }, tl.name)));
  const result = el("select", { id: "archive-result" }, [["any", "won or lost"], ["won", "won"], ["lost", "lost"]].map(([v, w]) => el("option", { value: v, selected: query.get("result") === v }, t(w))));
  const form = el("input", { id: "archive-form", value: query.get("form") || "", placeholder: t("any form (e.g. team)") });
  const after = el("input", { id: "archive-after", type: "date", value: query.get("after")?.slice(0, 10) || "" });
  const before = el("input", { id: "archive-before", type: "date", value: query.get("before")?.slice(0, 10) || "" });
  const results = el("div", { id: "archive-results" });
  async function search(playerId) {
    const q = { status: "finished", limit: 100 };
    if (playerId) q.player = playerId;
    if (title.value) q.title = title.value;
    if (playerId && result.value !== "any") q.result = result.value;
    if (form.value.trim()) q.form = form.value.trim();
    if (after.value) q.after = `${after.value}T00:00:00Z`;
    if (before.value) q.before = `${before.value}T00:00:00Z`;
    const page = await lobbyApi.games(q);
    results.replaceChildren(gameList(el, page.games, playerId));
  }
  main.replaceChildren(lobbyNav(el), el("section", {}, el("h2", {}, t("Archive of finished games")),
    el("form", { onsubmit: (e) => { e.preventDefault(); guarded(async () => {
      let id = null;
      const name = player.value.trim();
      if (name === "me" || (me && name === me.name)) id = me.id;
      else if (name) {
        const found = (await lobbyApi.findPlayers(name)).players;
        const exact = found.find((p) => p.name.toLowerCase() === name.toLowerCase()) || (found.length === 1 ? found[0] : null);
        if (!exact) { results.replaceChildren(el("p", {}, found.length ? `${t("Which one?")} ${found.map((p) => p.name).join(", ")}` : t("Nobody by that name."))); return; }
        id = exact.id;
      }
      await search(id);
    }); } },
    el("label", { for: "archive-player" }, `${t("Player")} `, player), el("label", { for: "archive-title" }, `${t("Game")} `, title),
    el("label", { for: "archive-result" }, `${t("Their result")} `, result), el("label", { for: "archive-form" }, `${t("Form")} `, form),
    el("label", { for: "archive-after" }, `${t("Finished from")} `, after), el("label", { for: "archive-before" }, `${t("Finished before")} `, before),
    el("button", { class: "primary", type: "submit" }, t("Search"))), results,
    el("p", {}, t("Open a game to replay it: its page has a history slider for every version."))));
  await search(query.get("player"));
}

async function watchPage({ main, el }) {
  const page = await lobbyApi.games({ status: "active", limit: 100 });
  main.replaceChildren(lobbyNav(el), el("section", {}, el("h2", {}, t("Games under way")),
    page.games.length ? el("ul", { class: "games", id: "live-games" }, page.games.map((g) => el("li", { "data-game": g.id },
      el("a", { href: `#/games/${g.id}` }, t("Watch {title}", { title: g.title })), ` ${optionWords(g.options)} · ${seatNames(g)} · ${t("move {n}", { n: g.version })}`)))
      : el("p", {}, t("No game is under way.")),
    el("p", {}, t("Spectators see what every player may see: no hand, no face-down choice, no deck order."))));
}
