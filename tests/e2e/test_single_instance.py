"""A second `entrepot serve` on a data directory in use refuses to start and leaves the
first one's embedded PostgreSQL and Redis alone (two real processes, real engines)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import requests
from redis import Redis

from tests.conftest import ROOT
from tests.e2e.live import Served, embedded_env, free_port

pytestmark = pytest.mark.slow(seconds=25)  # started first: tests/conftest.py


@pytest.fixture
def data_dir():
    # not under pytest's tmp_path: that one is private to root, and the embedded PostgreSQL
    # drops root's privileges when it runs as root
    path = Path(tempfile.mkdtemp(prefix="entrepot-data-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_second_serve_on_the_same_data_directory_refuses_and_harms_nothing(data_dir, tmp_path):
    first = Served(["--data-dir", str(data_dir), "--workers", "1"], embedded_env(),
                   tmp_path / "first.log").wait_healthy()
    try:
        socket_path = data_dir / "redis" / "redis.sock"
        assert socket_path.exists()
        second = subprocess.run(
            [sys.executable, "-m", "service.runtime.cli", "serve", "--data-dir", str(data_dir),
             "--port", str(free_port()), "--workers", "1"],
            cwd=ROOT, env=embedded_env(), capture_output=True, text=True, timeout=60,
        )
        assert second.returncode != 0
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert "another entrepot serve" in lines[0] and str(data_dir) in lines[0]
        assert f"pid {first.process.pid}" in lines[0]
        assert "Traceback" not in second.stderr + second.stdout
        # the first server's engines are untouched: its Redis socket answers, its API writes
        assert socket_path.exists()
        assert Redis(unix_socket_path=str(socket_path)).ping()
        created = requests.post(first.base + "/v1/players", json={"name": "StillHere"}, timeout=10)
        assert created.status_code == 201, created.text
    finally:
        first.stop()
    # once the first one is gone, the lock is free again: a new server starts on the same data
    again = Served(["--data-dir", str(data_dir), "--workers", "1"], embedded_env(),
                   tmp_path / "again.log").wait_healthy()
    again.stop()
