"""SIGTERM to an API process: its open event streams end at once with a `retry:` hint
(clients reconnect elsewhere), rather than hang until the server's graceful timeout."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
import requests

from clients.sdk import Client
from tests.conftest import ROOT
from tests.e2e.live import engine_env, free_port

pytestmark = pytest.mark.slow(seconds=10)


def test_sigterm_ends_open_streams_with_a_retry_hint(settings, tmp_path):
    port = free_port()
    env = {**engine_env(settings, "-drain"), "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path / "key")}
    log = open(tmp_path / "api.log", "w+b")
    # a graceful timeout far longer than the test waits: only the drain can end the stream
    api = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "api.asgi:create_asgi_app",
                            "--port", str(port), "--timeout-graceful-shutdown", "60"],
                           cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a loaded CI machine starts slowly
        while True:
            try:
                if requests.get(base + "/v1/health/live", timeout=1).ok:
                    break
            except requests.RequestException:
                assert time.monotonic() < deadline and api.poll() is None, (tmp_path / "api.log").read_text()
                time.sleep(0.2)
        me = Client(base)
        player = me.create_player("Drain")
        game = me.create_game("kontor", [{"player_id": player["id"]}, {"ai": "easy"}], {"variant": "basic"})
        with requests.get(f"{base}/v1/games/{game['id']}/stream", stream=True, timeout=10) as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines(decode_unicode=True)
            assert next(lines).startswith("retry:")  # the stream's first message
            sent = time.monotonic()
            api.send_signal(signal.SIGTERM)
            rest = list(lines)  # ends when the server closes the stream
            took = time.monotonic() - sent
        assert "retry: 1000" in rest, rest
        assert took < 5, f"the stream stayed open {took:.1f} s after SIGTERM"
        # uvicorn ends by raising the signal it caught again (-15), or exits 0
        assert api.wait(timeout=20) in (0, -signal.SIGTERM)
    finally:
        if api.poll() is None:
            api.kill()
        log.close()
