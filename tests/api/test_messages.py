"""Messages: the table's channel for everyone, a team's channel for its members only."""

from __future__ import annotations

from tests.api.seating import accept_invitations
from tests.refusals import problem


def test_table_messages_are_read_by_everyone(client, new_player):
    red, black, stranger = new_player("MsgRed"), new_player("MsgBlack"), new_player("Stranger")
    game = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    game = accept_invitations(client, game, [black])
    url = f"/v1/games/{game['id']}/messages"
    said = client.post(url, token=red["token"], json={"text": "Good luck!"})
    assert said.status_code == 201 and said.json["seat"] == 0 and said.json["channel"] == "table"
    client.post(url, token=black["token"], json={"text": "You too."})
    for token in (red["token"], stranger["token"], None):
        messages = client.get(url, token=token).json["messages"]
        assert [m["text"] for m in messages] == ["Good luck!", "You too."]
    assert [m["seq"] for m in client.get(url, query_string={"after": 1}).json["messages"]] == [2]
    # only seated players speak; a game without teams has no team channel; bodies are checked
    problem(client.post(url, token=stranger["token"], json={"text": "hi"}), 403, "not_your_seat")
    problem(client.post(url, json={"text": "hi"}), 401, "unauthorized")
    r = client.post(url, token=red["token"], json={"text": "psst", "channel": "team"})
    assert problem(r, 422, "validation_error") and "channel" in r.json["errors"]
    problem(client.post(url, token=red["token"], json={"text": ""}), 422, "validation_error")
    problem(client.post(url, token=red["token"], json={"text": "x" * 2001}), 422, "validation_error")
    problem(client.post(url, token=red["token"], json={"text": "x", "colour": 1}), 422, "validation_error")
    assert client.get(f"/v1/games/{game['id']}/messages", token=stranger["token"],
                      query_string={"seat": 0}).status_code == 403


def test_a_team_channel_is_read_by_partners_only_and_only_after_the_reveal(client, new_player):
    """« Quand les cartes jouées ont été révélées, les joueurs d'une équipe peuvent discuter
    sur la façon de jouer ces deux cartes. En dehors de cette phase, il n'est pas autorisé
    de communication entre les partenaires. »"""
    players = [new_player(f"Team{i}") for i in range(4)]
    game = client.post("/v1/games", token=players[0]["token"], json={
        "title": "kontor", "options": {"variant": "team"},
        "seats": [{"player_id": p["id"]} for p in players]})
    assert game.status_code == 201, game.json
    gid = accept_invitations(client, game.json, players)["id"]
    url = f"/v1/games/{gid}/messages"
    # choosing phase: no conferring yet
    r = client.post(url, token=players[0]["token"], json={"text": "I play 60", "channel": "team"})
    assert r.status_code == 409 and r.json["code"] == "not_now"
    for p in players:  # everyone chooses a card: the cards are revealed
        legal = client.get(f"/v1/games/{gid}/legal-commands", token=p["token"]).json
        choose = next(c for c in legal["commands"] if c["type"] == "ChooseCard")
        assert client.post(f"/v1/games/{gid}/commands", token=p["token"], json={"command": choose}).status_code == 201
    said = client.post(url, token=players[0]["token"], json={"text": "take the corner", "channel": "team"})
    assert said.status_code == 201 and said.json["channel"] == "team:red"
    assert [m["text"] for m in client.get(url, token=players[1]["token"]).json["messages"]] == ["take the corner"]
    for outsider in (players[2]["token"], players[3]["token"], None):
        assert client.get(url, token=outsider).json["messages"] == []


def test_messages_page_by_cursor_after_the_channels_are_filtered(client, services, new_player):
    me = new_player("Pager")
    game = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": me["id"]}, {"player_id": me["id"]}]}).json
    url = f"/v1/games/{game['id']}/messages"
    # 600 messages of a channel this reader may not read come first (written as a team's
    # channel would be: no 2-seat game has one, so they go in by SQL)
    with services.store.tx() as tx:
        tx.conn.execute(
            "INSERT INTO messages (game_id, seq, channel_seq, seat, channel, body)"
            " SELECT %s, n, n, 0, 'team:red', 'secret plan ' || n FROM generate_series(1, 600) n",
            (game["id"],))
    for text in ("one", "two", "three"):
        assert client.post(url, token=me["token"], json={"text": text, "seat": 0}).status_code == 201
    first = client.get(url, query_string={"limit": 2}).json
    # the cursor counts what this reader may read: nothing of the 600 shows through it
    assert [m["text"] for m in first["messages"]] == ["one", "two"] and first["next_after"] == 2
    last = client.get(url, query_string={"limit": 2, "after": first["next_after"]}).json
    assert [m["text"] for m in last["messages"]] == ["three"] and last["next_after"] is None
    whole = client.get(url, token=me["token"]).json
    # numbered in their channel (issue 26, item 14): a game-wide 601, 602, 603 told this
    # reader that another channel held 600 messages
    assert [m["seq"] for m in whole["messages"]] == [1, 2, 3] and whole["next_after"] is None
    problem(client.get(url, query_string={"limit": 0}), 422, "validation_error")
