"""`python -m workers`: an RQ worker on the Entrepot queue, plus the periodic sweeper."""

from __future__ import annotations

import argparse
import logging
import threading

from rq.worker import SimpleWorker

from service.health import beat
from service.migrate import migrate
from workers.jobs import sweep
from workers.runtime import services

log = logging.getLogger("entrepot.worker")


def _sweep_forever(stop: threading.Event, every: float) -> None:
    while not stop.wait(every):
        try:
            found = sweep()
            if found:
                log.info("sweeper re-queued %s computer moves", found)
        except Exception:  # the database may be restarting; try again next time
            log.exception("sweep failed")


def _beat_forever(stop: threading.Event, redis, queue_name: str, ttl: float) -> None:
    """The heartbeat /health looks for: refreshed three times per time to live."""
    while True:
        try:
            beat(redis, queue_name, ttl)
        except Exception:  # Redis restarting: /health says so meanwhile
            log.exception("heartbeat failed")
        if stop.wait(ttl / 3):
            return


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument("--sweep-every", type=float, default=15.0, help="seconds between sweeps")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    svc = services()
    migrate(svc.settings.owner_database_url, svc.settings.database_url)
    stop = threading.Event()
    threading.Thread(target=_beat_forever, daemon=True, args=(
        stop, svc.redis, svc.settings.queue_name, svc.settings.worker_seen_within_seconds)).start()
    sweep()  # at start: whatever was lost while no worker ran
    sweeper = threading.Thread(target=_sweep_forever, args=(stop, args.sweep_every), daemon=True)
    sweeper.start()
    # SimpleWorker runs jobs in this process: no fork per move, one pool for all jobs.
    worker = SimpleWorker([svc.settings.queue_name], connection=svc.redis)
    try:
        worker.work(burst=args.burst, logging_level="INFO")
    finally:
        stop.set()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
