"""The command-line clients as a user runs them: subprocesses, one-line errors, and the
same configuration (--url/--token, $ENTREPOT_URL/$ENTREPOT_TOKEN) for CLI, bot and SDK."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from clients.sdk import DEFAULT_URL, Client, Unreachable
from tests.conftest import ROOT
from tests.e2e.live import free_port


def run(module: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ENTREPOT_")}
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def assert_one_line_error(done: subprocess.CompletedProcess, *words: str) -> str:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("args, what", [
    (["send", "00000000-0000-0000-0000-000000000000", "{'type': 1}"], "the command is not valid JSON"),
    (["new", "kontor", "me", "ai:normal", "--options", "{variant: basic}"], "--options is not valid JSON"),
])
def test_the_cli_reports_bad_json_in_one_line(args, what):
    done = run("clients.cli", "--token", "t", *args)
    assert_one_line_error(done, what)
    assert done.returncode == 2


def test_the_cli_reports_a_server_that_is_down_in_one_line():
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    assert_one_line_error(run("clients.cli", "--url", url, "titles"), "cannot reach", url)
    assert_one_line_error(run("clients.cli", "titles", ENTREPOT_URL=url), "cannot reach", url)


def test_the_bot_takes_its_url_and_token_from_the_environment_too():
    url = f"http://127.0.0.1:{free_port()}"
    done = run("clients.bot", "--once", ENTREPOT_URL=url, ENTREPOT_TOKEN="t")
    assert_one_line_error(done, "cannot reach", url)
    assert done.returncode == 1
    assert_one_line_error(run("clients.bot", "--once", ENTREPOT_URL=url), "needs a token")


def test_the_sdk_reads_the_same_environment(monkeypatch):
    monkeypatch.delenv("ENTREPOT_URL", raising=False)
    monkeypatch.delenv("ENTREPOT_TOKEN", raising=False)
    assert Client().base_url == DEFAULT_URL and Client().token is None
    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("ENTREPOT_URL", url)
    monkeypatch.setenv("ENTREPOT_TOKEN", "secret")
    client = Client()
    assert (client.base_url, client.token) == (url, "secret")
    with pytest.raises(Unreachable, match="cannot reach"):
        client.titles()


def test_the_cli_and_the_bot_work_against_a_live_server_configured_by_environment(server):
    created = run("clients.cli", "player", "EnvBot", ENTREPOT_URL=server)
    assert created.returncode == 0, created.stderr
    token = json.loads(created.stdout)["token"]
    game = run("clients.cli", "new", "kontor", "me", "ai:easy", "--options", '{"variant": "basic"}',
               ENTREPOT_URL=server, ENTREPOT_TOKEN=token)
    assert game.returncode == 0, game.stderr
    done = run("clients.bot", "--once", ENTREPOT_URL=server, ENTREPOT_TOKEN=token)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sent ")
