"""`python -m workers`: an RQ worker on the Entrepot queues, plus the periodic sweeper.

Two queues: "main" (short jobs: clocks, mail, the sweeper's work) and "ai" (computer
moves, which may search for a second or more).  A worker listens to both by default,
main first; ``--queues main`` and ``--queues ai`` split them over processes, so short
jobs never wait behind a search (``entrepot serve`` does that).
"""

from __future__ import annotations

import argparse
import logging
import threading

from rq.worker import SimpleWorker

from service.jobs import ai_queue
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


def queue_names(base: str, kinds: str) -> list[str]:
    names = {"main": base, "ai": ai_queue(base)}
    chosen = [k.strip() for k in kinds.split(",") if k.strip()]
    unknown = [k for k in chosen if k not in names]
    if unknown or not chosen:
        raise SystemExit(f"--queues: expected main and/or ai, got {kinds!r}")
    return [names[k] for k in chosen]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument("--sweep-every", type=float, default=15.0, help="seconds between sweeps")
    parser.add_argument("--queues", default="main,ai",
                        help="comma-separated: main (short jobs), ai (computer moves)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    svc = services()
    migrate(svc.settings.database_url)
    sweep()  # at start: whatever was lost while no worker ran
    stop = threading.Event()
    sweeper = threading.Thread(target=_sweep_forever, args=(stop, args.sweep_every), daemon=True)
    sweeper.start()
    # SimpleWorker runs jobs in this process: no fork per move, one pool for all jobs.
    worker = SimpleWorker(queue_names(svc.settings.queue_name, args.queues), connection=svc.redis)
    try:
        worker.work(burst=args.burst, logging_level="INFO")
    finally:
        stop.set()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
