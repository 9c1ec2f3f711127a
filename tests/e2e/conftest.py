from __future__ import annotations

import pytest

from tests.e2e.live import Served, engine_env


@pytest.fixture(scope="session")
def server(settings, tmp_path_factory):
    """One `entrepot serve` (API and an RQ worker) on the session's PostgreSQL and Redis."""
    env = {**engine_env(settings, "-e2e"),
           "ENTREPOT_AI_SECONDS": "0.2",  # strong seats: the same search, a quick game
           "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path_factory.mktemp("keys") / "signing-key")}
    served = Served(["--workers", "2"], env, tmp_path_factory.mktemp("serve") / "serve.log").wait_healthy()
    yield served.base
    served.stop()
