"""A third-party client generated from openapi.yaml (openapi-python-client), used unmodified,
plays a whole game against a computer seat on a live server: the contract is enough."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time

from tests.conftest import ROOT


def generate(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(ROOT / "openapi.yaml"),
         "--meta", "none", "--output-path", str(tmp_path / "entrepot_client")],
        check=True, capture_output=True, cwd=tmp_path, timeout=120,
    )
    sys.path.insert(0, str(tmp_path))
    return importlib.import_module("entrepot_client")


def test_a_generated_client_plays_a_whole_game(server, tmp_path):
    generated = generate(tmp_path)
    api = importlib.import_module("entrepot_client.api.default")
    models = importlib.import_module("entrepot_client.models")
    for name in ("create_player", "create_game", "get_game", "legal_commands", "post_command"):
        importlib.import_module(f"entrepot_client.api.default.{name}")

    anonymous = generated.Client(base_url=server)
    player = api.create_player.sync(client=anonymous, body=models.PlayerCreate(name="Generated"))
    assert isinstance(player, models.NewPlayer), player
    me = generated.AuthenticatedClient(base_url=server, token=player.token)
    game = api.create_game.sync(client=me, body=models.GameCreate.from_dict({
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": player.id}, {"ai": "easy"}]}))
    assert isinstance(game, models.Game), game

    chooser = random.Random(5)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        now = api.get_game.sync(game.id, client=me)
        if now.status == models.GameStatus.FINISHED:
            break
        legal = api.legal_commands.sync(game.id, client=me)
        if not legal.commands:
            time.sleep(0.05)
            continue
        outcome = api.post_command.sync(game.id, client=me, body=models.CommandRequest(
            command=chooser.choice(legal.commands), expected_version=legal.version))
        assert isinstance(outcome, (models.CommandOutcome, models.Problem)), outcome
        if isinstance(outcome, models.Problem):
            assert outcome.code in ("version_conflict", "game_not_active"), outcome
    else:
        raise AssertionError("the game did not finish")
    assert now.result is not None
