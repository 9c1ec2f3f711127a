"""A game's position as plain text for a mail, built only from the seat's view
(``title.view(state, seat)``): what the player may see, never more.

Titles have no text rendering of their own (clients/terminal.py is a client, which the
service does not import), so this is a generic summary of the view's JSON: scalars as
``key: value``, the players' rows one per line, the caller's own part ("you") in full,
and bigger structures as short JSON.
"""

from __future__ import annotations

import json
from typing import Any

LINE_CHARS = 160


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _flat(row: dict) -> str:
    return ", ".join(f"{k}={_short(v)}" for k, v in row.items() if _scalar(v))


def position_text(view: dict | None) -> str:
    if not isinstance(view, dict):
        return "(the game has no position yet)"
    lines: list[str] = []
    for key, value in view.items():
        if key in ("options", "rules_version"):
            continue
        if _scalar(value):
            lines.append(f"{key}: {_short(value)}")
        elif key == "players" and isinstance(value, list):
            lines.append("players:")
            lines += [f"  - {_flat(p) if isinstance(p, dict) else _short(p)}" for p in value]
        elif key == "you" and isinstance(value, dict):
            lines.append("you:")
            for k, v in value.items():
                if isinstance(v, list) and v and all(isinstance(item, dict) for item in v):
                    lines.append(f"  {k}:")
                    lines += [f"    - {_flat(item)}" for item in v]
                else:
                    lines.append(f"  {k}: {_short(v)}")
        elif isinstance(value, dict) and any(_scalar(v) for v in value.values()):
            lines.append(f"{key}: {_flat(value)}")
        elif isinstance(value, (list, dict)) and not value:
            continue
        else:
            lines.append(f"{key}: {_short(value)}")
    return "\n".join(lines)


def command_label(command: dict) -> str:
    """``ChooseCard card=7``: a command's type and its arguments."""
    args = " ".join(f"{k}={_short(v)}" for k, v in command.items() if k != "type")
    return f"{command.get('type', '?')} {args}".strip()


def numbered_commands(commands: list[dict]) -> str:
    return "\n".join(f"{i}. {command_label(c)}" for i, c in enumerate(commands, start=1))
