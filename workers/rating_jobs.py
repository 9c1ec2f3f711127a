"""RQ jobs of the lobby and ratings (service/lobby/ratings.py, service/lobby/service.py).

``rate_game`` runs after a game finishes (queued by service/games/service.py after the commit, job
id ``ratings-<game>``); it rates every game of that title waiting in ``rating_queue``, under
the title's lock, so a job that runs twice rates nothing twice. The sweeper rates whatever
a lost job left waiting and withdraws seeks nobody filled in time.
"""

from __future__ import annotations

import logging

from workers.services import services

log = logging.getLogger(__name__)


def rate_game(game_id: str) -> int:
    rated = services().ratings.rate_game(game_id)
    log.info("ratings after %s: %s games rated", game_id, rated)
    return rated


def sweep_lobby() -> tuple[int, int]:
    """(games rated that a lost job left waiting, seeks withdrawn)."""
    svc = services()
    rated = sum(svc.ratings.rate_pending(title) for title in svc.ratings.sweep())
    return rated, svc.lobby.expire()
