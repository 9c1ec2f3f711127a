"""Commands are stored with their events, in the same statement, append-only like them."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest

from service.audit import chain
from service.clock import SystemClock
from service.entropy import new_id
from service.errors import VersionConflict
from service.games.store import NewCommand, NewEvent


def append(store, game_id, version, prev, tag):
    with store.tx() as tx:
        return tx.append(game_id, version, prev, SystemClock().now(),
                         [NewEvent("test.Happened", 1, 0, {"tag": tag})], "active", (0,), None, None,
                         NewCommand(0, {"kind": "player", "player_id": "p"}, "2026-01-01T00:00:00.000000Z",
                                    {"type": "Do", "tag": tag}))


@pytest.fixture
def game_id(services):
    game_id = new_id()
    with services.store.tx() as tx:
        tx.insert_game(game_id, "kontor", "test", {}, 2, "00" * 32, "x", "server", None,
                       [(None, "easy"), (None, "easy")], datetime.now(UTC))
    return game_id


def test_a_command_that_loses_the_race_leaves_no_row(services, game_id):
    first = append(services.store, game_id, 0, chain.genesis(game_id), "won")
    with pytest.raises(VersionConflict):
        append(services.store, game_id, 0, chain.genesis(game_id), "lost")
    append(services.store, game_id, 1, first[-1].hash, "next")
    with services.store.read() as tx:
        commands = tx.commands(game_id)
    assert [(c.version, c.last_seq, c.command["tag"]) for c in commands] == [(0, 1, "won"), (1, 2, "next")]


@pytest.mark.parametrize("sql", [
    "UPDATE commands SET command = '{}' WHERE game_id = %s",
    "DELETE FROM commands WHERE game_id = %s",
])
def test_commands_can_never_be_updated_or_deleted(services, owner_database_url, game_id, sql):
    """Even the schema's owner (the application's role may not even try: test_roles.py)."""
    append(services.store, game_id, 0, chain.genesis(game_id), "kept")
    with psycopg.connect(owner_database_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="commands rows are append-only"):
            conn.execute(sql, (game_id,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("TRUNCATE commands CASCADE")
