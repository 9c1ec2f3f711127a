"""PgBouncer (Debian's package) in transaction pooling mode between the API and
PostgreSQL: psycopg's automatic prepared statements break there (shown first), so with
ENTREPOT_PGBOUNCER=1 the server prepares nothing and sets no session state; games are
played through it from several threads and every export verifies."""

from __future__ import annotations

import threading
from dataclasses import replace

import psycopg
import pytest

from api import create_app
from service.games.store import connection_kwargs
from service.runtime.container import build
from tests.notifications.conftest import new_player, play, two_player_game
from tests.openapi_check import ValidatingClient
from tests.ops.pgbouncer import pgbouncer
from verifier.verify import verify_record

pytestmark = pytest.mark.slow(seconds=8)

QUERY = "SELECT count(*) FROM games WHERE status = %s"


def alternate(url: str, kwargs: dict, runs: int = 8) -> None:
    """Two client connections run one query in turn, sharing PgBouncer's one server
    connection: past psycopg's prepare threshold each prepares it under the same name."""
    with psycopg.connect(url, **kwargs) as a, psycopg.connect(url, **kwargs) as b:
        for _ in range(runs):
            for conn in (a, b):
                conn.execute(QUERY, ("active",)).fetchone()


def test_psycopgs_prepared_statements_break_behind_transaction_pooling_unless_off(database_url):
    with pgbouncer(database_url, pool_size=1) as url:
        with pytest.raises(psycopg.Error):
            alternate(url, {"autocommit": True})  # psycopg's default: prepare after 5 runs
        alternate(url, connection_kwargs(pgbouncer=True))


def test_games_are_played_through_pgbouncer_by_many_threads(settings):
    with pgbouncer(settings.database_url, pool_size=2, statement_timeout_ms=4321) as url:
        services = build(replace(settings, database_url=url, pgbouncer=True, pool_max=6))
        try:
            with services.store.read() as tx:  # PgBouncer's connect_query sets the bound
                assert tx.conn.execute("SHOW statement_timeout").fetchone()[0] == "4321ms"
            app = create_app(services)
            client = ValidatingClient(app.test_client())
            games, failures = [], []

            def a_game(n: int) -> None:
                try:
                    red, black = new_player(client, f"Red{n}"), new_player(client, f"Black{n}")
                    game = two_player_game(client, red, black)
                    play(client, game["id"], [red, black], 10)
                    resigned = client.post(f"/v1/games/{game['id']}/resign", token=black["token"], json={})
                    assert resigned.status_code == 201, resigned.json
                    games.append(game["id"])
                except Exception as err:  # noqa: BLE001 - reported below
                    failures.append(repr(err))

            threads = [threading.Thread(target=a_game, args=(n,)) for n in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
            assert not failures, failures
            assert len(games) == 4
            for game_id in games:
                record = client.get(f"/v1/games/{game_id}/export").json
                assert len(record["steps"]) >= 12 and verify_record(record).ok, verify_record(record)
        finally:
            services.close()
