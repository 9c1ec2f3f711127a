"""GET /v1/exports: finished games' records as NDJSON, by title and time, page by page."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

from tests.api.seating import accept_invitations
from tests.audit.play import play_finished_game
from tests.refusals import problem
from verifier.verify import verify_record


def lines(response) -> list[dict]:
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    return [json.loads(line) for line in response.get_data(as_text=True).splitlines()]


def test_finished_games_page_by_page(client, services, new_player):
    since = datetime.now(UTC).isoformat()
    played = [play_finished_game(services, "kontor", {}, 2, random.Random(n))[0] for n in range(3)]
    # other tests of this session finish games on clocks they move (years ahead): bound the
    # window on both sides so that only this test's games are in it
    window = {"finished_after": since, "finished_before": datetime.now(UTC).isoformat()}
    red, black = new_player("Red"), new_player("Black")
    running = accept_invitations(client, client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json, [black])
    assert running["status"] == "active"
    first = client.get("/v1/exports", query_string={**window, "limit": 2})
    cursor = first.headers["Next-Cursor"]
    rest = client.get("/v1/exports", query_string={**window, "limit": 2, "cursor": cursor})
    assert "Next-Cursor" not in rest.headers
    records = lines(first) + lines(rest)
    assert [r["game_id"] for r in records] == played and running["id"] not in str(records)
    assert [r["finished_at"] for r in records] == sorted(r["finished_at"] for r in records)
    assert all(verify_record(r).ok for r in records)
    # an empty page is an empty body, which openapi-core cannot validate: the raw client
    raw = client.client
    assert lines(raw.get("/v1/exports", query_string={**window, "title": "speicherstadt"})) == []
    assert lines(client.get("/v1/exports", query_string={"finished_after": since,
                                                         "finished_before": records[1]["finished_at"]})) \
        == records[:1]


def test_bad_filters_are_refused(client):
    assert client.get("/v1/exports", query_string={"cursor": "nonsense"}).json["code"] == "validation_error"
    problem(client.get("/v1/exports", query_string={"title": "chess"}), 422, "validation_error")
    problem(client.get("/v1/exports", query_string={"finished_after": "yesterday"}), 422, "validation_error")
    problem(client.get("/v1/exports", query_string={"limit": 0}), 422, "validation_error")
