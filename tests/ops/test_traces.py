"""OpenTelemetry: one trace from the HTTP command (or message) through the fan-out job, if
any, to the webhook delivery, recorded by the SDK's in-memory exporter. Real PostgreSQL,
Redis, an RQ worker (in this process, so its spans reach the same exporter) and a real HTTP receiver."""

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


def _trace_of(spans, route: str):
    """The spans of the trace of the server span of ``route``, and a walk up a span's
    ancestors within it."""
    root = next(s for s in spans if s.kind == SpanKind.SERVER and s.attributes.get("http.route", "").endswith(route))
    same_trace = [s for s in spans if s.context.trace_id == root.context.trace_id]
    by_id = {s.context.span_id: s for s in same_trace}

    def ancestors(span):
        while span.parent is not None and span.parent.span_id in by_id:
            span = by_id[span.parent.span_id]
            yield span

    return root, same_trace, ancestors


def _delivered_in(same_trace, ancestors, receiver):
    delivery = next(s for s in same_trace if s.name == "job deliver_webhook")
    post = [s for s in same_trace if s.kind == SpanKind.CLIENT and delivery in ancestors(s)
            and str(receiver.url.rsplit(":", 1)[1]) in str(s.attributes.get("url.full") or s.attributes.get("http.url"))]
    assert post, "the delivery's HTTP POST is not in the trace"
    return delivery


def _work_until(worker, receiver, path: str) -> bool:
    deadline = time.monotonic() + 1.5
    while not receiver.at(path) and time.monotonic() < deadline:
        worker.work(burst=True)
        time.sleep(0.05)
    return bool(receiver.at(path))


def test_one_trace_runs_from_the_command_and_through_the_fan_out_to_the_webhook(settings, exporter, monkeypatch):
    """A command told by its own append: the command's trace holds the statement that
    wrote the notification and the delivery job, with no fan-out job. A table message,
    fanned out by a job: its trace runs through that job to the delivery."""
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
                             json={"url": receiver.url + "/turns", "events": ["your_turn", "message"]})
        assert hooked.status_code == 201
        game = two_player_game(client, red, black)
        players = [red, black]
        worker = SimpleWorker([clock_queue(settings.queue_name), settings.queue_name, ai_queue(settings.queue_name),
                               webhook_queue(settings.queue_name)],
                              connection=services.redis, job_class=TracedJob)
        worker.work(burst=True)  # the start's fan-out: done, so each command tells its own players
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
            if _work_until(worker, receiver, "/turns"):
                break
        assert receiver.at("/turns"), "no webhook was delivered"
        command_spans = exporter.get_finished_spans()

        exporter.clear()
        receiver.received.clear()
        posted = client.post(f"/v1/games/{game['id']}/messages", token=red["token"], json={"text": "well played"})
        assert posted.status_code == 201
        assert _work_until(worker, receiver, "/turns"), "no webhook was delivered for the message"
        message_spans = exporter.get_finished_spans()
    finally:
        receiver.stop()
        services.close()
        worker_services.cache_clear()

    command, same_trace, ancestors = _trace_of(command_spans, "/commands")
    names = {s.name for s in same_trace}
    assert "job deliver_webhook" in names and "job fan_out_game" not in names, names
    assert any(s.kind == SpanKind.CLIENT and "INSERT INTO notifications" in str(s.attributes.get("db.statement", ""))
               and command in ancestors(s) for s in same_trace), "the append's statement is not under the command"
    delivery = _delivered_in(same_trace, ancestors, receiver)
    assert command in ancestors(delivery)

    message, same_trace, ancestors = _trace_of(message_spans, "/messages")
    fan_out = next(s for s in same_trace if s.name == "job fan_out_messages")
    delivery = _delivered_in(same_trace, ancestors, receiver)
    assert message in ancestors(fan_out)
    assert fan_out in ancestors(delivery)
