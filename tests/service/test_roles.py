"""The application's role cannot rewrite history (issue 9, item 11): attacked as that role.

The whole suite runs as this role (tests/conftest.py), which proves it is enough to play."""

from __future__ import annotations

import psycopg
import pytest

from service.runtime.container import build
from service.runtime.migrate import app_role

ATTACKS = [
    "ALTER TABLE events DISABLE TRIGGER events_no_update",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "DROP TRIGGER events_no_update ON events",
    "ALTER TABLE events ADD COLUMN forged text",
    "ALTER TABLE events OWNER TO CURRENT_USER",
    "UPDATE events SET data = '{}'",
    "DELETE FROM events",
    "TRUNCATE events",
    "TRUNCATE events CASCADE",
    "DROP TABLE events CASCADE",
    "UPDATE messages SET body = 'forged'",
    "DELETE FROM messages",
    "UPDATE commands SET seat = 0",
    "DELETE FROM commands",
    "TRUNCATE commands",
    "CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql"
    " AS $$ BEGIN RETURN NEW; END $$",
    "ALTER ROLE CURRENT_USER SUPERUSER",
    "DELETE FROM schema_migrations",
    "CREATE TABLE shadow (x int)",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_app_role_cannot_touch_history(database_url, attack):
    with psycopg.connect(database_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(attack)


def test_the_app_role_appends_and_reads_events_and_owns_nothing(database_url, owner_database_url, settings):
    with psycopg.connect(database_url) as conn:
        me = conn.execute("SELECT current_user").fetchone()[0]
        privileges = {
            p: conn.execute("SELECT has_table_privilege('events', %s)", (p,)).fetchone()[0]
            for p in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
        }
        owned = conn.execute(
            "SELECT count(*) FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
        ).fetchone()[0]
        superuser = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]
    assert me == app_role(owner_database_url, database_url)
    assert privileges == {"SELECT": True, "INSERT": True, "UPDATE": False, "DELETE": False,
                          "TRUNCATE": False, "REFERENCES": False, "TRIGGER": False}
    assert owned == 0 and superuser is False
    # and it is the role the services run as
    services = build(settings)
    try:
        with services.store.read() as tx:
            assert tx.conn.execute("SELECT current_user").fetchone()[0] == me
    finally:
        services.close()


def test_the_owner_role_may_migrate(owner_database_url):
    with psycopg.connect(owner_database_url) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update")
        conn.rollback()
