"""The "your turn" mail shows each title's game in words, for the seat it goes to and
nothing more: Amsterdam (with its secret task tiles and face-down dice) and Speicherstadt
as Kontor's already did. Real SMTP server (aiosmtpd), real PostgreSQL and Redis; games
played through the API.

The attacks on hidden information compare the mails of two seats of one game: each shows
its own secrets and never the other's (Amsterdam's secret tasks and dice chosen face down,
Kontor's hand and its card chosen face down), and what both may see reads the same."""

from __future__ import annotations

import re

from domain.registry import titles
from service.games.moves import amsterdam_task
from tests.api.seating import accept_invitations
from tests.mail.conftest import insert_notification, text_of

BANK = {"bank": "P3D", "increment": "P1D", "max_bank": "P7D"}


def _game(client, players: list[dict], title: str, options: dict, time_control: dict | None = None) -> dict:
    body = {"title": title, "options": options, "seats": [{"player_id": p["id"]} for p in players]}
    if time_control:
        body["time_control"] = time_control
    created = client.post("/v1/games", token=players[0]["token"], json=body)
    assert created.status_code == 201, created.json
    return accept_invitations(client, created.json, players, players[0])


def _seats(game: dict, players: list[dict]) -> dict[int, dict]:
    by_id = {p["id"]: p for p in players}
    return {s["index"]: by_id[s["player_id"]] for s in game["seats"]}


def _play_until(client, game_id: str, seats: dict[int, dict], done, moves: int = 400) -> dict:
    """Play the first legal move of a seat to act until ``done(game)``."""
    for _ in range(moves):
        game = client.get(f"/v1/games/{game_id}", token=seats[0]["token"]).json
        if done(game):
            return game
        seat = game["to_act"][0]
        legal = client.get(f"/v1/games/{game_id}/legal-commands?seat={seat}", token=seats[seat]["token"]).json
        played = client.post(f"/v1/games/{game_id}/commands", token=seats[seat]["token"],
                             json={"command": legal["commands"][0], "expected_version": legal["version"], "seat": seat})
        assert played.status_code in (200, 201), played.json
    raise AssertionError("the game never reached the position wanted")


def _turn_mail(client, sink, mail_services, game_id: str, seat: int, player: dict):
    version = client.get(f"/v1/games/{game_id}", token=player["token"]).json["version"]
    nid = insert_notification(mail_services, player["id"], game_id, seat, "your_turn", version)
    assert mail_services.mailer.mail_notification(nid) == "sent"
    return sink[0].to(player["email"])[-1]


def _section(text: str, title: str) -> str:
    """One paragraph group of the text part: from ``title`` to the next blank line."""
    text = text.replace("\r\n", "\n")
    start = text.index(title)
    end = text.find("\n\n", start)
    return text[start:end if end >= 0 else None]


def _moves_listed(text: str, legal: dict) -> None:
    flat = text.replace("\r\n", "\n")
    for number, words in enumerate(legal["descriptions"], start=1):
        assert f"\n{number}. {words}\n" in flat, words


def test_an_amsterdam_mail_shows_the_game_in_words_and_never_the_other_seats_secrets(
        client, sink, mail_services, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    options = {"expansions": ["skilled_workers", "tasks", "black_market", "market_tiles"], "tasks": "secret3",
               "dice_choice": "simultaneous"}
    game = _game(client, [ada, bob], "amsterdam", options, BANK)
    seats = _seats(game, [ada, bob])
    # the dice phase: both seats choose at once, face down
    game = _play_until(client, game["id"], seats,
                       lambda g: g["view"]["phase"] == "dice" and sorted(g["to_act"]) == [0, 1])
    mails = {seat: text_of(_turn_mail(client, sink, mail_services, game["id"], seat, seats[seat])) for seat in (0, 1)}
    views = {seat: client.get(f"/v1/games/{game['id']}/state", token=seats[seat]["token"]).json["view"]
             for seat in (0, 1)}
    for seat, text in mails.items():
        name, other = seats[seat]["name"], seats[1 - seat]["name"]
        legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={seat}", token=seats[seat]["token"]).json
        _moves_listed(text, legal)
        assert all(w.startswith("take the ") and "compass rose" in w for w in legal["descriptions"])
        board = _section(text, "The board:")
        for words in ("Round ", "dice phase", f"To act: {name} (you) and {other}" if seat == 0 else
                      f"To act: {other} and {name} (you)", "Cards on offer" if views[seat]["offer"] else "Piles",
                      "City (block: what is on it):", "Dockers on the pontoons:", "Market tile:",
                      f"{name} (you): ", "resources to spend:", "barge at "):
            assert words in board, (words, board)
        assert "Time bank left now: " in text and f"{name} (you) " in text
        # its own secret task tiles, never the other's (they are only a count)
        mine = [amsterdam_task(t) for t in views[seat]["you"]["tasks"]]
        theirs = [amsterdam_task(t) for t in views[1 - seat]["you"]["tasks"]]
        assert len(mine) == 3 and all(t in text for t in mine), (mine, text)
        assert not any(t in text for t in theirs if t not in mine), theirs
        assert f"{other}: " in board and "3 secret task tiles (hidden)" in board
        assert "Last moves:" in text
    # what both may see reads the same for both (but for whose "you" it is, and the tasks:
    # a seat's own, or a count of the other's)
    def public(seat: int) -> list[str]:
        name = seats[seat]["name"]
        board = _section(mails[seat], "The board:").replace(f"{name} (you)", name)
        board = re.sub(r"; (task tiles: [^.]*\)|\d+ secret task tiles \(hidden\))(?=\.$)", "", board, flags=re.M)
        return [line.replace("your coat of arms", f"{name}'s coat of arms") for line in board.splitlines()]
    assert public(0) == public(1)

    # Ada chooses her dice face down: Bob's next mail says she chose, never what
    ada_seat = next(s for s, p in seats.items() if p is ada)
    bob_seat = 1 - ada_seat
    legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={ada_seat}", token=ada["token"]).json
    chosen = legal["commands"][-1]
    played = client.post(f"/v1/games/{game['id']}/commands", token=ada["token"],
                         json={"command": chosen, "expected_version": legal["version"], "seat": ada_seat})
    assert played.status_code in (200, 201), played.json
    bob_text = text_of(_turn_mail(client, sink, mail_services, game["id"], bob_seat, bob))
    moves = _section(bob_text, "Last moves:")
    assert "- Ada chose two dice, face down" in moves, moves
    assert "Ada chose two dice:" not in bob_text and "your dice, face down" not in bob_text
    assert f"{' and '.join(chosen['dice'])} for sections" not in bob_text
    assert "Dice chosen (face down) by: Ada." in bob_text


def test_a_speicherstadt_mail_shows_the_offer_the_stack_by_season_each_seat_and_the_bank_left(
        client, sink, mail_services, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = _game(client, [ada, bob], "speicherstadt", {}, BANK)
    seats = _seats(game, [ada, bob])
    game = _play_until(client, game["id"], seats, lambda g: g["view"]["phase"] == "purchase")
    seat = game["to_act"][0]
    mail = _turn_mail(client, sink, mail_services, game["id"], seat, seats[seat])
    text = text_of(mail)
    legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={seat}", token=seats[seat]["token"]).json
    _moves_listed(text, legal)
    view = game["view"]
    offer = view["current_offer"]
    cards = {c["id"]: c for c in titles()["speicherstadt"].component_data()["cards"]}
    name = cards[offer["card"]]["name"]
    said = {w.split(" ")[0]: w for w in legal["descriptions"]}
    assert said["refuse"].startswith(f"refuse {name}"), said
    assert "buy" not in said or re.fullmatch(rf"buy {re.escape(name)}.* for {offer['price']} coins?", said["buy"]), said
    board = _section(text, "The board:")
    assert "purchase phase" in board and "holds the metal coin" in board
    assert "On offer (columns from the left):" in board and f"For sale now: {name}" in board
    assert "Stack, cards left by season: " in board and "(its order is hidden)" in board
    for who in (seats[0]["name"], seats[1]["name"]):
        assert re.search(rf"^{who}( \(you\))?: \d+ coins?, -?\d+ points?", board, re.M), board
    # the stack's order is nobody's: the mail never names a card by its id
    assert not re.search(r"\b[A-E]-[a-z]+(-\d)?\b", text), text
    assert "Last moves:" in text and "placed a worker in column" in text
    # the time bank as it is now, as the API reads it: each move added a day, and the seconds
    # this turn has run are spent
    from service.mail.content import _span

    banks = {b["seat"]: b for b in client.get(f"/v1/games/{game['id']}", token=ada["token"]).json["banks"]}
    assert banks[seat]["running"] and banks[seat]["seconds"] < 6 * 86400
    shown = re.search(r"Time bank left now: .*?\(you\) ([^,;]+), running", text).group(1)
    assert shown in (_span(banks[seat]["seconds"]), _span(banks[seat]["seconds"] + 3600)), (shown, banks)


def test_a_kontor_mail_never_names_the_card_the_other_seat_chose_face_down(
        client, sink, mail_services, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = _game(client, [ada, bob], "kontor", {"variant": "basic"})
    seats = _seats(game, [ada, bob])
    game = _play_until(client, game["id"], seats, lambda g: sorted(g["to_act"]) == [0, 1]
                       and g["view"]["phase"] == "choose")
    ada_seat = next(s for s, p in seats.items() if p is ada)
    bob_seat = 1 - ada_seat
    legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={ada_seat}", token=ada["token"]).json
    chosen = next(c for c in legal["commands"] if c["type"] == "ChooseCard")
    played = client.post(f"/v1/games/{game['id']}/commands", token=ada["token"],
                         json={"command": chosen, "expected_version": legal["version"], "seat": ada_seat})
    assert played.status_code in (200, 201), played.json
    text = text_of(_turn_mail(client, sink, mail_services, game["id"], bob_seat, bob))
    assert "- Ada chose a card, face down" in _section(text, "Last moves:")
    assert not re.search(rf"\bcard {chosen['card']}\b", text), text  # her hand is hers
    ada_hand = client.get(f"/v1/games/{game['id']}/state", token=ada["token"]).json["view"]["you"]["hand"]
    assert not any(re.search(rf"\bcard {c['number']}\b", text) for c in ada_hand)
    assert "To act: " in _section(text, "The board:") and "Cards in hand: " in text
