"""Moves by email: one RFC 5322 message in, one move played or one answer mail out.

The reply address (``play+TOKEN@domain``, in To, Cc, Delivered-To, X-Original-To or the
SMTP envelope) carries the token; the From header proves nothing. The token's MAC binds it
to player, game and seat (and the version its mail showed); its row keeps the numbered
moves that mail listed, when it expires (30 days after the mail), and whether it was used.

A reply is judged by what it asks, not by when its mail was sent. The first non-empty
line not quoted (``>``) of the text part (or of the HTML, stripped) is a number (the
move of that number in the mail the reply answers, as the token's row kept it) or a
command's JSON. That command is decided against the game as it is when the reply
arrives, for the token's seat, through the one write path (``GameService.execute``) as
the token's player: if the rules allow it now it is played, whatever happened in the
game since (the opponent's move, a computer's secret choice, a reminder); only if they
do not is the reply refused, and the answer carries the current position, its numbered
moves and a fresh reply address.

Single use: the command commits under an idempotency key derived from the token, in the
same transaction as its events, so a token plays at most one move even if the process
dies before the row is marked used; the row's ``used_at`` then refuses any later reply.

A refused reply (replayed, expired, illegal, game over) is answered by mail with the
reason, and nothing is played, to the token's player: the token is genuine. A forged
token (or none) is never answered: it names nobody, and answering its From address let
anyone make the server mail a player a subject of their choosing from its own address
(issue 26, item 4). Mail sent by a program (RFC 3834: Auto-Submitted, bounces,
auto-responders) plays nothing and is never answered, so no mail loop can start. The raw
message is bounded (size, header, addresses, nesting: service/mail/guard.py) before any
parsing; a message over a bound, or one the parser chokes on, is refused for good.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr

from domain.common.envelope import encode_command
from service.errors import (
    GameNotActive,
    IdempotencyKeyReused,
    Invalid,
    InvalidToken,
    NotFound,
    NotYourSeat,
    NotYourTurn,
    ServiceError,
    VersionConflict,
)
from service.games.idempotency import Replayed, idempotency_key
from service.games.moves import describe
from service.games.titles import title as title_of
from service.mail import records
from service.mail.addresses import unsubscribe
from service.mail.guard import Refused, automatic, check_raw
from service.mail.mailer import Mailer
from service.mail.tokens import find_reply_token, reply_token_id, token_hash

log = logging.getLogger(__name__)

ADDRESS_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")
_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</?(p|div|br|li|tr|h\d)[^>]*>", re.I)


class Unparseable(Exception):
    """Not a mail message at all, or one refused for good (nothing to answer): 554 from
    the listener, exit 1 from mail-in, never "try again"."""

#: what a hostile message can make the parser raise: a refusal for good, not a retry
PARSER_ERRORS = (RecursionError, ValueError, LookupError, TypeError, AttributeError, UnicodeError, AssertionError)


@dataclass(frozen=True)
class Outcome:
    played: bool
    reason: str  # "played" or why not: forged, replayed, expired, illegal, game_over
    detail: str = ""  # played: the move in words
    version: int | None = None  # played: the game's version after it
    #: played: the seat was to act again right after it (its own move gave it the turn:
    #: no notification tells it, the confirmation carries the position)
    again: bool = False


#: a reply token's idempotency key outlives the token (30 days)
REPLY_KEY_TTL_SECONDS = 31 * 24 * 3600.0
#: a reply judged legal may lose a race with another commit: judged again this often
RACE_ATTEMPTS = 5


def _render_outcome(done) -> tuple[int, dict]:
    return 201, {"version": done.version}


class Unavailable(RuntimeError):
    """A backing service is down: the sender should try again later (451, exit 75)."""


def transient(err: BaseException) -> bool:
    """Is this failure worth a retry by the sender (the database or Redis unreachable), or
    a fault of the message itself, refused for good (554, exit 1) so it is not retried
    for days?"""
    import psycopg
    import redis

    return isinstance(err, (Unavailable, psycopg.OperationalError, psycopg.errors.QueryCanceled,
                            redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError))


def parse(raw: bytes) -> EmailMessage:
    if not raw.strip():
        raise Unparseable("the message is empty")
    try:
        check_raw(raw)
    except Refused as err:
        raise Unparseable(str(err)) from None
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    except PARSER_ERRORS as err:
        raise Unparseable(f"the message cannot be parsed ({type(err).__name__})") from None
    if not any(message.get(h) for h in (*ADDRESS_HEADERS, "From", "Subject")):
        raise Unparseable("the message has no header")
    return message


def first_line(message: EmailMessage) -> str:
    """The first non-empty line not quoted, from the text part (or the HTML, stripped);
    a JSON object may run on over the following lines."""
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    text = body.get_content() if body.get_content_maintype() == "text" else ""
    if body.get_content_subtype() == "html":
        text = html.unescape(_TAG.sub("", _BLOCK_END.sub("\n", text)))
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith(">")]
    if not lines:
        return ""
    if lines[0].startswith("{"):
        for end in range(1, min(len(lines), 60) + 1):
            candidate = " ".join(lines[:end])
            try:
                json.loads(candidate)
                return candidate
            except ValueError:
                continue
    return lines[0]


class Inbound:
    def __init__(self, mailer: Mailer):
        self.mailer = mailer
        self.store = mailer.store
        self.games = mailer.games
        self.tokens = mailer.tokens

    def handle(self, raw: bytes, recipients: list[str] | None = None) -> Outcome:
        """Play the reply or answer why not. Unparseable for input that is no message."""
        message = parse(raw)
        try:
            addresses = [a for _, a in getaddresses([str(v) for h in ADDRESS_HEADERS
                                                     for v in (message.get_all(h) or [])])]
            robot = automatic(message)
        except PARSER_ERRORS as err:
            raise Unparseable(f"the message's headers cannot be read ({type(err).__name__})") from None
        addresses += recipients or []
        if robot is not None:  # RFC 3834: never answer automatic mail, nor play it
            log.info("inbound mail sent by a program (%s): neither played nor answered", robot)
            return Outcome(False, "automatic", robot)
        token = find_reply_token(addresses)
        if token is None and any(a.lower().startswith("unsubscribe@") for a in addresses):
            return self._unsubscribe(message)
        outcome, row = self._play(message, token)
        if outcome.reason == "forged":  # names nobody: never answered (no mail on anyone's behalf)
            log.info("inbound mail with no valid reply token: not answered")
        elif not outcome.played:
            self._answer(raw, message, outcome, row)
        else:
            self._next_if_still_theirs(row, outcome)
        log.info("inbound mail: %s %s", outcome.reason, outcome.detail)
        return outcome

    def _unsubscribe(self, message: EmailMessage) -> Outcome:
        """The mailto: of List-Unsubscribe: the token is the subject (RFC 2369)."""
        subject = str(message.get("Subject", "")).strip()
        subject = subject.split(":", 1)[1].strip() if subject.lower().startswith("re:") else subject
        try:
            with self.store.tx() as tx:
                done = unsubscribe(tx, self.tokens, subject)
        except InvalidToken:
            return Outcome(False, "not_unsubscribed", "the subject is no unsubscribe token of ours")
        return Outcome(False, "unsubscribed", f"{done.kind} off for player {done.player_id}")

    def _play(self, message: EmailMessage, token: str | None) -> tuple[Outcome, dict | None]:
        token_id = reply_token_id(token) if token else None
        with self.store.read() as tx:
            row = records.reply_token(tx, token_id, self.mailer.clock.now()) if token_id is not None else None
        if row is None or row["token_hash"] != token_hash(token) or not self.tokens.reply_matches(
                token, row["player_id"], row["game_id"], row["seat"], row["version"]):
            return Outcome(False, "forged", "The reply address carries no valid token of this server."), None
        if row["used_at"] is not None:
            return Outcome(False, "replayed", "This reply address was used already: each one plays one move."), row
        if row["expired"]:
            return Outcome(False, "expired", "This reply address has expired: it worked for 30 days after"
                           " its mail."), row
        try:
            line = first_line(message)
        except PARSER_ERRORS as err:
            raise Unparseable(f"the message's body cannot be read ({type(err).__name__})") from None
        if re.fullmatch(r"\d{1,4}\.?", line):
            listed = row["commands"] or []
            number = int(line.rstrip("."))
            if not listed:  # a token from before the moves were kept: its own version's list
                listed = self._listed_at(row)
            if not 1 <= number <= len(listed):
                return Outcome(False, "illegal", f"That mail has no move {number} (it lists 1 to {len(listed)})."
                               if listed else f"That mail has no move {number}: its moves are no longer known."), row
            command = listed[number - 1]
        else:
            try:
                command = json.loads(line)
            except ValueError:
                command = None
            if not isinstance(command, dict):
                return Outcome(False, "illegal", f"The first line {line[:80]!r} is neither a move's number"
                               " nor a command's JSON."), row
        return self._execute(row, command), row

    def _listed_at(self, row: dict) -> list[dict]:
        with self.store.read() as tx:
            game, folded = self.games.live(tx, row["game_id"])
        if game.version != row["version"] or game.status != "active":
            return []
        return [encode_command(c) for c in title_of(game.title).legal_commands(folded.state, row["seat"])]

    def _words(self, game_id: str, seat: int, command: dict) -> str:
        """The command in words, as the seat saw the game just before it."""
        with self.store.read() as tx:
            game, folded = self.games.live(tx, game_id)
            title = title_of(game.title)
            try:
                view = title.view_for_words(folded.state, seat) if game.status == "active" else None
            except Exception:
                view = None
        return describe(game.title, view, command)

    def _execute(self, row: dict, command: dict) -> Outcome:
        """Play ``command`` for the token's seat if the rules allow it now."""
        with self.store.read() as tx:
            player = tx.player(row["player_id"])
        idem = idempotency_key(row["player_id"], "MAIL", f"/reply-tokens/{row['id']}", str(row["id"]),
                               {"command": command}, REPLY_KEY_TTL_SECONDS, _render_outcome,
                               at=self.mailer.clock.now())
        for _ in range(RACE_ATTEMPTS):
            with self.store.read() as tx:
                game, _folded = self.games.live(tx, row["game_id"])
            if game.status != "active":
                return Outcome(False, "game_over", f"The game is over ({game.status}).")
            words = self._words(row["game_id"], row["seat"], command)
            try:
                done = self.games.execute(player, row["game_id"], row["seat"], command,
                                          expected_version=game.version, idem=idem)
            except VersionConflict:  # something else committed in between: judge again
                continue
            except IdempotencyKeyReused:
                done = Replayed(0, None)
            except GameNotActive as err:
                return Outcome(False, "game_over", err.detail)
            except NotYourTurn:
                return Outcome(False, "illegal", f"It is not your turn now, so {words!r} cannot be played.")
            except (Invalid, NotYourSeat, NotFound) as err:
                return Outcome(False, "illegal", f"{words!r} cannot be played now: {err.detail}")
            except ServiceError as err:  # unavailable: let the MTA retry
                raise Unavailable(err.detail) from err
            with self.store.tx() as tx:
                records.use_reply_token(tx, row["id"], self.mailer.clock.now())
            if isinstance(done, Replayed):  # a move committed under this token before (a crash after it)
                return Outcome(False, "replayed", "This reply address was used already: each one plays one move.")
            return Outcome(True, "played", words, done.version, row["seat"] in done.to_act)
        raise Unavailable("the game kept changing while the reply was judged: try again")

    def _next_if_still_theirs(self, row: dict, outcome: Outcome) -> None:
        """One short mail confirms the move; when the seat is to act again at once (the
        fan-out tells no one of their own move) it carries the new position too."""
        with self.store.read() as tx:
            player = records.recipient(tx, row["player_id"])
        if player is None or not player.verified or not player.notify_by_email:
            return
        ref = {"words": outcome.detail, "game_id": row["game_id"], "seat": row["seat"],
               "current_version": outcome.version, "again": outcome.again}
        self.mailer.claim_and_deliver(f"played:{row['id']}", player.id, row["game_id"], "played", ref,
                                      player.email)

    def _answer(self, raw: bytes, message: EmailMessage, outcome: Outcome, row: dict | None) -> None:
        sender = parseaddr(str(message.get("From", "")))[1]
        with self.store.read() as tx:
            if row is not None:
                player = records.recipient(tx, row["player_id"])
            else:  # a forged token names nobody: answer only a sender who is a verified player
                player = records.verified_recipient_by_email(tx, sender) if sender else None
        if player is None or not player.verified:
            log.info("a %s reply from %r is not answered: no verified player to tell", outcome.reason, sender)
            return
        to, player_id = player.email, player.id
        ref = {"reason": outcome.reason.replace("_", " "), "detail": outcome.detail}
        if row is not None and player.id == row["player_id"]:
            # the game as it is now, with a fresh reply address if it is their turn
            with self.store.read() as tx:
                game = self.games.game_row(tx, row["game_id"])
            ref.update(game_id=row["game_id"], seat=row["seat"], current_version=game.version)
        key = "answer:" + hashlib.sha256(raw).hexdigest()
        self.mailer.claim_and_deliver(key, player_id, row["game_id"] if row else None, "answer", ref, to)
