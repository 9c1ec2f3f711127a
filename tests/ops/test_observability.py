"""What an operator sees of a real `entrepot serve` (API processes and RQ workers): the
Prometheus metrics of every process on the metrics port, after known traffic; one JSON
object per log line with the request's id, route, status, duration and player, and never
a token, a password or a secret; X-Request-Id and `request_id` in problem details; the
liveness and readiness routes."""

from __future__ import annotations

import json
import random
import time
import uuid

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from psycopg.conninfo import conninfo_to_dict

from clients.sdk import ApiError, Client
from tests.e2e.live import Served, engine_env, free_port
from tests.notifications.receiver import Receiver

pytestmark = pytest.mark.slow(seconds=40)


@pytest.fixture(scope="module")
def receiver():
    receiver = Receiver().start()
    yield receiver
    receiver.stop()


@pytest.fixture(scope="module")
def served(settings, tmp_path_factory):
    metrics_port = free_port()
    env = {**engine_env(settings, "-ops"), "ENTREPOT_WEBHOOK_ALLOW_PRIVATE": "1",
           "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path_factory.mktemp("keys") / "signing-key")}
    env.pop("ENTREPOT_METRICS_PORT", None)
    data_dir = tmp_path_factory.mktemp("ops-data")
    served = Served(["--workers", "2", "--data-dir", str(data_dir), "--metrics-port", str(metrics_port)],
                    env, tmp_path_factory.mktemp("ops") / "serve.log").wait_healthy()
    served.metrics = f"http://127.0.0.1:{metrics_port}/metrics"
    served.env = env
    yield served
    served.stop()


def samples(url: str) -> dict[tuple, float]:
    text = requests.get(url, timeout=5).text
    found = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def value(found: dict, name: str, **labels) -> float:
    """The sum over every series of ``name`` whose labels include ``labels``."""
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= set(ls))


def test_metrics_count_known_traffic_and_logs_are_json_without_secrets(served, receiver):
    base = served.base
    players = [Client(base) for _ in range(3)]
    made = [c.create_player(f"Ops{i}") for i, c in enumerate(players)]
    red, black, solo = players
    hook = requests.post(base + "/v1/players/me/webhooks", headers={"Authorization": f"Bearer {made[1]['token']}"},
                         json={"url": receiver.url + "/hook", "events": ["your_turn"]}, timeout=5)
    assert hook.status_code == 201
    receiver.secrets["/hook"] = webhook_secret = hook.json()["secret"]

    # a game of two people: every command by the book, one illegal, one stale version
    game = red.create_game("kontor", [{"player_id": made[0]["id"]}, {"player_id": made[1]["id"]}],
                           {"variant": "basic"})
    game = black.accept(game["id"], 1)
    rng, clients, accepted = random.Random(5), [red, black], 0
    for _ in range(6):
        seat = game["to_act"][0]
        legal = clients[seat].legal_commands(game["id"])
        clients[seat].command(game["id"], rng.choice(legal["commands"]), expected_version=legal["version"])
        accepted += 1
        game = red.game(game["id"])
    with pytest.raises(ApiError) as stale:
        clients[game["to_act"][0]].command(game["id"], legal["commands"][0], expected_version=1)
    assert stale.value.code == "version_conflict"
    with pytest.raises(ApiError) as illegal:
        clients[game["to_act"][0]].command(game["id"], {"type": "no_such_command"})
    assert (illegal.value.status, illegal.value.code) == (422, "validation_error")

    # against the computer: its move is timed
    duel = solo.create_game("kontor", [{"player_id": made[2]["id"]}, {"ai": "easy"}], {"variant": "basic"})

    # a request id from the proxy is kept and echoed, also in problem details
    given = f"proxy-{uuid.uuid4().hex}"
    missing = requests.get(base + "/v1/games/" + str(uuid.uuid4()), headers={"X-Request-Id": given}, timeout=5)
    assert missing.status_code == 404 and missing.headers["X-Request-Id"] == given
    assert missing.json()["request_id"] == given
    made_up = requests.get(base + "/v1/games/" + str(uuid.uuid4()), headers={"X-Request-Id": "bad id\u00e9"}, timeout=5)
    assert made_up.headers["X-Request-Id"] != "bad id" and made_up.json()["request_id"] == made_up.headers["X-Request-Id"]
    refused = requests.get(base + "/v1/players/me", headers={"Authorization": "Bearer not-a-real-token-s3cr3t"},
                           timeout=5)
    assert refused.status_code == 401 and refused.json()["request_id"] == refused.headers["X-Request-Id"]

    # the async stream routes (Starlette, not Flask) too
    unknown = requests.get(f"{base}/v1/games/{uuid.uuid4()}/stream", headers={"X-Request-Id": given + "-s"}, timeout=5)
    assert unknown.status_code == 404 and unknown.headers["X-Request-Id"] == given + "-s"
    assert unknown.json()["request_id"] == given + "-s"

    # liveness and readiness
    assert requests.get(base + "/v1/health/live", timeout=5).json() == {"status": "ok"}
    ready = requests.get(base + "/v1/health/ready", timeout=5)
    assert ready.status_code == 200 and ready.json()["checks"]["worker"] == "ok"

    # an event stream, opened and closed: counted as a stream while open. The line iterator
    # is kept while the gauge is read: an iterator dropped after its first line is closed
    # at once, and urllib3 closes the connection of a chunked body whose read is
    # abandoned, so the server ended the stream before the scrape (issue 31's open question)
    with requests.get(f"{base}/v1/games/{game['id']}/stream", stream=True, timeout=5,
                      headers={"Authorization": f"Bearer {made[0]['token']}"}) as stream:
        assert stream.status_code == 200 and stream.headers["X-Request-Id"]
        lines = stream.iter_lines()
        assert next(lines) == b"retry: 2000"
        assert value(samples(served.metrics), "entrepot_open_streams", route="/v1/games/{game_id}/stream") == 1
        assert next(lines) == b"" and next(lines).startswith(b"id: ")  # still open after the scrape

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = samples(served.metrics)
        if (value(found, "entrepot_webhook_delivery_lag_seconds_count") >= 3
                and value(found, "entrepot_computer_move_seconds_count", level="easy") >= 1
                and value(found, "entrepot_open_streams") == 0):
            break
        time.sleep(0.3)
    assert solo.game(duel["id"])["version"] > duel["version"]

    requests_total = "entrepot_http_requests_total"
    assert value(found, requests_total, method="POST", route="/v1/players", status="201") == 3
    assert value(found, requests_total, method="POST", route="/v1/games/{game_id}/commands", status="201") == accepted
    assert value(found, requests_total, method="POST", route="/v1/games/{game_id}/commands", status="409") == 1
    assert value(found, requests_total, method="GET", route="/v1/games/{game_id}", status="404") == 2
    assert value(found, requests_total, method="GET", route="/v1/games/{game_id}/stream", status="200") == 1
    assert value(found, "entrepot_http_request_duration_seconds_count", method="POST",
                 route="/v1/games/{game_id}/commands") == accepted + 2
    # by title and outcome: the people's commands, the computer's, the refused ones
    assert value(found, "entrepot_commands_total", title="kontor", outcome="version_conflict") == 1
    assert value(found, "entrepot_commands_total", title="kontor", outcome="accepted") >= accepted + 1
    assert value(found, "entrepot_computer_move_seconds_count", title="kontor", level="easy") >= 1
    assert value(found, "entrepot_webhook_delivery_lag_seconds_count") == len(receiver.at("/hook")) >= 1
    assert value(found, "entrepot_webhook_delivery_failures_total") == 0
    assert value(found, "entrepot_workers") >= 1 and value(found, "entrepot_redis_up") == 1
    assert ("entrepot_queue_depth", (("queue", served_queue(served) + "-clock"),)) in found
    assert ("entrepot_fanouts_waiting", ()) in found  # the games whose fan-out waits (none, or a few)
    assert value(found, "entrepot_db_pool_connections", pool="api", state="max") > 0
    assert value(found, "entrepot_open_streams") == 0  # every route's series, this one's included
    assert ("entrepot_open_streams", (("route", "/v1/games/{game_id}/stream"),)) in found
    assert all(name.startswith("entrepot_") or name.startswith(("process_", "python_"))
               for name, _ in found)

    served.stop()  # every line of the run written
    # serve's banner for the person at the terminal ("Entrepot is serving on ...") is not
    # a log line: every other line is one
    banner = ("Entrepot is serving on ", "Log: ", "Reply mails (moves by email) by SMTP on ")
    lines = [line for line in served.log().splitlines() if not line.startswith(banner)]
    assert len(lines) > 20
    unparsed = [i for i, line in enumerate(lines) if not _is_json(line)]
    assert not unparsed, "lines that are not JSON:\n" + "\n".join(lines[max(0, unparsed[0] - 3):unparsed[0] + 40])
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all(isinstance(r, dict) and "event" in r and "level" in r for r in records)
    answered = [r for r in records if r.get("event") == "request"]
    by_id = {r["request_id"]: r for r in answered}
    assert by_id[given]["status"] == 404 and by_id[given]["route"] == "/v1/games/{game_id}"
    commands = [r for r in answered if r["route"] == "/v1/games/{game_id}/commands" and r["status"] == 201]
    assert len(commands) == accepted
    assert {r["player_id"] for r in commands} == {made[0]["id"], made[1]["id"]}
    assert all(isinstance(r["duration_ms"], float | int) for r in answered)
    text = "\n".join(lines)
    for secret in [*(m["token"] for m in made), webhook_secret, "not-a-real-token-s3cr3t",
                   password_of(served)]:
        assert secret not in text, "a secret reached the log"
    assert any(r.get("logger", "").startswith("uvicorn") for r in records)  # uvicorn's own lines: JSON too
    assert any(r.get("logger", "").startswith(("rq", "entrepot.worker")) for r in records)


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def served_queue(served) -> str:
    return served.env["ENTREPOT_QUEUE"]


def password_of(served) -> str:
    """The application role's password, in DATABASE_URL."""
    password = conninfo_to_dict(served.env["DATABASE_URL"])["password"]
    assert password
    return password
