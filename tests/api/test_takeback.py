"""Takeback with consent over HTTP (every response checked against openapi.yaml): accepted,
declined, and refused once the move drew a card, revealed a secret choice or rolled dice,
in each title; the history keeps the request, the answers and the compensating event, and
the finished game's audit record verifies offline."""

from __future__ import annotations

import json

import pytest

from tests.refusals import problem
from verifier.verify import verify_record

#: a move after which its seat may ask to take it back (nothing hidden or random in it)
SAFE = {
    "kontor": ("ChooseCard", {"kontor.CardChosen"}),  # the first secret choice: nothing revealed
    "speicherstadt": ("PlaceWorker", {"speicherstadt.WorkerPlaced"}),
    "amsterdam": ("MoveBarge", {"amsterdam.BargeMoved", "amsterdam.ResourcesSpent"}),
}
#: events that show a move drew a card, revealed a secret choice or rolled dice
REVEALING = {
    "kontor": {"kontor.CardDrawn", "kontor.CardsRevealed"},  # a pile's next card turned up; choices shown
    "speicherstadt": {"speicherstadt.CardRevealed"},  # the supply refilled from the deck
    "amsterdam": {"amsterdam.DiceRolled"},
}
SEED = "5" * 64


def start(client, new_player, title):
    red, black = new_player("Red"), new_player("Black")
    body = {"title": title, "options": {"variant": "basic"} if title == "kontor" else {}, "seed": SEED,
            "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}
    created = client.post("/v1/games", token=red["token"], json=body)
    assert created.status_code == 201, created.json
    accepted = client.post(f"/v1/games/{created.json['id']}/seats/1/accept", token=black["token"])
    assert accepted.status_code == 200, accepted.json
    return created.json["id"], [red, black]


def game(client, game_id, player=None):
    return client.get(f"/v1/games/{game_id}", token=player["token"] if player else None).json


def play_until(client, game_id, people, wanted, limit=400):
    """Play each seat's first legal command until a move for which ``wanted(command, event
    types, game before)`` holds; returns (seat, the game as that seat saw it before)."""
    for _ in range(limit):
        before = game(client, game_id)
        assert before["status"] == "active"
        seat = before["to_act"][0]
        seen = game(client, game_id, people[seat])
        legal = client.get(f"/v1/games/{game_id}/legal-commands", token=people[seat]["token"],
                           query_string={"seat": seat}).json
        command = legal["commands"][0]
        done = client.post(f"/v1/games/{game_id}/commands", token=people[seat]["token"],
                           json={"seat": seat, "command": command, "expected_version": legal["version"]})
        assert done.status_code == 201, done.json
        types = {e["type"] for e in done.json["events"]} - {"ClockStarted"}
        if wanted(command, types, before):
            return seat, seen
    raise AssertionError("no such move came up")


def safe_move(title):
    kind, events = SAFE[title]

    def wanted(command, types, before):
        return command["type"] == kind and types <= events and (title != "kontor" or len(before["to_act"]) == 2)
    return wanted


def ask(client, game_id, player):
    return client.post(f"/v1/games/{game_id}/takeback", token=player["token"])


def answer(client, game_id, player, verb):
    return client.post(f"/v1/games/{game_id}/takeback/{verb}", token=player["token"])


def types_after(client, game_id, version):
    page = client.get(f"/v1/games/{game_id}/events", query_string={"after": version}).json
    return [e["type"] for e in page["events"]]


@pytest.mark.parametrize("title", ["kontor", "speicherstadt", "amsterdam"])
def test_a_takeback_accepted_puts_the_game_back_and_the_record_verifies(client, new_player, title):
    game_id, people = start(client, new_player, title)
    seat, seen_before = play_until(client, game_id, people, safe_move(title))
    mover, other = people[seat], people[1 - seat]
    moved = game(client, game_id, mover)
    assert moved["view"] != seen_before["view"]
    asked = ask(client, game_id, mover)
    assert asked.status_code == 201, asked.json
    assert [e["type"] for e in asked.json["events"]] == ["TakebackRequested"]
    shown = game(client, game_id, other)
    assert shown["takeback"] == {"seat": seat, "accepted": []}
    again = ask(client, game_id, mover)  # one request at a time
    assert again.status_code == 422 and again.json["code"] == "takeback_unavailable"
    own = answer(client, game_id, mover, "accept")  # the asker does not answer itself
    assert own.status_code == 422 and own.json["code"] == "takeback_unavailable"
    accepted = answer(client, game_id, other, "accept")
    assert accepted.status_code == 201, accepted.json
    assert [e["type"] for e in accepted.json["events"]] == ["TakebackAccepted", "MoveTakenBack"]
    back = game(client, game_id, mover)
    assert back["view"] == seen_before["view"] and back["to_act"] == seen_before["to_act"]
    assert back["takeback"] is None
    # the history keeps the move, the request, the answer and the compensating event
    history = types_after(client, game_id, 0)
    assert history[-3:] == ["TakebackRequested", "TakebackAccepted", "MoveTakenBack"]
    # the seat moves again, and the game goes on to its end; then its record verifies
    play_until(client, game_id, people, lambda c, t, b: True, limit=1)
    assert client.post(f"/v1/games/{game_id}/resign", token=other["token"]).status_code == 201
    record = client.get(f"/v1/games/{game_id}/export").json
    steps = [s["command"]["type"] for s in record["steps"] if s["command"] and "type" in s["command"]]
    assert "RequestTakeback" in steps and "AnswerTakeback" in steps
    report = verify_record(record)
    assert report.ok, report.summary()
    assert report.rederived_steps == len(record["steps"])
    # a record claiming the takeback was declined does not verify: its events do not follow
    forged = json.loads(json.dumps(record))
    answer_step = next(s for s in forged["steps"] if (s["command"] or {}).get("type") == "AnswerTakeback")
    answer_step["command"]["accept"] = False
    assert not verify_record(forged).ok


@pytest.mark.parametrize("title", ["kontor", "speicherstadt", "amsterdam"])
def test_a_takeback_declined_leaves_the_move_standing(client, new_player, title):
    game_id, people = start(client, new_player, title)
    seat, _ = play_until(client, game_id, people, safe_move(title))
    mover, other = people[seat], people[1 - seat]
    moved = game(client, game_id, mover)
    assert ask(client, game_id, mover).status_code == 201
    declined = answer(client, game_id, other, "decline")
    assert declined.status_code == 201, declined.json
    assert [e["type"] for e in declined.json["events"]] == ["TakebackDeclined"]
    after = game(client, game_id, mover)
    assert after["view"] == moved["view"] and after["takeback"] is None
    late = answer(client, game_id, other, "accept")  # nothing is asked any more
    assert late.status_code == 422 and late.json["code"] == "takeback_unavailable"


@pytest.mark.parametrize("title", ["kontor", "speicherstadt", "amsterdam"])
def test_a_takeback_is_refused_after_a_draw_a_reveal_or_dice(client, new_player, title):
    game_id, people = start(client, new_player, title)
    seat, _ = play_until(client, game_id, people, lambda c, types, b: bool(types & REVEALING[title]))
    version = game(client, game_id)["version"]
    refused = ask(client, game_id, people[seat])
    assert refused.status_code == 422, refused.json
    assert refused.json["code"] == "takeback_unavailable"
    assert any(word in refused.json["detail"] for word in ("revealed", "random")), refused.json["detail"]
    assert game(client, game_id)["version"] == version  # nothing appended


def test_a_takeback_is_refused_once_another_seat_has_moved_and_a_move_voids_a_request(client, new_player):
    game_id, people = start(client, new_player, "speicherstadt")
    seat, _ = play_until(client, game_id, people, safe_move("speicherstadt"))
    mover, other = people[seat], people[1 - seat]
    other_seat = 1 - seat
    assert ask(client, game_id, mover).status_code == 201
    if other_seat in game(client, game_id)["to_act"]:
        # the other seat moves instead of answering: the request is void
        play_until(client, game_id, people, lambda c, t, b: True, limit=1)
        assert game(client, game_id)["takeback"] is None
        void = answer(client, game_id, other, "accept")
        assert void.status_code == 422 and void.json["code"] == "takeback_unavailable"
        gone = ask(client, game_id, mover)
        assert problem(gone, 422, "takeback_unavailable") and "another seat" in gone.json["detail"]


def test_only_the_seated_may_ask_or_answer(client, new_player):
    game_id, people = start(client, new_player, "speicherstadt")
    stranger = new_player("Stranger")
    play_until(client, game_id, people, safe_move("speicherstadt"))
    problem(ask(client, game_id, stranger), 403, "not_your_seat")
    problem(answer(client, game_id, stranger, "accept"), 403, "not_your_seat")
    problem(client.post(f"/v1/games/{game_id}/takeback"), 401, "unauthorized")
    problem(client.post("/v1/games/not-a-game/takeback", token=people[0]["token"]), 404, "not_found")
