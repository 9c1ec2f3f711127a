"""Messages: the table's channel for everyone, a team's channel for its members only."""

from __future__ import annotations


def test_table_messages_are_read_by_everyone(client, new_player):
    red, black, stranger = new_player("MsgRed"), new_player("MsgBlack"), new_player("Stranger")
    game = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    url = f"/v1/games/{game['id']}/messages"
    said = client.post(url, token=red["token"], json={"text": "Good luck!"})
    assert said.status_code == 201 and said.json["seat"] == 0 and said.json["channel"] == "table"
    client.post(url, token=black["token"], json={"text": "You too."})
    for token in (red["token"], stranger["token"], None):
        messages = client.get(url, token=token).json["messages"]
        assert [m["text"] for m in messages] == ["Good luck!", "You too."]
    assert [m["seq"] for m in client.get(url, query_string={"after": 1}).json["messages"]] == [2]
    # only seated players speak; a game without teams has no team channel; bodies are checked
    assert client.post(url, token=stranger["token"], json={"text": "hi"}).status_code == 403
    assert client.post(url, json={"text": "hi"}).status_code == 401
    r = client.post(url, token=red["token"], json={"text": "psst", "channel": "team"})
    assert r.status_code == 422 and "channel" in r.json["errors"]
    assert client.post(url, token=red["token"], json={"text": ""}).status_code == 422
    assert client.post(url, token=red["token"], json={"text": "x" * 2001}).status_code == 422
    assert client.post(url, token=red["token"], json={"text": "x", "colour": 1}).status_code == 422
    assert client.get(f"/v1/games/{game['id']}/messages", token=stranger["token"],
                      query_string={"seat": 0}).status_code == 403
