"""Bodies of webhook deliveries in the forms chat platforms' incoming webhooks take.

``standard`` is the signed Standard Webhooks body (service/notifications/service.py,
``notification_body``). ``discord`` and ``slack`` are what those platforms document for an
incoming webhook, so a group can point a webhook at its channel without a receiver:

- Discord, "Execute Webhook" (https://discord.com/developers/docs/resources/webhook#execute-webhook):
  JSON with ``content`` (at most 2000 characters) and optional ``embeds`` (at most 10; an
  embed's ``title`` at most 256, ``description`` at most 4096 characters, ``url``,
  ``timestamp`` ISO 8601); ``allowed_mentions`` {"parse": []} so that no name or table
  message a player typed can ping ``@everyone`` or a role.
- Slack, "Sending messages using incoming webhooks"
  (https://api.slack.com/messaging/webhooks): JSON with ``text``; ``&``, ``<`` and ``>``
  escaped as Slack's formatting reference asks (so ``<!channel>`` cannot be typed in), and
  a link in Slack's ``<url|label>`` form.

Neither platform checks a signature, so those deliveries carry none.
"""

from __future__ import annotations

from typing import Any

FORMATS = ("standard", "discord", "slack")
TITLE_NAMES = {"kontor": "Kontor", "speicherstadt": "Speicherstadt", "amsterdam": "Amsterdam"}
DISCORD_CONTENT = 2000
DISCORD_TITLE = 256
DISCORD_DESCRIPTION = 4096


def _seat_name(data: dict, seat: int | None) -> str:
    for s in data.get("seats") or []:
        if s.get("index") == seat:
            return s.get("name") or (f"the computer ({s['ai']})" if s.get("ai") else f"seat {seat + 1}")
    return f"seat {seat + 1}" if isinstance(seat, int) else "a seat"


def summary(body: dict) -> tuple[str, str]:
    """(headline, details) of a notification, in words for players."""
    data = body.get("data") or {}
    game = TITLE_NAMES.get(data.get("title"), str(data.get("title") or "game").capitalize())
    who = _seat_name(data, body.get("seat"))
    kind = body.get("type")
    if kind == "your_turn":
        deadline = data.get("deadline")
        return (f"{game}: {who}, it is your turn",
                f"Move before {deadline.replace('T', ' ')[:16]} UTC." if deadline else "No clock: move when you like.")
    if kind == "reminder":
        deadline = data.get("deadline") or ""
        return (f"{game}: {who}, your time is running out",
                f"Move before {deadline.replace('T', ' ')[:16]} UTC, or the time control acts for you.")
    if kind == "finished":
        result = data.get("result") or {}
        winners = [_seat_name(data, w) for w in result.get("winners") or []]
        why = {"timeout": " (on time)", "resigned": " (by resignation)", "abandoned": " (abandoned)"}.get(
            result.get("reason"), "")
        text = f"Winners: {', '.join(winners)}{why}." if winners else "Nobody won."
        return f"{game}: the game is over", text
    if kind == "message":
        message = data.get("message") or {}
        return f"{game}: {data.get('from') or who} wrote", str(message.get("text") or "")
    return f"{game}: {kind}", ""


def chat_body(fmt: str, body: dict, link: str | None) -> dict[str, Any]:
    """The JSON a ``discord`` or ``slack`` incoming webhook takes for one notification."""
    headline, details = summary(body)
    if fmt == "discord":
        content = f"**{_discord(headline)}**"
        embed: dict[str, Any] = {"title": _cut(headline, DISCORD_TITLE),
                                 "description": _cut(details or headline, DISCORD_DESCRIPTION)}
        if link:
            embed["url"] = link
        if body.get("at"):
            embed["timestamp"] = body["at"]
        return {"content": _cut(content, DISCORD_CONTENT), "embeds": [embed], "allowed_mentions": {"parse": []}}
    if fmt == "slack":
        text = f"*{_slack(headline)}*"
        if details:
            text += f"\n{_slack(details)}"
        if link:
            text += f"\n<{_slack(link)}|Open the game>"
        return {"text": text}
    raise ValueError(f"not a chat format: {fmt}")


def _slack(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _discord(text: str) -> str:
    """Markdown characters of a player's text shown as themselves."""
    for char in "\\*_~`|>":
        text = text.replace(char, "\\" + char)
    return text


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
