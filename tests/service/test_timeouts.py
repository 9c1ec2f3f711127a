"""Every statement of the application's connections has a timeout (issue 9, item 10)."""

from __future__ import annotations

import pytest

from service.errors import StatementTimeout
from service.games.store import Store


@pytest.fixture
def impatient_store(database_url):
    store = Store(database_url, min_size=1, max_size=2, statement_timeout_ms=200)
    yield store
    store.close()


def test_a_slow_statement_is_cancelled(impatient_store):
    with impatient_store.read() as tx:
        assert tx.conn.execute("SHOW statement_timeout").fetchone()[0] == "200ms"
    with pytest.raises(StatementTimeout), impatient_store.read() as tx:
        tx.conn.execute("SELECT pg_sleep(2)")
    with pytest.raises(StatementTimeout), impatient_store.tx() as tx:
        tx.conn.execute("SELECT pg_sleep(2)")
    # the connection is still usable afterwards
    with impatient_store.read() as tx:
        assert tx.conn.execute("SELECT 1").fetchone()[0] == 1


def test_the_services_apply_the_setting(settings):
    from dataclasses import replace

    from service.runtime.container import build

    services = build(replace(settings, statement_timeout_ms=1234))
    try:
        with services.store.read() as tx:
            assert tx.conn.execute("SHOW statement_timeout").fetchone()[0] == "1234ms"
    finally:
        services.close()
