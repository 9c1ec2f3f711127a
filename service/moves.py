"""Legal moves in words a player understands, one module for every client.

``describe(title_id, view, command)`` says what a command does ("place card 48 (your
dock: tea) 1 north of the anchor, next to the river (water 59) and your dock 25"),
worked out from the command and the view of the seat that may send it: the same
words in the "your turn" mail, in the legal-commands response (its ``descriptions``,
which the web client and the CLI show) and in the terminal client. It reads only that
seat's view, so it never says more than the seat may see.

Each title has its own wording for its common commands; any other command is said
generically (its type split into words, its fields as "name value").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

Describer = Callable[[dict, dict], str | None]


def _words(name: str) -> str:
    """``PlaceSunkenWarehouse`` -> ``place sunken warehouse``."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def words_of(value: Any) -> str:
    """A field's value in words: lists and mappings without brackets or quotes."""
    return _value(value)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in value.items())
    return str(value).replace("_", " ")


def generic(command: dict) -> str:
    fields = [f"{k.replace('_', ' ')} {_value(v)}" for k, v in command.items()
              if k != "type" and v is not None]
    head = _words(str(command.get("type", "move")))
    return f"{head}: {', '.join(fields)}" if fields else head


# kontor ---------------------------------------------------------------------------------
def _cells(view: dict) -> dict[tuple[int, int], dict]:
    board = view.get("board") or {}
    return {(c["x"], c["y"]): c.get("card") or {} for c in board.get("cells", ()) if "x" in c and "y" in c}


def _me(view: dict) -> str | None:
    you = view.get("you")
    return you.get("color") if isinstance(you, dict) else None


def _card_words(card: dict, me: str | None) -> str:
    """``your dock 25``, ``black's dock 14``, ``water 59``, ``the anchor``."""
    kind = card.get("kind") or "card"
    if kind == "anchor":
        return "the anchor"
    number = card.get("number")
    owner = card.get("owner")
    whose = "your " if owner and owner == me else (f"{owner}'s " if owner else "")
    label = {"water": "river (water {n})", "flood": "flood {n}"}.get(kind)
    if label and number is not None:
        return "the " + label.format(n=number)
    return f"{whose}{kind}" + (f" {number}" if number is not None else "")


def card_detail(card: dict, me: str | None) -> str:
    """``card 48 (your dock: tea, wine, florin)``."""
    kind = card.get("kind") or "card"
    owner = card.get("owner")
    whose = "your " if owner and owner == me else (f"{owner}'s " if owner else "")
    marks = list(card.get("goods") or ()) + [m for m in ("florin", "ship", "crane", "tavern") if card.get(m)]
    inside = f"{whose}{kind}" + (f": {', '.join(marks)}" if marks else "")
    number = card.get("number")
    return (f"card {number} " if number is not None else "") + f"({inside})"


def _where(x: int, y: int) -> str:
    if x == 0 and y == 0:
        return "on the anchor"
    parts = []
    if y:
        parts.append(f"{abs(y)} {'north' if y < 0 else 'south'}")
    if x:
        parts.append(f"{abs(x)} {'west' if x < 0 else 'east'}")
    return " and ".join(parts) + " of the anchor"


def _next_to(cells: dict, x: int, y: int, me: str | None) -> str:
    around = [cells[(x + dx, y + dy)] for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)) if (x + dx, y + dy) in cells]
    if not around:
        return ""
    names = [_card_words(card, me) for card in around]
    if len(names) > 1:
        return ", next to " + ", ".join(names[:-1]) + " and " + names[-1]
    return ", next to " + names[0]


@cache
def _kontor_catalogue() -> dict[int, dict]:
    """Kontor's printed cards by number (public: the title's component data)."""
    from service.titles import title  # the registry of titles, read once

    cards = title("kontor").component_data().get("cards", ())
    return {c["number"]: c for c in cards if isinstance(c, dict) and c.get("number") is not None}


def _kontor_card(view: dict, number: Any) -> dict | None:
    you = view.get("you") if isinstance(view.get("you"), dict) else {}
    for card in you.get("hand") or ():
        if card.get("number") == number:
            return card
    for card in _cells(view).values():
        if card.get("number") == number:
            return card
    for pile in [view.get("water_pile")] + [p.get("dock_pile") for p in view.get("players") or ()
                                            if isinstance(p, dict)]:
        if isinstance(pile, dict) and isinstance(pile.get("top"), dict) and pile["top"].get("number") == number:
            return pile["top"]
    return _kontor_catalogue().get(number)


def _placing(view: dict) -> str:
    placing = view.get("placing")
    if not isinstance(placing, dict) or placing.get("card") is None:
        return "your card"
    card = _kontor_card(view, placing["card"])
    return card_detail(card, _me(view)) if card else f"card {placing['card']}"


def kontor(view: dict, command: dict) -> str | None:
    kind = command.get("type")
    me = _me(view)
    cells = _cells(view)
    if kind == "ChooseCard":
        card = _kontor_card(view, command.get("card"))
        shown = card_detail(card, me) if card else f"card {command.get('card')}"
        return f"choose {shown} to play this round"
    if kind == "Pass":
        return "pass: play no card this round"
    if kind == "PlaceCard":
        x, y = command["x"], command["y"]
        return f"place {_placing(view)} on the square {_where(x, y)}{_next_to(cells, x, y, me)}"
    if kind == "MoveShip":
        x, y = command["x"], command["y"]
        text = f"move the ship to the water {_where(x, y)}"
        if command.get("remove_x") is not None and command.get("remove_y") is not None:
            removed = cells.get((command["remove_x"], command["remove_y"]))
            text += " and send " + (_card_words(removed, me) if removed else "the dock there") + " away"
        return text
    if kind == "DrawCard":
        pile = command.get("pile")
        return {"dock": "draw from your dock pile", "water": "draw from the water pile",
                "dock_pick": "pay 2 florins to take any dock from your pile"}.get(pile, f"draw from the {pile} pile")
    if kind in ("ChooseStartingDock", "TakeFromPile", "ChooseFromPile", "PutUnder"):
        card = _kontor_card(view, command.get("card"))
        shown = card_detail(card, me) if card else f"card {command.get('card')}"
        verb = {"ChooseStartingDock": "start with", "TakeFromPile": "take", "ChooseFromPile": "choose",
                "PutUnder": "put under your pile"}[kind]
        return f"{verb} {shown}"
    if kind == "BuySpecialCard":
        return "buy the special card" if command.get("buy") else "do not buy the special card"
    if kind == "PlaceWater":
        return f"place water card {command.get('card')} {_where(command['x'], command['y'])}"
    if kind in ("Bribe", "PlaceBribeWarehouse", "PlaceSunkenWarehouse", "LeaveAlliance"):
        x, y = command["x"], command["y"]
        target = cells.get((x, y))
        what = _card_words(target, me) if target else "the card"
        verb = {"Bribe": "bribe", "PlaceBribeWarehouse": "place the bribe warehouse at",
                "PlaceSunkenWarehouse": "place the sunken warehouse at",
                "LeaveAlliance": "leave the alliance at"}[kind]
        return f"{verb} {what} {_where(x, y)}" if target else f"{verb} {_where(x, y)}"
    return None


# speicherstadt ----------------------------------------------------------------------------
def speicherstadt(view: dict, command: dict) -> str | None:
    kind = command.get("type")
    if kind == "PlaceWorker":
        return f"place a worker on column {command.get('column')}"
    if kind == "BuyCard":
        return "buy the card"
    if kind == "RefuseCard":
        return "refuse the card"
    if kind == "SellCube":
        return f"sell a {command.get('good')} cube"
    if kind == "StoreCube":
        return f"store a {command.get('good')} cube"
    if kind == "KeepCube":
        return f"keep a {command.get('good')} cube"
    if kind == "DeliverCube":
        return f"deliver a {command.get('good')} cube to contract {command.get('contract')}"
    if kind == "EndShipping":
        return "end shipping"
    return None


# amsterdam --------------------------------------------------------------------------------
def amsterdam(view: dict, command: dict) -> str | None:
    kind = command.get("type")
    if kind == "EndTurn":
        said = ["end your turn"]
        if command.get("keep"):
            said.append(f"keeping {_value(command['keep'])}")
        if command.get("foreman_to"):
            said.append(f"moving the foreman to {_value(command['foreman_to'])}")
        return ", ".join(said)
    if kind == "DeclineCard":
        return "take no card"
    if kind == "TakeCard":
        text = f"take card {_value(command.get('card'))}"
        return text + (f", discarding {_value(command['discard'])}" if command.get("discard") else "")
    if kind == "PlaceFigure":
        return f"place the {_value(command.get('figure'))} on {_value(command.get('space'))}"
    if kind == "MoveBarge":
        return f"move the barge to {_value(command.get('to'))}" + (
            f", paying {_value(command['pay'])}" if command.get("pay") else "")
    if kind in ("LoadGood", "DeliverGood"):
        return f"{'load' if kind == 'LoadGood' else 'deliver'} {_value(command.get('good'))}"
    return None


DESCRIBERS: dict[str, Describer] = {"kontor": kontor, "speicherstadt": speicherstadt, "amsterdam": amsterdam}


def describe(title_id: str, view: dict | None, command: dict) -> str:
    """``command`` in words, as the seat whose ``view`` this is would read it."""
    try:
        said = DESCRIBERS.get(title_id, lambda v, c: None)(view or {}, command)
    except (KeyError, TypeError, ValueError, AttributeError):  # an unusual shape: say it generically
        said = None
    return said or generic(command)


def describe_all(title_id: str, view: dict | None, commands: list[dict]) -> list[str]:
    """Each command in words; two that would read the same get their fields said too, so
    a player can always tell the numbered moves apart."""
    words = [describe(title_id, view, c) for c in commands]
    seen: dict[str, int] = {}
    for said in words:
        seen[said] = seen.get(said, 0) + 1
    return [f"{said} ({generic(c)})" if seen[said] > 1 else said for said, c in zip(words, commands, strict=True)]
