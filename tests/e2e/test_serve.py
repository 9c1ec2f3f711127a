"""End to end: `entrepot serve` (uvicorn + an RQ worker) driven by the HTTP-only SDK."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest
import requests

from clients.sdk import ApiError, Client
from tests.conftest import ROOT
from tests.refusals import problem
from verifier.verify import verify_record

pytestmark = pytest.mark.slow(seconds=30)  # started first: tests/conftest.py


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
    assert record["complete"] and record["checkable"]["chain"] and record["seed"]
    assert any(step["sender"] == {"kind": "computer", "level": "strong"} for step in record["steps"]), \
        "the computer never moved"
    assert verify_record(record).ok
    assert me.me()["name"] == "Ada"


def test_the_server_answers_problems_not_500s(server):
    client = Client(server)
    with pytest.raises(ApiError) as err:
        client.game("00000000-0000-0000-0000-000000000000")
    assert err.value.status == 404 and err.value.code == "not_found"
    response = requests.post(server + "/v1/games", data=b"\x00\xff", headers={"Content-Type": "application/json"})
    problem(response, 401, "unauthorized")  # auth is checked before the body
    response = requests.post(server + "/v1/players", data=b"{", headers={"Content-Type": "application/json"})
    assert problem(response, 400, "malformed_json") and response.headers["Content-Type"] == "application/problem+json"


def test_the_cli_and_the_bot_play_a_speicherstadt_game(server, capsys):
    from clients import cli
    from clients.bot import play_round

    assert cli.main(["--url", server, "player", "Cli"]) == 0
    token = json.loads(capsys.readouterr().out)["token"]
    assert cli.main(["--url", server, f"--token={token}", "new", "speicherstadt", "me", "ai:easy", "ai:normal"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    bot = Client(server, token)
    rng = random.Random(9)
    deadline = time.monotonic() + 120
    while bot.game(game_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        if not play_round(bot, rng):
            time.sleep(0.05)
    assert cli.main(["--url", server, f"--token={token}", "legal", game_id]) == 0
    assert cli.main(["--url", server, f"--token={token}", "play", game_id, "1"]) == 1  # nothing to play: finished
    assert "error" in capsys.readouterr().err


def test_the_cli_lists_my_turns_most_urgent_first_and_resigns(server, capsys):
    from clients import cli

    assert cli.main(["--url", server, "player", "Turns"]) == 0
    token = json.loads(capsys.readouterr().out)["token"]
    run = ["--url", server, f"--token={token}"]  # a token may begin with "-"
    assert cli.main(run + ["turns"]) == 0
    assert capsys.readouterr().out.strip() == "no game is waiting for you"
    assert cli.main(run + ["new", "speicherstadt", "me", "ai:easy", "--per-move", "P3D"]) == 0
    slow = json.loads(capsys.readouterr().out)["id"]
    assert cli.main(run + ["new", "speicherstadt", "me", "ai:easy", "--per-move", "PT5H",
                           "--on-timeout", "forfeit"]) == 0
    fast = json.loads(capsys.readouterr().out)["id"]
    me = Client(server, token)
    deadline = time.monotonic() + 60
    while not all(0 in me.game(g)["to_act"] for g in (slow, fast)):  # the computer may move first
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert cli.main(run + ["turns"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split()[2] for line in lines] == [fast, slow]
    assert lines[0].split()[1] == "speicherstadt" and lines[0].endswith("seat 0")
    assert cli.main(run + ["resign", fast]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"
    assert cli.main(run + ["new", "kontor", "me", "ai:easy", "--per-move", "0"]) == 1
    assert "time_control.per_move" in capsys.readouterr().err


def test_the_readme_amsterdam_example_runs(server, capsys):
    """The README's Amsterdam snippet, run as written against the live server, then the
    CLI line it quotes."""
    from clients import cli

    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Amsterdam against the computer", 1)[1]
    snippet = section.split("```python", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(snippet.replace("http://127.0.0.1:8000", server), scope)  # noqa: S102 - our own README
    game = scope["client"].game(scope["game"]["id"])
    assert game["title"] == "amsterdam" and game["version"] > scope["legal"]["version"]
    assert "type" in capsys.readouterr().out  # the snippet prints the command it sends
    token = scope["me"]["token"]
    assert cli.main(["--url", server, "--token", token, "new", "amsterdam", "me", "ai:normal",
                     "--options", '{"rounds": 10}']) == 0
    assert json.loads(capsys.readouterr().out)["view"]["round"] == 3


def test_the_readme_audit_snippet_verifies_a_finished_game(server, tmp_path):
    """README's "Audit" section, run as written against the running server."""
    red, black = Client(server), Client(server)
    ids = [red.create_player("Red")["id"], black.create_player("Black")["id"]]
    game = red.create_game("kontor", [{"player_id": i} for i in ids], {"variant": "basic"})
    game = black.accept(game["id"], 1)
    rng, clients = random.Random(2), [red, black]
    while game["status"] != "finished":
        seat = rng.choice(game["to_act"])
        legal = clients[seat].legal_commands(game["id"])
        clients[seat].command(game["id"], rng.choice(legal["commands"]), expected_version=legal["version"])
        game = red.game(game["id"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = readme[readme.index("## Audit"):].split("```sh\n", 1)[1].split("```", 1)[0]
    # `entrepot` as this checkout's (an installed console script may be another checkout's)
    shim = f'entrepot() {{ {sys.executable} -m service.runtime.entry "$@"; }}\n'
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", shim + snippet], cwd=tmp_path, text=True,
                         capture_output=True, env={**os.environ, "API": server + "/v1", "GAME_ID": game["id"],
                                                   "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("verified: ") and "every event re-derived" in run.stdout
