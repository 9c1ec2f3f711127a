"""Starting `entrepot serve` for real, as a user would, and waiting until it answers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

from service.runtime.lifeline import die_with_parent
from tests.conftest import ROOT, UNTHROTTLED


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A running `entrepot serve`: its base URL, process and log (a file, not a pipe:
    nobody reads a pipe here, and a full one would block the server)."""

    def __init__(self, args: list[str], env: dict[str, str], log_path: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self._log = open(log_path, "w+b")
        self.process = subprocess.Popen(
            # --verbose: every process's log in this one file, for a failing test's message
            [sys.executable, "-m", "service.runtime.cli", "serve", "--port", str(self.port), "--verbose", *args],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,  # if pytest dies, serve gets SIGTERM and stops its engines
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_healthy(self, seconds: float = 150) -> Served:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if requests.get(self.base + "/v1/health", timeout=1).ok:
                    return self
            except requests.RequestException:
                pass
            if self.process.poll() is not None:
                raise AssertionError(self.log()[-3000:])
            time.sleep(0.2)
        self.stop()
        raise AssertionError("entrepot serve did not start:\n" + self.log()[-3000:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def engine_env(settings, queue_suffix: str) -> dict[str, str]:
    """The environment of a server on the test session's database and Redis."""
    return {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
            "ENTREPOT_MIGRATE_DATABASE_URL": settings.owner_database_url,
            "ENTREPOT_QUEUE": settings.queue_name + queue_suffix,
            # tests drive the server from one address as fast as they can
            "ENTREPOT_RATE_LIMIT_PER_IP": UNTHROTTLED, "ENTREPOT_RATE_LIMIT_PER_TOKEN": UNTHROTTLED,
            "ENTREPOT_SIGNIN_LIMIT_PER_ADDRESS": UNTHROTTLED, "ENTREPOT_SIGNIN_LIMIT_PER_ACCOUNT": UNTHROTTLED}


def embedded_env() -> dict[str, str]:
    """The environment of a server that starts its own embedded engines."""
    return {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
