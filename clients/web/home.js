// The front page: for a visitor, what is played here, open games and live games to watch,
// and a way in; signed in, a dashboard of your games (most urgent first), invitations,
// a new-game form built from each title's options_schema, and your settings.
import { api, ApiError, session } from "./api.js";
import { currentVisit, el, registerPage, say, stillOn } from "./pages.js";
import { optionHelp, t } from "./i18n.js";
import { countdown, resultWords, seatName } from "./game.js";
import { signInPage } from "./account.js";
import { durationWords, lobbyNav } from "./lobby.js";
import { titleName } from "./words.js";

const SENTENCES = {
  kontor: "Two Hanseatic merchants build a harbour card by card and fight for its docks.",
  speicherstadt: "Bid with your workers for the cards of Hamburg's warehouse district, then ship, deliver and fight fires.",
  amsterdam: "Take cards and dice, build the city block by block, sail your barge and race on the Amstel.",
  // (each is translated by i18n.js)
};

function guarded(action) {
  return (async () => {
    try { return await action(); } catch (error) {
      say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error));
      return undefined;
    }
  })();
}

export function waitingFor(game, me) {
  return Boolean(me) && game.status === "active"
    && game.seats.some((seat) => seat.player_id === me.id && game.to_act.includes(seat.index));
}

function urgency(a, b, me) {
  const turn = Number(waitingFor(b, me)) - Number(waitingFor(a, me));
  if (turn) return turn;
  const rank = { active: 0, waiting: 1, finished: 2, aborted: 3 };
  if (rank[a.status] !== rank[b.status]) return rank[a.status] - rank[b.status];
  const da = a.deadline ? Date.parse(a.deadline) : Infinity, db = b.deadline ? Date.parse(b.deadline) : Infinity;
  if (da !== db) return da - db;
  return String(b.updated_at).localeCompare(String(a.updated_at));
}

function gameLine(game, me) {
  const others = game.seats.filter((s) => !me || s.player_id !== me.id).map((s) => seatName(game, s.index, me));
  const line = [el("a", { href: `#/games/${game.id}` }, `${titleName(game.title)} ${t("with")} ${others.join(", ") || "—"}`)];
  if (waitingFor(game, me)) line.push(el("span", { class: "badge turn" }, t("your turn")));
  else if (game.status === "active") line.push(el("span", { class: "badge" }, `${t("Waiting for")} ${game.to_act.map((i) => seatName(game, i, me)).join(", ")}`));
  else if (game.status === "waiting") line.push(el("span", { class: "badge" }, t("waiting for players")));
  if (game.deadline && game.status === "active") line.push(el("span", { class: "deadline", "data-deadline": game.deadline }, countdown(game.deadline)));
  if (game.status === "finished") line.push(el("span", { class: "result" }, resultWords(game, me)));
  if (game.status === "aborted") line.push(el("span", { class: "badge" }, t("aborted")));
  if (me && game.status === "waiting" && game.seats.some((s) => s.player_id === me.id && s.status === "seated")) {
    line.push(el("button", { class: "cancel-game", onclick: () => guarded(async () => {
      await api.cancel(game.id); window.dispatchEvent(new Event("hashchange"));
    }) }, t("cancel this game")));
  }
  return line;
}

function invitations(game, me) {
  // who invited: the game's creator (created_by); those who accepted since are named apart
  const others = game.seats.filter((s) => s.player_id && s.player_id !== me.id && s.status !== "invited");
  const creator = others.find((s) => s.player_id === game.created_by);
  const host = creator ? creator.name : null;
  const joined = others.filter((s) => s !== creator).map((s) => s.name);
  const control = game.time_control || {};
  const clock = control.per_move ? `${durationWords(control.per_move)} ${t("a move")}`
    : control.bank ? `${t("a time bank of")} ${durationWords(control.bank)}` : t("no clock");
  return game.seats.filter((s) => s.player_id === me.id && s.status === "invited").map((s) => el("span", { class: "invitation" },
    `${host ? `${host} ${t("invited you")}` : t("You are invited")}` +
    `${joined.length ? ` (${t("with {names}", { names: joined.join(", ") })})` : ""} · ${titleName(game.title)} · ${clock} `,
    el("button", { onclick: () => guarded(async () => { await api.accept(game.id, s.index); location.hash = `#/games/${game.id}`; }) }, t("Accept")),
    el("button", { onclick: () => guarded(async () => { await api.decline(game.id, s.index); render(); }) }, t("Decline"))));
}

// sign up and sign in (account.js): the session is a cookie, nothing is kept in the browser
export function signInBox() {
  const box = el("div", { id: "sign-in-box" });
  signInPage(box, () => window.dispatchEvent(new Event("hashchange")));
  for (const node of box.querySelectorAll("h2, label, button")) {
    if (node.children.length === 0) node.textContent = t(node.textContent);
  }
  return box;
}

function visitorWelcome(titles, open, live) {
  return [
    el("section", { "aria-labelledby": "titles-heading" }, el("h2", { id: "titles-heading" }, t("Three games to play by correspondence")),
      el("ul", { class: "titles" }, titles.map((title) => el("li", {},
        el("img", { src: `/web/img/${title.id}.svg`, alt: "", width: 96, height: 96 }),
        el("div", {}, el("h3", {}, title.name), el("p", {}, t(SENTENCES[title.id] || "")),
          el("p", { class: "small" }, t("{min}–{max} players", { min: title.min_players, max: title.max_players }))))))),
    signInBox(),
    gamesToJoin(open, null),
    el("section", { "aria-labelledby": "watch-heading" }, el("h2", { id: "watch-heading" }, t("Games to watch")),
      live.length ? el("ul", { class: "games" }, live.map((game) => el("li", {},
        el("a", { href: `#/games/${game.id}` }, `${titleName(game.title)}: ${game.seats.map((s) => seatName(game, s.index, null)).join(", ")}`))))
        : el("p", {}, t("No game is being played right now."))),
  ];
}

function gamesToJoin(open, me) {
  const games = open.filter((g) => !me || !g.seats.some((s) => s.player_id === me.id))
    .filter((g) => g.seats.some((s) => !s.player_id && !s.ai));
  return el("section", { "aria-labelledby": "open-heading" }, el("h2", { id: "open-heading" }, t("Open seats")),
    games.length ? el("ul", { class: "games" }, games.map((game) => el("li", { "data-game": game.id },
      `${titleName(game.title)} · ${game.seats.filter((s) => s.player_id || s.ai).map((s) => seatName(game, s.index, me)).join(", ")}`,
      me ? game.seats.filter((s) => !s.player_id && !s.ai).map((s) => el("button", {
        onclick: () => guarded(async () => { await api.join(game.id, s.index); location.hash = `#/games/${game.id}`; }),
      }, t("join seat {n}", { n: s.index + 1 }))) : el("span", { class: "small" }, t("(sign up to join)")))))
      : el("p", {}, t("No open seat right now.")));
}

// one field per option of the title's JSON Schema: a list for an enum, boxes for a set
function optionFields(schema, titleId) {
  const fields = [];
  for (const [key, prop] of Object.entries((schema && schema.properties) || {})) {
    const id = `option-${key}`;
    const label = t(key.replace(/_/g, " "));
    const help = prop.description ? el("span", { class: "small" }, ` ${optionHelp(titleId, key, prop.description)}`) : null;
    if (prop.enum) {
      const available = prop["x-available"] || prop.enum;
      fields.push({ key, read: (n) => { const v = n.querySelector("select").value; return prop.type === "integer" ? Number(v) : v; },
        node: el("label", { for: id }, `${label} `, el("select", { id, "data-option": key },
          available.map((v) => el("option", { value: v, selected: v === prop.default }, t(String(v).replace(/_/g, " "))))), help) });
    } else if (prop.type === "array" && prop.items && prop.items.enum) {
      fields.push({ key, read: (n) => [...n.querySelectorAll("input:checked")].map((i) => i.value),
        node: el("fieldset", {}, el("legend", {}, label), prop.items.enum.map((v) => el("label", { class: "inline" },
          el("input", { type: "checkbox", value: v, checked: (prop.default || []).includes(v) }), ` ${t(v.replace(/_/g, " "))}`)), help) });
    } else if (prop.type === "boolean") {
      fields.push({ key, read: (n) => n.querySelector("input").checked,
        node: el("label", { class: "inline" }, el("input", { id, type: "checkbox", checked: prop.default }), ` ${label}`, help) });
    } else if (prop.type === "integer") {
      fields.push({ key, read: (n) => Number(n.querySelector("input").value),
        node: el("label", { for: id }, `${label} `, el("input", { id, type: "number", min: prop.minimum, max: prop.maximum, value: prop.default }), help) });
    }
  }
  return fields;
}

function seatCounts(title, options) {
  const variant = title.options_schema && title.options_schema.properties && title.options_schema.properties.variant;
  const byVariant = variant && variant["x-seats"] && variant["x-seats"][options.variant];
  if (byVariant) return byVariant;
  const out = [];
  for (let n = title.min_players; n <= title.max_players; n++) out.push(n);
  return out;
}

function newGameForm(titles, me) {
  const title = el("select", { id: "new-title" }, titles.map((t_) => el("option", { value: t_.id }, t_.name)));
  const optionsBox = el("div", { id: "new-options" });
  const seatsBox = el("div", { id: "new-seats" });
  const count = el("select", { id: "new-count" });
  const perMove = el("select", { id: "new-clock" },
    [["", "no clock"], ["PT12H", "12 hours per move"], ["P1D", "1 day per move"], ["P2D", "2 days per move"], ["P3D", "3 days per move"],
      ["bank:P3D", "time bank of 3 days (+1 day a move)"]].map(([v, words]) => el("option", { value: v }, t(words))));
  const onTimeout = el("select", { id: "new-timeout" },
    el("option", { value: "computer" }, t("the computer plays for a late seat")), el("option", { value: "forfeit" }, t("a late seat forfeits")));
  const rated = el("input", { id: "new-rated", type: "checkbox" });
  let fields = [];
  const chosen = () => titles.find((x) => x.id === title.value);
  // only what differs from the title's defaults is sent (some options only make sense
  // with an expansion chosen, and their defaults then need not be named)
  const raw = () => Object.fromEntries(fields.map((f) => [f.key, f.read(f.node)]));
  const options = () => {
    const props = (chosen().options_schema || {}).properties || {};
    return Object.fromEntries(fields.map((f) => [f.key, f.read(f.node)])
      .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(props[key] && props[key].default)));
  };
  function drawSeats() {
    const n = Number(count.value || chosen().min_players);
    seatsBox.replaceChildren(el("p", {}, `${t("Seat {n}:", { n: 1 })} ${me.name} ${t("(you)")}`), ...Array.from({ length: n - 1 }, (_, i) => {
      const kind = el("select", { id: `seat-${i + 2}-kind`, "aria-label": t("seat {n}", { n: i + 2 }) },
        [["easy", "computer, easy"], ["normal", "computer, normal"], ["strong", "computer, strong"], ["open", "open seat"], ["invite", "invite a player"]]
          .map(([v, words]) => el("option", { value: v }, t(words))));
      const who = el("input", { id: `seat-${i + 2}-name`, placeholder: t("player name"), "aria-label": `${t("seat {n}", { n: i + 2 })}: ${t("player name")}`, hidden: true });
      kind.addEventListener("change", () => { who.hidden = kind.value !== "invite"; });
      return el("div", { class: "row seat-spec" }, el("span", {}, t("Seat {n}:", { n: i + 2 })), kind, who);
    }));
  }
  function drawCounts() {
    const counts = seatCounts(chosen(), raw());
    count.replaceChildren(...counts.map((n) => el("option", { value: n }, String(n))));
    drawSeats();
  }
  function drawOptions() {
    fields = optionFields(chosen().options_schema, chosen().id);
    optionsBox.replaceChildren(...fields.map((f) => f.node));
    for (const f of fields) f.node.addEventListener("change", drawCounts);
    drawCounts();
  }
  title.addEventListener("change", drawOptions);
  count.addEventListener("change", drawSeats);
  drawOptions();
  async function seatSpecs() {
    const seats = [{ player_id: me.id }];
    for (const row of seatsBox.querySelectorAll(".seat-spec")) {
      const kind = row.querySelector("select").value;
      if (kind === "open") seats.push({ open: true });
      else if (kind === "invite") {
        const name = row.querySelector("input").value.trim();
        const found = await api.findPlayers(name).catch(() => ({ players: [] }));
        const player = (found.players || []).find((p) => p.name.toLowerCase() === name.toLowerCase());
        if (!player) throw new Error(t("No player is called \"{name}\".", { name }));
        seats.push({ player_id: player.id });
      } else seats.push({ ai: kind });
    }
    return seats;
  }
  return el("section", { "aria-labelledby": "new-heading" }, el("h2", { id: "new-heading" }, t("New game")),
    el("form", { onsubmit: (event) => { event.preventDefault(); guarded(async () => {
      const body = { title: title.value, options: options(), seats: await seatSpecs() };
      if (perMove.value.startsWith("bank:")) body.time_control = { bank: perMove.value.slice(5), increment: "P1D", on_timeout: onTimeout.value };
      else if (perMove.value) body.time_control = { per_move: perMove.value, on_timeout: onTimeout.value };
      if (rated.checked) body.rated = true;
      const game = await api.createGame(body);
      location.hash = `#/games/${game.id}`;
    }); } },
    el("label", { for: "new-title" }, `${t("Title")} `, title), optionsBox,
    el("label", { for: "new-count" }, `${t("Seats")} `, count), seatsBox,
    el("label", { for: "new-clock" }, `${t("Clock")} `, perMove), el("label", { for: "new-timeout" }, `${t("When time runs out")} `, onTimeout),
    el("label", { class: "inline" }, rated, ` ${t("rated game")}`),
    el("p", {}, el("button", { class: "primary", type: "submit", id: "create-game" }, t("Create the game")))));
}

async function render() {
  const main = document.getElementById("main");
  const visit = currentVisit();
  const me = session.signedIn ? session.player : null;
  const [titles, open, live] = await Promise.all([api.titles(), api.openGames(), api.liveGames().catch(() => ({ games: [] }))]);
  if (!stillOn(visit)) return () => {};  // the player went elsewhere meanwhile
  if (!me) { main.replaceChildren(...visitorWelcome(titles, open.games, live.games)); return () => {}; }
  const mine = await api.myGames();
  if (!stillOn(visit)) return () => {};
  const games = [...mine.games].sort((a, b) => urgency(a, b, me));
  main.replaceChildren(lobbyNav(el),
    el("section", { "aria-labelledby": "games-heading" }, el("h2", { id: "games-heading" }, t("Your games")),
      // the list is there even empty: the live reload below fills it
      el("ul", { class: "games", id: "dashboard" }, games.map((game) => el("li", {}, gameLine(game, me), invitations(game, me)))),
      el("p", { id: "no-games", hidden: games.length > 0 }, t("No game yet: start one below."))),
    newGameForm(titles, me),
    gamesToJoin(open.games, me),
    el("section", { "aria-labelledby": "watch-heading" }, el("h2", { id: "watch-heading" }, t("Games to watch")),
      el("ul", { class: "games" }, live.games.filter((g) => !g.seats.some((s) => s.player_id === me.id)).slice(0, 10)
        .map((game) => el("li", {}, el("a", { href: `#/games/${game.id}` }, `${titleName(game.title)}: ${game.seats.map((s) => seatName(game, s.index, me)).join(", ")}`))))));
  // live: the countdowns tick; the games are read again at once when the player's stream
  // says something happened in one of them (their turn, a reminder, a game over, a message),
  // and every 10 s besides (invitations and the others' moves are not notifications). The
  // stream starts after the player's newest notification when it opens: the games are read
  // again then too, or a turn that came between the first read and the stream is not shown
  const timer = setInterval(() => { for (const node of main.querySelectorAll("[data-deadline]")) node.textContent = countdown(node.dataset.deadline); }, 1000);
  const refresh = () => api.myGames().then((page) => {
    const list = document.getElementById("dashboard");
    if (!list) return;
    document.getElementById("no-games").hidden = page.games.length > 0;
    list.replaceChildren(...[...page.games].sort((a, b) => urgency(a, b, me)).map((game) => el("li", {}, gameLine(game, me), invitations(game, me))));
  }).catch(() => {});
  const reload = setInterval(refresh, 10000);
  const stream = new EventSource(api.playerStreamUrl());
  for (const type of ["open", "your_turn", "reminder", "finished", "message"]) stream.addEventListener(type, refresh);
  return () => { clearInterval(timer); clearInterval(reload); stream.close(); };
}

registerPage(/^(#\/?)?$/, () => {
  let stop = () => {};
  let left = false;
  render().then((s) => { stop = s || stop; if (left) stop(); }, (e) => say(String(e)));
  return () => { left = true; stop(); };  // timers set after leaving stop at once
});
