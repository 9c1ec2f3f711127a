"""OpenTelemetry: one trace from the HTTP command through the fan-out job to the webhook
delivery, recorded by the SDK's in-memory exporter. Real PostgreSQL, Redis, an RQ worker
(in this process, so its spans reach the same exporter) and a real HTTP receiver."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from rq import SimpleWorker

from api import create_app
from service.job_queue import ai_queue, clock_queue, webhook_queue
from service.observability import tracing
from service.observability.tracing import TracedJob
from service.runtime.container import build
from tests.notifications.conftest import WEBHOOK_KEY, new_player, two_player_game, worker_env
from tests.notifications.receiver import Receiver
from tests.openapi_check import ValidatingClient
from workers.services import services as worker_services


@pytest.fixture
def exporter():
    exporter = InMemorySpanExporter()
    assert not tracing.enabled()  # off by default
    tracing.setup("entrepot-test", exporter)
    yield exporter
    tracing.stop()


def test_one_trace_runs_from_the_command_through_the_fan_out_to_the_webhook(settings, exporter, monkeypatch):
    settings = replace(settings, queue_name=f"entrepot-traces-{uuid.uuid4().hex[:8]}", webhook_key=WEBHOOK_KEY,
                       webhook_allow_private=True, webhook_retry_schedule=(0.0, 0.3), webhook_timeout_seconds=2.0)
    for name, value in worker_env(settings).items():
        monkeypatch.setenv(name, value)
    worker_services.cache_clear()  # the jobs' services: from this environment
    services = build(settings)
    receiver = Receiver().start()
    try:
        app = create_app(services)
        client = ValidatingClient(app.test_client())
        red, black = new_player(client, "Red"), new_player(client, "Black")
        hooked = client.post("/v1/players/me/webhooks", token=black["token"],
                             json={"url": receiver.url + "/turns", "events": ["your_turn"]})
        assert hooked.status_code == 201
        game = two_player_game(client, red, black)
        players = [red, black]
        worker = SimpleWorker([clock_queue(settings.queue_name), settings.queue_name, ai_queue(settings.queue_name),
                               webhook_queue(settings.queue_name)],
                              connection=services.redis, job_class=TracedJob)
        worker.work(burst=True)  # the start's fan-out: done, so each command's has its own work
        receiver.received.clear()
        for _ in range(8):  # until a command hands the turn to Black
            exporter.clear()
            game = client.get(f"/v1/games/{game['id']}").json
            seat = game["to_act"][0]
            legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=players[seat]["token"],
                               query_string={"seat": seat}).json
            played = client.post(f"/v1/games/{game['id']}/commands", token=players[seat]["token"],
                                 json={"seat": seat, "command": legal["commands"][0],
                                       "expected_version": legal["version"]})
            assert played.status_code == 201
            deadline = time.monotonic() + 1.5
            while not receiver.at("/turns") and time.monotonic() < deadline:
                worker.work(burst=True)
                time.sleep(0.05)
            if receiver.at("/turns"):
                break
        assert receiver.at("/turns"), "no webhook was delivered"
    finally:
        receiver.stop()
        services.close()
        worker_services.cache_clear()

    spans = exporter.get_finished_spans()
    command = next(s for s in spans if s.kind == SpanKind.SERVER
                   and s.attributes.get("http.route", "").endswith("/commands"))
    same_trace = [s for s in spans if s.context.trace_id == command.context.trace_id]
    names = {s.name for s in same_trace}
    assert {"job fan_out_game", "job deliver_webhook"} <= names, names
    assert any(s.kind == SpanKind.CLIENT and s.name.startswith("INSERT") or "INSERT" in str(s.attributes.get("db.statement", ""))
               for s in same_trace), "no SQL span under the command"
    by_id = {s.context.span_id: s for s in same_trace}

    def ancestors(span):
        while span.parent is not None and span.parent.span_id in by_id:
            span = by_id[span.parent.span_id]
            yield span

    fan_out = next(s for s in same_trace if s.name == "job fan_out_game")
    delivery = next(s for s in same_trace if s.name == "job deliver_webhook")
    assert command in ancestors(fan_out)
    assert fan_out in ancestors(delivery)
    post = [s for s in same_trace if s.kind == SpanKind.CLIENT and delivery in ancestors(s)
            and str(receiver.url.rsplit(":", 1)[1]) in str(s.attributes.get("url.full") or s.attributes.get("http.url"))]
    assert post, "the delivery's HTTP POST is not in the trace"
