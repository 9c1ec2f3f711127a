// A game: the board and the player's cards played by clicking, the legal moves in words,
// names, the clock, the result, the history with its move log, live chat.
import { api, ApiError, credentials, session } from "./api.js";
import { el, registerPage, say } from "./pages.js";
import { language, t } from "./i18n.js";
import { describe, describeEvent, titleName } from "./words.js";
import { frenchBoard } from "./board-words.js";
import { tablePieces } from "./table.js";
import { helpFor } from "./help.js";
import { correspondencePanel } from "./correspondence.js";
import { signInPage } from "./account.js";

const componentsCache = {};
async function components(title) {
  if (!componentsCache[title]) {
    componentsCache[title] = api.titleDetail(title).then((d) => d.components || {}, () => ({}));
  }
  return componentsCache[title];
}

export function seatName(game, index, me) {
  const seat = game.seats.find((s) => s.index === index);
  if (!seat) return t("seat {n}", { n: index });
  const name = seat.name || (seat.ai ? t("computer ({level})", { level: t(seat.ai) }) : t("seat {n}", { n: index }));
  return me && seat.player_id === me.id ? `${name} ${t("(you)")}` : name;
}

export function countdown(deadline) {
  const left = Math.max(0, new Date(deadline).getTime() - Date.now());
  const s = Math.floor(left / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  const parts = d ? [`${d} ${t("d")}`, `${h} h`] : h ? [`${h} h`, `${m} min`] : [`${m} min`, `${s % 60} s`];
  return `${parts.join(" ")} ${t("left")}`;
}

// why it ended: the result's `reason` when the server gives it, else what the seats that
// left say in their events (resigned, timeout), else the score
export function resultWords(game, me, leftBecause = null) {
  const result = game.result || {};
  const winners = (result.winners || []).map((i) => seatName(game, i, me));
  const why = result.reason || leftBecause || ((game.out || []).length ? "a seat left" : "scored");
  const reason = ` (${t(`why: ${why}`)})`;
  const scores = (result.scores || []).map((score, i) => `${seatName(game, i, me)} ${score}`).join(", ");
  const won = winners.length ? `${winners.join(` ${t("and")} `)} ${t("won")}${reason}.` : `${t("No winner")}${reason}.`;
  // the seats that left the game (the result's `out`): who resigned, who ran out of time
  const left = (result.out || []).map((o) => `${seatName(game, o.seat, me)} ${o.reason === "timeout" ? t("ran out of time") : t("resigned")}`);
  return `${t("Finished.")} ${won}${left.length ? ` ${left.join("; ")}.` : ""} ${t("Scores")}: ${scores}.`;
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// Amsterdam's picture writes goods, waterway nodes and depots in two letters: each label
// gets its full name (a tooltip), and the initials it uses are spelled out under the board
const AMSTERDAM_LABELS = {
  Be: "beer", Tu: "tulips", Ch: "cheese", Fu: "furniture", Ge: "genever", Ti: "tiles", La: "lace", Co: "coffee", Cr: "crystal",
};
function boardLegend(title, box) {
  if (title !== "amsterdam") return [];
  const used = new Set();
  const pontoons = [];
  // a pontoon is drawn with its colour's first two letters ("li" for light blue and light
  // green alike): the page writes a code of its own, spelled out below
  for (const node of box.querySelectorAll("[data-to^='P:']")) {
    const colour = node.dataset.to.slice(2);
    const code = colour.split("_").map((w) => w[0]).join("").padEnd(2, colour[1]).slice(0, 2);
    const label = node.querySelector("text");
    if (!label) continue;
    label.textContent = code;
    const words = t("pontoon where {colour} dockers wait", { colour: t(colour.replace(/_/g, " ")) });
    const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
    tip.textContent = words;
    label.append(tip);
    if (!pontoons.some(([c]) => c === code)) pontoons.push([code, words]);
  }
  for (const label of box.querySelectorAll("text")) {
    if (label.querySelector("title")) continue;
    const words = label.textContent.trim();
    const good = AMSTERDAM_LABELS[words] || AMSTERDAM_LABELS[words.split(":").pop()];
    const node = /^W\d+$/.test(words) ? t("waterway {name}", { name: words }) : /^D\d+(:|$)/.test(words) ? t("depot {name}", { name: words.split(":")[0] }) : null;
    if (good) used.add(words.split(":").pop());
    if (good || node) {
      const name = [node, good ? t(good) : null].filter(Boolean).join(", ");
      const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
      tip.textContent = name;
      label.append(tip);
    }
  }
  const entries = Object.keys(AMSTERDAM_LABELS).filter((key) => used.has(key))
    .map((key) => [key, t(AMSTERDAM_LABELS[key])]);
  entries.push(...pontoons);
  entries.push(["W1, W2…", t("the waterway of the harbour, where the barges sail")], ["D…", t("a depot (its good after the colon)")],
    ["◀", t("the seat that acts")]);
  return entries.flatMap(([term, words]) => [el("dt", {}, term), el("dd", {}, words)]);
}

// the server's words for each legal command (legal-commands `descriptions`, the same as the
// mail's and the CLI's); a command without them is said by words.js
const serverWords = new WeakMap();
function say_(command, ctx) { return (language() === "en" && serverWords.get(command)) || describe(command, ctx); }

function gamePage(id) {
  const me = session.player;
  const status = el("p", { id: "status", "aria-live": "polite" });
  const clock = el("p", { id: "clock" });
  const boardBox = el("div", { id: "board", tabindex: 0, role: "region", "aria-label": t("Board") });
  const choices = el("div", { id: "choices", role: "group", "aria-label": t("Which one?") });
  const legend = el("dl", { id: "board-legend", class: "board-legend" });
  const table = el("div", { id: "table" });
  const moves = el("ul", { class: "moves", id: "moves" });
  const history = el("input", { id: "history", type: "range", min: 1, value: 1, "aria-label": t("history: version") });
  const historyLabel = el("output", { for: "history", id: "history-label" });
  const pastNote = el("p", { id: "past", hidden: true }, t("You are looking at the past: no move can be played. \"Now\" returns."));
  const log = el("ol", { id: "log", class: "log" });
  const messages = el("div", { id: "messages", "aria-live": "polite" });
  const unread = el("span", { id: "unread", class: "badge", hidden: true });
  const text = el("input", { id: "message-text", maxlength: 2000, "aria-label": t("message") });
  const teamOption = el("option", { value: "team" }, t("your team"));
  const channel = el("select", { id: "message-channel", "aria-label": t("channel") },
    el("option", { value: "table" }, t("everyone")), teamOption);
  const chatForm = el("form", { class: "row", id: "chat-form", onsubmit: (e) => { e.preventDefault(); guarded(async () => {
    await api.say(id, text.value, channel.value, seat); text.value = ""; await loadMessages();
    seenMessages = messages.children.length; unread.hidden = true;
  }); } }, text, channel, el("button", { type: "submit" }, t("Send")));
  const logBox = el("details", { id: "log-box" }, el("summary", { id: "log-heading" }, t("Move log")), log);
  logBox.addEventListener("toggle", () => { if (logBox.open) guarded(loadLog); });
  const controls = el("div", { class: "row", id: "game-controls" });
  const helpBox = el("details", { id: "help" }, el("summary", {}, t("Legend and rules")));

  let game = null;
  let seat = null;
  let legal = [];
  let legalVersion = null;
  let told = null;  // the moves the answer to this page's last move told (one request less to play on)
  let ctx = {};
  let refreshing = Promise.resolve();
  let watchingPast = false;
  // the "Which one?" choice the player has open: a live update (another player's move in a
  // simultaneous phase) redraws the page, and the choice stays open with what is still legal
  let openChoice = null;
  const moveOf = new WeakMap();  // each button of the list of moves: its command
  let seenMessages = null;  // how many messages this page has shown as read
  let ticking = null;
  // correspondence.js: each seat's clock and time bank, takeback, private notes
  const corr = correspondencePanel(id, { refresh: () => guarded(refresh), say });

  function guarded(action) {
    return (async () => {
      try { return await action(); } catch (error) {
        say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error));
        return undefined;
      }
    })();
  }

  // one refresh at a time: a stream wake-up and a move must not interleave their reads;
  // `data-busy` on <main> says when the page is being redrawn
  let pending = 0;
  function refresh() {
    const root = document.getElementById("main");
    pending += 1; root.dataset.busy = "1";
    refreshing = refreshing.then(load, load).finally(() => { pending -= 1; if (!pending) root.dataset.busy = "0"; });
    return refreshing;
  }

  const names = (index) => seatName(game, index, me);

  async function load() {
    game = await api.game(id);
    const mine = game.seats.filter((s) => me && s.player_id === me.id).map((s) => s.index);
    seat = mine.find((s) => game.to_act.includes(s)) ?? mine[0] ?? null;
    ctx = { title: game.title, view: game.view, seat, cards: {} };
    const parts = await components(game.title);
    for (const card of parts.cards || []) if (card.id !== undefined) ctx.cards[card.id] = card;
    window.dispatchEvent(new Event("entrepot:games-changed"));  // the tab title counts again
    status.dataset.version = game.version;
    status.dataset.status = game.status;
    const players = game.seats.map((s) => names(s.index)).join(", ");
    corr.update(game, seat, me);
    if (game.status === "finished" || game.status === "aborted") {
      let leftBecause = null;
      if ((game.out || []).length && !(game.result || {}).reason && !(game.result || {}).out) {
        const page = await api.events(id, 0).catch(() => ({ events: [] }));
        const left = page.events.find((e) => e.data && (e.data.reason === "resigned" || e.data.reason === "timeout"));
        leftBecause = left ? left.data.reason : null;
      }
      // the result's reason and the seats that left (`out`) when the server gives them,
      // else what the events say
      status.textContent = game.status === "aborted" ? `${t("The game was aborted. Players:")} ${players}.` : resultWords(game, me, leftBecause);
    } else if (game.status === "waiting") {
      status.textContent = `${titleName(game.title)}: ${t("waiting for players")}. ${players}.`;
    } else {
      const acting = game.to_act.map(names).join(", ") || t("nobody");
      status.textContent = `${titleName(game.title)} · ${players} · ${t("Waiting for")} ${acting}` +
        (seat !== null && game.to_act.includes(seat) ? ` — ${t("your turn")}` : "");
    }
    clearInterval(ticking);
    const tick = () => { clock.textContent = game.deadline && game.status === "active" ? `${t("deadline")}: ${countdown(game.deadline)}` : ""; };
    tick();
    ticking = setInterval(tick, 1000);
    controls.replaceChildren(...gameControls());
    chatForm.hidden = seat === null;  // a spectator reads the public chat and does not post
    // team chat where the form has teams; partners talk only when the rules let them
    // (Kontor: while the revealed cards are placed)
    const teams = Boolean(game.view && game.view.teams);
    channel.hidden = !teams;
    teamOption.disabled = !(teams && game.status === "active" && (game.view.phase === undefined || game.view.phase === "place"));
    if (teamOption.disabled && channel.value === "team") channel.value = "table";
    teamOption.textContent = teamOption.disabled ? t("your team (not now: only while the revealed cards are placed)") : t("your team");
    if (game.status === "waiting") {
      boardBox.replaceChildren(el("p", {}, t("waiting for players")));
      moves.replaceChildren(); table.replaceChildren(); closeChoice();
      await loadMessages();
      return;
    }
    history.max = Math.max(1, game.version);
    if (!watchingPast) history.value = game.version;
    historyLabel.textContent = t("version {n} of {last}", { n: history.value, last: game.version });
    // the moves, the picture and the chat are read side by side
    const at = watchingPast ? Number(history.value) : null;
    // kept while the game is at its version: the stream's wake-up for that move redraws too
    const toldNow = told && told.version === game.version && told.seat === seat ? told : null;
    const [offered, picture] = await Promise.all([
      seat !== null && game.to_act.includes(seat) && game.status === "active" ? toldNow || api.legal(id, seat) : null,
      api.board(id, seat, at), loadMessages(), logBox.open ? loadLog() : null]);
    legal = offered ? offered.commands : [];
    (offered?.descriptions || []).forEach((words, index) => { if (legal[index]) serverWords.set(legal[index], words); });
    legalVersion = offered ? offered.version : game.version;
    await drawBoard(at, picture);
  }

  function gameControls() {
    const out = [];
    if (seat !== null && game.status === "active") {
      out.push(el("button", { id: "resign", onclick: () => {
        if (confirm(`${t("Resign")}?`)) guarded(async () => { await api.resign(id, seat); await refresh(); });
      } }, t("Resign")));
    }
    if (seat !== null && (game.status === "active" || game.status === "waiting")) {
      out.push(el("button", { id: "abort", onclick: () => guarded(async () => { await api.abort(id); await refresh(); }) },
        t("Abort the game")));
    }
    const asking = (game.abort_requests || []).filter((i) => i !== seat);
    if (asking.length && game.status === "active") {
      out.push(el("span", { id: "abort-asked", class: "badge" }, `${asking.map(names).join(", ")} ${t("asked to abort the game")}`));
    }
    out.push(el("button", { id: "download", onclick: download }, t("Download the audit record")));
    return out;
  }

  // every element that names command fields (board data attributes) or stands for commands
  // (the table's pieces) plays them: one directly, several through a choice in words
  function wire(node, commands, offeredAt) {
    const act = () => (commands.length === 1 ? play(commands[0], offeredAt) : choose(commands, offeredAt, node));
    node.classList.add("clickable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", commands.length === 1 ? say_(commands[0], ctx)
      : `${node.getAttribute("data-label") || ""} ${t("{n} moves", { n: commands.length })}`.trim());
    node.addEventListener("click", act);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
  }

  async function drawBoard(at, picture = null) {
    const drawn = picture ?? await api.board(id, seat, at);
    const held = heldFocus();
    boardBox.innerHTML = drawn;
    const svg = boardBox.querySelector("svg");
    // the picture holds buttons (the places to click): a group, not an image, for readers
    if (svg) { svg.setAttribute("aria-label", `${t("Board")}: ${titleName(game.title)}`); svg.setAttribute("role", at ? "img" : "group"); }
    // the picture names seats by number: the page writes their names there
    for (const label of boardBox.querySelectorAll("text")) {
      const match = label.textContent.match(/^seat (\d+)( ◀)?$/);
      if (match && game.seats.some((s) => s.index === Number(match[1]))) {
        label.textContent = `${names(Number(match[1]))}${match[2] || ""}`;
        label.dataset.named = "";
      }
    }
    // the picture's own words (English, as the server draws them) in the page's language
    if (svg && language() === "fr") frenchBoard(svg, ctx.cards, (node) => node.closest("[data-named]"));
    legend.replaceChildren(...boardLegend(game.title, boardBox));
    const reopening = openChoice;
    // where the keyboard was in the choice, so that a redraw does not move it
    const focused = choices.contains(document.activeElement) ? [...choices.querySelectorAll("button")].indexOf(document.activeElement) : -1;
    const focusedCommand = reopening && focused >= 0 ? reopening.commands[focused] : undefined;
    closeChoice();
    pastNote.hidden = !at;
    if (at) {
      table.replaceChildren(); moves.replaceChildren(el("li", {}, t("You are looking at the past: no move can be played. \"Now\" returns.")));
      return;
    }
    const offeredAt = legalVersion;
    const covered = new Set();
    for (const node of boardBox.querySelectorAll("[data-x], [data-card], [data-block], [data-to], [data-column]")) {
      const named = Object.entries(node.dataset);
      const matching = legal.filter((c) => named.some(([k]) => k in c)
        && named.every(([k, v]) => !(k in c) || String(c[k]) === v));
      if (!matching.length) continue;
      matching.forEach((c) => covered.add(c));
      wire(node, matching, offeredAt);
    }
    const groups = tablePieces(game.title, game.view, legal, covered, ctx);
    table.replaceChildren(...groups.map((g) => el("div", { class: "pieces" },
      el("h3", {}, g.heading),
      el("div", { class: "row" }, g.items.map((item) => {
        const piece = el("span", { class: `piece ${item.kind}`, "data-label": item.label }, item.label);
        wire(piece, item.commands, offeredAt);
        return piece;
      })))));
    moves.replaceChildren(...legal.map((command, index) => {
      const button = el("button", { class: "move", "data-index": index, onclick: () => play(command, offeredAt) },
        `${index + 1}. ${say_(command, ctx)}`);
      moveOf.set(button, command);
      return el("li", {}, button);
    }));
    if (!legal.length) {
      const words = game.status !== "active" ? "" : seat === null ? t("You are watching this game.") : t("No move for you now.");
      moves.replaceChildren(el("li", {}, words || "—"));
    }
    const still = reopening ? reopening.commands.filter((c) => legal.some((l) => same(l, c))) : [];
    if (still.length) {
      const stillFocused = focusedCommand === undefined ? -1 : still.findIndex((c) => same(c, focusedCommand));
      // the same move keeps the focus; the Cancel button (last) stays Cancel; else the first move
      // the piece it was opened from, redrawn (where Cancel returns the keyboard)
      const node = clickableNamed(reopening.node.getAttribute("aria-label"), [boardBox, table]) || reopening.node;
      choose(still, offeredAt, node, focused < 0 ? null : stillFocused >= 0 ? stillFocused
        : focused === reopening.commands.length ? still.length : 0, true);
    }
    restoreFocus(held);
  }

  // A redraw replaces the board, the pieces and the list of moves: the keyboard's place is
  // found again afterwards (the same move in the list, the same place or piece by its name)
  // when the redraw took it away, so that another player's move does not send it back to
  // the top of the page.
  function heldFocus() {
    const active = document.activeElement;
    if (!active || active === document.body) return null;
    if (moveOf.has(active) && moves.contains(active)) return { command: moveOf.get(active) };
    for (const box of [boardBox, table]) {
      if (box.contains(active) && active.classList.contains("clickable")) return { box, label: active.getAttribute("aria-label") };
    }
    return null;
  }

  function restoreFocus(held) {
    if (!held || (document.activeElement && document.activeElement !== document.body)) return;
    const target = held.command !== undefined
      ? [...moves.querySelectorAll("button.move")].find((button) => same(moveOf.get(button), held.command))
      : clickableNamed(held.label, [held.box]);
    // where the page already is: a redraw does not scroll it
    if (target) target.focus({ preventScroll: true });
    else if (held.box === boardBox) boardBox.focus({ preventScroll: true });  // the place is gone: the board, not the page's top
  }

  // the place or piece (as now drawn in ``boxes``) whose name for readers is ``label``
  function clickableNamed(label, boxes) {
    return boxes.flatMap((box) => [...box.querySelectorAll(".clickable")]).find((node) => node.getAttribute("aria-label") === label);
  }

  // ``focus``: the index of the button to focus (the moves, then Cancel), or null for none;
  // ``redrawn``: the choice was open already, and the page does not scroll to it
  function choose(commands, offeredAt, node, focus = 0, redrawn = false) {
    openChoice = { commands, node };
    choices.replaceChildren(el("p", {}, t("Which one?")), el("div", { class: "row" },
      commands.map((command) => el("button", { class: "choice", onclick: () => play(command, offeredAt) }, say_(command, ctx))),
      el("button", { class: "cancel", onclick: () => { closeChoice(); if (node.isConnected) node.focus(); } }, t("Cancel"))));
    if (focus !== null) choices.querySelectorAll("button")[focus].focus({ preventScroll: redrawn });
  }

  function closeChoice() {
    openChoice = null;
    choices.replaceChildren();
  }

  // a move meeting a concurrent update (409) is sent again at the new version when it is
  // still legal, and explained in words when it is not
  async function play(command, offeredAt) {
    if (watchingPast) return;
    closeChoice();
    let version = offeredAt;
    let attempt = 0;
    for (; attempt < 4; attempt++) {
      try {
        told = (await api.play(id, seat, command, version)).legal_commands || null;
        break;
      } catch (error) {
        if (!(error instanceof ApiError)) { say(String(error)); break; }
        if (error.code !== "version_conflict") { say(`${error.message} (${error.code || error.status})`); break; }
        const now = await api.legal(id, seat).catch(() => null);
        if (!now || !now.commands.some((c) => same(c, command))) {
          say(t("The game moved on before your move arrived (\"{move}\"); it is no longer possible. Here is the game as it is now.", { move: say_(command, ctx) }));
          break;
        }
        version = now.version;  // still legal: sent again at the new version
      }
    }
    if (attempt === 4) say(t("The game kept moving while your move was sent (\"{move}\"): it was not played. Try it again.", { move: say_(command, ctx) }));
    await guarded(refresh);
  }

  async function loadMessages() {
    const page = await api.messages(id);
    messages.replaceChildren(...page.messages.map((m) => el("p", { class: "message" },
      el("strong", {}, `${m.seat !== null && m.seat !== undefined ? names(m.seat) : "?"}`),
      m.channel && m.channel !== "table" ? el("em", {}, ` (${t("team")})`) : null, ": ", m.text)));
    const reading = document.activeElement === text;
    if (seenMessages === null || reading) seenMessages = page.messages.length;
    const fresh = page.messages.length - seenMessages;
    unread.hidden = fresh <= 0;
    unread.textContent = fresh > 0 ? t("{n} unread", { n: fresh }) : "";
    messages.scrollTop = messages.scrollHeight;
  }
  text.addEventListener("focus", () => { unread.hidden = true; seenMessages = messages.children.length; });

  async function loadLog() {
    const page = await api.events(id, 0).catch(() => ({ events: [] }));
    log.replaceChildren(...page.events.map((event) => el("li", {}, el("button", {
      class: "log-entry", "data-seq": event.seq, onclick: () => guarded(() => showAt(event.seq)),
    }, `${event.seq}. ${describeEvent(event, names, ctx)}`))));
  }

  async function showAt(version) {
    watchingPast = version < game.version;
    history.value = version;
    historyLabel.textContent = t("version {n} of {last}", { n: version, last: game.version });
    await drawBoard(watchingPast ? version : null);
  }

  history.addEventListener("input", () => guarded(() => showAt(Number(history.value))));

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

  const main = document.getElementById("main");
  // a visitor watches; the way in is below the game (a mail's game link lands here)
  const visitor = me ? null : el("section", { id: "sign-in-box", "aria-label": t("Sign in") });
  if (visitor) signInPage(visitor, () => window.dispatchEvent(new Event("hashchange")));
  main.replaceChildren(el("div", { class: "game" },
    el("section", { "aria-labelledby": "board-heading" }, el("h2", { id: "board-heading" }, t("Board")), status, clock, boardBox, legend, choices,
      el("div", { class: "row" }, el("label", { for: "history" }, t("History")), history, historyLabel,
        el("button", { id: "now", onclick: () => { watchingPast = false; refresh(); } }, t("Now"))), pastNote,
      controls, helpBox),
    el("div", {},
      el("section", { "aria-labelledby": "table-heading" }, el("h2", { id: "table-heading" }, t("Your cards and choices")), table),
      corr.element,
      el("section", { "aria-labelledby": "chat-heading" }, el("h2", { id: "chat-heading" }, t("Messages"), " ", unread), messages, chatForm),
      el("section", { "aria-labelledby": "moves-heading" }, el("details", {}, el("summary", { id: "moves-heading" }, t("Every legal move, in words")), moves)),
      el("section", { "aria-labelledby": "log-heading" }, logBox))), ...(visitor ? [visitor] : []));

  // the game's stream wakes the page on each event, and says "message" when the chat the
  // viewer may read grew (no polling)
  // (an event this page already drew, e.g. its own move, wakes nothing)
  const follow = followStream(id, (seen) => { if (!game || seen > game.version || game.status === "waiting") guarded(refresh); },
    () => { if (game) loadMessages().catch(() => {}); });
  guarded(refresh).then(() => {
    follow.start(game ? game.version : 0);
    if (game) helpFor(game.title).then((nodes) => helpBox.append(...nodes));
  });
  return () => { follow.stop(); clearInterval(ticking); };
}

// Follows the game's Server-Sent Events with fetch (unlike EventSource, it carries the
// credentials api.js sets): any event wakes the page, which then reads what it may see;
// a "message" (no id: not an event of the game) says the chat grew.
function followStream(id, wake, chatted) {
  const controller = new AbortController();
  let last = 0;
  let timer = null;
  const debounced = () => { clearTimeout(timer); timer = setTimeout(() => wake(last), 100); };
  async function connect() {
    while (!controller.signal.aborted) {
      try {
        const headers = credentials({ Accept: "text/event-stream", "Last-Event-ID": String(last) });
        const response = await fetch(api.streamUrl(id, last), { headers, signal: controller.signal, credentials: "same-origin" });
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
            const lines = message.split("\n");
            const line = lines.find((l) => l.startsWith("id:"));
            if (line) { last = Number(line.slice(3).trim()); debounced(); }
            if (lines.includes("event: message")) chatted();
            if (lines.some((l) => l.startsWith("event: end"))) return;
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

registerPage(/^#\/games\/([0-9a-f-]+)$/, (id) => gamePage(id));
