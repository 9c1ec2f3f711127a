"""What RQ's bookkeeping costs a worker per job, against a job that does nothing: why a
game's fan-out is no longer an RQ job a commit (docs/notifications.md), and what the jobs
still queued (mails, webhook deliveries, messages' fan-outs, ratings) cost.

Queues N jobs of a function that returns at once (``abs``) as the API queues its short
jobs (service/job_queue.py: RQ's enqueue, recorded and replayed), then runs a worker over
them in burst mode in this process and prints its CPU per job and jobs/s. Two workers, in
turns: RQ's SimpleWorker as Entrepot ran it before (its INFO line per job, its heartbeat
three times a job, the result kept a minute), and Entrepot's now (workers/__main__.py:
EntrepotWorker, RQ's lines at ENTREPOT_JOB_LOG_LEVEL's WARNING, no result kept, as for a
message's fan-out). The job's own work is nothing: what is left is RQ's and Redis's.

    python bench/worker_jobs.py [--jobs 3000] [--rounds 3]

REDIS_URL (default redis://127.0.0.1:6379/0); logs go to /dev/null (their CPU counts).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run(redis, worker_class, jobs: int, result_ttl: int, level: str) -> tuple[float, float]:
    """(CPU ms per job, jobs per second of wall time) of one burst over ``jobs`` jobs."""
    from rq import Queue

    from service.job_queue import RQJobQueue

    name = f"bench-worker-jobs-{uuid.uuid4().hex[:8]}"
    queue = RQJobQueue(redis, name)
    try:
        for i in range(jobs):
            queue._schedule(queue.clock.now(), "builtins.abs", (i,), f"{name}-{i}", queue.queue, result_ttl=result_ttl)
        worker = worker_class([Queue(name, connection=redis)], connection=redis)
        cpu, wall = time.process_time(), time.perf_counter()
        worker.work(burst=True, logging_level=level)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        left, failed = len(worker.queues[0]), worker.queues[0].failed_job_registry.count
        if left or failed:
            raise SystemExit(f"{left} jobs left in the queue, {failed} failed")
        return cpu / jobs * 1000, jobs / wall
    finally:
        for key in redis.scan_iter(f"*{name}*", count=1000):
            redis.delete(key)
        redis.srem("rq:queues", f"rq:queue:{name}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from redis import Redis
    from rq.worker import SimpleWorker

    from service.observability import logs
    from workers.__main__ import EntrepotWorker

    real_stderr = os.dup(2)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the JSON log lines: written, not shown
    logs.configure("INFO")
    redis = Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    kinds = {"RQ's SimpleWorker, INFO lines, result kept 60 s (before)": (SimpleWorker, 60, "INFO"),
             "EntrepotWorker, WARNING, no result kept (now)": (EntrepotWorker, 0, "WARNING")}
    figures: dict[str, list[tuple[float, float]]] = {k: [] for k in kinds}
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    try:
        for _ in range(args.rounds):
            for label, (worker_class, ttl, level) in kinds.items():
                figures[label].append(run(redis, worker_class, args.jobs, ttl, level))
    finally:
        os.dup2(real_stderr, 2)
    print(f"load average {load} before, {' '.join(f'{x:.2f}' for x in os.getloadavg())} after; "
          f"{args.jobs} jobs a round, {args.rounds} rounds", file=sys.stdout)
    for label, runs in figures.items():
        cpu = sorted(c for c, _ in runs)
        rate = sorted(r for _, r in runs)
        print(f"{label}: worker CPU {cpu[len(cpu) // 2]:.3f} ms a job (median; rounds "
              f"{', '.join(f'{c:.3f}' for c, _ in runs)}), {rate[len(rate) // 2]:.0f} jobs/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
