from __future__ import annotations

from dataclasses import replace

import pytest
from playwright.sync_api import sync_playwright

from tests.conftest import fresh_database
from tests.e2e.live import Served, engine_env, free_port
from tests.e2e.web_helpers import ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS

#: the session server's mail folder and inbound SMTP port (README "Play by email")
SERVER_MAIL: dict = {}


@pytest.fixture(scope="session")
def server_settings(settings, engine_urls):
    """The session server's own database (on the session's PostgreSQL; the same Redis, its
    own queue). Its workers live the whole session, and a worker's timer loop and sweepers
    act on every game of its database: on the session's database they ran the reminders
    and fan-outs of other modules' games, whose workers (with their own mail sinks) then
    never saw them (CI, 2026-11-27)."""
    with fresh_database(engine_urls[0]) as (owner_url, app_url):
        yield replace(settings, database_url=app_url, migrate_database_url=owner_url,
                      queue_name=settings.queue_name + "-e2e")


@pytest.fixture(scope="session")
def server(server_settings, tmp_path_factory):
    """One `entrepot serve` (API and an RQ worker) on its own database (server_settings)."""
    env = {**engine_env(server_settings, ""),
           "ENTREPOT_AI_SECONDS": "0.2",  # strong seats: the same search, a quick game
           # the settings page's webhook calls a receiver on this machine (test_web_social.py)
           "ENTREPOT_WEBHOOK_ALLOW_PRIVATE": "1",
           "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path_factory.mktemp("keys") / "signing-key")}
    data_dir = tmp_path_factory.mktemp("serve-data")
    SERVER_MAIL.update(dir=data_dir / "mail", port=free_port())
    served = Served(["--workers", "2", "--data-dir", str(data_dir), "--smtp-in-port", str(SERVER_MAIL["port"])],
                    env, tmp_path_factory.mktemp("serve") / "serve.log").wait_healthy()
    yield served.base
    served.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per browser test module (screenshots go
    to test-artifacts/web/)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield launched
        launched.close()
