"""SQL migrations: numbered files in service/migrations, applied once each, in order."""

from __future__ import annotations

from importlib import resources

import psycopg

# Any fixed 64-bit number: serialises concurrent migrators (serve and worker at start).
_LOCK_KEY = 0x656E747265706F74


def migration_files() -> list[tuple[int, str, str]]:
    found = []
    for entry in resources.files("service.migrations").iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conninfo: str) -> list[str]:
    """Apply pending migrations; returns the names applied."""
    applied: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
            for number, name, sql in migration_files():
                if number in done:
                    continue
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                        (number, name),
                    )
                applied.append(name)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return applied
