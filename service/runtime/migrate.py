"""SQL migrations: numbered files in service/migrations, applied once each, in order, by the
owner's role; then the application's role is granted what it needs and nothing more."""

from __future__ import annotations

from importlib import resources

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

# Any fixed 64-bit number: serialises concurrent migrators (serve and worker at start).
_LOCK_KEY = 0x656E747265706F74
#: The trigger functions that make a table append-only are named so (0001, 0041).
_APPEND_ONLY_FUNCTIONS = "%append_only"


def migration_files() -> list[tuple[int, str, str]]:
    found = []
    for entry in resources.files("service.migrations").iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conninfo: str, app_conninfo: str | None = None) -> list[str]:
    """Apply pending migrations as ``conninfo``'s role (the owner); returns the names applied.

    When ``app_conninfo`` names another role, that role is granted SELECT and INSERT on
    append-only tables (those with the append-only triggers: events, messages, commands),
    SELECT/INSERT/UPDATE/DELETE on the others, and no ownership: it cannot ALTER, TRUNCATE
    or switch a trigger off. Granted again after every run, so new tables are covered."""
    applied: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            # checked first: the application's role may read the table, never create it
            if conn.execute("SELECT to_regclass('schema_migrations')").fetchone()[0] is None:
                conn.execute(
                    "CREATE TABLE schema_migrations ("
                    " version integer PRIMARY KEY, name text NOT NULL,"
                    " applied_at timestamptz NOT NULL DEFAULT now())"
                )
            done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
            for number, name, text in migration_files():
                if number in done:
                    continue
                if role_may_not_migrate(conn):
                    raise RuntimeError(
                        f"migration {name} is pending and {conninfo_to_dict(conninfo).get('user')!r}"
                        " may not create tables: set ENTREPOT_MIGRATE_DATABASE_URL to the owner's role"
                    )
                with conn.transaction():
                    conn.execute(text)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                        (number, name),
                    )
                applied.append(name)
            role = app_role(conninfo, app_conninfo)
            if role is not None:
                with conn.transaction():
                    grant_app_role(conn, role)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return applied


def role_may_not_migrate(conn: psycopg.Connection) -> bool:
    return not conn.execute("SELECT has_schema_privilege('public', 'CREATE')").fetchone()[0]


def app_role(owner_conninfo: str, app_conninfo: str | None) -> str | None:
    """The application's role when it is not the owner's, else None."""
    if not app_conninfo:
        return None
    app_user = conninfo_to_dict(app_conninfo).get("user")
    owner_user = conninfo_to_dict(owner_conninfo).get("user")
    return app_user if app_user and app_user != owner_user else None


def grant_app_role(conn: psycopg.Connection, role: str) -> None:
    who = sql.Identifier(role)
    append_only = [row[0] for row in conn.execute(
        "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname LIKE %s AND NOT t.tgisinternal",
        (_APPEND_ONLY_FUNCTIONS,))]
    for statement in [
        "GRANT USAGE ON SCHEMA public TO {who}",
        "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {who}",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {who}",
        "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {who}",
        "REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM {who}",
    ]:
        conn.execute(sql.SQL(statement).format(who=who))
    for table in append_only:
        conn.execute(sql.SQL("REVOKE UPDATE, DELETE ON {table} FROM {who}").format(
            table=sql.Identifier(table), who=who))
