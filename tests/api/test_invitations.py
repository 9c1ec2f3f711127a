"""Nobody is seated without consent: a seat naming another player is an invitation."""

from __future__ import annotations

import json
import threading

import requests

from tests.api.test_games import create_game
from tests.refusals import problem


def test_an_invited_player_must_accept_before_the_game_starts(client, new_player):
    red, black, stranger = new_player("Host"), new_player("Invitee"), new_player("Stranger")
    game = create_game(client, red, [{"player_id": red["id"]}, {"player_id": black["id"]}]).json
    assert game["status"] == "waiting" and game["version"] == 0
    assert [s["status"] for s in game["seats"]] == ["seated", "invited"]
    gid = game["id"]
    # nobody else can take or accept the invitation, and the host cannot play yet
    problem(client.post(f"/v1/games/{gid}/seats/1/accept", token=stranger["token"]), 403, "not_your_seat")
    problem(client.post(f"/v1/games/{gid}/seats/1/accept", token=red["token"]), 403, "not_your_seat")
    problem(client.post(f"/v1/games/{gid}/seats/1/join", token=stranger["token"]), 409, "seat_taken")
    problem(client.post(f"/v1/games/{gid}/seats/0/accept", token=black["token"]), 403, "not_your_seat")
    problem(client.post(f"/v1/games/{gid}/seats/7/accept", token=black["token"]), 404, "not_found")
    assert client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json["commands"] == []
    accepted = client.post(f"/v1/games/{gid}/seats/1/accept", token=black["token"])
    assert accepted.status_code == 200
    assert accepted.json["status"] == "active" and accepted.json["version"] > 0
    assert [s["status"] for s in accepted.json["seats"]] == ["seated", "seated"]
    again = client.post(f"/v1/games/{gid}/seats/1/accept", token=black["token"])
    assert again.status_code == 200 and again.json["version"] == accepted.json["version"]
    late = client.post(f"/v1/games/{gid}/seats/1/decline", token=black["token"])
    assert late.status_code == 409 and late.json["code"] == "not_invited"


def test_a_declined_invitation_closes_the_seat_and_the_creator_cancels_the_game(client, new_player):
    """Issue 26, item 13: a declined seat opened a private game to anyone (a stranger
    joined and the game started), and its creator could not cancel it (abort: 409)."""
    red, black, other = new_player("Host"), new_player("NoThanks"), new_player("Joiner")
    game = create_game(client, red, [{"player_id": red["id"]}, {"player_id": black["id"]}]).json
    gid = game["id"]
    declined = client.post(f"/v1/games/{gid}/seats/1/decline", token=black["token"])
    assert declined.status_code == 200 and declined.json["status"] == "waiting"
    assert declined.json["seats"][1]["status"] == "declined" and declined.json["seats"][1]["player_id"] is None
    problem(client.post(f"/v1/games/{gid}/seats/1/accept", token=black["token"]), 403, "not_your_seat")
    joined = client.post(f"/v1/games/{gid}/seats/1/join", token=other["token"])
    assert joined.status_code == 409 and joined.json["code"] == "seat_taken", joined.json
    assert client.get(f"/v1/games/{gid}").json["status"] == "waiting"
    # a stranger may not cancel it; its creator may
    problem(client.post(f"/v1/games/{gid}/abort", token=other["token"]), 403, "not_your_seat")
    cancelled = client.post(f"/v1/games/{gid}/abort", token=red["token"])
    assert cancelled.status_code == 201 and cancelled.json["status"] == "aborted", cancelled.json
    assert client.get(f"/v1/games/{gid}").json["status"] == "aborted"
    problem(client.post(f"/v1/games/{gid}/seats/1/join", token=other["token"]), 409, "game_not_active")


def test_the_creator_needs_no_consent_for_their_own_seats(client, new_player):
    me = new_player("HotSeat")
    game = create_game(client, me, [{"player_id": me["id"]}, {"player_id": me["id"]}]).json
    assert game["status"] == "active" and [s["status"] for s in game["seats"]] == ["seated", "seated"]


def test_an_unanswered_invitation_lapses_and_the_seat_closes(client, services, new_player):
    red, black = new_player("Host"), new_player("Silent")
    game = create_game(client, red, [{"player_id": red["id"]}, {"player_id": black["id"]}]).json
    assert services.games.lapse_invitations(7 * 24 * 3600) == 0  # not yet 7 days old
    assert client.get(f"/v1/games/{game['id']}").json["seats"][1]["status"] == "invited"
    assert services.games.lapse_invitations(0) >= 1  # the sweeper's call, once it is late
    seat = client.get(f"/v1/games/{game['id']}").json["seats"][1]
    assert seat["status"] == "declined" and seat["player_id"] is None
    response = client.post(f"/v1/games/{game['id']}/seats/1/accept", token=black["token"])
    problem(response, 403, "not_your_seat")


def test_invitees_accepting_at_the_same_instant_start_the_game_once(live_server, new_player):
    host = new_player("Host")
    guests = [new_player(f"Guest{i}") for i in range(3)]
    games = []
    for _ in range(8):
        response = requests.post(f"{live_server}/v1/games", headers={"Authorization": f"Bearer {host['token']}"},
                                 json={"title": "speicherstadt",
                                       "seats": [{"player_id": host["id"]}] + [{"player_id": g["id"]} for g in guests]},
                                 timeout=10)
        assert response.status_code == 201
        games.append(response.json()["id"])
    go, statuses, lock = threading.Event(), [], threading.Lock()

    def accept(game_id, index, guest):
        go.wait()
        response = requests.post(f"{live_server}/v1/games/{game_id}/seats/{index}/accept",
                                 headers={"Authorization": f"Bearer {guest['token']}"}, timeout=60)
        with lock:
            statuses.append(response.status_code)

    threads = [threading.Thread(target=accept, args=(gid, i + 1, g)) for gid in games for i, g in enumerate(guests)]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join()
    assert statuses == [200] * len(threads)
    for game_id in games:
        game = requests.get(f"{live_server}/v1/games/{game_id}", timeout=10).json()
        assert game["status"] == "active"
        events = requests.get(f"{live_server}/v1/games/{game_id}/events", params={"limit": 1000}, timeout=10).json()
        types = [e["type"] for e in events["events"]]
        assert types.count(types[0]) == 1, "the game was set up twice"


def test_the_sdk_the_cli_and_the_bot_answer_invitations(live_server, capsys):
    from clients import cli
    from clients.bot import accept_invitations
    from clients.sdk import Client

    host, guest = Client(live_server), Client(live_server)
    host_id, guest_id = host.create_player("SdkHost")["id"], guest.create_player("SdkGuest")["id"]
    seats = [{"player_id": host_id}, {"player_id": guest_id}]
    first = host.create_game("kontor", seats, {"variant": "basic"})
    assert cli.main(["--url", live_server, "--token", guest.token, "decline", first["id"], "1"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"][1]["status"] == "declined"
    second = host.create_game("kontor", seats, {"variant": "basic"})
    assert guest.accept(second["id"], 1)["status"] == "active"
    third = host.create_game("kontor", seats, {"variant": "basic"})
    assert accept_invitations(guest, guest_id) == 1  # the bot accepts what it is invited to
    assert guest.game(third["id"])["status"] == "active"


def test_a_game_names_its_creator_who_invited_the_others(client, new_player):
    """The invited player's page says who invited them: the game's creator, whatever seat
    they took (here the second), never the first seated player."""
    host, invitee = new_player("Inviter"), new_player("Invited")
    game = create_game(client, host, [{"player_id": invitee["id"]}, {"player_id": host["id"]}]).json
    assert game["created_by"] == host["id"]
    for token in (invitee["token"], None):
        seen = client.get(f"/v1/games/{game['id']}", token=token).json
        assert seen["created_by"] == host["id"]
    listed = client.get("/v1/games", token=invitee["token"]).json
    assert [g["created_by"] for g in listed["games"] if g["id"] == game["id"]] == [host["id"]]
