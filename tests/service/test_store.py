"""The event store on real PostgreSQL: optimistic lock, append-only rows, the hash chain."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import psycopg
import pytest

from service.audit import chain
from service.clock import SystemClock
from service.entropy import new_id
from service.errors import VersionConflict
from service.games.store import NewEvent, Store


@pytest.fixture(scope="module")
def store(database_url):
    store = Store(database_url, min_size=1, max_size=4)
    yield store
    store.close()


def new_game(store: Store) -> str:
    game_id = new_id()
    with store.tx() as tx:
        tx.insert_game(game_id, "kontor", "test", {}, 2, "00" * 32, "x", "server", None,
                       [(None, "easy"), (None, "easy")], datetime.now(UTC))
    return game_id


def append(store: Store, game_id: str, version: int, prev: str, n: int = 1, tag: str = "x"):
    with store.tx() as tx:
        return tx.append(game_id, version, prev, SystemClock().now(),
                         [NewEvent("test.Happened", 1, None, {"tag": tag, "i": i}) for i in range(n)],
                         "active", (0,), None)


def test_two_concurrent_appends_at_the_same_version_exactly_one_wins(store):
    game_id = new_game(store)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def attempt(tag: str):
        with store.tx() as tx:
            barrier.wait()
            try:
                tx.append(game_id, 0, chain.genesis(game_id), SystemClock().now(),
                          [NewEvent("test.Happened", 1, None, {"tag": tag})], "active", (0,), None)
                outcomes.append("won")
            except VersionConflict:
                outcomes.append("conflict")

    threads = [threading.Thread(target=attempt, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "won"]
    with store.tx() as tx:
        assert [e.seq for e in tx.events(game_id)] == [1]


def test_a_stale_version_is_a_conflict_and_writes_nothing(store):
    game_id = new_game(store)
    first = append(store, game_id, 0, chain.genesis(game_id), n=2)
    with pytest.raises(VersionConflict):
        append(store, game_id, 1, first[0].hash, n=3)
    with store.tx() as tx:
        assert tx.game(game_id).version == 2 and len(tx.events(game_id)) == 2
    append(store, game_id, 2, first[-1].hash)


def test_the_read_model_moves_with_the_events_atomically(store):
    game_id = new_game(store)
    stored = append(store, game_id, 0, chain.genesis(game_id), n=3)
    with store.read() as tx:
        version, status, to_act, tail, after_hash = tx.head(game_id, after=1)
        assert (version, status, to_act) == (3, "active", (0,))
        assert [e.seq for e in tail] == [2, 3] and tail[-1].hash == stored[-1].hash
        assert after_hash == stored[0].hash, "the hash of the event the caller folded up to"
        assert tx.head(game_id, after=3)[3:] == ([], stored[-1].hash)
        assert tx.head(game_id, after=0)[4] is None and tx.head(game_id, after=4)[4] is None


def test_an_append_that_does_not_link_to_the_last_event_writes_nothing(store):
    """The version alone is not enough: events chained to another event than the game's
    last (decided on a state the database no longer holds) are refused whole."""
    game_id = new_game(store)
    first = append(store, game_id, 0, chain.genesis(game_id), n=2)
    with pytest.raises(VersionConflict):
        append(store, game_id, 2, first[0].hash)
    with store.read() as tx:
        assert tx.game(game_id).version == 2 and len(tx.events(game_id)) == 2
    append(store, game_id, 2, first[-1].hash)


@pytest.mark.parametrize("sql", [
    "UPDATE events SET data = '{}' WHERE game_id = %s",
    "DELETE FROM events WHERE game_id = %s",
])
def test_events_can_never_be_updated_or_deleted(store, database_url, sql):
    game_id = new_game(store)
    append(store, game_id, 0, chain.genesis(game_id))
    with psycopg.connect(database_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(sql, (game_id,))


def test_events_cannot_be_truncated(database_url):
    with psycopg.connect(database_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("TRUNCATE events CASCADE")


def test_the_hash_chain_verifies_and_detects_an_edited_row(store, owner_database_url):
    game_id = new_game(store)
    stored = append(store, game_id, 0, chain.genesis(game_id), n=3)
    stored += append(store, game_id, 3, stored[-1].hash, n=2)
    with store.tx() as tx:
        rows = [{**e.record(), "prev_hash": e.prev_hash, "hash": e.hash} for e in tx.events(game_id)]
    assert chain.verify(game_id, rows) is None
    # an edit made behind the database's back (the trigger switched off by its owner)
    with psycopg.connect(owner_database_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update")
        try:
            conn.execute(
                "UPDATE events SET data = jsonb_set(data, '{tag}', '\"forged\"')"
                " WHERE game_id = %s AND seq = 4", (game_id,))
        finally:
            conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update")
    with store.tx() as tx:
        rows = [{**e.record(), "prev_hash": e.prev_hash, "hash": e.hash} for e in tx.events(game_id)]
    assert chain.verify(game_id, rows) == 4


def test_a_missing_event_breaks_the_chain(store):
    game_id = new_game(store)
    stored = append(store, game_id, 0, chain.genesis(game_id), n=3)
    rows = [{**e.record(), "prev_hash": e.prev_hash, "hash": e.hash} for e in stored]
    assert chain.verify(game_id, rows[:1] + rows[2:]) == 3


def test_appends_to_different_games_do_not_wait_for_each_other(store):
    """No table lock: a transaction holding one game's append does not block another game."""
    a, b = new_game(store), new_game(store)
    with store.tx() as tx_a:
        tx_a.append(a, 0, chain.genesis(a), SystemClock().now(), [NewEvent("test.Happened", 1, None, {})],
                    "active", (0,), None)
        done = threading.Event()

        def other():
            append(store, b, 0, chain.genesis(b))
            done.set()

        t = threading.Thread(target=other)
        t.start()
        assert done.wait(5), "an append to another game waited for this transaction"
        t.join()


def test_a_where_clause_takes_a_filter_only_when_its_value_is_given():
    from service.games.store import Where

    where = Where("a = %s", 1).when(None, "b = %s", 2).when("x", "c = %s", "x").when(0, "d = %s", 0)
    assert (str(where), where.params) == ("a = %s AND c = %s", [1, "x"])
    assert str(Where()) == "TRUE" and Where().params == []
