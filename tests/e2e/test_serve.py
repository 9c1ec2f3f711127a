"""End to end: `entrepot serve` (gunicorn + an RQ worker) driven by the HTTP-only SDK."""

from __future__ import annotations

import json
import random
import time

import pytest
import requests

from clients.sdk import ApiError, Client


def test_a_person_plays_kontor_against_the_computer_to_the_end(server):
    me = Client(server)
    player = me.create_player("Ada")
    game = me.create_game("kontor", [{"player_id": player["id"]}, {"ai": "strong"}], {"variant": "basic"})
    rng = random.Random(1)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = me.game(game["id"])
        if state["status"] == "finished":
            break
        if 0 not in state["to_act"]:
            time.sleep(0.05)
            continue
        legal = me.legal_commands(game["id"])
        try:
            me.command(game["id"], rng.choice(legal["commands"]), expected_version=legal["version"])
        except ApiError as err:
            assert err.code == "version_conflict"
    else:
        raise AssertionError("the game did not finish")
    record = me.export(game["id"])
    assert record["complete"] and record["chain_verified"] and record["seed"]
    assert any(e["seat"] == 1 for e in record["events"]), "the computer never moved"
    assert me.me()["name"] == "Ada"


def test_the_server_answers_problems_not_500s(server):
    client = Client(server)
    with pytest.raises(ApiError) as err:
        client.game("00000000-0000-0000-0000-000000000000")
    assert err.value.status == 404 and err.value.code == "not_found"
    response = requests.post(server + "/v1/games", data=b"\x00\xff", headers={"Content-Type": "application/json"})
    assert response.status_code == 401  # auth is checked before the body
    response = requests.post(server + "/v1/players", data=b"{", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.headers["Content-Type"] == "application/problem+json"


def test_the_cli_and_the_bot_play_a_speicherstadt_game(server, capsys):
    from clients import cli
    from clients.bot import play_round

    assert cli.main(["--url", server, "player", "Cli"]) == 0
    token = json.loads(capsys.readouterr().out)["token"]
    assert cli.main(["--url", server, "--token", token, "new", "speicherstadt", "me", "ai:easy", "ai:normal"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    bot = Client(server, token)
    rng = random.Random(9)
    deadline = time.monotonic() + 120
    while bot.game(game_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        if not play_round(bot, rng):
            time.sleep(0.05)
    assert cli.main(["--url", server, "--token", token, "legal", game_id]) == 0
    assert cli.main(["--url", server, "--token", token, "play", game_id, "0"]) == 1  # nothing to play: finished
    assert "error" in capsys.readouterr().err
