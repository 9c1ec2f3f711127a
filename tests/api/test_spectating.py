"""Watching a live game (issue 30), every registered title: the re-deal attack on what a
spectator is served. Whatever the game, its state at each version and its events show a
reader without a seat, it must be the same for every re-deal of what no spectator may see
(the title's own ``redetermine``); the control shows the re-deals did change the state.
(The live stream is attacked the same way in tests/e2e/test_lobby_live.py.)"""

from __future__ import annotations

import random

import pytest

from domain.registry import titles
from domain.rng import Rng
from service.audit import chain
from service.games.states import Folded, decode, fold_stored
from service.games.titles import title as title_of
from tests.api.test_hidden_hashes import _play_some, _start_game


@pytest.mark.parametrize("title_id", sorted(titles()))
def test_a_spectator_is_served_nothing_a_redeal_would_change(client, services, new_player, title_id):
    game, players = _start_game(client, new_player, title_id)
    versions, _ = _play_some(client, game["id"], players, random.Random("watch" + title_id))
    listed = client.get("/v1/games", query_string={"status": "active", "limit": 200}).json["games"]
    assert game["id"] in [g["id"] for g in listed]
    title = title_of(title_id)
    with services.store.read() as tx:
        stored = tx.events(game["id"])
    served_events = client.get(f"/v1/games/{game['id']}/events", query_string={"limit": 1000}).json["events"]
    assert [e["data"] for e in served_events] == [title.redact_event(decode(title, e), None) for e in stored]
    changed = 0
    for version in versions:
        served = client.get(f"/v1/games/{game['id']}/state", query_string={"at": version}).json["view"]
        state = fold_stored(title, stored[:version], Folded(None, 0, chain.genesis(game["id"]))).state
        redeals = [title.redetermine(state, None, Rng(f"{n + 1:064x}")) for n in range(4)]
        assert all(title.view(other, None) == served for other in redeals), version
        changed += any(other != state for other in redeals)
    assert client.get(f"/v1/games/{game['id']}").json["view"] == served
    assert changed > 0, "the re-deals changed nothing hidden: the attack would prove nothing"
