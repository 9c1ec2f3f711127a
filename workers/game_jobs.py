"""RQ jobs. Arguments are ids and versions only; each job re-checks its premise."""

from __future__ import annotations

import logging

from service.games.idempotency import purge_expired
from workers.services import services

log = logging.getLogger(__name__)


def play_computer_seat(game_id: str, version: int, seat: int) -> str:
    """Play the computer seat's move if the game still waits for it at ``version``."""
    outcome = services().games.play_computer(game_id, version, seat)
    log.info("computer seat %s of %s at v%s: %s", seat, game_id, version, outcome)
    return outcome


def sweep() -> int:
    """Re-queue computer moves older than the sweep delay (a crash or a flushed Redis);
    forget expired idempotency keys; lapse invitations nobody answered in time."""
    svc = services()
    purged = purge_expired(svc.store, svc.clock.now())
    lapsed = svc.games.lapse_invitations(svc.settings.invitation_ttl_seconds)
    if purged or lapsed:
        log.info("sweeper purged %s expired idempotency keys, lapsed %s invitations", purged, lapsed)
    return svc.games.sweep(svc.settings.sweep_after_seconds)
