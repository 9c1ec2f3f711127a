"""Existing players, games and tokens keep working after migration 0090 (issue 28): a
database at the schema before it, with a player, a token and a game, is migrated; the old
token then works with every scope, and the game is still theirs."""

from __future__ import annotations

import uuid
from dataclasses import replace

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

import service.runtime.migrate
from api import create_app
from service.entropy import new_token, token_hash
from service.runtime.container import build
from service.runtime.migrate import migrate
from tests.openapi_check import ValidatingClient


@pytest.fixture
def old_database(engine_urls, monkeypatch):
    admin_url = engine_urls[0]
    name = f"entrepot_test_old_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(admin_url, dbname=name)
    everything = service.runtime.migrate.migration_files()
    monkeypatch.setattr(service.runtime.migrate, "migration_files", lambda: [m for m in everything if m[0] < 90])
    migrate(url)
    monkeypatch.setattr(service.runtime.migrate, "migration_files", lambda: everything)
    yield url
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_old_tokens_work_with_every_scope_after_the_migration(old_database, settings):
    token, player_id = new_token(), str(uuid.uuid4())
    with psycopg.connect(old_database) as conn:
        assert conn.execute("SELECT to_regclass('access_tokens')").fetchone()[0] is None  # before 0090
        conn.execute("INSERT INTO players (id, name, token_hash) VALUES (%s, 'Old', %s)", (player_id, token_hash(token)))
    migrate(old_database)
    services = build(replace(settings, database_url=old_database, migrate_database_url=None,
                             queue_name=f"{settings.queue_name}-old"))
    try:
        client = ValidatingClient(create_app(services).test_client())
        me = client.get("/v1/players/me", token=token)
        assert me.status_code == 200 and me.json["id"] == player_id
        made = client.post("/v1/games", token=token, json={
            "title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": player_id}, {"ai": "easy"}]})
        assert made.status_code == 201, made.json  # play
        listed = client.get("/v1/players/me/tokens", token=token)  # account
        assert listed.status_code == 200
        assert [(t["name"], t["scopes"]) for t in listed.json["tokens"]] == [
            ("sign-up token", ["read", "play", "notifications", "account"])]
        assert client.get("/v1/players/me/webhooks", token=token).status_code == 200  # notifications
        assert client.get("/v1/games?player=me", token=token).json["games"][0]["id"] == made.json["id"]
    finally:
        services.close()
