"""Prometheus metrics (prometheus-client), every name starting with ``entrepot_``.

Several processes (uvicorn's API processes, the RQ workers `entrepot serve` starts) write
their samples to files in ``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess
mode; the variable must be set before this module is first imported, which `entrepot
serve` does for its children); one of them, or `entrepot serve` itself, serves the sum on
``127.0.0.1:<port>/metrics``: a port of its own, bound to loopback unless told otherwise,
never on the public API's port.

What is counted where:
- requests by route template and status, and their latency: api/observe.py;
- commands by title and outcome: ``metered_commands`` wraps GameService.execute;
- computer move time by level (GameService.play_computer), timer lateness
  (ClockService.run_timer), mail and webhook delivery lag and failures (Mailer.deliver,
  WebhookService._record), job failures per queue (the workers' exception handler),
  open streams (api/observe.py), database pool use (``sample_pools``, every few seconds);
- queue depths, failed jobs and live workers per queue are read from Redis when scraped
  (``QueueCollector``), by the process that serves the port.
"""

from __future__ import annotations

import contextvars
import errno
import logging
import os
import threading
import time
from collections.abc import Iterable
from functools import wraps

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily

log = logging.getLogger(__name__)

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
PORT_VARIABLE = "ENTREPOT_METRICS_PORT"
ADDRESS_VARIABLE = "ENTREPOT_METRICS_ADDRESS"

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 1800.0, 7200.0)

REQUESTS = Counter("entrepot_http_requests_total", "HTTP requests answered, by route template and status",
                   ["method", "route", "status"])
REQUEST_SECONDS = Histogram("entrepot_http_request_duration_seconds",
                            "Time to answer an HTTP request (a stream: until it closed)",
                            ["method", "route"], buckets=LATENCY_BUCKETS)
OPEN_STREAMS = Gauge("entrepot_open_streams", "Live streams (Server-Sent Events) open now", ["route"],
                     multiprocess_mode="livesum")
COMMANDS = Counter("entrepot_commands_total", "Game commands decided, by title and outcome",
                   ["title", "outcome"])
COMPUTER_MOVE_SECONDS = Histogram("entrepot_computer_move_seconds", "A computer seat's search for one move",
                                  ["title", "level"], buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0,
                                                               2.0, 5.0, 10.0))
TIMER_LATENESS = Histogram("entrepot_timer_lateness_seconds",
                           "How long after its due time a table timer (reminder, timeout) fired",
                           buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0))
JOB_FAILURES = Counter("entrepot_job_failures_total", "RQ jobs that raised, by queue", ["queue"])
MAIL_LAG = Histogram("entrepot_mail_delivery_lag_seconds",
                     "From a mail's claim to its hand-over to the SMTP server", buckets=LAG_BUCKETS)
MAIL_FAILURES = Counter("entrepot_mail_delivery_failures_total", "Mail hand-overs that failed (retried)")
WEBHOOK_LAG = Histogram("entrepot_webhook_delivery_lag_seconds",
                        "From a webhook delivery's creation to the receiver's 2xx", buckets=LAG_BUCKETS)
WEBHOOK_FAILURES = Counter("entrepot_webhook_delivery_failures_total",
                           "Webhook delivery attempts that failed, by what follows (retry, failed)",
                           ["outcome"])
POOL_CONNECTIONS = Gauge("entrepot_db_pool_connections",
                         "Database pool connections, by pool and state (open, idle, in_use, max)",
                         ["pool", "state"], multiprocess_mode="livesum")
POOL_WAITING = Gauge("entrepot_db_pool_waiting", "Requests waiting for a pooled connection", ["pool"],
                     multiprocess_mode="livesum")


def multiprocess_mode() -> bool:
    return bool(os.environ.get(MULTIPROC_DIR))


def registry() -> CollectorRegistry:
    """What a scrape answers: every process's samples (multiprocess mode) or this one's."""
    if multiprocess_mode():
        reg = CollectorRegistry()
        multiprocess.MultiProcessCollector(reg)
        return reg
    from prometheus_client import REGISTRY

    return REGISTRY


def serve(port: int, address: str | None = None, redis_url: str | None = None,
          queue_names: tuple[str, ...] = (), fanouts_key: str | None = None) -> bool:
    """Serve /metrics on ``address:port`` (loopback by default). False when another
    process of this machine serves it already (uvicorn's processes race for the port; the
    first wins and answers for all of them)."""
    reg = registry()
    if redis_url and queue_names:
        reg.register(QueueCollector(redis_url, queue_names, fanouts_key))
    try:
        start_http_server(port, addr=address or os.environ.get(ADDRESS_VARIABLE) or "127.0.0.1", registry=reg)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            return False
        raise
    log.info("metrics on %s:%s/metrics", address or "127.0.0.1", port)
    return True


def serve_from_env(redis_url: str | None = None, queue_names: tuple[str, ...] = (),
                   fanouts_key: str | None = None) -> bool:
    port = os.environ.get(PORT_VARIABLE)
    return bool(port) and serve(int(port), redis_url=redis_url, queue_names=queue_names, fanouts_key=fanouts_key)


def process_died(pid: int) -> None:
    """A child process of the multiprocess set is gone: its live gauges no longer count."""
    if multiprocess_mode():
        multiprocess.mark_process_dead(pid)


# the queues, read from Redis at scrape time ---------------------------------------------
class QueueCollector:
    """entrepot_queue_depth, entrepot_queue_failed_jobs and entrepot_workers per RQ queue,
    and entrepot_fanouts_waiting: the games waiting for their fan-out (not RQ jobs)."""

    def __init__(self, redis_url: str, queue_names: tuple[str, ...], fanouts_key: str | None = None):
        """``queue_names``: service/job_queue.py's ``watched_queues``, ``fanouts_key`` its
        ``fanouts_key`` (the caller knows them)."""
        from redis import Redis

        self.redis = Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
        self.queue_names = queue_names
        self.fanouts_key = fanouts_key

    def collect(self) -> Iterable[GaugeMetricFamily]:
        from rq import Queue, Worker

        depth = GaugeMetricFamily("entrepot_queue_depth", "Jobs waiting in each RQ queue", labels=["queue"])
        scheduled = GaugeMetricFamily("entrepot_queue_scheduled_jobs", "Jobs scheduled for later (timers)",
                                      labels=["queue"])
        failed = GaugeMetricFamily("entrepot_queue_failed_jobs", "Jobs in each queue's failed registry",
                                   labels=["queue"])
        workers = GaugeMetricFamily("entrepot_workers", "RQ workers listening to each queue",
                                    labels=["queue"])
        up = GaugeMetricFamily("entrepot_redis_up", "1 when the metrics process reached Redis")
        fanouts = GaugeMetricFamily("entrepot_fanouts_waiting", "Games whose notifications wait for a worker")
        try:
            if self.fanouts_key is not None:
                fanouts.add_metric([], self.redis.zcard(self.fanouts_key))
            for name in self.queue_names:
                queue = Queue(name, connection=self.redis)
                depth.add_metric([name], queue.count)
                scheduled.add_metric([name], queue.scheduled_job_registry.count)
                failed.add_metric([name], queue.failed_job_registry.count)
                workers.add_metric([name], Worker.count(queue=queue))
            up.add_metric([], 1)
        except Exception as err:  # Redis down: say so rather than fail the scrape
            log.warning("metrics: could not read the queues (%s)", type(err).__name__)
            up.add_metric([], 0)
            return [up]
        return [depth, scheduled, failed, workers, up] + ([fanouts] if self.fanouts_key is not None else [])


# commands ---------------------------------------------------------------------------------
_title: contextvars.ContextVar[str | None] = contextvars.ContextVar("entrepot_command_title", default=None)


def metered_commands(games) -> None:
    """Count every command GameService decides, by title and outcome (accepted, or the
    error's code), without touching its code: the instance's execute, live and seen are
    wrapped (live and seen tell the title of the game the command reads: the game as read,
    or as this process holds it)."""
    execute, live, seen = games.execute, games.live, games.seen

    @wraps(live)
    def live_noting_title(tx, game_id, *args, **kwargs):
        found = live(tx, game_id, *args, **kwargs)
        _title.set(found[0].title)
        return found

    @wraps(seen)
    def seen_noting_title(game_id, *args, **kwargs):
        found = seen(game_id, *args, **kwargs)
        if found is not None:
            _title.set(found[0].title)
        return found

    @wraps(execute)
    def counted(*args, **kwargs):
        token = _title.set(None)
        try:
            outcome = execute(*args, **kwargs)
        except Exception as err:
            COMMANDS.labels(_title.get() or "unknown", getattr(err, "code", "error")).inc()
            raise
        finally:
            title = _title.get()
            _title.reset(token)
        COMMANDS.labels(title or "unknown", "accepted").inc()
        return outcome

    games.live, games.seen, games.execute = live_noting_title, seen_noting_title, counted


# the pools --------------------------------------------------------------------------------
def sample_pools(pools: dict[str, object], every: float = 5.0, stop: threading.Event | None = None) -> threading.Thread:
    """Every ``every`` s: each psycopg pool's size, idle and used connections, waiting
    requests (psycopg_pool's get_stats). A daemon thread."""

    def run() -> None:
        while True:
            for name, pool in pools.items():
                try:
                    stats = pool.get_stats()
                except Exception:  # a closed pool
                    continue
                size, idle = stats.get("pool_size", 0), stats.get("pool_available", 0)
                POOL_CONNECTIONS.labels(name, "open").set(size)
                POOL_CONNECTIONS.labels(name, "idle").set(idle)
                POOL_CONNECTIONS.labels(name, "in_use").set(max(0, size - idle))
                POOL_CONNECTIONS.labels(name, "max").set(stats.get("pool_max", 0))
                POOL_WAITING.labels(name).set(stats.get("requests_waiting", 0))
            if stop is not None and stop.wait(every):
                return
            if stop is None:
                time.sleep(every)

    thread = threading.Thread(target=run, name="entrepot-pool-metrics", daemon=True)
    thread.start()
    return thread
