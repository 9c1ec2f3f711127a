"""The mails: which to send, when, and sending each exactly once.

Claim, then send (the at-least-once half): a mail is first claimed in ``mails_sent`` under
a key naming what it is about (``notification:<id>``, ``verify:<id>``, ``digest:...``), in
the transaction that decides it is due; it is rendered and handed to the SMTP server after
that commit, then marked sent. A job retried or redelivered finds the claim and sends
nothing. A crash between claim and send leaves a claim unsent: the sweeper
(``resend_lost``) claims it anew after ``RESEND_AFTER_SECONDS`` and renders it again from
its row (the tokens it carries are recomputed, identical). The one window of a duplicate
is a crash after the SMTP server took the mail and before it was marked sent; the mail
keeps its Message-ID then, so clients show it once.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime

from redis import Redis

from service.clock import Clock
from service.games.service import GameService
from service.games.store import Store, outlasting_outage
from service.job_queue import JobQueue
from service.mail import content, records
from service.mail.compose import Unsubscribe, build, mailbox
from service.mail.content import KIND_OF_TYPE, Links
from service.mail.job_names import MAIL_FOLLOWUP, MAIL_RESEND
from service.mail.records import Notification, Recipient
from service.mail.tokens import Tokens
from service.mail.transport import Transport
from service.observability import metrics

log = logging.getLogger(__name__)

RESEND_AFTER_SECONDS = 60.0
#: "Confirm your email" mails one address may receive per hour, whoever asks
VERIFICATIONS_PER_HOUR = 3
MAX_ATTEMPTS = 10


def watching_key(game_id: str, player_id: str) -> str:
    """Set (with a short time to live, renewed) by the player stream while the player
    watches the game (notify-core); no mail goes out meanwhile."""
    return f"entrepot:watching:{game_id}:{player_id}"


@dataclass(frozen=True)
class MailSettings:
    sender: str
    links: Links
    window_seconds: float
    digest_every_seconds: float


class Mailer:
    def __init__(self, store: Store, games: GameService, redis: Redis, queue: JobQueue, transport: Transport,
                 tokens: Tokens, settings: MailSettings, clock: Clock | None = None):
        self.store = store
        self.games = games
        #: the clock port (the games' unless told): claims, windows, digests, expiries
        self.clock = clock or games.clock
        self.redis = redis
        self.queue = queue
        self.transport = transport
        self.tokens = tokens
        self.settings = settings

    # sending a claim ------------------------------------------------------------------
    def deliver(self, key: str) -> str:
        """Render the claimed mail and hand it to the SMTP server; mark it sent."""
        with self.store.tx() as tx:
            claim = records.claimed(tx, key)
            if claim is None:
                return "unclaimed"
            if claim.done:  # a re-send queued by the sweeper while the first attempt finished
                return "already sent"
            made = self._render(tx, claim)
            if made is None:
                records.mark_dropped(tx, key, "no longer relevant")
                return "dropped"
        try:
            self.transport.send(made)
        except Exception:
            metrics.MAIL_FAILURES.inc()
            raise
        def mark_sent():
            with self.store.tx() as tx:
                return records.mark_sent(tx, key, self.clock.now())

        lag = outlasting_outage(mark_sent)  # sent: a failover must not make it sent twice
        if lag is not None:
            metrics.MAIL_LAG.observe(max(0.0, lag))
        return "sent"

    def _render(self, tx, claim: records.Claim):
        ref = claim.ref
        player = records.recipient(tx, claim.player_id) if claim.player_id else None
        unsubscribe_kind = "all"
        if claim.kind == "verify":
            token = self.tokens.verification(ref["verification_id"], claim.player_id, claim.to_address)
            made = content.verification(self.settings.links, token, claim.to_address)
        elif claim.kind == "notification":
            n = records.notification(tx, ref["notification_id"])
            if n is None or player is None:
                return None
            made = content.notification(tx, self.games, self.tokens, self.settings.links, player, n,
                                        ref.get("folded", 0))
            unsubscribe_kind = KIND_OF_TYPE[n.type]
        elif claim.kind == "digest":
            notes = records.notifications_after(tx, claim.player_id, ref["after"], ref["upto"])
            made = content.digest(tx, self.games, self.settings.links, notes)
        elif claim.kind == "webhook_disabled":
            made = content.webhook_disabled(ref["url"])
        elif claim.kind == "played":
            if player is None:
                return None
            # "again" absent: a claim made before it was recorded, read as before
            made = content.played(tx, self.games, self.tokens, self.settings.links, player, ref["game_id"],
                                  ref["seat"], ref["current_version"], ref["words"], ref.get("again", True))
            unsubscribe_kind = "your_turn"
        elif claim.kind == "stood_in":
            if player is None:
                return None
            made = content.stood_in(tx, self.games, self.tokens, self.settings.links, player, ref["game_id"],
                                    ref["seat"], ref["current_version"], ref["words"], ref.get("again", True))
            unsubscribe_kind = "your_turn"
        elif claim.kind == "answer":
            label = content.game_label(self.games.game_row(tx, ref["game_id"])) if ref.get("game_id") else None
            made = content.answer(ref["reason"], ref["detail"], label)
            if ref.get("seat") is not None and player is not None and player.verified:
                # the current position with a fresh reply address, if it is their turn now
                fresh = content.your_turn(tx, self.games, self.tokens, self.settings.links, player,
                                          ref["game_id"], ref["seat"], ref["current_version"],
                                          intro=made.text.replace("\n\nNothing was played.", "")
                                          + "\n\nHere is the game as it is now.", subject=made.subject)
                if fresh is None:  # not their turn now: the position all the same, without moves
                    fresh = content.position_now(tx, self.games, self.settings.links, ref["game_id"], ref["seat"],
                                                 made.text.replace("\n\nNothing was played.", ""), made.subject)
                if fresh is not None:
                    made = fresh
        else:
            raise ValueError(f"unknown mail kind {claim.kind}")
        if made is None:
            return None
        unsubscribe = None
        if claim.player_id:
            token = self.tokens.unsubscribe(claim.player_id, unsubscribe_kind)
            domain = self.settings.links.reply_domain
            unsubscribe = Unsubscribe(self.settings.links.unsubscribe(token),
                                      f"mailto:{mailbox('unsubscribe', domain)}?subject={token}")
        return build(self.settings.sender, claim.to_address, claim.key, made, unsubscribe)

    def claim_and_deliver(self, key: str, player_id: str | None, game_id: str | None, kind: str, ref: dict,
                          to: str) -> str:
        with self.store.tx() as tx:
            if not records.claim(tx, key, player_id, game_id, kind, ref, to, self.clock.now()):
                return "duplicate"
        return self.deliver(key)

    # notifications --------------------------------------------------------------------
    def unwanted(self, player: Recipient | None, n_type: str) -> str | None:
        """Why this player gets no mail of this type now (None: they want it)."""
        if player is None or not player.verified:
            return "unverified"
        if not player.notify_by_email or not player.notify.get(KIND_OF_TYPE[n_type], True):
            return "off"
        if player.notify.get("digest", "off") == "daily":
            return "digest"
        return None

    def watching(self, game_id: str, player_id: str) -> bool:
        try:
            return bool(self.redis.exists(watching_key(game_id, player_id)))
        except Exception:  # Redis down: better a mail too many than a move missed
            return False

    def relevant(self, tx, n: Notification) -> bool:
        if n.type not in ("your_turn", "reminder"):
            return True
        return content.turn_still_open(tx, self.games.game_row(tx, n.game_id), n.seat, n.version)

    def mail_notification(self, notification_id: int, folded: int = 0) -> str:
        """Mail one notification, unless unwanted, watched, stale, already mailed, or (a
        table message only) inside the coalescing window: then a follow-up at the window's
        end sends the latest messages. A turn, a reminder and a result go out at once."""
        with self.store.tx() as tx:
            n = records.notification(tx, notification_id)
            if n is None:
                return "missing"
            player = records.recipient(tx, n.player_id)
            why = self.unwanted(player, n.type)
            if why:
                return why
            if self.watching(n.game_id, n.player_id):
                return "watching"
            if not self.relevant(tx, n):
                return "stale"
            records.lock_conversation(tx, n.player_id, n.game_id)
            key = f"notification:{n.id}"
            if records.claimed(tx, key) is not None:
                return "duplicate"
            now = self.clock.now()
            until = records.window_end(tx, n.player_id, n.game_id, self.settings.window_seconds, now) \
                if n.type == "message" else None
            if until is not None:
                self._follow_up(n.player_id, n.game_id, until)
                return "coalesced"
            records.claim(tx, key, n.player_id, n.game_id, "notification",
                          {"notification_id": n.id, "folded": folded}, player.email, now)
        return self.deliver(key)

    def _follow_up(self, player_id: str, game_id: str, at: datetime) -> None:
        self.queue.enqueue_job(MAIL_FOLLOWUP, (player_id, game_id),
                           f"mail-followup-{player_id}-{game_id}-{int(at.timestamp())}", at=at)

    def mail_followup(self, player_id: str, game_id: str) -> str:
        """At a window's end: mail the latest table message that the window held back (the
        earlier ones are folded into it)."""
        with self.store.read() as tx:
            last = records.last_mailed_notification(tx, player_id, game_id, "message")
            held = [n for n in records.notifications_after(tx, player_id, last, game_id=game_id)
                    if n.type == "message"]
            candidates = list(reversed(held))
        if not candidates:
            return "nothing"
        return self.mail_notification(candidates[0].id, folded=len(held) - 1)

    def mail_stood_in(self, game_id: str, seat: int, version: int, words: str, again: bool) -> str:
        """Tell a seat's player the move the computer made for them at their deadline
        (queued by GameService.play_computer after the stand-in's move committed);
        ``again``: the seat was to act right after it (see content._move_told)."""
        with self.store.read() as tx:
            game = self.games.game_row(tx, game_id)
            player_id = game.seats[seat].player_id if 0 <= seat < len(game.seats) else None
            player = records.recipient(tx, player_id) if player_id else None
        why = self.unwanted(player, "your_turn")
        if why:
            return why
        ref = {"game_id": game_id, "seat": seat, "current_version": version, "words": words, "again": again}
        return self.claim_and_deliver(f"stood-in:{game_id}:{version}:{seat}", player.id, game_id, "stood_in", ref,
                                      player.email)

    # other mails ----------------------------------------------------------------------
    def mail_verification(self, verification_id: int) -> str:
        """The "Confirm your email" mail, unless the address got VERIFICATIONS_PER_HOUR
        of them within the hour: anyone can name any address (a new player, or PATCH
        toggling it), and eight reached one stranger within seconds (issue 26, item 7).
        A throttled verification can be asked for again later."""
        with self.store.read() as tx:
            now = self.clock.now()
            row = records.verification(tx, verification_id, now)
            if row is None or row["used_at"] is not None or row["expired"]:
                return "stale"
            earlier = tx.conn.execute(
                "SELECT count(*) FROM email_verifications WHERE lower(email) = lower(%s) AND id < %s"
                " AND created_at > %s::timestamptz - interval '1 hour'",
                (row["email"], verification_id, now)).fetchone()[0]
        if earlier >= VERIFICATIONS_PER_HOUR:
            log.info("verification %s not mailed: its address had %s within the hour", verification_id, earlier)
            return "throttled"
        return self.claim_and_deliver(f"verify:{verification_id}", row["player_id"], None, "verify",
                                      {"verification_id": verification_id}, row["email"])

    def webhook_disabled(self, webhook_id: str) -> str:
        with self.store.read() as tx:
            hook = records.webhook_owner(tx, webhook_id)
            player = records.recipient(tx, hook["player_id"]) if hook else None
        if hook is None:
            return "missing"
        if player is None or not player.verified or not player.notify_by_email:
            return "unverified"
        return self.claim_and_deliver(f"webhook-disabled:{webhook_id}", player.id, None, "webhook_disabled",
                                      {"webhook_id": webhook_id, "url": hook["url"]}, player.email)

    def send_digest(self, player_id: str) -> str:
        """One mail with the player's notifications since their last digest, if due."""
        with self.store.tx() as tx:
            player = records.recipient(tx, player_id)
            if player is None or not player.verified or not player.notify_by_email:
                return "unverified"
            if player.notify.get("digest") != "daily":
                return "off"
            now = self.clock.now()
            due = records.digests_due(tx, self.settings.digest_every_seconds, now, player_id=player_id)
            if not due:
                return "not due"
            records.start_digest(tx, player_id, now)
            after = tx.conn.execute("SELECT last_notification_id FROM mail_digests WHERE player_id = %s"
                                    " FOR UPDATE", (player_id,)).fetchone()[0]
            upto = due[0][1]
            key = f"digest:{player_id}:{upto}"
            if upto <= after or not records.claim(tx, key, player_id, None, "digest",
                                                  {"after": after, "upto": upto}, player.email, now):
                return "duplicate"
            records.advance_digest(tx, player_id, upto, now)
        return self.deliver(key)

    def digests_due(self) -> list[str]:
        with self.store.read() as tx:
            return [player_id for player_id, _ in records.digests_due(tx, self.settings.digest_every_seconds,
                                                                      self.clock.now())]

    def resend_lost(self, older_than_seconds: float = RESEND_AFTER_SECONDS) -> int:
        """The sweeper's part: claims left unsent are queued to be sent again."""
        with self.store.tx() as tx:
            now = self.clock.now()
            keys = records.reclaim_unsent(tx, older_than_seconds, MAX_ATTEMPTS, now)
        for key in keys:
            digest = hashlib.sha256(key.encode()).hexdigest()[:24]
            self.queue.enqueue_job(MAIL_RESEND, (key,), f"mail-resend-{digest}-{int(now.timestamp())}")
        return len(keys)
