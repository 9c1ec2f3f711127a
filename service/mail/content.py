"""What each mail says: subject, text and HTML. Built from rows only, so the sweeper can
render a lost mail again; None when the mail has lost its point (the game moved on)."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from domain.common.envelope import encode_command
from service.games import GameService
from service.mail import records
from service.mail.compose import Content, mailbox
from service.mail.position import numbered_commands, position_text
from service.mail.records import Notification, Recipient
from service.mail.tokens import Tokens, token_hash
from service.store import Game, Tx
from service.titles import title as title_of

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


def your_turn(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient, game_id: str,
              seat: int, since_version: int, intro: str = "") -> Content | None:
    """The position now, the legal commands numbered, and a Reply-To that plays one at the
    current version: None if it is no longer this seat's turn. (A mail that waited, in a
    coalescing window or a simultaneous choice, shows the latest state, never an old one.)"""
    game, folded = games.live(tx, game_id)
    if not is_their_turn(game, seat, since_version):
        return None
    version = game.version
    title = title_of(game.title)
    commands = [encode_command(c) for c in title.legal_commands(folded.state, seat)]
    token_id = records.reply_token_row(tx, player.id, game_id, seat, version)
    token = tokens.reply(token_id, player.id, game_id, seat, version)
    records.keep_reply_token_hash(tx, token_id, token_hash(token))
    position = position_text(title.view(folded.state, seat))
    listed = numbered_commands(commands)
    text = (f"{intro}It is your turn in {game_label(game)} (seat {seat}, version {version}).\n\n"
            f"{position}\n\nYour legal moves:\n{listed}\n\n"
            "Reply to this mail with the number of your move on the first line (or a command's JSON).\n"
            f"Or play in the browser: {links.game(game_id)}\n")
    body = _html(*(p for p in (intro.strip(), f"It is your turn in {game_label(game)} (seat {seat},"
                               f" version {version}).") if p), pre=position) + (
        "<p>Your legal moves:</p><ol>" + "".join(f"<li>{html.escape(line.split('. ', 1)[1])}</li>"
                                                 for line in listed.splitlines()) + "</ol>"
        "<p>Reply to this mail with the number of your move on the first line"
        " (or a command's JSON).</p>") + _html(link=(links.game(game_id), "Play in the browser"))
    return Content(f"Your turn: {game_label(game)}", text, body,
                   reply_to=mailbox(f"play+{token}", links.reply_domain))


def notification(tx: Tx, games: GameService, tokens: Tokens, links: Links, player: Recipient,
                 n: Notification, folded: int = 0) -> Content | None:
    note = f"({folded} earlier updates of this game are folded into this mail.)\n\n" if folded else ""
    if n.type == "your_turn":
        return your_turn(tx, games, tokens, links, player, n.game_id, n.seat, n.version, note)
    game = games.game_row(tx, n.game_id)
    label = game_label(game)
    if n.type == "reminder":
        if not is_their_turn(game, n.seat, n.version):
            return None
        deadline = n.data.get("deadline") if isinstance(n.data, dict) else None
        text = f"{note}Reminder: {label} is waiting for your move" + (f" (deadline {deadline})" if deadline else "")
        subject = f"Reminder: your move in {label}"
    elif n.type == "finished":
        result = game.result or {}
        text = f"{note}{label} is over.\n\nResult:\n{json.dumps(result, indent=2)}"
        subject = f"Finished: {label}"
    else:
        message = n.data.get("message", {}) if isinstance(n.data, dict) else {}
        said, who = message.get("text", ""), n.data.get("from") or message.get("seat")
        text = f"{note}New message in {label}" + (f" from {who}" if who is not None else "") + f":\n\n{said}"
        subject = f"Message: {label}"
    text += f"\n\n{links.game(n.game_id)}\n"
    return Content(subject, text, _html(*text.strip().split("\n\n")[:-1], link=(links.game(n.game_id), "Open the game")))


def verification(links: Links, token: str, email: str) -> Content:
    url = links.verify(token)
    # short lines: the text part stays 7bit, so the link can be read (and grepped) as is
    text = (f"Confirm that {email} is your address for Entrepot:\n\n{url}\n\n"
            "Or send POST /v1/players/me/email/verify with this token:\n\n"
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
            "Register it again (POST /v1/players/me/webhooks) once it answers.")
    return Content("Webhook disabled", text)


def answer(reason: str, detail: str) -> Content:
    text = f"Your reply was not played: {reason}.\n\n{detail}\n\nNothing was played."
    return Content(f"Not played: {reason}", text)
