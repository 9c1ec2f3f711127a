"""A command's notifications written by its own append (service/games/store.py ``Notices``)
when the game's notifications are up to date: the same rows the fan-out job writes, in the
same statement as the events, no job queued; the job still covers every other case. On a
real PostgreSQL; the jobs are recorded, not run."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.service import SeatRequest
from service.job_queue import FANOUT, MAIL_NOTIFICATION, WEBHOOK_DELIVERY, RecordingJobQueue
from service.runtime.container import build
from tests.notifications.conftest import fanned_out, notifications

pytestmark = pytest.mark.slow(seconds=10)

#: what both paths must write alike (the id and the time it was written aside)
COMPARED = "SELECT player_id::text, seat, type, version, ref, data, at, mail_handled_at IS NULL FROM notifications"


@pytest.fixture
def jobs() -> RecordingJobQueue:
    return RecordingJobQueue()


@pytest.fixture
def services(notify_settings, jobs):
    services = build(replace(notify_settings, queue_name=notify_settings.queue_name + "-told"), jobs=jobs)
    yield services
    services.close()


def started_game(services, emails=("ann@example.org", None)):
    """A started Kontor basic game of two new players (the first with an address), its
    start fanned out as the job would."""
    a = services.players.create("Ann", emails[0]).player
    b = services.players.create("Bob", emails[1]).player
    game = services.games.create(a, "kontor", {"variant": "basic"},
                                 [SeatRequest(player_id=a.id), SeatRequest(player_id=b.id)])
    services.games.accept(b, game.game.id, 1)
    return game.game.id, [a, b]


def play(services, game_id: str, people, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        game = services.games.get(game_id, people[0]).game
        if game.status != "active":
            return
        seat = game.to_act[0]
        legal = services.games.legal_commands(game_id, people[seat], seat)
        services.games.execute(people[seat], game_id, seat, rng.choice(legal.commands),
                               expected_version=legal.version)


def fanouts(jobs: RecordingJobQueue, game_id: str) -> list[int]:
    return [args[1] for func, args, _, _ in jobs.jobs if func == FANOUT and args[0] == game_id]


def test_a_game_whose_notifications_are_up_to_date_is_told_by_each_append_as_the_job_would_tell_it(
        services, jobs, owner_db):
    game_id, people = started_game(services)
    start = services.games.get(game_id, people[0]).game.version
    assert fanouts(jobs, game_id) == [start]  # the start: the job's
    assert services.notifications.fan_out_game(game_id, start) > 0
    play(services, game_id, people, 30, random.Random(7))
    end = services.games.get(game_id, people[0]).game.version
    assert end > start + 20
    assert fanouts(jobs, game_id) == [start], "an append whose game was up to date queued the job"
    assert fanned_out(owner_db, game_id)
    told = owner_db.execute(f"{COMPARED} WHERE game_id = %s ORDER BY id", (game_id,)).fetchall()
    assert {row[2] for row in told} >= {"your_turn"} and max(row[3] for row in told) > start
    # mail: queued for the player with an address, handled at once for the other
    mailed = {args[0] for func, args, _, _ in jobs.jobs if func == MAIL_NOTIFICATION}
    for n in notifications(owner_db, game_id):
        assert (n["id"] in mailed) == (n["player_id"] == people[0].id), n
    # the job, made to work the same versions out again from the stored events, writes
    # exactly what the appends wrote
    owner_db.execute("DELETE FROM notifications WHERE game_id = %s", (game_id,))
    owner_db.execute("UPDATE game_fanouts SET notified_version = 0 WHERE game_id = %s", (game_id,))
    assert services.notifications.fan_out_game(game_id, end) == len(told)
    again = owner_db.execute(f"{COMPARED} WHERE game_id = %s ORDER BY id", (game_id,)).fetchall()
    assert again == told


def test_an_append_to_a_game_left_behind_writes_no_notification_and_queues_the_job_that_covers_it(
        services, jobs, owner_db):
    game_id, people = started_game(services)
    start = services.games.get(game_id, people[0]).game.version
    play(services, game_id, people, 3, random.Random(8))  # the start's job has not run
    versions = fanouts(jobs, game_id)
    assert len(versions) == 4 and versions[0] == start
    assert notifications(owner_db, game_id) == [] and not fanned_out(owner_db, game_id)
    assert services.notifications.fan_out_game(game_id, versions[-1]) > 0
    assert fanned_out(owner_db, game_id)
    covered = notifications(owner_db, game_id)
    play(services, game_id, people, 2, random.Random(9))  # up to date again: told by the appends
    assert len(fanouts(jobs, game_id)) == 4
    assert fanned_out(owner_db, game_id) and notifications(owner_db, game_id)[:len(covered)] == covered


def test_notifications_the_rules_cannot_work_out_leave_the_command_alone_and_the_job_to_try(
        services, jobs, owner_db, monkeypatch):
    game_id, people = started_game(services)
    start = services.games.get(game_id, people[0]).game.version
    services.notifications.fan_out_game(game_id, start)
    before = notifications(owner_db, game_id)

    def broken(*args):
        raise KeyError("a rule the notices did not expect")

    monkeypatch.setattr(services.notifications, "_version_notices", broken)
    play(services, game_id, people, 1, random.Random(10))
    version = services.games.get(game_id, people[0]).game.version
    assert version > start  # the command was taken
    assert fanouts(jobs, game_id) == [start, version]
    assert notifications(owner_db, game_id) == before and not fanned_out(owner_db, game_id)
    monkeypatch.undo()
    services.notifications.fan_out_game(game_id, version)
    assert fanned_out(owner_db, game_id)


def test_a_webhook_delivery_is_written_with_the_notification_and_queued_after_the_commit(
        services, jobs, owner_db):
    game_id, people = started_game(services, emails=(None, None))
    start = services.games.get(game_id, people[0]).game.version
    services.notifications.fan_out_game(game_id, start)
    for p in people:
        services.webhooks.register(p, "http://127.0.0.1:9/turn", ["your_turn"])
    play(services, game_id, people, 6, random.Random(11))
    assert fanouts(jobs, game_id) == [start]
    turns = [n for n in notifications(owner_db, game_id) if n["type"] == "your_turn" and n["version"] > start]
    assert turns
    rows = owner_db.execute(
        "SELECT d.id::text, d.notification_id FROM webhook_deliveries d WHERE d.notification_id = ANY(%s)",
        ([n["id"] for n in turns],)).fetchall()
    assert sorted(r[1] for r in rows) == sorted(n["id"] for n in turns)
    queued = {args[0] for func, args, _, _ in jobs.jobs if func == WEBHOOK_DELIVERY}
    assert {r[0] for r in rows} <= queued
