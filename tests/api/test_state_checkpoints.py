"""The state at any version comes from checkpoints (service/games/checkpoints.py), a cache that
is never the truth: every answer equals the state folded from the events, whatever the
checkpoints table holds (nothing, a corrupt row, a forged one, another code's)."""

from __future__ import annotations

import pickle
import random

import pytest

from service.audit import chain
from service.games.checkpoints import INTERVAL, code_format
from service.games.states import Folded, fold_stored
from service.games.titles import title as title_of
from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end


@pytest.fixture(scope="module")
def long_game(app, services):
    """A finished Kontor game (well over 2 x INTERVAL events) and Red's token."""
    from tests.openapi_check import ValidatingClient

    client = ValidatingClient(app.test_client())
    red, black = (client.post("/v1/players", json={"name": n}).json for n in ("Red", "Black"))
    created = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    game = accept_invitations(client, created, [black], red)
    finished, _ = play_to_the_end(client, game["id"], [red["token"], black["token"]], random.Random(3))
    assert finished["version"] > 2 * INTERVAL + 1
    return finished, red["token"]


def truth(services, game_id: str, at: int, seat: int | None) -> dict:
    """The view at ``at`` folded from the events alone, as before checkpoints."""
    with services.store.read() as tx:
        events = tx.events(game_id, after=0, upto=at)
    title = title_of("kontor")
    folded = fold_stored(title, events, Folded(None, 0, chain.genesis(game_id)))
    return title.view(folded.state, seat)


def rows(services, game_id: str) -> list[tuple]:
    with services.store.read() as tx:
        return tx.conn.execute("SELECT version, format FROM state_checkpoints WHERE game_id = %s ORDER BY version",
                               (game_id,)).fetchall()


def execute(services, sql: str, params: tuple) -> None:
    with services.store.tx() as tx:
        tx.conn.execute(sql, params)


def state(client, game_id, at, token=None):
    response = client.get(f"/v1/games/{game_id}/state", token=token, query_string={"at": at})
    assert response.status_code == 200, response.json
    assert response.json["version"] == at
    return response.json["view"]


def test_the_state_at_any_version_is_the_one_folded_from_the_events(client, services, long_game):
    game, token = long_game
    gid, end = game["id"], game["version"]
    points = [1, INTERVAL - 1, INTERVAL, INTERVAL + 1, 2 * INTERVAL + 1, end - 1]
    for at in points:
        assert state(client, gid, at) == truth(services, gid, at, None)  # the game is over: all is seen
    assert [v for v, _ in rows(services, gid)] == [n * INTERVAL for n in range(1, (end - 1) // INTERVAL + 1)]
    for at in points:  # now from the checkpoints
        assert state(client, gid, at) == truth(services, gid, at, None)
    board = client.get(f"/v1/games/{gid}/board.svg", query_string={"at": INTERVAL + 3})
    assert board.status_code == 200 and board.data.startswith(b"<svg")


def test_a_corrupt_forged_or_missing_checkpoint_is_ignored(client, services, long_game):
    game, _ = long_game
    gid = game["id"]
    at = 2 * INTERVAL + 7
    expected = truth(services, gid, at, None)
    state(client, gid, at)  # the checkpoints exist
    # corrupt: bytes that are no state
    execute(services, "UPDATE state_checkpoints SET state = %s WHERE game_id = %s", (b"\x80\x05garbage", gid))
    assert state(client, gid, at) == expected
    # forged: a well-formed state of another version, with no valid MAC (the key is the server's)
    other = pickle.dumps(truth_state(services, gid, 1))
    execute(services, "UPDATE state_checkpoints SET state = %s WHERE game_id = %s", (other, gid))
    assert state(client, gid, at) == expected
    # its event hash is not the event's
    execute(services, "UPDATE state_checkpoints SET hash = 'x' WHERE game_id = %s", (gid,))
    assert state(client, gid, at) == expected
    # another code's checkpoints are never read
    execute(services, "UPDATE state_checkpoints SET format = 'old' WHERE game_id = %s", (gid,))
    assert state(client, gid, at) == expected
    # missing
    execute(services, "DELETE FROM state_checkpoints WHERE game_id = %s", (gid,))
    assert state(client, gid, at) == expected
    # and rebuilt by the reads that passed them
    assert (2 * INTERVAL, code_format()) in rows(services, gid)


def truth_state(services, game_id: str, at: int):
    with services.store.read() as tx:
        events = tx.events(game_id, after=0, upto=at)
    return fold_stored(title_of("kontor"), events, Folded(None, 0, chain.genesis(game_id))).state


def test_a_checkpoint_depends_on_every_file_of_the_rules_code():
    # the checkpoints' validity hashes domain/: a wrong folder would hash nothing, and a
    # checkpoint made by older rules would be read as if they had not changed
    from service.games import checkpoints

    assert (checkpoints.DOMAIN / "decider.py").is_file()
    assert len(list(checkpoints.DOMAIN.rglob("*.py"))) > 50
