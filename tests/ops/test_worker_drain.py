"""SIGTERM to a worker in the middle of a job: the job finishes (the computer's move is
played), then the worker exits cleanly; nothing is left half done."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import pytest
from rq import Queue

from service.games.service import SeatRequest
from service.job_queue import ai_queue
from service.runtime.container import build
from tests.conftest import ROOT
from tests.e2e.live import engine_env

pytestmark = pytest.mark.slow(seconds=12)


def test_a_worker_told_to_stop_finishes_its_job_first(settings):
    settings = replace(settings, queue_name=f"entrepot-drain-{uuid.uuid4().hex[:8]}")
    services = build(settings)
    worker = None
    try:
        me = services.players.create("Drainer", None).player
        game = services.games.create(me, "kontor", {"variant": "basic"},
                                     [SeatRequest(player_id=me.id), SeatRequest(ai="strong")]).game
        while 1 not in game.to_act:  # play until the computer's turn (its job is queued then)
            legal = services.games.legal_commands(game.id, me, 0)
            services.games.execute(me, game.id, 0, legal.commands[0], expected_version=legal.version)
            with services.store.read() as tx:
                game = tx.game(game.id)
        waiting_at = game.version
        # a strong seat that searches 3 s: long enough to be stopped in the middle
        env = {**engine_env(settings, ""), "ENTREPOT_AI_SECONDS": "3", "ENTREPOT_AI_ITERATIONS": "100000000",
               "PYTHONPATH": str(ROOT)}
        worker = subprocess.Popen([sys.executable, "-m", "workers", "--queues", "ai"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = Queue(ai_queue(settings.queue_name), connection=services.redis).started_job_registry
        deadline = time.monotonic() + 30
        while started.count == 0:
            assert time.monotonic() < deadline and worker.poll() is None, "the worker never took the job"
            time.sleep(0.05)
        time.sleep(0.5)
        with services.store.read() as tx:
            assert tx.game(game.id).version == waiting_at, "the search ended before the signal: no test"
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0
        with services.store.read() as tx:
            assert tx.game(game.id).version > waiting_at, "the job was cut off, not finished"
    finally:
        if worker is not None and worker.poll() is None:
            worker.kill()
        services.close()
