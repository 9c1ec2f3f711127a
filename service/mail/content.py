"""What each mail says: subject, text and HTML. Built from rows only, so the sweeper can
render a lost mail again; None when the mail has lost its point (the game moved on)."""

from __future__ import annotations

import hashlib
import html
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from boards import render
from boards.png import png
from domain.common.envelope import encode_command
from service.correspondence.time_control import banks_now
from service.games.moves import describe_all, event_words
from service.games.service import GameService, event_page
from service.games.store import Game, Tx
from service.games.titles import title as title_of
from service.mail import records
from service.mail.compose import Content, Image, mailbox
from service.mail.position import board_text, hidden_text, scores_text
from service.mail.records import Notification, Recipient
from service.mail.tokens import Tokens, token_hash

log = logging.getLogger(__name__)

#: a reply address works this long after its mail (and for one move): long enough for a
#: correspondence game's slowest clock, short enough that an old mailbox is no key
REPLY_TTL_SECONDS = 30 * 24 * 3600.0

KIND_OF_TYPE = {"your_turn": "your_turn", "reminder": "reminder", "finished": "finished", "message": "messages"}


@dataclass(frozen=True)
class Links:
    public_url: str
    reply_domain: str

    def game(self, game_id: str) -> str:
        return f"{self.public_url}/#/games/{game_id}"

    def verify(self, token: str) -> str:
        return f"{self.public_url}/v1/email/verify/{token}"

    def unsubscribe(self, token: str) -> str:
        return f"{self.public_url}/v1/unsubscribe/{token}"


def _html(*paragraphs: str, pre: str | None = None, link: tuple[str, str] | None = None) -> str:
    parts = [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    if pre:
        parts.append(f"<pre>{html.escape(pre)}</pre>")
    if link:
        parts.append(f'<p><a href="{html.escape(link[0])}">{html.escape(link[1])}</a></p>')
    return "".join(parts)


def game_label(game: Game) -> str:
    return f"{title_of(game.title).name} game {game.id[:8]}"


def is_their_turn(game: Game, seat: int | None, since_version: int) -> bool:
    """The seat is (still, or again) to act, at ``since_version`` or later."""
    return game.status == "active" and game.version >= since_version and seat is not None and seat in game.to_act


def turn_still_open(tx: Tx, game: Game, seat: int | None, since_version: int) -> bool:
    """The seat is to act (is_their_turn) and has not moved since ``since_version``. A
    turn the seat has played since, and is to act in again, has a later notice of its own
    whose mail shows the same position: two mails would ask for one move twice (a late
    fan-out, beside the computer's move, tells both turns at once)."""
    return is_their_turn(game, seat, since_version) and not records.seat_moved_since(tx, game.id, seat, since_version)


def _names(game: Game) -> list[str]:
    return [s.name or ("the computer" if s.ai else f"seat {s.index + 1}") for s in game.seats]


def _when(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _span(seconds: float) -> str:
    """``2 days 3 hours``, ``40 minutes``, ``12 seconds``: the two largest units."""
    left = max(int(seconds), 0)
    units = [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]
    first = next((i for i, (_, size) in enumerate(units) if left >= size), len(units) - 1)
    said = []
    for name, size in units[first:first + 2]:
        count, left = divmod(left, size)
        if count or not said:
            said.append(f"{count} {name}{'' if count == 1 else 's'}")
    return " ".join(said)


def clock_text(table: dict, control: dict | None, names: list[str], seat: int, now: datetime) -> str:
    """The seat's time: its deadline on a time per move; on a time bank, what is left of
    each seat's bank now (service/correspondence/time_control.py ``banks_now``). ``table`` is the
    table's read model of the state the mail shows (``title.table_json``)."""
    control = control or {}
    if control.get("bank"):
        banks = (banks_now(table, now) or {}).get("banks") or []
        parts = [f"{names[b['seat']] if 0 <= b['seat'] < len(names) else 'seat ' + str(b['seat'] + 1)}"
                 f"{' (you)' if b['seat'] == seat else ''} {_span(b['seconds'])}"
                 f"{', running' if b.get('running') else ''}" for b in banks]
        return "Time bank left now: " + "; ".join(parts) + "." if parts else ""
    mine = [c for c in table.get("clocks") or () if c.get("seat") == seat]
    if not mine:
        return ""
    deadline = datetime.fromisoformat(mine[0]["deadline"].replace("Z", "+00:00"))
    return f"Your move is due by {_when(deadline)} ({_span((deadline - now).total_seconds())} from now)."


def your_turn(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient, game_id: str,
              seat: int, since_version: int, intro: str = "", subject: str | None = None) -> Content | None:
    """The position now (the board as a picture and in characters, the scores, the seat's
    own hidden cards), the legal moves numbered in words, and a Reply-To that plays one:
    None if it is no longer this seat's turn. (A mail that waited shows the latest
    state, never an old one.) The reply token keeps the numbered moves, so a reply's
    number means what this mail listed, whenever it arrives."""
    game, folded = games.live(tx, game_id)
    if not turn_still_open(tx, game, seat, since_version):
        return None
    version = game.version
    title = title_of(game.title)
    commands = [encode_command(c) for c in title.legal_commands(folded.state, seat)]
    view = title.view(folded.state, seat)
    words = describe_all(game.title, view, commands)
    now = games.clock.now()
    token_id = records.reply_token_row(tx, player.id, game_id, seat, version, now, commands, REPLY_TTL_SECONDS)
    token = tokens.reply(token_id, player.id, game_id, seat, version)
    records.keep_reply_token_hash(tx, token_id, token_hash(token))
    expires = records.reply_token(tx, token_id, now)["expires_at"]
    label = game_label(game)
    names = _names(game)
    scores = scores_text(view, names, seat)
    hidden = hidden_text(game.title, view)
    board = board_text(game.title, view, names)
    recent = last_moves(tx, game, seat, names)
    picture = _picture(game.title, view, title)
    listed = "\n".join(f"{i}. {w}" for i, w in enumerate(words, start=1))
    how = ("Reply to this mail with the number of your move on the first line (for example: 1)."
           f" This reply address plays one move and works until {_when(expires)}.")
    lead = f"It is your turn in {label}."
    timing = clock_text(title.table_json(folded.state), game.time_control, _names(game), seat, games.clock.now())
    lead = f"{lead} {timing}" if timing else lead
    text = "\n\n".join(p for p in (intro.strip(), lead, scores, hidden, "The board:\n" + board, recent,
                                   "Your moves:\n" + listed, how,
                                   f"Or play in the browser: {links.game(game_id)}") if p) + "\n"
    body = _html(*(p for p in (intro.strip(), lead) if p))
    if picture is not None:
        body += (f'<p><img src="cid:{picture.cid}" alt="{html.escape(_alt(board))}"'
                 ' style="max-width:100%"></p>')
    else:
        body += f"<pre>{html.escape(board)}</pre>"
    body += _html(*(p for p in (scores, hidden) if p))
    if recent:
        body += f"<pre>{html.escape(recent)}</pre>"
    body += ("<p>Your moves:</p><ol>" + "".join(f"<li>{html.escape(w)}</li>" for w in words) + "</ol>"
             + _html(how, link=(links.game(game_id), "Play in the browser")))
    return Content(subject or f"Your turn: {label}", text, body,
                   reply_to=mailbox(f"play+{token}", links.reply_domain),
                   images=(picture,) if picture is not None else ())


def position_now(tx: Tx, games: GameService, links: Links, game_id: str, seat: int, intro: str,
                 subject: str) -> Content | None:
    """The game as it is now for a seat that is not to act (the board, scores, its own
    hidden cards), with no move and no reply address: None once the game is over."""
    game, folded = games.live(tx, game_id)
    if game.status != "active":
        return None
    title = title_of(game.title)
    view = title.view(folded.state, seat)
    scores, hidden = scores_text(view, _names(game), seat), hidden_text(game.title, view)
    board = board_text(game.title, view, _names(game))
    picture = _picture(game.title, view, title)
    later = "It is not your turn now: you will get a mail when it is."
    text = "\n\n".join(p for p in (intro.strip(), later, scores, hidden, "The board:\n" + board,
                                   links.game(game_id)) if p) + "\n"
    body = _html(*(p for p in (intro.strip(), later) if p))
    if picture is not None:
        body += (f'<p><img src="cid:{picture.cid}" alt="{html.escape(_alt(board))}"'
                 ' style="max-width:100%"></p>')
    body += _html(*(p for p in (scores, hidden) if p), link=(links.game(game_id), "Open the game"))
    return Content(subject, text, body, images=(picture,) if picture is not None else ())


#: how many of the latest events a mail reads, and how many moves in words it shows
RECENT_EVENTS = 60
RECENT_MOVES = 12


def last_moves(tx: Tx, game: Game, seat: int, names: list[str]) -> str:
    """The latest moves in words, as this seat may see them: the events page's redaction
    for the seat (another seat's secret choice is said without what it chose)."""
    after = max(game.version - RECENT_EVENTS, 0)
    page = event_page(game, tx.events(game.id, after=after, upto=game.version), seat, after)
    said = [w for w in (event_words(game.title, e, names, seat) for e in page.events) if w]
    if not said:
        return ""
    return "Last moves:\n" + "\n".join(f"- {w}" for w in said[-RECENT_MOVES:])


def _alt(board: str) -> str:
    return "The board. In characters: " + " / ".join(line.strip() for line in board.splitlines() if line.strip())


def _picture(title_id: str, view: dict, title) -> Image | None:
    """The board picture of ``board.svg`` as a PNG; None (the text alone) if it cannot be
    drawn: a mail is never lost for its picture."""
    try:
        data = png(render(title_id, view, title.component_data()))
    except Exception:
        log.exception("the board of a %s mail could not be drawn", title_id)
        return None
    return Image(f"board-{hashlib.sha256(data).hexdigest()[:16]}@entrepot", data)


def result_words(game: Game) -> str:
    """``Ada won. Scores: Ada 12, Bob 10.`` from the game's stored result."""
    result = game.result or {}
    names = _names(game)
    winners = [names[w] if 0 <= w < len(names) else f"seat {w + 1}" for w in result.get("winners", [])]
    said = []
    if winners:
        said.append(" and ".join(winners) + (" won." if len(winners) == 1 else " won together."))
    elif game.status == "aborted":
        said.append("The game was called off.")
    else:
        said.append("Nobody won.")
    scores = result.get("scores") or []
    if scores:
        said.append("Scores: " + ", ".join(f"{names[i] if i < len(names) else f'seat {i + 1}'} {s:g}"
                                           for i, s in enumerate(scores)) + ".")
    reason = result.get("reason")
    if reason and reason != "scored":
        said.append(f"It ended by {str(reason).replace('_', ' ')}.")
    return " ".join(said)


def notification(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient,
                 n: Notification, folded: int = 0) -> Content | None:
    if n.type == "your_turn":
        return your_turn(tx, games, tokens, links, player, n.game_id, n.seat, n.version)
    game = games.game_row(tx, n.game_id)
    label = game_label(game)
    if n.type == "reminder":
        deadline = n.data.get("deadline") if isinstance(n.data, dict) else None
        intro = f"Reminder: {label} is waiting for your move" + (f" until {deadline}." if deadline else ".")
        return your_turn(tx, games, tokens, links, player, n.game_id, n.seat, n.version, intro=intro,
                         subject=f"Reminder: your move in {label}")
    note = f"({folded} earlier messages of this game are folded into this mail.)\n\n" if folded else ""
    if n.type == "finished":
        text = f"{label} is over.\n\n{result_words(game)}"
        subject = f"Finished: {label}"
    else:
        message = n.data.get("message", {}) if isinstance(n.data, dict) else {}
        said, who = message.get("text", ""), n.data.get("from") or message.get("seat")
        text = f"{note}New message in {label}" + (f" from {who}" if who is not None else "") + f":\n\n{said}"
        subject = f"Message: {label}"
    text += f"\n\n{links.game(n.game_id)}\n"
    return Content(subject, text, _html(*text.strip().split("\n\n")[:-1], link=(links.game(n.game_id), "Open the game")))


def played(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient, game_id: str,
           seat: int, version: int, words: str, to_act_after: bool) -> Content:
    """The one short mail that confirms a reply was played (with the position and moves
    under _move_told's condition)."""
    game = games.game_row(tx, game_id)
    label = game_label(game)
    done = f"Played in {label}: {words}."
    return _move_told(tx, games, tokens, links, player, game, seat, version, to_act_after, done,
                      subject=f"Played: {label}", turn_intro=done + " It is your turn again.",
                      turn_subject=f"Played, your turn again: {label}")


def stood_in(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient, game_id: str,
             seat: int, version: int, words: str, to_act_after: bool) -> Content:
    """Your time ran out and the computer made that move for you (with the position and
    moves under _move_told's condition)."""
    game = games.game_row(tx, game_id)
    label = game_label(game)
    done = f"Your time ran out in {label}, so the computer played for you: {words}."
    subject = f"The computer played for you: {label}"
    return _move_told(tx, games, tokens, links, player, game, seat, version, to_act_after, done,
                      subject=subject, turn_intro=done, turn_subject=subject)


def _move_told(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient, game: Game,
               seat: int, version: int, to_act_after: bool, done: str, subject: str, turn_intro: str,
               turn_subject: str) -> Content:
    """A move of the seat told to its player (``done``). When the move itself left the seat
    to act (``to_act_after``: no notification tells a seat of a turn its own move gave it)
    and that turn is still open, the mail carries the position and moves too. A turn that
    others' moves gave it since has its own "your turn" mail: carried here as well, the
    same decision would be asked twice."""
    if to_act_after:
        turn = your_turn(tx, games, tokens, links, player, game.id, seat, version, intro=turn_intro,
                         subject=turn_subject)
        if turn is not None:
            return turn
    later = ("The game is over: " + result_words(game)) if game.status != "active" else \
        "You will get a mail when it is your turn again."
    text = f"{done}\n\n{later}\n\n{links.game(game.id)}\n"
    return Content(subject, text, _html(done, later, link=(links.game(game.id), "Open the game")))


def verification(links: Links, token: str, email: str) -> Content:
    url = links.verify(token)
    # short lines: the text part stays 7bit, so the link can be read (and grepped) as is
    text = (f"Confirm that {email} is your address for Entrepot by opening this link:\n\n{url}\n\n"
            "Or paste this code where your client asks for it:\n\n"
            f"{token}\n\nNothing else is mailed to this address before it is confirmed.")
    return Content("Confirm your email address", text,
                   _html(f"Confirm that {email} is your address for Entrepot.", link=(url, "Confirm my address")))


def digest(tx: Tx, games: GameService, links: Links, notes: list[Notification]) -> Content:
    lines = []
    for n in notes:
        try:
            label = game_label(games.game_row(tx, n.game_id))
        except Exception:  # a game gone from the read model: say only its id
            label = f"game {n.game_id[:8]}"
        lines.append(f"- {n.at:%Y-%m-%d %H:%M} UTC · {n.type.replace('_', ' ')} · {label} · {links.game(n.game_id)}")
    text = f"Your Entrepot digest: {len(notes)} notifications.\n\n" + "\n".join(lines)
    return Content(f"Entrepot digest: {len(notes)} notifications", text)


def webhook_disabled(url: str) -> Content:
    text = (f"Your webhook {url} failed for too long and was disabled.\n"
            "Add it again in your notification settings once it answers.")
    return Content("Webhook disabled", text)


def answer(reason: str, detail: str, label: str | None = None) -> Content:
    """A reply that was not played. The subject is the same for every answer about one
    game ("Not played: Kontor game 1a2b3c4d"), so replying to answers never grows it."""
    text = f"Your reply was not played ({reason}).\n\n{detail}\n\nNothing was played."
    return Content(f"Not played: {label or 'your reply'}", text)
