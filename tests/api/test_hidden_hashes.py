"""The hash-chain attack on an active game, for every registered title: a spectator who
recomputes event hashes for each candidate value of a redacted field learns nothing.

The attack of issue 9, item 1: take what is published about an active game (the export,
the events, the game, every view by version, every response header and size), take the
redacted events, and for each candidate value of each hidden field recompute the event's
chain hash (and the plain digest of its data); a match anywhere in the published material
would reveal the hidden value. The candidates are those consistent with what is public,
and always include the true value (read from the database), the attacker's best possible
guess. Contents and sizes of what is served are built from the redacted data alone, the
same for every such candidate; the hashes are what this test attacks. The control shows the attack is exact: with
the chain key, which only the server holds until the end, the same recomputation gives the
stored hashes, and on a keyed chain those hashes are published.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

import pytest

from domain.common.envelope import decode_event
from domain.registry import titles
from tests.api.seating import accept_invitations
from verifier.chain import CHAIN_V1, canonical_json, genesis, link, record_of, step_of

HEX64 = re.compile(r"[0-9a-f]{64}")
#: at most this many commands are played before the attack: enough for hidden draws and
#: face-down choices, and the game is still running
MOVES = 12


def _start_game(client, new_player, title_id: str, open_last_seat: bool = False):
    game_def = titles()[title_id]
    seat_count = max(2, game_def.min_players)
    players = [new_player(f"{title_id}-{i}") for i in range(seat_count)]
    seats = [{"player_id": p["id"]} for p in players]
    if open_last_seat:
        seats[-1] = {"open": True}
    response = client.post("/v1/games", token=players[0]["token"], json={"title": title_id, "seats": seats})
    assert response.status_code == 201, response.json
    return accept_invitations(client, response.json, players), players


def _play_some(client, game_id: str, players, rng: random.Random) -> tuple[list[int], list[str]]:
    """Random legal commands; the versions the game reached after each, and the players'
    responses (with their receipts: the players attack too)."""
    versions = [client.get(f"/v1/games/{game_id}").json["version"]]
    responses = []
    for _ in range(MOVES):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] != "active":
            break
        seat = rng.choice(game["to_act"])
        legal = client.get(f"/v1/games/{game_id}/legal-commands", token=players[seat]["token"]).json
        response = client.post(f"/v1/games/{game_id}/commands", token=players[seat]["token"], json={
            "command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert response.status_code == 201, response.json
        versions.append(response.json["version"])
        responses.append(response.get_data(as_text=True))
    assert client.get(f"/v1/games/{game_id}").json["status"] == "active"
    return versions, responses


def _published(client, game_id: str, versions: list[int], responses: list[str]) -> str:
    """Everything a spectator can fetch about the game, bodies and headers, and what the
    players were answered, as one text."""
    paths = [f"/v1/games/{game_id}", f"/v1/games/{game_id}/export",
             f"/v1/games/{game_id}/events?limit=1000"]
    paths += [f"/v1/games/{game_id}/state?at={v}" for v in versions]
    texts = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200
        texts.append(response.get_data(as_text=True))
        texts.append(json.dumps(dict(response.headers)))
        texts.append(str(len(response.get_data())))
    return "\n".join(texts + responses)


def _stored(services, game_id: str):
    with services.store.read() as tx:
        events = tx.events(game_id)
        seed, key = tx.secrets(game_id)
        commands = tx.commands(game_id)
    # on a v3 chain a step's first link also covers the step (verifier/chain.py)
    global STEPS
    STEPS = {c.version + 1: step_of(c.seat, c.sender, c.at, c.command) for c in commands}
    return events, seed, key


#: seq of a step's first event -> what its link covers of the step (set by _stored)
STEPS: dict[int, dict] = {}


def _candidates(data: dict, redacted: dict):
    """Every full data dict the attacker would try: the hidden fields given each value they
    could plausibly hold (integers 0-120; a list's neighbours swapped), the true one among them."""
    yield data
    for name, value in data.items():
        if redacted.get(name) == value:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            for guess in range(121):
                yield {**data, name: guess}
        elif isinstance(value, list):
            for i in range(len(value) - 1):
                swapped = list(value)
                swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
                yield {**data, name: swapped}


def _redacted(game_def, event, data: dict):
    try:
        return game_def.redact_event(decode_event(game_def, event.type, event.schema_version, data), None)
    except (ValueError, TypeError):
        return None  # not an event the rules could have written: nothing to compare


def _attack(game_def, events, published: str, key: str | None) -> tuple[int, int]:
    """(hidden events tried, hashes that matched something published). The candidates are
    those consistent with what is public (their redaction is the published one: the rest
    the attacker rules out anyway). With ``key`` the attacker is given the chain key (the
    control); without, it has only the public."""
    public_hashes = set(HEX64.findall(published))
    tried = matched = 0
    for event in events:
        redacted = _redacted(game_def, event, event.data)
        if redacted == event.data:
            continue
        tried += 1
        for candidate in _candidates(event.data, redacted):
            if _redacted(game_def, event, candidate) != redacted:
                continue
            record = record_of(event.seq, event.type, event.schema_version, event.seat, event.at, candidate)
            digests = {link(event.prev_hash, record, key, STEPS.get(event.seq) if key else None), hashlib.sha256(canonical_json(candidate).encode()).hexdigest()}
            matched += len(digests & public_hashes)
    return tried, matched


@pytest.mark.parametrize("title_id", sorted(titles()))
def test_a_spectator_learns_nothing_from_hashes_of_an_active_game(client, services, new_player, title_id):
    game, players = _start_game(client, new_player, title_id)
    versions, responses = _play_some(client, game["id"], players, random.Random(title_id))
    assert all(isinstance(json.loads(r)["receipt"], dict) for r in responses)
    game_def = titles()[title_id]
    published = _published(client, game["id"], versions, responses)
    events, seed, key = _stored(services, game["id"])

    tried, matched = _attack(game_def, events, published, key=None)
    assert tried > 0, "the game holds hidden data to attack"
    assert matched == 0
    assert seed not in published and key not in published
    export = client.get(f"/v1/games/{game['id']}/export").json
    assert export["checkable"] == {"chain": False, "seed": False, "events": False}
    assert all(step["command"] is None for step in export["steps"])
    assert export["chain_key"] is None and export["seed"] is None

    # control: the attack is exact; only the key (the server's until the end) is missing
    assert all(link(e.prev_hash, e.record(), key, STEPS.get(e.seq)) == e.hash for e in events)
    assert _attack(game_def, events, published, key=key)[1] >= tried


@pytest.mark.parametrize("title_id", sorted(titles()))
def test_a_v1_game_publishes_no_hash_before_its_end(client, services, new_player, title_id):
    """A game from before keyed chains (v1: plain SHA-256) would leak through any hash:
    until it ends, none is published."""
    game, players = _start_game(client, new_player, title_id, open_last_seat=True)
    with services.store.tx() as tx:  # what a game created before migration 0040 looks like
        tx.conn.execute("UPDATE games SET chain = %s WHERE id = %s", (CHAIN_V1, game["id"]))
        tx.conn.execute("UPDATE game_secrets SET chain_key = NULL WHERE game_id = %s", (game["id"],))
    last = len(players) - 1
    joined = client.post(f"/v1/games/{game['id']}/seats/{last}/join", token=players[last]["token"])
    assert joined.status_code == 200, joined.json
    versions, responses = _play_some(client, game["id"], players, random.Random(title_id + "v1"))
    assert all(json.loads(r)["receipt"] is None for r in responses)
    game_def = titles()[title_id]
    published = _published(client, game["id"], versions, responses)
    events, _, key = _stored(services, game["id"])
    assert key is None and events[0].prev_hash == genesis(game["id"])

    tried, matched = _attack(game_def, events, published, key=None)
    assert tried > 0 and matched == 0
    export = client.get(f"/v1/games/{game['id']}/export").json
    assert export["chain"] == CHAIN_V1
    assert all("hash" not in step for step in export["steps"])
    assert all("hash" not in e for step in export["steps"] for e in step["events"])
    # control: were these unkeyed hashes published, the attack would find every hidden value
    assert all(link(e.prev_hash, e.record()) == e.hash for e in events)
    leaked = "\n".join([published, *(e.hash for e in events)])
    assert _attack(game_def, events, leaked, key=None)[1] >= tried
