"""Ratings, profiles, leaderboards and the archive (issue 30) on real games: PostgreSQL,
Redis, the one write path, the rating job's function as RQ runs it. The numbers are
checked against the ``openskill`` package's own computation."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import uuid

import psycopg
import pytest
from openskill.models import PlackettLuce
from redis import Redis
from rq import Queue, SimpleWorker

from service.job_queue import RATE_GAME
from tests.api.seating import accept_invitations
from tests.refusals import problem
from workers import rating_jobs
from workers.services import services as worker_services

MODEL = PlackettLuce()


def expected(teams_before, ranks):
    rated = MODEL.rate([[MODEL.rating(mu=m, sigma=s) for m, s in t] for t in teams_before], ranks=ranks)
    return [[(r.mu, r.sigma) for r in t] for t in rated]


NEW = (MODEL.mu, MODEL.sigma)


@pytest.fixture
def people(client, new_player, services):
    def make(n, prefix="R"):
        tag = uuid.uuid4().hex[:5]
        made = [new_player(f"{prefix}{tag}{i}") for i in range(n)]
        return made, [services.players.get(p["id"]) for p in made]
    return make


def start(client, title, options, players, **extra):
    body = {"title": title, "options": options, "seats": [{"player_id": p["id"]} for p in players], **extra}
    created = client.post("/v1/games", token=players[0]["token"], json=body)
    assert created.status_code == 201, created.json
    return accept_invitations(client, created.json, players[1:], players[0])


def play_out(services, game_id, persons, rng, max_commands=6000):
    """People send random legal commands; seats a computer stands in for play its move."""
    for _ in range(max_commands):
        with services.store.read() as tx:
            game = tx.game(game_id)
        if game.status == "finished":
            return game
        seat = rng.choice(sorted(game.to_act))
        if services.games.play_computer(game_id, game.version, seat) == "played":
            continue
        legal = services.games.legal_commands(game_id, persons[seat], seat)
        services.games.execute(persons[seat], game_id, seat, rng.choice(legal.commands),
                               expected_version=legal.version)
    raise AssertionError("the game did not end")


def stored(services, game_id):
    with services.store.read() as tx:
        return tx.conn.execute("SELECT player_id::text, rank, mu, sigma, rating FROM rating_history"
                               " WHERE game_id = %s", (game_id,)).fetchall()


def current(services, player_id, title):
    with services.store.read() as tx:
        return tx.conn.execute("SELECT mu, sigma, games FROM ratings WHERE player_id = %s AND title = %s",
                               (player_id, title)).fetchone()


def test_two_seats_with_a_forfeit_rated_once_under_a_doubled_job(client, services, people, monkeypatch):
    players, persons = people(2)
    game = start(client, "kontor", {"variant": "basic"}, players)
    assert game["rated"] is True
    resigned = client.post(f"/v1/games/{game['id']}/resign", token=players[0]["token"], json={})
    assert resigned.status_code == 201, resigned.json
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    # the job the finish queued runs on a real RQ worker; a copy of it runs again, and two
    # more at once: one rating
    queue = Queue(services.settings.queue_name, connection=Redis.from_url(services.settings.redis_url))
    assert f"ratings-{game['id']}" in queue.job_ids
    queue.enqueue(RATE_GAME, game["id"], job_id=f"ratings-{game['id']}-again")
    monkeypatch.setenv("DATABASE_URL", services.settings.database_url)
    monkeypatch.setenv("REDIS_URL", services.settings.redis_url)
    monkeypatch.setenv("ENTREPOT_QUEUE", services.settings.queue_name)
    worker_services.cache_clear()
    try:
        SimpleWorker([queue], connection=queue.connection).work(burst=True)
    finally:
        worker_services.cache_clear()
    threads = [threading.Thread(target=services.ratings.rate_game, args=(game["id"],)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert services.ratings.rate_game(game["id"]) == 0
    (loser,), (winner,) = expected([[NEW], [NEW]], [2, 1])
    rows = {r[0]: r[1:] for r in stored(services, game["id"])}
    assert len(rows) == 2
    assert rows[players[0]["id"]][:3] == (2, *loser) and rows[players[1]["id"]][:3] == (1, *winner)
    assert current(services, players[0]["id"], "kontor") == (*loser, 1)
    assert current(services, players[1]["id"], "kontor") == (*winner, 1)


def test_four_seats_free_for_all_to_the_end_with_a_forfeit(client, services, people):
    players, persons = people(4)
    game = start(client, "speicherstadt", {}, players)
    # seat 2 resigns at once: a computer plays it to the end, and it ranks last
    assert client.post(f"/v1/games/{game['id']}/resign", token=players[2]["token"], json={}).status_code == 201
    finished = play_out(services, game["id"], persons, random.Random(7))
    assert services.ratings.rate_game(game["id"]) >= 1
    result = finished.result
    coins = result["detail"]["coins"]
    still_in = [s for s in range(4) if s != 2]
    keys = {s: (0 if s in result["winners"] else 1, -result["scores"][s], -coins[s]) for s in still_in}
    distinct = sorted(set(keys.values()))
    ranks = [distinct.index(keys[s]) + 1 if s in keys else len(distinct) + 1 for s in range(4)]
    assert ranks[2] == max(ranks)
    after = expected([[NEW]] * 4, ranks)
    rows = {r[0]: r[1:] for r in stored(services, game["id"])}
    for seat, player in enumerate(players):
        assert rows[player["id"]][:3] == (ranks[seat], *after[seat][0]), seat


def test_two_against_two_rated_as_teams(client, services, people):
    players, persons = people(4)
    game = start(client, "kontor", {"variant": "team"}, players)
    finished = play_out(services, game["id"], persons, random.Random(3))
    services.ratings.rate_game(game["id"])
    teams = finished.result["detail"]["teams"]
    assert sorted(len(t["seats"]) for t in teams) == [2, 2]
    winners = set(finished.result["winners"])
    ranks = [1 if winners & set(t["seats"]) else 2 for t in teams]
    if ranks == [1, 1] or len(winners) == 0:  # a tie the title could not break
        ranks = [1, 1]
    after = expected([[NEW, NEW], [NEW, NEW]], ranks)
    rows = {r[0]: r[1:] for r in stored(services, game["id"])}
    for team, rank, numbers in zip(teams, ranks, after):
        for seat, mu_sigma in zip(team["seats"], numbers):
            assert rows[players[seat]["id"]][:3] == (rank, *mu_sigma)


def test_games_with_a_computer_seat_or_unrated_are_not_rated(client, services, people):
    players, persons = people(2)
    body = {"title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": players[0]["id"]}, {"ai": "easy"}]}
    with_computer = client.post("/v1/games", token=players[0]["token"], json=body).json
    client.post(f"/v1/games/{with_computer['id']}/resign", token=players[0]["token"], json={})
    unrated = start(client, "kontor", {"variant": "basic"}, players, rated=False)
    client.post(f"/v1/games/{unrated['id']}/resign", token=players[0]["token"], json={})
    for gid in (with_computer["id"], unrated["id"]):
        assert client.get(f"/v1/games/{gid}").json["status"] == "finished"
        assert services.ratings.rate_game(gid) == 0 and stored(services, gid) == []
    assert current(services, players[0]["id"], "kontor") is None


def test_out_of_order_and_rebuild_give_the_same_numbers(client, services, people, owner_database_url):
    players, _ = people(3)
    a, b, c = players
    first = start(client, "kontor", {"variant": "basic"}, [a, b])
    second = start(client, "kontor", {"variant": "basic"}, [b, c])
    client.post(f"/v1/games/{first['id']}/resign", token=b["token"], json={})
    client.post(f"/v1/games/{second['id']}/resign", token=c["token"], json={})
    # the first game's finish reaches the projection late (its commit raced the second's):
    # the second is rated alone, then the first arrives and the title is rewound to it
    with psycopg.connect(owner_database_url, autocommit=True) as conn:
        conn.execute("DELETE FROM rating_queue WHERE game_id = %s", (first["id"],))
        services.ratings.rate_pending("kontor")
        conn.execute("INSERT INTO rating_queue (game_id, title) VALUES (%s, 'kontor')", (first["id"],))
    services.ratings.rate_pending("kontor")
    # b played the first game first: b's numbers are the first game's then the second's
    after_first = expected([[NEW], [NEW]], [1, 2])  # a wins, b lost (b resigned)
    after_second = expected([[after_first[1][0]], [NEW]], [1, 2])  # b wins, c resigned
    assert current(services, b["id"], "kontor") == (*after_second[0][0], 2)
    assert current(services, a["id"], "kontor") == (*after_first[0][0], 1)
    before = services.ratings.snapshot()
    assert len(before) >= 3
    services.ratings.rebuild()
    assert services.ratings.snapshot() == before
    # and the command does the same
    done = subprocess.run([sys.executable, "-m", "service.runtime.entry", "ratings", "--rebuild"], capture_output=True,
                          text=True, env={**os.environ, "DATABASE_URL": services.settings.database_url}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert services.ratings.snapshot() == before


def test_profile_and_leaderboard(client, services, people):
    players, _ = people(2, prefix="Prof")
    winner, loser = players
    for _ in range(2):
        game = start(client, "kontor", {"variant": "basic"}, players)
        client.post(f"/v1/games/{game['id']}/resign", token=loser["token"], json={})
        services.ratings.rate_game(game["id"])
    profile = client.get(f"/v1/players/{winner['id']}").json
    assert profile["name"] == winner["name"]
    rating = profile["ratings"]["kontor"]
    assert rating["games"] == 2 and rating["provisional"] is True and len(rating["history"]) == 2
    assert rating["rating"] == round(1000 + 40 * (rating["mu"] - 3 * rating["sigma"]))
    assert rating["history"][-1]["rating"] == rating["rating"] and rating["history"][0]["rank"] == 1
    assert profile["stats"]["kontor"] == {"played": 2, "won": 2, "lost": 0}
    assert client.get(f"/v1/players/{loser['id']}").json["stats"]["kontor"] == {"played": 2, "won": 0, "lost": 2}
    assert len(profile["recent_games"]) == 2 and profile["recent_games"][0]["status"] == "finished"
    board = client.get("/v1/titles/kontor/leaderboard", query_string={"limit": 200}).json["players"]
    ids = [p["id"] for p in board]
    assert ids.index(winner["id"]) < ids.index(loser["id"])
    assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
    problem(client.get("/v1/titles/chess/leaderboard"), 404, "not_found")
    problem(client.get(f"/v1/players/{uuid.uuid4()}"), 404, "not_found")
    problem(client.get("/v1/players/not-an-id"), 404, "not_found")


def test_the_sweeper_rates_a_game_whose_job_was_lost_and_withdraws_late_seeks(client, services, people,
                                                                              monkeypatch):
    players, _ = people(2)
    game = start(client, "kontor", {"variant": "basic"}, players)
    queue = Queue(services.settings.queue_name, connection=Redis.from_url(services.settings.redis_url))
    client.post(f"/v1/games/{game['id']}/resign", token=players[1]["token"], json={})
    queue.remove(f"ratings-{game['id']}")  # lost (a flushed Redis, a crash after the commit)
    assert stored(services, game["id"]) == []
    monkeypatch.setenv("DATABASE_URL", services.settings.database_url)
    monkeypatch.setenv("REDIS_URL", services.settings.redis_url)
    monkeypatch.setenv("ENTREPOT_QUEUE", services.settings.queue_name)
    worker_services.cache_clear()
    try:
        seek = client.post("/v1/games", token=players[0]["token"], json={
            "title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": players[0]["id"]}, {"open": True}]}).json
        with services.store.tx() as tx:  # its 7 days are over
            tx.conn.execute("UPDATE games SET expires_at = now() - interval '1 second' WHERE id = %s", (seek["id"],))
        rated, withdrawn = rating_jobs.sweep_lobby()
    finally:
        worker_services.cache_clear()
    assert rated >= 1 and withdrawn >= 1
    assert len(stored(services, game["id"])) == 2
    assert client.get(f"/v1/games/{seek['id']}").json["status"] == "aborted"
