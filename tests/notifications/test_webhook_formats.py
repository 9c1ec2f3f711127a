"""Webhooks in the forms chat platforms take: a real worker delivers to a real HTTP
receiver, and each body is checked against what the platform's API documents.

Discord, Execute Webhook (https://discord.com/developers/docs/resources/webhook#execute-webhook):
the JSON params are content (up to 2000 characters), username, avatar_url, tts, embeds (up
to 10 embed objects), allowed_mentions, components, files, payload_json, attachments,
flags, thread_name, applied_tags, poll; one of content, embeds, components, files or poll
is required. An embed (https://discord.com/developers/docs/resources/message#embed-object)
has title (256), description (4096), url, timestamp (ISO 8601), color, footer, image,
thumbnail, video, provider, author, fields. allowed_mentions.parse holds "roles",
"users" or "everyone".
Slack, incoming webhooks (https://api.slack.com/messaging/webhooks): a JSON body with
``text`` (and optionally blocks, attachments, thread_ts, mrkdwn); text formatting
(https://api.slack.com/reference/surfaces/formatting#escaping) escapes &, < and >.
"""

from __future__ import annotations

import jsonschema
import pytest

from service.notifications.webhook_formats import chat_body
from tests.notifications.conftest import fanned_out, new_player, play, two_player_game, wait_for
from tests.refusals import problem

pytestmark = pytest.mark.slow(seconds=10)

DISCORD_EXECUTE_WEBHOOK = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "content": {"type": "string", "maxLength": 2000},
        "username": {"type": "string"}, "avatar_url": {"type": "string"}, "tts": {"type": "boolean"},
        "embeds": {"type": "array", "maxItems": 10, "items": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "title": {"type": "string", "maxLength": 256},
                "description": {"type": "string", "maxLength": 4096},
                "url": {"type": "string", "format": "uri"},
                "timestamp": {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$"},
                "color": {"type": "integer"}, "footer": {"type": "object"}, "image": {"type": "object"},
                "thumbnail": {"type": "object"}, "video": {"type": "object"}, "provider": {"type": "object"},
                "author": {"type": "object"}, "fields": {"type": "array", "maxItems": 25},
            },
        }},
        "allowed_mentions": {"type": "object", "additionalProperties": False, "properties": {
            "parse": {"type": "array", "items": {"enum": ["roles", "users", "everyone"]}},
            "roles": {"type": "array"}, "users": {"type": "array"}, "replied_user": {"type": "boolean"}}},
        "components": {"type": "array"}, "payload_json": {"type": "string"}, "attachments": {"type": "array"},
        "flags": {"type": "integer"}, "thread_name": {"type": "string"}, "applied_tags": {"type": "array"},
        "poll": {"type": "object"},
    },
    "anyOf": [{"required": ["content"]}, {"required": ["embeds"]}],
}
SLACK_INCOMING_WEBHOOK = {
    "type": "object",
    "additionalProperties": False,
    "required": ["text"],
    "properties": {"text": {"type": "string", "minLength": 1}, "blocks": {"type": "array"},
                   "attachments": {"type": "array"}, "thread_ts": {"type": "string"}, "mrkdwn": {"type": "boolean"}},
}


def hook(client, receiver, player, path, fmt):
    created = client.post("/v1/players/me/webhooks", token=player["token"], json={
        "url": receiver.url + path, "events": ["your_turn", "finished", "message"], "format": fmt})
    assert created.status_code == 201, created.json
    assert created.json["format"] == fmt
    return created.json


def test_discord_and_slack_webhooks_get_the_bodies_their_apis_document(client, worker, receiver, owner_db):
    a, b = new_player(client, "Ada <@&123>"), new_player(client, "Bob")
    hook(client, receiver, b, "/discord", "discord")
    hook(client, receiver, b, "/slack", "slack")
    listed = client.get("/v1/players/me/webhooks", token=b["token"]).json["webhooks"]
    assert sorted(w["format"] for w in listed) == ["discord", "slack"]
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 4)
    said = client.post(f"/v1/games/{game['id']}/messages", token=a["token"],
                       json={"text": "@everyone <!channel> look & see"})
    assert said.status_code == 201, said.json
    client.post(f"/v1/games/{game['id']}/resign", token=a["token"])
    wait_for(lambda: fanned_out(owner_db, game["id"]))

    def slack_says(text: str) -> bool:
        return any(text in r.body.get("text", "") for r in receiver.at("/slack"))

    # every body the assertions below look for: the message's fan-out is a job of its own,
    # and deliveries may land in any order (a wait on a count alone passed before the
    # message's had come, under load)
    wait_for(lambda: len(receiver.at("/discord")) >= 3 and slack_says("your turn")
             and slack_says("&lt;!channel&gt; look &amp; see") and slack_says("Winners: Bob (by resignation)")
             and any("Bob, it is your turn" in r.body.get("content", "") for r in receiver.at("/discord")))
    for got in receiver.at("/discord"):
        jsonschema.validate(got.body, DISCORD_EXECUTE_WEBHOOK, format_checker=jsonschema.FormatChecker())
        assert got.body["allowed_mentions"] == {"parse": []}  # no player's text pings anyone
        assert "webhook-signature" not in got.headers and got.headers["content-type"] == "application/json"
        assert got.body["embeds"][0]["url"].endswith(f"/#/games/{game['id']}")
    for got in receiver.at("/slack"):
        jsonschema.validate(got.body, SLACK_INCOMING_WEBHOOK)
        assert "webhook-signature" not in got.headers
        assert "<!channel>" not in got.body["text"] and "<@" not in got.body["text"]  # escaped
    texts = [r.body["text"] for r in receiver.at("/slack")]
    assert any("your turn" in t for t in texts)
    assert any("&lt;!channel&gt; look &amp; see" in t for t in texts)
    assert any("Winners: Bob (by resignation)" in t for t in texts)
    contents = [r.body["content"] for r in receiver.at("/discord")]
    assert any("Bob, it is your turn" in c for c in contents)


def test_a_discord_body_stays_within_discords_limits_whatever_a_player_writes():
    body = {"type": "message", "game_id": "g", "seat": 0, "version": 3, "at": "2030-01-01T00:00:00.000000Z",
            "data": {"title": "kontor", "seats": [{"index": 0, "name": "A" * 300, "ai": None}],
                     "from": "*" * 3000, "message": {"text": "x" * 9000}}}
    made = chat_body("discord", body, "http://example.test/#/games/g")
    jsonschema.validate(made, DISCORD_EXECUTE_WEBHOOK)
    slack = chat_body("slack", body, None)
    jsonschema.validate(slack, SLACK_INCOMING_WEBHOOK)


def test_an_unknown_format_is_refused(client):
    player = new_player(client, "Fmt")
    refused = client.post("/v1/players/me/webhooks", token=player["token"], json={
        "url": "https://example.com/hook", "events": ["your_turn"], "format": "teams"})
    assert problem(refused, 422, "validation_error") and "format" in refused.json["errors"]
