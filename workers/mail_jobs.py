"""RQ jobs of mail (service/mail/mailer.py). Arguments are ids only; each job re-checks
its premise and finds its own claim if it ran before, so a retry never sends twice."""

from __future__ import annotations

import logging

from service.mail.job_names import MAIL_DIGEST
from workers.services import services

log = logging.getLogger(__name__)


def mail_notification(notification_id: int) -> str:
    """Enqueued by the notification fan-out (job id ``mail-<notification_id>``)."""
    outcome = services().mailer.mail_notification(int(notification_id))
    log.info("mail of notification %s: %s", notification_id, outcome)
    return outcome


def mail_followup(player_id: str, game_id: str) -> str:
    """At the end of a coalescing window: the latest still relevant state, in one mail."""
    return services().mailer.mail_followup(player_id, game_id)


def mail_stood_in(game_id: str, seat: int, version: int, words: str, again: bool = True) -> str:
    """After the computer made a move for a seat whose time ran out: its player is told.
    (``again`` defaults to True for a job queued before it was passed.)"""
    return services().mailer.mail_stood_in(str(game_id), int(seat), int(version), str(words), bool(again))


def mail_verification(verification_id: int) -> str:
    return services().mailer.mail_verification(int(verification_id))


def webhook_disabled(webhook_id: str) -> str:
    """Enqueued by the webhooks when they disable one: its owner is told, if verified."""
    return services().mailer.webhook_disabled(str(webhook_id))


def send_digest(player_id: str) -> str:
    return services().mailer.send_digest(player_id)


def resend_mail(key: str) -> str:
    """A claimed mail a crash left unsent, found by the sweeper."""
    return services().mailer.deliver(key)


def sweep_mail() -> tuple[int, int]:
    """The periodic part (the worker's sweeper thread): re-send lost claims, queue the
    daily digests that are due. Returns (re-sent, digests queued)."""
    svc = services()
    resent = svc.mailer.resend_lost()
    due = svc.mailer.digests_due()
    for player_id in due:
        svc.mailer.queue.enqueue_job(MAIL_DIGEST, (player_id,), f"mail-digest-{player_id}")
    return resent, len(due)
