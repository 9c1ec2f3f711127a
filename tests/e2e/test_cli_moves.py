"""The CLI numbers the legal moves from 1, as the mail, the web client and the terminal
client do, shows them in the server's words (the legal-commands ``descriptions``), and
``play GAME 1`` plays the first of them; ``entrepot turns`` is the CLI's ``turns``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from clients.sdk import Client
from tests.conftest import ROOT


def test_legal_numbers_from_1_in_words_and_play_1_plays_the_first(server, capsys):
    from clients import cli

    assert cli.main(["--url", server, "player", "Numbers"]) == 0
    token = json.loads(capsys.readouterr().out)["token"]
    run = ["--url", server, f"--token={token}"]
    assert cli.main(run + ["new", "kontor", "me", "ai:easy", "--options", '{"variant": "basic"}']) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    me = Client(server, token)
    legal = me.legal_commands(game_id)
    assert cli.main(run + ["legal", game_id]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"  1. {legal['descriptions'][0]}" and lines[0].strip().startswith("1. choose card ")
    assert len([line for line in lines if line[:4].strip().rstrip(".").isdigit()]) == len(legal["commands"])
    assert "{" not in "".join(lines) and "ChooseCard" not in "".join(lines)
    assert cli.main(run + ["play", game_id, "1"]) == 0
    capsys.readouterr()
    with_events = me.events(game_id)
    assert any(e["type"].endswith("CardChosen") and e["seat"] == 0 for e in with_events["events"])
    assert cli.main(run + ["play", game_id, "0"]) == 1  # there is no move 0
    assert "no move 0" in capsys.readouterr().err


def test_entrepot_turns_is_the_clis_turns(server):
    me = Client(server)
    player = me.create_player("Turner")
    token = player["token"]
    env = {**os.environ, "ENTREPOT_URL": server, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "service.runtime.entry", "turns", f"--token={token}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "no game is waiting for you"
