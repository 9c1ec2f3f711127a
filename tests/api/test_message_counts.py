"""What a game's stream tells a reader of the chat (api/live.py says "message" when this
count grows): the messages that reader may read, so a team's own messages are counted for
its members only, and nobody else learns that the team talked."""

from __future__ import annotations

from tests.api.seating import accept_invitations


def test_a_readers_count_grows_with_the_messages_it_may_read_only(client, services, new_player):
    players = [new_player(f"Count{i}") for i in range(4)]
    game = client.post("/v1/games", token=players[0]["token"], json={
        "title": "kontor", "options": {"variant": "team"},
        "seats": [{"player_id": p["id"]} for p in players]})
    assert game.status_code == 201, game.json
    gid = accept_invitations(client, game.json, players)["id"]
    for p in players:  # everyone chooses a card: the cards are revealed, partners may confer
        legal = client.get(f"/v1/games/{gid}/legal-commands", token=p["token"]).json
        choose = next(c for c in legal["commands"] if c["type"] == "ChooseCard")
        assert client.post(f"/v1/games/{gid}/commands", token=p["token"], json={"command": choose}).status_code == 201
    readers = [services.players.authenticate(p["token"]) for p in players] + [None]

    def counts():
        return [services.messages.readable_count(reader, gid) for reader in readers]

    assert counts() == [0, 0, 0, 0, 0]
    url = f"/v1/games/{gid}/messages"
    assert client.post(url, token=players[0]["token"], json={"text": "take the corner", "channel": "team"}).status_code == 201
    assert counts() == [1, 1, 0, 0, 0]  # red's partners; black and a spectator hear nothing
    assert client.post(url, token=players[2]["token"], json={"text": "hello all"}).status_code == 201
    assert counts() == [2, 2, 1, 1, 1]
