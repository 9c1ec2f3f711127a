// Entrepot's web client: plain ES modules on the public REST API, no build step.
import { accountPage, linkPages, restore, signInPage, signOut } from "./account.js";
import { api, ApiError, session } from "./api.js";
import { lobbyNav, lobbyRoute } from "./lobby.js";
import { correspondencePanel, resultText } from "./correspondence.js";

const main = document.getElementById("main");
const notice = document.getElementById("notice");
let leaveGame = () => {};

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
  notice.textContent = message;
  if (message) setTimeout(() => { if (notice.textContent === message) notice.textContent = ""; }, 6000);
}

async function guarded(action) {
  try { return await action(); } catch (error) {
    say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error));
    return undefined;
  }
}

// the server's words for each legal command (the legal-commands `descriptions`), the same
// as the mail's and the CLI's; a command without them is said from its fields
const serverWords = new WeakMap();

function describe(command) {
  const said = serverWords.get(command);
  if (said) return said;
  const fields = Object.entries(command).filter(([key]) => key !== "type");
  return fields.length
    ? `${command.type} ${fields.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ")}`
    : command.type;
}

// --- sign in (account.js: sign up, sign in, links, the account page) ----------------------
function signIn() {
  signInPage(main, route);
}

// --- lobby -------------------------------------------------------------------------------
function waitingFor(game, me) {
  return game.seats.some((seat) => seat.player_id === me.id && game.to_act.includes(seat.index));
}

// a seat naming you is an invitation until you accept it (declining closes the seat)
function invitations(game, me) {
  return game.seats.filter((s) => s.player_id === me.id && s.status === "invited").map((s) => el("span", {},
    el("button", { onclick: () => guarded(async () => { await api.accept(game.id, s.index); route(); }) },
      `accept seat ${s.index}`),
    el("button", { onclick: () => guarded(async () => { await api.decline(game.id, s.index); route(); }) },
      `decline seat ${s.index}`)));
}

// a game still waiting for players (an invitation declined, say) is cancelled by a seated player
function cancelling(game, me) {
  if (game.status !== "waiting" || !game.seats.some((s) => s.player_id === me.id && s.status === "seated")) return null;
  return el("button", { onclick: () => guarded(async () => { await api.cancel(game.id); route(); }) },
    "cancel this game");
}

async function lobby() {
  const me = session.player;
  const [mine, titles, open] = await Promise.all([api.myGames(), api.titles(), api.openGames()]);
  const games = [...mine.games].sort((a, b) => waitingFor(b, me) - waitingFor(a, me));
  const title = el("select", { id: "new-title" },
    titles.map((t) => el("option", { value: t.id }, t.name)));
  const opponents = el("input", { id: "new-opponents", type: "number", min: 1, max: 4, value: 1 });
  const level = el("select", { id: "new-level" },
    ["easy", "normal", "strong"].map((l) => el("option", { value: l, selected: l === "normal" }, l)));
  const options = el("textarea", { id: "new-options", rows: 2, cols: 40 }, "{}");
  title.addEventListener("change", () => {
    options.value = title.value === "kontor" ? '{"variant": "basic"}' : "{}";
  });
  options.value = titles[0] && titles[0].id === "kontor" ? '{"variant": "basic"}' : "{}";
  main.replaceChildren(lobbyNav(el),
    el("section", {}, el("h2", {}, "Your games"),
      games.length ? el("ul", { class: "games" }, games.map((game) => el("li", {},
        el("a", { href: `#/games/${game.id}` }, `${game.title} · ${game.id.slice(0, 8)}`),
        el("span", { class: "badge" }, game.status),
        waitingFor(game, me) ? el("span", { class: "badge turn" }, "your turn") : null,
        invitations(game, me), cancelling(game, me))))
        : el("p", {}, "No game yet.")),
    el("section", {}, el("h2", {}, "New game against the computer"),
      el("form", {
        onsubmit: (event) => { event.preventDefault(); guarded(async () => {
          let parsed;
          try { parsed = JSON.parse(options.value || "{}"); } catch { say("The options are not valid JSON."); return; }
          const seats = [{ player_id: me.id }];
          for (let i = 0; i < Number(opponents.value); i++) seats.push({ ai: level.value });
          const game = await api.createGame(title.value, parsed, seats);
          location.hash = `#/games/${game.id}`;
        }); },
      },
      el("label", { for: "new-title" }, "Title ", title),
      el("label", { for: "new-opponents" }, "Computer opponents ", opponents),
      el("label", { for: "new-level" }, "Level ", level),
      el("label", { for: "new-options" }, "Options (JSON) ", options),
      el("button", { class: "primary", type: "submit", id: "create-game" }, "Create the game"))),
    el("section", {}, el("h2", {}, "Open seats"),
      el("ul", { class: "games" }, open.games.filter((g) => !g.seats.some((s) => s.player_id === me.id))
        .map((game) => el("li", {}, `${game.title} · ${game.id.slice(0, 8)}`,
          game.seats.filter((s) => !s.player_id && !s.ai).map((s) => el("button", {
            onclick: () => guarded(async () => { await api.join(game.id, s.index); location.hash = `#/games/${game.id}`; }),
          }, `join seat ${s.index}`)))))));
}

// --- a game ------------------------------------------------------------------------------
function gamePage(id) {
  const me = session.player;
  const boardBox = el("div", { id: "board", "aria-describedby": "moves-heading" });
  const status = el("p", { id: "status", "aria-live": "polite" });
  const moves = el("ul", { class: "moves", id: "moves" });
  const history = el("input", { id: "history", type: "range", min: 1, value: 1, "aria-label": "history: version" });
  const historyLabel = el("output", { for: "history", id: "history-label" });
  const messages = el("div", { id: "messages" });
  const text = el("input", { id: "message-text", maxlength: 2000, "aria-label": "message" });
  let game = null;
  let seat = null;
  let legal = [];
  let legalVersion = null;
  let refreshing = Promise.resolve();
  let watchingPast = false;
  let source = null;
  const table = correspondencePanel(id, { refresh: () => guarded(refresh), say });

  // one refresh at a time: a stream wake-up and a move must not interleave their reads
  function refresh() {
    refreshing = refreshing.then(load, load);
    return refreshing;
  }

  async function load() {
    game = await api.game(id);
    const mine = game.seats.filter((s) => me && s.player_id === me.id).map((s) => s.index);
    seat = mine.find((s) => game.to_act.includes(s)) ?? mine[0] ?? null;
    const clock = game.deadline ? ` · deadline ${new Date(game.deadline).toLocaleString()}` : "";
    table.update(game, seat, me);  // correspondence.js: clock, time bank, takeback, notes
    status.textContent = game.status === "finished" || game.status === "aborted"
      ? resultText(game)
      : `${game.status} · version ${game.version} · to act: ${game.to_act.map((s) => `seat ${s}`).join(", ") || "nobody"}${clock}`;
    status.dataset.version = game.version;
    status.dataset.status = game.status;
    history.max = Math.max(1, game.version);
    if (!watchingPast) history.value = game.version;
    historyLabel.textContent = `version ${history.value} of ${game.version}`;
    const offered = seat !== null && game.to_act.includes(seat) ? await api.legal(id, seat) : null;
    legal = offered ? offered.commands : [];
    (offered?.descriptions || []).forEach((words, index) => { if (legal[index]) serverWords.set(legal[index], words); });
    legalVersion = offered ? offered.version : game.version;
    const offeredAt = legalVersion;
    moves.replaceChildren(...legal.map((command, index) => el("li", {},
      el("button", { class: "move", "data-index": index, onclick: () => play(command, offeredAt) },
        `${index + 1}. ${describe(command)}`))));
    if (!legal.length) moves.replaceChildren(el("li", {}, game.status === "active" ? "Waiting for the other seats…" : "No move."));
    await drawBoard(watchingPast ? Number(history.value) : null);
    await loadMessages();
  }

  async function drawBoard(at) {
    boardBox.innerHTML = await api.board(id, seat, at);
    if (at) return;
    const offeredAt = legalVersion;  // read with `legal` below, in the same turn
    // a board element names command fields in its data attributes (data-x/data-y, data-card,
    // data-block, data-to, data-column...): it plays the legal commands that agree with them
    for (const node of boardBox.querySelectorAll("[data-x], [data-card], [data-block], [data-to], [data-column]")) {
      const named = Object.entries(node.dataset);
      const matching = legal.filter((c) => named.some(([k]) => k in c)
        && named.every(([k, v]) => !(k in c) || String(c[k]) === v));
      if (!matching.length) continue;
      const act = () => (matching.length === 1 ? play(matching[0], offeredAt) : offerOnly(matching, offeredAt));
      node.classList.add("clickable");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", matching.length === 1 ? describe(matching[0]) : `${matching.length} moves`);
      node.addEventListener("click", act);
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") act(); });
    }
  }

  // several moves for one place on the board (say, ways to pay): the list shows just those
  function offerOnly(commands, offeredAt) {
    moves.replaceChildren(...commands.map((command) => el("li", {},
      el("button", { class: "move", onclick: () => play(command, offeredAt) }, describe(command)))),
    el("li", {}, el("button", { onclick: () => refresh() }, "Show every move")));
    moves.querySelector("button").focus();
  }

  // each command is sent with the version its list was offered at: a button or board element
  // still on screen from before a live update gets 409, never another version's verdict
  async function play(command, offeredAt) {
    // after a refusal too (say, another seat moved first): show the game as it is now
    // the version the move was offered at: if anything happened since, the server says so
    await guarded(() => api.play(id, seat, command, offeredAt));
    await guarded(refresh);
  }

  async function loadMessages() {
    const page = await api.messages(id);
    messages.replaceChildren(...page.messages.map((m) =>
      el("p", {}, el("strong", {}, `${m.author_name ?? m.author ?? "?"}: `), m.text)));
  }

  history.addEventListener("input", () => guarded(async () => {
    watchingPast = Number(history.value) < game.version;
    historyLabel.textContent = `version ${history.value} of ${game.version}`;
    await drawBoard(watchingPast ? Number(history.value) : null);
  }));

  async function download() {
    await guarded(async () => {
      const record = await api.exportRecord(id);
      const link = el("a", {
        href: URL.createObjectURL(new Blob([JSON.stringify(record, null, 2)], { type: "application/json" })),
        download: `entrepot-${id}.json`,
      });
      document.body.append(link); link.click(); link.remove();
    });
  }

  main.replaceChildren(el("div", { class: "game" },
    el("section", {}, el("h2", {}, "Board"), status, boardBox,
      el("div", { class: "row" }, el("label", { for: "history" }, "History "), history, historyLabel,
        el("button", { onclick: () => { watchingPast = false; refresh(); } }, "Now"),
        el("button", { id: "download", onclick: download }, "Download the audit record"))),
    el("div", {},
      el("section", {}, el("h2", { id: "moves-heading" }, "Your moves"), moves), table.element,
      el("section", {}, el("h2", {}, "Messages"), messages,
        el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); guarded(async () => {
          await api.say(id, text.value); text.value = ""; await loadMessages();
        }); } }, text, el("button", { type: "submit" }, "Send"))))));

  const follow = followStream(id, () => guarded(refresh));
  guarded(refresh).then(() => follow.start(game ? game.version : 0));
  leaveGame = () => follow.stop();
}

// Follows the game's Server-Sent Events with fetch (unlike EventSource, it can send the
// token): any event wakes the page, which then reads what this player may see.
function followStream(id, wake) {
  const controller = new AbortController();
  let last = 0;
  let timer = null;
  const debounced = () => { clearTimeout(timer); timer = setTimeout(wake, 100); };
  async function connect() {
    while (!controller.signal.aborted) {
      try {
        const headers = { Accept: "text/event-stream", "Last-Event-ID": String(last) };
        const response = await fetch(api.streamUrl(id, last), { headers, signal: controller.signal });
        if (!response.ok) throw new Error(`stream: HTTP ${response.status}`);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const message = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const id = message.split("\n").find((line) => line.startsWith("id:"));
            if (id) { last = Number(id.slice(3).trim()); debounced(); }
            if (message.split("\n").some((line) => line.startsWith("event: end"))) return;
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  return { start(after) { last = after; connect(); }, stop() { controller.abort(); } };
}

// --- routing -----------------------------------------------------------------------------
async function route() {
  leaveGame();
  leaveGame = () => {};
  const who = document.getElementById("who");
  if (linkPages(main, route)) { who.textContent = ""; return; }  // a sign-in or reset mail's link
  if (!(await guarded(restore))) {
    who.textContent = "";
    signIn();
    return;
  }
  who.replaceChildren(`${session.player.name} `, el("a", { href: "#/account", id: "account-link" }, "Account"), " ",
    el("button", { onclick: () => signOut(route) }, "Sign out"));
  if (accountPage(main, route)) return;
  if (await lobbyRoute(location.hash, { main, el, guarded, say })) { main.focus(); return; }
  const match = location.hash.match(/^#\/games\/([0-9a-f-]+)$/);
  if (match) gamePage(match[1]);
  else await guarded(lobby);
  main.focus();
}

window.addEventListener("hashchange", route);
route();
