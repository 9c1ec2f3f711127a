"""A game's position as plain text for a mail, built only from the seat's view
(``title.view(state, seat)``): what the player may see, never more. The scores, the
seat's own hidden cards and the board in characters (the text alternative of the board's
picture); the moves in words are service/moves.py's.

Titles have no text rendering of their own (clients/terminal.py is a client, which the
service does not import), so this is a generic summary of the view: scalars as
``key: value``, the players' rows one per line, the caller's own part ("you") in full,
and bigger structures in words cut to a line.
"""

from __future__ import annotations

from typing import Any

from service.moves import card_detail, words_of

LINE_CHARS = 160


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _short(value: Any) -> str:
    """A value in words (a mail shows no JSON), cut to a line."""
    text = value if isinstance(value, str) else words_of(value)
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
            lines.append(f"{key.replace('_', ' ')}: {_flat(value)}")
        elif isinstance(value, (list, dict)) and not value:
            continue
        else:
            lines.append(f"{key}: {_short(value)}")
    return "\n".join(lines)


# what a "your turn" mail shows besides the picture ---------------------------------------
MONEY_KEYS = (("money", "florins"), ("florins", "florins"), ("coins", "coins"))


def _seats(view: dict) -> list[dict]:
    rows = view.get("players") or view.get("seats") or []
    return [r for r in rows if isinstance(r, dict)]


def _count(number: Any, unit: str) -> str:
    return f"{number} {unit[:-1] if number == 1 else unit}"


def scores_text(view: dict | None, names: list[str], me: int | None) -> str:
    """``Scores: Ada (you, red) 3 points, 4 florins; Bob (black) 2 points, 5 florins``."""
    if not isinstance(view, dict):
        return ""
    parts = []
    for index, row in enumerate(_seats(view)):
        seat = row.get("seat", index)
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
        tags = [t for t in ("you" if seat == me else None, row.get("color")) if t]
        said = [_count(row["points"], "points")] if "points" in row else []
        said += [_count(row[key], unit) for key, unit in MONEY_KEYS if isinstance(row.get(key), int)][:1]
        parts.append(f"{who}{' (' + ', '.join(tags) + ')' if tags else ''} {', '.join(said)}".strip())
    return "Scores: " + "; ".join(parts) if parts else ""


def hidden_text(title_id: str, view: dict | None) -> str:
    """What only this seat may see: its own hand (Kontor), its private part otherwise."""
    if not isinstance(view, dict) or not isinstance(view.get("you"), dict):
        return ""
    you = view["you"]
    if title_id == "kontor":
        hand = you.get("hand") or []
        cards = "; ".join(card_detail(c, you.get("color")) for c in hand if isinstance(c, dict))
        return f"Your hand (only you see it): {cards}" if cards else "Your hand is empty."
    mine = {k: v for k, v in you.items() if k not in ("seat", "legal_command_count") and v not in (None, [], {})}
    if not mine:
        return ""
    return "Only you see: " + "; ".join(f"{k.replace('_', ' ')}: {_short(v)}" for k, v in mine.items())


#: a dock's letter in the text board: its owner's colour
COLOUR_LETTERS = {"red": "R", "black": "K", "blue": "U", "green": "G", "yellow": "Y"}
#: other cards' marks in the text board, and how the legend says them
KIND_MARKS = {"flood": ("F", "flood"), "bridge": ("=", "bridge"), "customs": ("$", "customs")}


def _kontor_label(card: dict) -> str:
    kind = card.get("kind")
    number = "" if card.get("number") is None else card["number"]
    if kind == "anchor":
        return "[ANC]"
    if kind == "water":
        return f"~{number}~"
    if kind == "dock":
        return f"{COLOUR_LETTERS.get(card.get('owner'), '?')}{number}"
    return f"{KIND_MARKS.get(kind, ('?', kind))[0]}{number}"


def _kontor_legend(cards: list[dict], me: str | None) -> str:
    said = ["North is up", "[ANC] the anchor", "~n~ the river (water n)"]
    colours = sorted({c.get("owner") for c in cards if c.get("kind") == "dock" and c.get("owner")})
    for colour in colours:
        letter = COLOUR_LETTERS.get(colour, "?")
        said.append(f"{letter}n {'your' if colour == me else colour + chr(39) + 's'} dock n")
    for kind in sorted({c.get("kind") for c in cards} & set(KIND_MARKS)):
        said.append(f"{KIND_MARKS[kind][0]}n {KIND_MARKS[kind][1]} n")
    return "; ".join(said) + "."


def board_text(title_id: str, view: dict | None) -> str:
    """The board in characters, the text alternative of the picture (Kontor: its grid,
    north at the top; others: the summary of ``position_text``)."""
    if not isinstance(view, dict):
        return "(the game has no position yet)"
    if title_id != "kontor" or not isinstance(view.get("board"), dict):
        rest = {k: v for k, v in view.items() if k not in ("you", "players", "seats", "to_act")}
        return position_text(rest)
    cells = {(c["x"], c["y"]): c.get("card") or {} for c in view["board"].get("cells", ()) if "x" in c}
    if not cells:
        return "(the board is empty)"
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        rows.append(" ".join(f"{_kontor_label(cells[(x, y)]) if (x, y) in cells else '.':^5}"
                             for x in range(min(xs), max(xs) + 1)).rstrip())
    you = view.get("you") if isinstance(view.get("you"), dict) else {}
    legend = _kontor_legend(list(cells.values()), you.get("color"))
    phase = ", ".join(f"{k} {view[k]}" for k in ("round", "phase") if view.get(k) is not None)
    return (f"{phase.capitalize()}\n" if phase else "") + "\n".join(rows) + "\n" + legend
