// Correspondence play in the web client: each seat's clock and time bank, takeback with
// consent, private notes, and a finished game's result in words. app.js mounts it on a
// game page (one call) and hands it each game it loads; everything here goes through the
// public REST API (api.js).
import { ApiError, call } from "./api.js";
import { t } from "./i18n.js";

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

export function seatName(game, index) {
  const seat = game.seats.find((s) => s.index === index);
  if (!seat) return t("seat {n}", { n: index + 1 });
  return seat.name || (seat.ai ? t("computer ({level})", { level: t(seat.ai) }) : t("seat {n}", { n: index + 1 }));
}

const REASONS = { timeout: " on time", resigned: " by resignation", abandoned: "", aborted: "" };

// "Finished. Winners: Ada (won on time). Scores: 1 / 0." in a player's words
export function resultText(game) {
  const result = game.result || {};
  if (game.status === "aborted") return "The game was aborted.";
  const winners = (result.winners || []).map((w) => seatName(game, w));
  const why = result.reason === "abandoned" ? " (abandoned)"
    : REASONS[result.reason] ? ` (won${REASONS[result.reason]})` : "";
  const left = (result.out || []).map((o) => `${seatName(game, o.seat)} ${o.reason === "timeout" ? "ran out of time" : "resigned"}`);
  return `Finished. Winners: ${winners.join(", ") || "nobody"}${why}.`
    + (left.length ? ` ${left.join("; ")}.` : "")
    + (result.scores && result.scores.length ? ` Scores: ${result.scores.join(" / ")}.` : "");
}

export function duration(seconds) {
  let left = Math.max(0, Math.floor(seconds));
  const days = Math.floor(left / 86400); left -= days * 86400;
  const hours = Math.floor(left / 3600); left -= hours * 3600;
  const minutes = Math.floor(left / 60); const secs = left - minutes * 60;
  if (days) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours) return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes) return secs ? `${minutes} min ${secs} s` : `${minutes} min`;
  return `${secs} s`;
}

// The panel of a game page: mount once, then update(game, seat, me) after each load.
export function correspondencePanel(id, { refresh, say }) {
  const clock = el("p", { id: "clock-bank", "aria-live": "polite" });
  const takebackBox = el("div", { id: "takeback" });
  const notes = el("textarea", { id: "notes-text", rows: 4, maxlength: 10000, "aria-label": t("My notes on this game") });
  const notesState = el("span", { id: "notes-state", "aria-live": "polite" });
  let notesLoaded = false;
  let seated = false;

  async function attempt(action, done) {
    try { await action(); if (done) say(done); } catch (error) {
      say(error instanceof ApiError ? error.message : String(error));
    }
    await refresh();
  }

  let readAt = Date.now();  // when the game shown was read

  function drawClock(game, seat) {
    const control = game.time_control;
    if (!control || game.status !== "active") { clock.textContent = ""; return; }
    const parts = [];
    const running = Object.fromEntries((game.clocks || []).map((c) => [c.seat, c]));
    if (control.bank) {
      parts.push(`${t("Time bank")} (${control.bank}, +${control.increment || "PT0S"} ${t("a move")}${control.max_bank ? `, ${t("at most")} ${control.max_bank}` : ""}):`);
      // the server says what is left of each bank at the read (its own clock); a running
      // one goes down from there
      const spent = (Date.now() - readAt) / 1000;
      for (const bank of game.banks || []) {
        const c = bank.running && running[bank.seat];
        const left = c && !c.paused_until ? bank.seconds - spent : bank.seconds;
        parts.push(`${seatName(game, bank.seat)}${bank.seat === seat ? ` ${t("(you)")}` : ""} ${duration(left)}${c ? ` ${t("and running")}` : ""}`);
      }
    } else {
      for (const c of game.clocks || []) {
        parts.push(`${seatName(game, c.seat)}${c.seat === seat ? ` ${t("(you)")}` : ""} ${t("must move before")} ${new Date(c.deadline).toLocaleString(document.documentElement.lang)}`
          + (c.paused_until ? ` (${t("paused until")} ${new Date(c.paused_until).toLocaleString(document.documentElement.lang)})` : ""));
      }
    }
    clock.textContent = parts.join(" · ");
  }

  function drawTakeback(game, seat) {
    const asked = game.takeback;
    const active = game.status === "active" && seat !== null;
    const children = [];
    if (active && asked && asked.seat !== seat) {
      children.push(el("p", {}, `${seatName(game, asked.seat)} ${t("asks to take back their last move.")}`),
        el("button", { id: "takeback-accept", onclick: () => attempt(() => call("POST", `/games/${id}/takeback/accept`, { seat }), t("Takeback accepted.")) }, t("Accept the takeback")), " ",
        el("button", { id: "takeback-decline", onclick: () => attempt(() => call("POST", `/games/${id}/takeback/decline`, { seat }), t("Takeback declined.")) }, t("Decline")));
    } else if (active && asked) {
      children.push(el("p", {}, t("You asked to take back your last move: waiting for the other players' answer.")));
    } else if (active) {
      children.push(el("button", {
        id: "takeback-ask",
        onclick: () => attempt(() => call("POST", `/games/${id}/takeback`, { seat }), t("Takeback asked: the other players answer.")),
      }, t("Take back my last move")));
    }
    takebackBox.replaceChildren(...children);
  }

  async function loadNotes() {
    try {
      const note = await call("GET", `/games/${id}/notes`);
      notes.value = note.text;
      notesLoaded = true;
    } catch (error) { notesState.textContent = error instanceof ApiError ? error.message : String(error); }
  }

  const notesForm = el("form", {
    class: "notes",
    onsubmit: (event) => {
      event.preventDefault();
      call("PUT", `/games/${id}/notes`, { text: notes.value })
        .then(() => { notesState.textContent = t("Saved. Only you can read your notes."); })
        .catch((error) => { notesState.textContent = error instanceof ApiError ? error.message : String(error); });
    },
  }, notes, el("div", { class: "row" }, el("button", { type: "submit", id: "notes-save" }, t("Save my notes")), " ", notesState));
  const notesSection = el("section", { id: "notes", hidden: true }, el("h2", {}, t("My notes")), notesForm);

  const element = el("div", { id: "correspondence" },
    el("section", {}, el("h2", {}, t("Clock and takeback")), clock, takebackBox), notesSection);

  return {
    element,
    update(game, seat, me) {
      readAt = Date.now();
      seated = Boolean(me && game.seats.some((s) => s.player_id === me.id));
      drawClock(game, seat);
      drawTakeback(game, seated ? seat : null);
      notesSection.hidden = !seated;
      if (seated && !notesLoaded) loadNotes();
    },
  };
}
