"""RQ jobs of notifications: the fan-out after a commit, webhook deliveries, their sweeper.

Arguments are ids and versions only; each job re-checks its premise (service/notifications/service.py
inserts with ON CONFLICT DO NOTHING under the game's fan-out lock; service/notifications/webhooks.py claims
a delivery before sending it), so a job that runs twice sends nothing twice.
"""

from __future__ import annotations

import logging

from workers.services import services

log = logging.getLogger(__name__)


def fan_out_game(game_id: str, version: int) -> int:
    """Write (and send on) the notifications of a game's versions up to now."""
    return services().notifications.fan_out_game(game_id, version)


def fan_out_messages(game_id: str, seq: int) -> int:
    """Write (and send on) the notifications of a game's new messages."""
    return services().notifications.fan_out_messages(game_id, seq)


def deliver_webhook(delivery_id: str) -> str:
    """One attempt at a webhook delivery."""
    outcome = services().webhooks.deliver(delivery_id)
    log.info("webhook delivery %s: %s", delivery_id, outcome)
    return outcome


def sweep_notifications() -> tuple[int, int, int]:
    """Fan out games left behind; re-queue lost mail jobs, and webhook deliveries whose job
    or sender was lost."""
    svc = services()
    fanouts, mails = svc.notifications.sweep()
    deliveries = svc.webhooks.sweep(svc.settings.fanout_patience_seconds)
    return fanouts, mails, deliveries
