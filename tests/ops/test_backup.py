"""Backup and restore as deploy/README.md says: pg_dump, pg_restore into a new database,
a server on the restored database, then deploy/verify-exports.sh runs `entrepot verify` on
every finished game's export. A record altered in the restored database fails it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import psycopg
import pytest
import requests
from psycopg.conninfo import make_conninfo

from service.runtime.container import build
from service.runtime.migrate import migrate
from tests.audit.play import play_finished_game
from tests.conftest import ROOT
from tests.e2e.live import free_port
from tests.ops.cluster import PG_BIN

pytestmark = pytest.mark.slow(seconds=35)


def test_a_restored_dump_verifies_game_by_game(engine_urls, settings, tmp_path):
    admin_url = engine_urls[0]
    source, restored = f"entrepot_backup_{uuid.uuid4().hex[:8]}", f"entrepot_restored_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{source}"')
        admin.execute(f'CREATE DATABASE "{restored}"')
    source_url, restored_url = make_conninfo(admin_url, dbname=source), make_conninfo(admin_url, dbname=restored)
    api = None
    try:
        migrate(source_url, source_url)
        services = build(replace(settings, database_url=source_url, migrate_database_url=None))
        try:
            played = [play_finished_game(services, "kontor", {}, 2, random.Random(n))[0] for n in range(2)]
        finally:
            services.close()
        dump = tmp_path / "entrepot.dump"
        bin_dir = PG_BIN or ""
        subprocess.run([os.path.join(bin_dir, "pg_dump"), "--format=custom", "--file", str(dump), source_url],
                       check=True)
        subprocess.run([os.path.join(bin_dir, "pg_restore"), "--no-owner", "--no-privileges", "--dbname",
                        restored_url, str(dump)], check=True)

        port = free_port()
        env = {**os.environ, "DATABASE_URL": restored_url, "REDIS_URL": settings.redis_url,
               "ENTREPOT_QUEUE": f"entrepot-restored-{uuid.uuid4().hex[:6]}",
               "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path / "key")}
        api = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "api.asgi:create_asgi_app",
                                "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + 90  # a loaded CI machine starts slowly
        while True:
            try:
                if requests.get(base + "/health/live", timeout=1).ok:
                    break
            except requests.RequestException:
                assert time.monotonic() < deadline and api.poll() is None, "the API did not start"
                time.sleep(0.2)

        def verify_all():
            return subprocess.run(["bash", str(ROOT / "deploy" / "verify-exports.sh"), base, str(tmp_path / "records")],
                                  capture_output=True, text=True, cwd=ROOT,
                                  env={**os.environ, "ENTREPOT": f"{sys.executable} -m service.runtime.entry"})

        checked = verify_all()
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "verified 2 records, 0 failed" in checked.stdout
        assert {p.stem for p in (tmp_path / "records").glob("*.json")} == set(played)

        with psycopg.connect(restored_url, autocommit=True) as db:  # a damaged restore
            db.execute("ALTER TABLE events DISABLE TRIGGER USER")
            db.execute("UPDATE events SET data = jsonb_set(data, '{tampered}', 'true')"
                       " WHERE game_id = %s AND seq = 2", (played[0],))
        damaged = verify_all()
        assert damaged.returncode != 0 and f"NOT VERIFIED: {played[0]}" in damaged.stderr
    finally:
        if api is not None:
            api.terminate()
            api.wait(timeout=15)
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name in (source, restored):
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
