"""The fan-out: what each player is told after each commit, through a real RQ worker."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rq.job import Job

from service.games.service import SeatRequest
from service.job_queue import FANOUT, MAIL_NOTIFICATION, RecordingJobQueue
from service.runtime.container import build
from tests.notifications.conftest import (
    fanned_out,
    new_player,
    notifications,
    play,
    two_player_game,
    wait_for,
)

pytestmark = pytest.mark.slow(seconds=20)  # started first: tests/conftest.py


def test_your_turn_goes_to_the_seat_now_to_act_never_to_the_player_who_moved(client, worker, owner_db):
    a, b = new_player(client, "Ann", "ann@example.org"), new_player(client, "Bob")
    game = two_player_game(client, a, b)
    moves = play(client, game["id"], [a, b], 8)
    wait_for(lambda: fanned_out(owner_db, game["id"]))
    turns = [n for n in notifications(owner_db, game["id"]) if n["type"] == "your_turn"]
    told = {(n["version"], n["seat"]) for n in turns}
    # at the start every seat to act is told; then, after each move, each seat whose turn it
    # became (not one already waiting), never the player who moved
    expected = {(game["version"], seat) for seat in game["to_act"]}
    before = game["to_act"]
    for seat, version, to_act in moves:
        expected |= {(version, s) for s in to_act if s not in before and s != seat}
        before = to_act
    assert told == expected and len(turns) == len(told)
    assert any(v != game["version"] for v, _ in told), "no move handed the turn over"
    for n in turns:
        assert n["player_id"] == [a, b][n["seat"]]["id"]
        assert n["seat"] in n["data"]["to_act"]
        assert n["data"]["title"] == "kontor" and [s["name"] for s in n["data"]["seats"]] == ["Ann", "Bob"]


def test_finished_tells_every_seated_player_with_the_result(client, worker, owner_db):
    a, b = new_player(client, "Cid"), new_player(client, "Dee")
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 2)
    resigned = client.post(f"/v1/games/{game['id']}/resign", token=a["token"], json={})
    assert resigned.status_code == 201, resigned.json
    wait_for(lambda: fanned_out(owner_db, game["id"]))
    finished = [n for n in notifications(owner_db, game["id"]) if n["type"] == "finished"]
    assert sorted(n["player_id"] for n in finished) == sorted([a["id"], b["id"]])
    final = client.get(f"/v1/games/{game['id']}").json
    assert final["status"] == "finished"
    for n in finished:
        assert n["data"]["status"] == "finished"
        assert n["data"]["result"]["winners"] == final["result"]["winners"] == [1]
        assert n["version"] == final["version"]


def test_a_table_message_tells_the_other_players_only(client, worker, owner_db):
    a, b = new_player(client, "Eve"), new_player(client, "Fay")
    game = two_player_game(client, a, b)
    posted = client.post(f"/v1/games/{game['id']}/messages", token=a["token"], json={"text": "good luck"})
    assert posted.status_code == 201, posted.json
    told = wait_for(lambda: [n for n in notifications(owner_db, game["id"]) if n["type"] == "message"])
    assert len(told) == 1
    (n,) = told
    assert n["player_id"] == b["id"] and n["seat"] == 1 and n["ref"] == str(posted.json["seq"])
    assert n["data"]["message"]["text"] == "good luck" and n["data"]["from"] == "Eve"


def test_a_reminder_of_the_clock_tells_the_seat_to_act(client, worker, owner_db):
    a, b = new_player(client, "Gus"), new_player(client, "Hal")
    game = two_player_game(client, a, b, {"per_move": "PT3S", "on_timeout": "forfeit", "reminders": [0.2]})
    seats = game["to_act"]  # Kontor starts with every seat choosing a card: each clock runs

    def reminded():
        told = [n for n in notifications(owner_db, game["id"]) if n["type"] == "reminder"]
        return told if len(told) >= len(seats) else None

    told = wait_for(reminded, 20)
    assert sorted(n["seat"] for n in told) == sorted(seats)
    for n in told:
        assert n["player_id"] == [a, b][n["seat"]]["id"]
        assert n["data"]["fraction"] == 0.2 and n["data"]["deadline"]


def test_mail_jobs_are_queued_for_players_with_an_address_only(client, worker, owner_db, redis, notify_settings):
    a, b = new_player(client, "Ivy", "ivy@example.org"), new_player(client, "Jon")
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 4)
    wait_for(lambda: fanned_out(owner_db, game["id"]))
    told = notifications(owner_db, game["id"])
    for n in told:
        if n["player_id"] == a["id"]:
            job = Job.fetch(f"mail-{n['id']}", connection=redis)
            assert job.origin == notify_settings.queue_name
            assert (job.func_name, job.args) == (MAIL_NOTIFICATION, (n["id"],))
        else:
            # (other test sessions on this Redis number their notifications too: only this
            # module's queue counts)
            origin = redis.hget(f"rq:job:mail-{n['id']}", "origin")
            assert origin != notify_settings.queue_name.encode(), "a mail job for a player without an address"


def test_a_lost_fanout_is_healed_by_the_sweeper_and_runs_once(notify_settings, owner_db):
    """Commits whose fan-out job never reached Redis: the sweeper finds the game behind and
    fans it out; running the fan-out again adds nothing."""
    jobs = RecordingJobQueue()
    services = build(replace(notify_settings, queue_name=notify_settings.queue_name + "-lost"), jobs=jobs)
    try:
        a = services.players.create("Kim", None).player
        b = services.players.create("Lou", None).player
        game = services.games.create(a, "kontor", {"variant": "basic"},
                                     [SeatRequest(player_id=a.id), SeatRequest(player_id=b.id)])
        services.games.accept(b, game.game.id, 1)
        gid = game.game.id
        assert any(func == FANOUT and args[0] == gid for func, args, _, _ in jobs.jobs)  # queued, then lost
        assert not notifications(owner_db, gid)
        # within the patience the sweeper leaves the game to its job; after it, heals it
        # (this sweep, or the module's worker's: both sweep the whole database)
        healed = wait_for(lambda: services.notifications.sweep() and notifications(owner_db, gid), 10)
        assert {n["type"] for n in healed} == {"your_turn"}
        assert fanned_out(owner_db, gid)
        version = services.games.get(gid, a).game.version
        assert services.notifications.fan_out_game(gid, version) == 0
        assert notifications(owner_db, gid) == healed
    finally:
        services.close()


def test_a_fanout_of_a_game_no_database_holds_does_nothing_and_fails_nothing(notify_settings, owner_db):
    """A job left in Redis for a game the database does not hold (a queue shared with a
    dropped database, a forged job): nothing written, no error (RQ's failure handling of
    each such job cost more than a fan-out)."""
    services = build(replace(notify_settings, queue_name=notify_settings.queue_name + "-ghost"),
                     jobs=RecordingJobQueue())
    ghost = "5e7037c9-21d3-4b68-9484-fe0e73e6cffc"
    try:
        assert services.notifications.fan_out_game(ghost, 69) == 0
        assert services.notifications.fan_out_messages(ghost, 3) == 0
        with owner_db.cursor() as cur:
            assert cur.execute("SELECT count(*) FROM game_fanouts WHERE game_id = %s", (ghost,)).fetchone()[0] == 0
    finally:
        services.close()
