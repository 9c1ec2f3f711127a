"""A PostgreSQL failover under play: DATABASE_URL names a primary and its synchronous
streaming standby (libpq multi-host, target_session_attrs=read-write); the primary dies
mid-game, the standby is promoted; the API carries on. During the switch clients get 503
with Retry-After, never another 5xx; every command answered 201 is in the promoted
database; every game's record verifies."""

from __future__ import annotations

import shutil
import threading
import time
import uuid
from dataclasses import replace

import psycopg
import pytest

from api import create_app
from service.runtime.container import build
from service.runtime.migrate import migrate
from tests.e2e.live import free_port
from tests.notifications.conftest import new_player, two_player_game
from tests.openapi_check import ValidatingClient
from tests.ops.cluster import PG_BIN, PgNode, multi_host_url, scratch
from verifier.verify import verify_record

pytestmark = pytest.mark.slow(seconds=25)


#: games each pair of players has ready: a fast machine finishes a Kontor game (about 60
#: moves) within the test, and a player who ran out of games would stop answering
GAMES_EACH = 5


class Player:
    """Plays its games one after the other as fast as it can, noting every answer."""

    def __init__(self, client, game_ids: list[str], players: list[dict]):
        self.client, self.game_ids, self.players = client, game_ids, players
        self.answers: list[tuple[float, int]] = []
        self.acknowledged: list[tuple[str, int]] = []  # (game, version) answered 201
        self.missing_retry_after = 0

    def _note(self, response) -> bool:
        self.answers.append((time.monotonic(), response.status_code))
        if response.status_code == 503:
            self.missing_retry_after += "Retry-After" not in response.headers
            time.sleep(0.1)
            return False
        return True

    def run(self, stop: threading.Event) -> None:
        waiting = list(self.game_ids)
        while not stop.is_set() and waiting:
            game_id = waiting[0]
            game = self.client.get(f"/v1/games/{game_id}")
            if not self._note(game):
                continue
            if game.json["status"] != "active":
                waiting.pop(0)  # finished: on to the next
                continue
            seat = game.json["to_act"][0]
            token = self.players[seat]["token"]
            legal = self.client.get(f"/v1/games/{game_id}/legal-commands", token=token,
                                    query_string={"seat": seat})
            if not self._note(legal):
                continue
            played = self.client.post(f"/v1/games/{game_id}/commands", token=token, json={
                "seat": seat, "command": legal.json["commands"][0], "expected_version": legal.json["version"]})
            if self._note(played) and played.status_code == 201:
                self.acknowledged.append((game_id, played.json["version"]))


def test_the_api_carries_on_through_a_failover_and_loses_no_acknowledged_move(settings):
    assert PG_BIN is not None, "PostgreSQL's binaries: .ci/run installs Debian's postgresql"
    folder = scratch("entrepot-failover-")
    (folder / "primary").mkdir()
    (folder / "standby").mkdir()
    primary = PgNode(folder / "primary", "127.0.0.1", free_port()).init_primary().start()
    standby = None
    services = None
    try:
        standby = PgNode(folder / "standby", "127.0.0.1", free_port()).init_standby(primary).start()
        standby.wait_streaming(primary)
        with psycopg.connect(primary.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE entrepot")
        url = multi_host_url([primary, standby], "entrepot", connect_timeout="2")
        migrate(url, url)
        services = build(replace(settings, database_url=url, migrate_database_url=None, pool_timeout_seconds=2.0,
                                 queue_name=f"entrepot-failover-{uuid.uuid4().hex[:8]}"))
        client = ValidatingClient(create_app(services).test_client())
        players = []
        for n in range(2):
            red, black = new_player(client, f"Red{n}"), new_player(client, f"Black{n}")
            games = [two_player_game(client, red, black)["id"] for _ in range(GAMES_EACH)]
            players.append(Player(client, games, [red, black]))
        stop = threading.Event()
        threads = [threading.Thread(target=p.run, args=(stop,)) for p in players]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        before = sum(len(p.acknowledged) for p in players)
        crashed = time.monotonic()
        primary.crash()
        time.sleep(1.0)  # clients meet the outage
        standby.promote()
        promoted = time.monotonic()
        # a 201 answered after the promotion: one sent before the crash may still be
        # answered just after it, and would prove nothing about the promoted database
        deadline = promoted + 30
        while not all(any(t > promoted and s == 201 for t, s in p.answers) for p in players):
            assert time.monotonic() < deadline, "the API did not recover after the promotion"
            time.sleep(0.05)
        recovered = max(min(t for t, s in p.answers if t > promoted and s == 201) for p in players)
        time.sleep(1.0)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)

        statuses = [s for p in players for _, s in p.answers]
        unavailable = statuses.count(503)
        print(f"\nfailover: {sum(len(p.acknowledged) for p in players)} moves ({before} before the crash),"
              f" {recovered - crashed:.2f} s from the crash to every player's next 201, {unavailable} answers 503,"
              f" {sum(s >= 500 and s != 503 for s in statuses)} other 5xx")
        assert all(s in (200, 201, 409, 503) for s in statuses), sorted(set(statuses))
        assert unavailable > 0, "the outage was never seen: the test proved nothing"
        assert all(p.missing_retry_after == 0 for p in players)
        assert all(p.acknowledged[-1][0] != p.game_ids[-1] for p in players), \
            "a player reached its last game: give each more (GAMES_EACH)"
        for p in players:
            for game_id in p.game_ids:
                if client.get(f"/v1/games/{game_id}").json["status"] == "active":  # its record is whole once it ends
                    resigned = client.post(f"/v1/games/{game_id}/resign", token=p.players[1]["token"], json={})
                    assert resigned.status_code == 201, resigned.json
                record = client.get(f"/v1/games/{game_id}/export").json
                recorded = [step["version"] for step in record["steps"]]
                assert len(recorded) == len(set(recorded))
                acknowledged = {version for game, version in p.acknowledged if game == game_id}
                # a 201 answers with the version the command reached: its step's last event
                reached = {step["events"][-1]["seq"] for step in record["steps"]}
                assert acknowledged <= reached, "an acknowledged move was lost"
                assert verify_record(record).ok
    finally:
        if services is not None:
            services.close()
        if standby is not None:
            standby.stop()
        primary.stop()
        shutil.rmtree(folder, ignore_errors=True)
