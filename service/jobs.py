"""The job queue port and its RQ adapter.

Job arguments are ids and versions only; every job re-checks its premise, so a job that
runs twice or late does nothing wrong.  Postgres is the truth: if Redis loses a job, the
sweeper enqueues it again.
"""

from __future__ import annotations

import logging
from typing import Protocol

from redis import Redis
from rq import Queue

log = logging.getLogger(__name__)

COMPUTER_MOVE = "workers.jobs.play_computer_seat"


def ai_queue(queue_name: str) -> str:
    """The queue of computer moves: a search may think for a second or more, so clocks,
    mail and other short jobs keep their own queue and never wait behind one."""
    return f"{queue_name}-ai"


class JobQueue(Protocol):
    def enqueue_computer_move(self, game_id: str, version: int, seat: int) -> None: ...


class RQJobQueue:
    def __init__(self, redis: Redis, queue_name: str):
        self.redis = redis
        self.queue = Queue(queue_name, connection=redis)
        self.ai_queue = Queue(ai_queue(queue_name), connection=redis)

    def enqueue_computer_move(self, game_id: str, version: int, seat: int) -> None:
        try:
            self.ai_queue.enqueue(
                COMPUTER_MOVE,
                game_id,
                version,
                seat,
                job_id=f"computer-{game_id}-{version}-{seat}",
                result_ttl=60,
                failure_ttl=24 * 3600,
                job_timeout=120,
            )
        except Exception:  # Redis down: the commit stands, the sweeper re-queues later
            log.exception("could not enqueue a computer move for %s v%s", game_id, version)


class RecordingJobQueue:
    """A queue that only remembers: for service tests that do not run workers."""

    def __init__(self) -> None:
        self.computer_moves: list[tuple[str, int, int]] = []

    def enqueue_computer_move(self, game_id: str, version: int, seat: int) -> None:
        self.computer_moves.append((game_id, version, seat))
