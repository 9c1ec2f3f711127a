"""Schemathesis against the live server (gunicorn, an RQ worker, real PostgreSQL and Redis)
and openapi.yaml: every route, a bounded number of cases each, stateful links (create a
player -> create a game -> read it), every check but `positive_data_acceptance`; fails on
any 5xx or any response that does not match the spec (issue 9, item 13).

`positive_data_acceptance` is left out on purpose: a request can fit the schema and still
break a rule (an illegal move, options a title refuses, a seat already taken), and 422 is
the contract's answer to that."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
import requests

from tests.conftest import ROOT
from tests.e2e.live import Served, engine_env

pytestmark = pytest.mark.slow(seconds=60)  # started first: tests/conftest.py

#: Cases per operation in the fuzzing phase, and stateful scenarios: bounded so that the
#: run stays near a minute on 2 idle cores.
FUZZ_EXAMPLES = 6
STATEFUL_SCENARIOS = 30


def config() -> str:
    return f"""
[generation]
max-examples = {FUZZ_EXAMPLES}

[phases.stateful]
max-steps = 12

[phases.stateful.generation]
max-examples = {STATEFUL_SCENARIOS}
"""


def test_the_live_server_matches_its_contract(settings, tmp_path):
    env = {**engine_env(settings, "-schemathesis"),
           "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path / "signing-key")}
    served = Served(["--workers", "2"], env, tmp_path / "schemathesis.log").wait_healthy()
    try:
        base = served.base
        token = requests.post(base + "/v1/players", json={"name": "Fuzzer"}, timeout=10).json()["token"]
        me = requests.get(base + "/v1/players/me", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
        settings_file = tmp_path / "schemathesis.toml"
        settings_file.write_text(config())
        result = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "--config-file", str(settings_file), "run",
             str(ROOT / "openapi.yaml"), "--url", base,
             "-H", f"Authorization: Bearer {token}",
             "--checks", "all", "--exclude-checks", "positive_data_acceptance",
             "--phases", "examples,fuzzing,stateful",
             "--seed", "2026", "--no-shrink", "--workers", "2", "--request-timeout", "10",
             "--suppress-health-check", "all"],
            cwd=tmp_path, env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.schemathesis_hooks",
                               "PYTHONPATH": str(ROOT), "ENTREPOT_FUZZ_PLAYER_ID": me["id"]},
            capture_output=True, text=True, timeout=300,
        )
    finally:
        served.stop()
    print(result.stdout)  # the run's summary, shown with -s or on failure
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    selected, total = re.search(r"(\d+) selected / (\d+) total", result.stdout).groups()
    assert selected == total, "every route is tested"
    # the links were followed: a game the run created was read back
    # (the server's log: one JSON object a line, one "request" line per answer)
    access = [json.loads(line) for line in (tmp_path / "schemathesis.log").read_text(
        encoding="utf-8", errors="replace").splitlines() if line.startswith("{")]
    answered = [r for r in access if r.get("event") == "request"]
    assert any(r["method"] == "POST" and r["path"] == "/v1/games" and r["status"] == 201 for r in answered)
    # (the game itself or any of its resources: which link a scenario follows varies by run)
    read_back = {m.group(1) for r in answered if r["method"] == "GET" and r["status"] == 200
                 for m in [re.match(r"/v1/games/([0-9a-f-]{36})(?:/[a-z.-]+)?$", r["path"])] if m}
    assert read_back, "no game created by the stateful phase was read back:\n" + "\n".join(
        f"{r['method']} {r['path']} {r['status']}" for r in answered if "/v1/games" in r["path"])[-3000:]
