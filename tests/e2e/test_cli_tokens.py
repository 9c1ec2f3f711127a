"""The CLI's personal access tokens (issue 28), run as a user runs it against a live
`entrepot serve`: make a scoped token, see it listed, use it, revoke it."""

from __future__ import annotations

import json

from tests.e2e.test_clients import run


def test_tokens_are_made_listed_used_and_revoked_from_the_cli(server):
    created = run("clients.cli", "player", "TokenCli", ENTREPOT_URL=server)
    assert created.returncode == 0, created.stderr
    token = json.loads(created.stdout)["token"]
    env = {"ENTREPOT_URL": server, "ENTREPOT_TOKEN": token}
    made = run("clients.cli", "new-token", "reader", "--scope", "read", **env)
    assert made.returncode == 0, made.stderr
    assert "not shown again" in made.stderr
    reader = json.loads(made.stdout)
    assert reader["scopes"] == ["read"] and reader["token"]
    listed = run("clients.cli", "tokens", **env)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.strip().splitlines()
    assert len(lines) == 2 and "sign-up token" in lines[0] and reader["id"] in lines[1]
    assert reader["token"] not in listed.stdout
    # the read-only token reads, and may not play
    assert run("clients.cli", "games", ENTREPOT_URL=server, ENTREPOT_TOKEN=reader["token"]).returncode == 0
    refused = run("clients.cli", "new", "kontor", "me", "ai:easy", "--options", '{"variant": "basic"}',
                  ENTREPOT_URL=server, ENTREPOT_TOKEN=reader["token"])
    assert refused.returncode == 1 and "403 missing_scope" in refused.stderr
    revoked = run("clients.cli", "revoke-token", reader["id"], **env)
    assert revoked.returncode == 0, revoked.stderr
    after = run("clients.cli", "games", ENTREPOT_URL=server, ENTREPOT_TOKEN=reader["token"])
    assert after.returncode == 1 and "401" in after.stderr
