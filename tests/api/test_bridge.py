"""The Flask routes under the ASGI application `entrepot serve` runs (api/asgi.py: the
edge, the observe middleware, then api/bridge.py's one hop to a thread) answer as the Flask
app itself does (issue 24): the same status, problem code, body and headers for good and
hostile requests (ids in other spellings, a trailing newline, bad JSON, a body too large
or without a length, wrong methods and media types, missing or bad tokens, a body sent in
pieces), plus what the ASGI side adds to every answer: the request id, the security
headers; and a caller over its rate limit gets the same 429."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import replace
from urllib.parse import quote

import pytest

from api.asgi import create_asgi_app
from service.runtime.container import build
from tests.api.seating import accept_invitations

#: headers whose values differ between two answers to the same request (a problem's length
#: with its request id)
VOLATILE = {"x-request-id", "ratelimit-remaining", "ratelimit-reset", "etag", "content-length"}
SECURITY = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer"}


class Answer:
    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes):
        self.status_code, self.body = status, body
        self.headers = {name: value for name, value in headers}
        self.header_list = headers

    def json(self):
        return json.loads(self.body)


def call(app, method: str, path: str, headers: dict[str, str] | None = None, chunks: list[bytes] | None = None,
         query: str = "", length: bool = True) -> Answer:
    """One request through the ASGI application, in this process, its body sent in
    ``chunks`` (several ASGI messages); ``length``: send a Content-Length."""
    chunks = chunks if chunks is not None else [b""]
    raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in (headers or {}).items()]
    if length and sum(map(len, chunks)):
        raw.append((b"content-length", str(sum(map(len, chunks))).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
             "root_path": "", "headers": raw, "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)}
    pending = [{"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
               for n, chunk in enumerate(chunks)]
    sent: list[dict] = []

    async def receive():
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start, *bodies = sent
    assert all(b["type"] == "http.response.body" for b in bodies) and not bodies[-1].get("more_body")
    headers_out = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in start["headers"]]
    return Answer(start["status"], headers_out, b"".join(b.get("body", b"") for b in bodies))


@pytest.fixture(scope="module")
def asgi(services):
    return create_asgi_app(services, threads=2)


@pytest.fixture(scope="module")
def table(services, app):
    """A Kontor game between two players, ready for Red's first command."""
    client = app.test_client()
    players = [client.post("/v1/players", json={"name": name}).json for name in ("BridgeRed", "BridgeBlack")]
    game = client.post("/v1/games", headers={"Authorization": f"Bearer {players[0]['token']}"}, json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": players[0]["id"]}, {"player_id": players[1]["id"]}]}).json

    class Seated:
        def __init__(self, client):
            self.client = client

        def post(self, path, token=None):
            return self.client.post(path, headers={"Authorization": f"Bearer {token}"})

        def get(self, path, token=None):
            return self.client.get(path, headers={"Authorization": f"Bearer {token}"} if token else {})

    game = accept_invitations(Seated(client), game, players, players[0])
    return game, players


def assert_edge(answer: Answer, request_id: str | None = None, what: object = None) -> None:
    """What the ASGI side puts on every answer: one request id (the one sent, if valid),
    repeated in a problem's body; the security headers, once each."""
    names = [name for name, _ in answer.header_list]
    assert len(names) == len(set(names)), f"a header twice: {names}"
    assert answer.headers["x-request-id"] == request_id if request_id else answer.headers["x-request-id"]
    for name, value in SECURITY.items():
        assert answer.headers[name] == value
    assert int(answer.headers["content-length"]) == len(answer.body)
    if answer.status_code >= 400:
        assert answer.headers["content-type"] == "application/problem+json", (what, answer.body[:200])
        assert answer.json()["request_id"] == answer.headers["x-request-id"]


def same_answer(answer: Answer, flask_answer) -> None:
    """The ASGI application's answer is the Flask app's own: status, headers, body."""
    assert answer.status_code == flask_answer.status_code, (answer.body, flask_answer.data)
    flask_headers = {name.lower(): value for name, value in flask_answer.headers.items()}
    flask_headers.pop("date", None)  # Flask's file responses write one; the server writes its own
    ours = {name: value for name, value in answer.headers.items() if name not in VOLATILE}
    assert ours == {name: value for name, value in flask_headers.items() if name not in VOLATILE}
    assert {n for n in answer.headers if n in VOLATILE} == {n for n in flask_headers if n in VOLATILE}
    if answer.headers.get("content-type", "").endswith("json"):
        mine, theirs = answer.json(), json.loads(flask_answer.data)
        if isinstance(mine, dict) and isinstance(theirs, dict):
            mine.pop("request_id", None), theirs.pop("request_id", None)
        assert mine == theirs
    else:
        assert answer.body == flask_answer.data


def test_reads_good_and_hostile_answer_as_flask_does(asgi, app, table):
    game, players = table
    gid, token = game["id"], players[0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    cases = [
        # (method, path, query, headers, expected status, expected problem code or None)
        ("GET", "/v1/health/live", "", {}, 200, None),
        ("GET", "/v1/health", "", {}, None, None),  # 200 or 503 (no worker here): as Flask says
        ("GET", f"/v1/games/{gid}", "", auth, 200, None),
        ("GET", f"/v1/games/{gid}", "", {}, 200, None),
        ("GET", f"/v1/games/{gid}/legal-commands", "", auth, 200, None),
        ("GET", f"/v1/games/{gid}/legal-commands", "seat=1", auth, 403, None),
        ("GET", f"/v1/games/{gid}/legal-commands", "", {}, 401, "unauthorized"),
        ("GET", f"/v1/games/{gid}/legal-commands", "", {"Authorization": "Bearer nope"}, 401, "unauthorized"),
        ("GET", f"/v1/games/{gid}/legal-commands", "", {"Authorization": "Basic abc"}, 401, "unauthorized"),
        ("GET", f"/v1/games/{gid.upper()}/legal-commands", "", auth, 404, "not_found"),
        ("GET", f"/v1/games/{gid}\n/legal-commands", "", auth, 404, "not_found"),
        ("GET", f"/v1/games/{gid}\n", "", auth, 404, "not_found"),
        ("GET", f"/v1/games/{uuid.uuid4()}/legal-commands", "", auth, 404, "not_found"),
        ("GET", f"/v1/games/{gid}/legal-commands", "seat=abc", auth, 422, "validation_error"),
        ("GET", "/v1/games", f"player={players[0]['id']}\n", {}, 422, "validation_error"),
        ("GET", f"/v1/games/{gid}/state", "at=1", {}, 200, None),
        ("GET", "/v1/no-such-route", "", {}, 404, "not_found"),
        ("DELETE", f"/v1/games/{gid}/commands", "", auth, 405, "method_not_allowed"),
        ("GET", "/v1/games/../../etc/passwd", "", {}, 404, "not_found"),
        ("GET", "/web/index.html", "", {}, 200, None),
    ]
    flask = app.test_client()
    for method, path, query, headers, status, code in cases:
        sent_id = f"bridge-{len(path)}-{method}"
        answer = call(asgi, method, path, {**headers, "X-Request-Id": sent_id}, query=query)
        assert_edge(answer, sent_id, (method, path))
        if status is not None:
            assert answer.status_code == status, (method, path, answer.body[:300])
        if code is not None:
            assert answer.json()["code"] == code, (method, path, answer.body[:300])
        # quoted: the test client's URL parsing drops a raw newline (the server's does not)
        same_answer(answer, flask.open(quote(path), method=method, query_string=query, headers=headers))


def test_commands_and_their_refusals(asgi, table, settings):
    game, players = table
    gid = game["id"]
    red = {"Authorization": f"Bearer {players[0]['token']}"}
    black = {"Authorization": f"Bearer {players[1]['token']}"}
    path = f"/v1/games/{gid}/commands"
    json_type = {"Content-Type": "application/json"}

    legal = call(asgi, "GET", f"/v1/games/{gid}/legal-commands", red)
    assert legal.status_code == 200 and legal.headers["content-type"] == "application/json"
    assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= set(legal.headers)
    listed = legal.json()
    body = json.dumps({"command": listed["commands"][0], "expected_version": listed["version"]}).encode()

    refusals = [
        # (headers, body chunks, send a length, status, problem code)
        ({}, [body], True, 401, "unauthorized"),
        ({**red, "Content-Type": "text/plain"}, [body], True, 415, "unsupported_media_type"),
        ({**red, **json_type}, [b"{not json"], True, 400, "malformed_json"),
        ({**red, **json_type}, [b"[1, 2]"], True, 400, "malformed_json"),
        ({**red, **json_type}, [b"{" * 40 + b"}" * 40], True, 400, "malformed_json"),
        ({**red, **json_type}, [b'{"command": {"type": "ChooseCard", "card": "\\u0000"}, "expected_version": 1}'],
         True, 422, "validation_error"),
        ({**red, **json_type}, [b" " * (settings.max_body_bytes + 1)], True, 413, "payload_too_large"),
        # no Content-Length (chunked): werkzeug reads no body then, as under a2wsgi before
        ({**red, **json_type}, [body[:10], body[10:]], False, 400, "malformed_json"),
        ({**red, **json_type, "Idempotency-Key": "k" * 256}, [body], True, 422, "validation_error"),
        ({**black, **json_type}, [body], True, 422, "illegal_command"),  # Red's card, not in Black's hand
        ({**red, **json_type},
         [json.dumps({"command": listed["commands"][0], "expected_version": listed["version"] + 5}).encode()],
         True, 409, "version_conflict"),
    ]
    for headers, chunks, length, status, code in refusals:
        answer = call(asgi, "POST", path, headers, chunks, length=length)
        assert_edge(answer)
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.body[:300]
        if status == 401:
            assert answer.headers["www-authenticate"] == 'Bearer realm="entrepot"'

    # accepted, its body in three pieces; then the same Idempotency-Key replays it
    key = {"Idempotency-Key": f"bridge-{uuid.uuid4()}"}
    pieces = [body[:5], body[5:20], body[20:]]
    first = call(asgi, "POST", path, {**red, **json_type, **key}, pieces)
    assert_edge(first)
    assert first.status_code == 201 and "idempotent-replayed" not in first.headers, first.body
    again = call(asgi, "POST", path, {**red, **json_type, **key}, [body])
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    stale = call(asgi, "POST", path, {**red, **json_type}, [body])
    assert (stale.status_code, stale.json()["code"]) == (409, "version_conflict")


def test_over_the_rate_limit_the_same_429(settings):
    services = build(replace(settings, queue_name=f"entrepot-bridge-{uuid.uuid4().hex[:8]}",
                             rate_limit_per_ip="3/minute"))
    try:
        asgi = create_asgi_app(services, threads=1)
        answers = [call(asgi, "GET", "/v1/health/live") for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert [a.headers["ratelimit-remaining"] for a in answers] == ["2", "1", "0", "0"]
        refused = answers[-1]
        assert_edge(refused)
        assert refused.json()["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1
        assert refused.headers["ratelimit-limit"] == "3"
    finally:
        services.close()
