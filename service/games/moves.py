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

# Amsterdam's printed cards and scales: the florins its moves cost are read there
from domain.amsterdam.data import CARDS, DOCKER_PICKUP_FLORINS, cards_with

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
class _Read(dict):
    """A view with what its commands' words read of it worked out once: describe_all says
    every legal move on one view (a dozen placements), and each read every square of the
    board and searched it for the card in play (issue 24). The same view as a dict:
    describers read it as any other."""

    __slots__ = ("cells", "numbered")

    def __init__(self, view: dict):
        super().__init__(view)
        self.cells: dict[tuple[int, int], dict] | None = None
        self.numbered: dict[Any, dict] | None = None


def _once(view: dict, name: str, work: Callable[[dict], dict]) -> dict:
    """``work(view)``, kept in a ``_Read`` view's slot ``name`` after its first time."""
    if not isinstance(view, _Read):
        return work(view)
    found = getattr(view, name)
    if found is None:
        found = work(view)
        setattr(view, name, found)
    return found


def _cells(view: dict) -> dict[tuple[int, int], dict]:
    return _once(view, "cells", _board_cells)


def _board_cells(view: dict) -> dict[tuple[int, int], dict]:
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
    from service.games.titles import title  # the registry of titles, read once

    cards = title("kontor").component_data().get("cards", ())
    return {c["number"]: c for c in cards if isinstance(c, dict) and c.get("number") is not None}


def _kontor_card(view: dict, number: Any) -> dict | None:
    """The card numbered ``number`` as the view shows it (in the seat's hand first, then on
    the board, then atop a pile), else as printed."""
    numbered = _once(view, "numbered", _shown_by_number)
    return numbered[number] if number in numbered else _kontor_catalogue().get(number)


def _shown_by_number(view: dict) -> dict[Any, dict]:
    numbered: dict[Any, dict] = {}
    for card in _shown_cards(view):
        numbered.setdefault(card.get("number"), card)  # the first shown wins, as before
    return numbered


def _shown_cards(view: dict):
    you = view.get("you") if isinstance(view.get("you"), dict) else {}
    yield from you.get("hand") or ()
    yield from _cells(view).values()
    for pile in [view.get("water_pile")] + [p.get("dock_pile") for p in view.get("players") or ()
                                            if isinstance(p, dict)]:
        if isinstance(pile, dict) and isinstance(pile.get("top"), dict):
            yield pile["top"]


def _placing(view: dict) -> str:
    placing = view.get("placing")
    if not isinstance(placing, dict) or placing.get("card") is None:
        return "your card"
    card = _kontor_card(view, placing["card"])
    return card_detail(card, _me(view)) if card else f"card {placing['card']}"


def _kontor_shown(view: dict, command: dict) -> str:
    card = _kontor_card(view, command.get("card"))
    return card_detail(card, _me(view)) if card else f"card {command.get('card')}"


def _at(view: dict, command: dict, x: str = "x", y: str = "y") -> tuple[dict | None, str]:
    """The card at the command's (x, y) fields (None on an empty square) and where it is."""
    return _cells(view).get((command[x], command[y])), _where(command[x], command[y])


def _card_or(card: dict | None, view: dict, otherwise: str) -> str:
    return _card_words(card, _me(view)) if card else otherwise


def _kontor_place(view: dict, command: dict) -> str:
    x, y = command["x"], command["y"]
    return f"place {_placing(view)} on the square {_where(x, y)}{_next_to(_cells(view), x, y, _me(view))}"


def _kontor_move_ship(view: dict, command: dict) -> str:
    text = f"move the ship to the water {_where(command['x'], command['y'])}"
    if command.get("remove_x") is not None and command.get("remove_y") is not None:
        removed, _ = _at(view, command, "remove_x", "remove_y")
        text += " and send " + _card_or(removed, view, "the dock there") + " away"
    return text


def _kontor_draw(view: dict, command: dict) -> str:
    pile = command.get("pile")
    # « Premier choix »: its price is the game's option (the view's options carry it)
    cost = (view.get("options") or {}).get("pile_pick_cost", 2)
    return {"dock": "draw from your dock pile", "water": "draw from the water pile",
            "dock_pick": f"pay {_count_of(cost, 'florin')} to take any dock from your pile"}.get(pile, f"draw from the {pile} pile")


def _kontor_drunk_dock(view: dict, command: dict) -> str:
    tavern, tavern_at = _at(view, command, "tavern_x", "tavern_y")
    dock, dock_at = _at(view, command)
    return (f"let the tavern of {_card_or(tavern, view, 'the card')} {tavern_at} make"
            f" {_card_or(dock, view, 'the dock')} {dock_at} drunk")


def _kontor_swap(view: dict, command: dict) -> str:
    dock, where = _at(view, command)
    return (f"exchange your {command.get('good')} warehouse on {_card_or(dock, view, 'the dock')}"
            f" {where} for one of {command.get('new_good')}")


def _kontor_second_canal(view: dict, command: dict) -> str:
    if command.get("card") is None:
        return "place no second canal"
    return f"place canal {command['card']} from your hand {_where(command['x'], command['y'])} as a second canal"


def _kontor_tavern_sector(view: dict, command: dict) -> str:
    tavern, where = _at(view, command)
    counted = "count" if command.get("counted") else "do not count"
    return f"{counted} the sector of {_card_or(tavern, view, 'your tavern')} {where} at the end"


def _kontor_at_card(verb: str) -> Describer:
    """A command that acts on the card at (x, y): ``{verb} black's dock 14 1 north of the anchor``."""
    def say(view: dict, command: dict) -> str:
        target, where = _at(view, command)
        return f"{verb} {_card_or(target, view, 'the card')} {where}" if target else f"{verb} {where}"
    return say


def _kontor_of_card(verb: str) -> Describer:
    """A command on a card of the seat's: ``{verb} card 48 (your dock: tea)``."""
    return lambda view, command: f"{verb} {_kontor_shown(view, command)}"


#: Kontor's commands in words, one function per command type
KONTOR: dict[str, Describer] = {
    "ChooseCard": lambda view, command: f"choose {_kontor_shown(view, command)} to play this round",
    "Pass": lambda view, command: "pass: play no card this round",
    "PlaceCard": _kontor_place,
    "MoveShip": _kontor_move_ship,
    "DrawCard": _kontor_draw,
    "ChooseStartingDock": _kontor_of_card("start with"),
    "TakeFromPile": _kontor_of_card("take"),
    "ChooseFromPile": _kontor_of_card("choose"),
    "PutUnder": _kontor_of_card("put under your pile"),
    "BuySpecialCard": lambda view, command: ("buy the special card" if command.get("buy")
                                             else "do not buy the special card"),
    "PlaceWater": lambda view, command: f"place water card {command.get('card')} {_where(command['x'], command['y'])}",
    "ChooseGood": lambda view, command: f"give the dock you placed a warehouse of {command.get('good')}",
    "SetDrunkDock": _kontor_drunk_dock,
    "ProposeAlliance": lambda view, command: (f"propose an alliance to seat {int(command.get('seat', 0)) + 1} in the"
                                              f" sector of the card {_where(command['x'], command['y'])}"),
    "AcceptAlliance": lambda view, command: "accept the alliance offered to you",
    "DeclineAlliance": lambda view, command: "decline the alliance offered to you",
    "ExportWarehouse": lambda view, command: (f"{_kontor_place(view, command)},"
                                              f" with its {command.get('good')} warehouse for export"),
    "SwapWarehouse": _kontor_swap,
    "SkipEvent": lambda view, command: "do not take the event's action",
    "SecondCanal": _kontor_second_canal,
    "ChooseFaceDown": lambda view, command: (f"lay {_kontor_shown(view, command)} face down this round (smuggling),"
                                             f" then draw from the {command.get('draw')} pile"),
    "EndBribe": lambda view, command: "add no (more) bribe warehouse",
    "DecideTavernSector": _kontor_tavern_sector,
    "Bribe": _kontor_at_card("bribe"),
    "PlaceBribeWarehouse": _kontor_at_card("place the bribe warehouse at"),
    "PlaceSunkenWarehouse": _kontor_at_card("place the sunken warehouse at"),
    "LeaveAlliance": _kontor_at_card("leave the alliance at"),
}


# shared by Speicherstadt and Amsterdam ----------------------------------------------------
@cache
def _catalogue(title_id: str) -> dict[str, dict]:
    """A title's printed cards by id (public: the title's component data)."""
    from service.games.titles import title  # the registry of titles, read once

    cards = title(title_id).component_data().get("cards", ())
    return {str(c["id"]): c for c in cards if isinstance(c, dict) and c.get("id") is not None}


def _counted(items: Any) -> str:
    """``["pink", "pink", "grey"]`` -> ``2 pink and 1 grey``."""
    counts: dict[str, int] = {}
    for item in items or ():
        counts[str(item)] = counts.get(str(item), 0) + 1
    said = [f"{n} {name.replace('_', ' ')}" for name, n in counts.items()]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said) or "nothing"


def _seat_no(view: dict) -> int | None:
    you = view.get("you")
    return you.get("seat") if isinstance(you, dict) else None


def _my_row(view: dict) -> dict:
    me = _seat_no(view)
    for row in view.get("seats") or ():
        if isinstance(row, dict) and row.get("seat") == me:
            return row
    return {}


# speicherstadt ----------------------------------------------------------------------------
def speicherstadt_card(card_id: Any) -> str:
    """``Contract (saffron + carpet, 5 points)``, ``Fireman (3)``, ``Coffee Roaster``."""
    card = _catalogue("speicherstadt").get(str(card_id))
    if card is None:
        return f"card {card_id}"
    name = card.get("name") or str(card_id)
    kind = card.get("kind")
    if kind == "contract":
        return f"{name} ({' + '.join(card.get('goods') or ())}, {card.get('contract_points')} points)"
    if kind == "fireman":
        return f"{name} (strength {card.get('value')})"
    if kind == "fire":
        return f"{name} ({card.get('fire_points')} points)"
    if kind == "trader":
        return f"{name} (buys {' '.join(card.get('goods') or ())} for 1 coin)"
    return name


def _current_offer(view: dict) -> dict | None:
    return view.get("current_offer") if isinstance(view.get("current_offer"), dict) else None


def _speicherstadt_worker(view: dict, command: dict) -> str:
    column = command.get("column")
    slot = next((o for o in view.get("offer") or () if isinstance(o, dict) and o.get("column") == column), None) or {}
    there = len(slot.get("workers") or ())
    card = f" above {speicherstadt_card(slot['card'])}" if slot.get("card") else ""
    return (f"place a worker in column {column + 1}{card}"
            f" ({'no worker there yet' if not there else _count_of(there, 'worker') + ' there already'})")


def _speicherstadt_buy(view: dict, command: dict) -> str:
    current = _current_offer(view)
    if current:
        return f"buy {speicherstadt_card(current.get('card'))} for {_count_of(current.get('price'), 'coin')}"
    return "buy the card on offer"


def _speicherstadt_refuse(view: dict, command: dict) -> str:
    current = _current_offer(view)
    if current:
        return (f"refuse {speicherstadt_card(current.get('card'))}: your worker comes back and the"
                " next worker's owner may buy it for 1 coin less")
    return "refuse the card on offer"


def _speicherstadt_sell(view: dict, command: dict) -> str:
    good = command.get("good")
    catalogue = _catalogue("speicherstadt")
    traders = [speicherstadt_card(c) for c in _my_row(view).get("cards") or ()
               if (catalogue.get(str(c)) or {}).get("kind") == "trader"
               and good in ((catalogue.get(str(c)) or {}).get("goods") or ())]
    return f"sell a {good} cube to your {traders[0].split(' (')[0] if traders else good + ' trader'} for 1 coin"


def _speicherstadt_deliver(view: dict, command: dict) -> str:
    good, contract = command.get("good"), command.get("contract")
    missing = next((c.get("missing") for c in _my_row(view).get("contracts") or ()
                    if isinstance(c, dict) and c.get("card") == contract), None)
    rest = [g for g in (missing or ()) if g != good] if missing is not None else None
    still = "" if rest is None else (", which completes it" if not rest else f" (then still missing: {', '.join(rest)})")
    return f"deliver a {good} cube to your {speicherstadt_card(contract)}{still}"


def _speicherstadt_retrieve(view: dict, command: dict) -> str:
    place = {"warehouse": "your warehouse", "market": "your market space"}.get(command.get("place"), command.get("place"))
    return f"take a {command.get('good')} cube back out of {place}"


#: Speicherstadt's commands in words, one function per command type
SPEICHERSTADT: dict[str, Describer] = {
    "PlaceWorker": _speicherstadt_worker,
    "BuyCard": _speicherstadt_buy,
    "RefuseCard": _speicherstadt_refuse,
    "SellCube": _speicherstadt_sell,
    "StoreCube": lambda view, command: f"store a {command.get('good')} cube in your warehouse (at most 4)",
    "KeepCube": lambda view, command: f"keep a {command.get('good')} cube on your market space (at most 1)",
    "DeliverCube": _speicherstadt_deliver,
    "MarketSell": lambda view, command: (f"sell a {command.get('first')} and a {command.get('second')} cube at the"
                                         " market for 1 coin"),
    "MarketConvert": lambda view, command: (f"trade a {command.get('first')}, a {command.get('second')} and a"
                                            f" {command.get('third')} cube at the market for a {command.get('take')}"
                                            " cube from the reserve"),
    "RetrieveCube": _speicherstadt_retrieve,
    "EndShipping": lambda view, command: "end shipping (cubes left unloaded go to the reserve)",
}


def _count_of(number: Any, unit: str) -> str:
    return f"{number} {unit}{'' if number == 1 else 's'}"


# amsterdam --------------------------------------------------------------------------------
def _colour(name: Any) -> str:
    return str(name).replace("_", " ")


def amsterdam_card(card_id: Any) -> str:
    """``craftsman 041 (brewer, costs brown + orange)``, ``plan 110 (Plantage, costs pink + pink)``."""
    card = _catalogue("amsterdam").get(str(card_id))
    if card is None:
        return f"card {card_id}"
    group = str(card.get("group") or "").replace("_", " ")
    cost = " + ".join(_colour(c) for c in card.get("cost") or ())
    inside = ", ".join(p for p in (group, f"costs {cost}" if cost else "") if p)
    return f"{card.get('kind', 'card')} {card_id}" + (f" ({inside})" if inside else "")


def amsterdam_node(node: Any) -> str:
    """A place of the harbour: the start bridge, water space 3, depot 2, the light blue
    pontoon, the beer warehouse's landing."""
    text = str(node)
    if text == "start":
        return "the start bridge"
    if text.startswith("P:"):
        return f"the {_colour(text[2:])} docker pontoon"
    if re.fullmatch(r"W\d+", text):
        return f"water space {text[1:]}"
    if re.fullmatch(r"D\d+", text):
        return f"depot {text[1:]}"
    return f"the {_colour(text)} warehouse's landing"


@cache
def _amsterdam_data() -> dict:
    from service.games.titles import title

    return title("amsterdam").component_data()


def amsterdam_colours() -> tuple[str, ...]:
    """The resource colours in the order of the dice (``view["dice"]``)."""
    return tuple(_amsterdam_data().get("colours") or ())


@cache
def _blocks() -> dict[str, dict]:
    city = _amsterdam_data().get("city") or {}
    return {b["id"]: b for b in city.get("blocks", ()) if isinstance(b, dict)}


def amsterdam_block(view: dict, block: Any) -> str:
    """``block pink 2 of the Plantage (costs 2, holds tulip)``."""
    printed = _blocks().get(str(block)) or {}
    on_board = next((b for b in view.get("city") or () if isinstance(b, dict) and b.get("block") == block), {})
    name = re.sub(r"(\D+)(\d+)", lambda m: f"{m.group(1)} {m.group(2)}", str(block))
    said = [f"costs {printed['cost']}"] if printed.get("cost") is not None else []
    if on_board.get("good"):
        said.append(f"holds {on_board['good']}")
    district = f" of the {printed['district']}" if printed.get("district") else ""
    return f"block {name}{district}" + (f" ({', '.join(said)})" if said else "")


def amsterdam_task(task_id: Any) -> str:
    """``task 7 (four blocks in Grachtengordel)`` (expansion 2's task tiles)."""
    from domain.amsterdam.data import TASKS  # the printed tiles, as the title defines them

    task = TASKS.get(task_id) if isinstance(task_id, int) else None
    if task is None:
        return f"task {task_id}"
    param = task.param.replace("_", " ") if isinstance(task.param, str) else task.param
    what = task.kind.replace("_", " ") + (f" {param}" if param is not None else "")
    return f"task {task_id} ({what})"


def _paying(payment: Any) -> str:
    return f"paying {_counted(payment)}" if payment else "paying nothing"


SALES = {"florins": "sell its {good} on the black market for florins",
         "resource": "sell its {good} on the black market for a resource",
         "both": "sell its {good} on the black market for florins and a resource"}
FIGURES = {"foreman": "the foreman", "bailiff": "the bailiff", "market_pawn": "the black-market pawn"}


def _tile(view: dict, tile_id: Any) -> str:
    tiles = {t["id"]: t for t in _amsterdam_data().get("market_tiles", ()) if isinstance(t, dict)}
    tile = tiles.get(tile_id)
    if tile is None:
        return "the market tile"
    gains = [_count_of(tile["points"], "prestige point") if tile.get("points") else "",
             _count_of(tile["amstel"], "Amstel space") if tile.get("amstel") else "",
             _count_of(tile["choices"], "resource") + " of your choice" if tile.get("choices") else "",
             str(tile.get("special") or "").replace("_", " ")]
    gains = [g for g in gains if g]
    return (f"market tile {tile_id} for {_count_of(tile.get('florins'), 'florin')}"
            + (f" ({', '.join(gains)})" if gains else ""))


@cache
def _card_florins(effect: str) -> int:
    """The florins a card's effect asks, as the title's data prints it (038 activates a card
    for 3 florins, 027 buys a block for 2)."""
    return CARDS[cards_with(effect)[0]].effect.params[0]


def _florins(number: int) -> str:
    return _count_of(number, "florin")


def _landing(node: Any) -> str:
    """A place of the harbour, its warehouse named without "'s landing"."""
    return amsterdam_node(node).replace("'s landing", "")


def _amsterdam_figure(view: dict, command: dict) -> str:
    figure, space = command.get("figure"), command.get("space")
    where = (amsterdam_block(view, space) if figure == "bailiff"
             else f"the {_colour(space)} space of the black market" if figure == "market_pawn"
             else _landing(space))
    return f"place {FIGURES.get(figure, _colour(figure))} on {where}"


def _amsterdam_take_card(view: dict, command: dict) -> str:
    text = f"take {amsterdam_card(command.get('card'))}"
    if command.get("discard"):
        text += f", discarding your {amsterdam_card(command['discard'])} (a penalty)"
    return text


def _amsterdam_dice(view: dict, command: dict) -> str:
    dice, slots = list(command.get("dice") or ()), list(command.get("slots") or ())
    faces = view.get("dice") or []
    colours = list(amsterdam_colours())
    shown = [f"the {_colour(d)} die" + (f" (showing {faces[colours.index(d)]})"
                                         if d in colours and colours.index(d) < len(faces) else "") for d in dice]
    return (f"take {' and '.join(shown)}: their resources go on sections "
            f"{' and '.join(str(s) for s in slots)} of your compass rose")


def _amsterdam_activate(view: dict, command: dict) -> str:
    how = (f"for {_florins(_card_florins('florins_to_activation'))}" if command.get("by_florins")
           else "for free (market tile)" if command.get("free") else _paying(command.get("payment")))
    return f"activate your {amsterdam_card(command.get('card'))}, {how}"


def _amsterdam_use(view: dict, command: dict) -> str:
    text = f"use your {amsterdam_card(command.get('card'))}"
    if command.get("payment"):
        text += f", {_paying(command['payment'])}"
    if command.get("target"):
        text += f", discarding your {amsterdam_card(command['target'])}"
    return text


def _moved_figures(view: dict, command: dict) -> list[str]:
    """Where the bailiff and the black-market pawn go with a block (expansion 1)."""
    said = []
    if command.get("bailiff_to"):
        said.append(f"the bailiff moves to {amsterdam_block(view, command['bailiff_to'])}")
    if command.get("pawn_to"):
        said.append(f"the black-market pawn moves to {_colour(command['pawn_to'])}")
    return said


def _amsterdam_block(view: dict, command: dict) -> str:
    block = command.get("block")
    text = f"buy {amsterdam_block(view, block)}, " + (
        f"for {_florins(_card_florins('block_for_florins'))}" if command.get("by_florins")
        else _paying(command.get("payment")))
    good = next((b.get("good") for b in view.get("city") or () if isinstance(b, dict) and b.get("block") == block), None)
    sale = SALES.get(command.get("sale") or "")
    if sale:
        text += ", and " + sale.format(good=good or "good")
    elif good:
        text += f", keeping its {good} to deliver"
    return "".join([text, *(f"; {moved}" for moved in _moved_figures(view, command))])


def _amsterdam_barge(view: dict, command: dict) -> str:
    text = f"move your barge to {amsterdam_node(command.get('to'))}"
    return text + (f", paying 1 {_colour(command['pay'])} resource" if command.get("pay") else " (already paid for)")


def _amsterdam_deliver(view: dict, command: dict) -> str:
    here = (_my_row(view).get("barge") or {}).get("node")
    where = f" at {_landing(here)}" if here else ""
    return f"deliver {command.get('good')} from your barge{where}"


def _amsterdam_prestige(view: dict, command: dict) -> str:
    text = f"buy {_tile(view, view.get('market_tile'))}"
    extra = []
    if command.get("give") or command.get("take"):
        take = command.get("take")
        taken = f"the top of the {take} pile" if take in ("craftsman", "building") else amsterdam_card(take)
        extra.append(f"giving your {amsterdam_card(command.get('give'))} for {taken}")
    if command.get("node"):
        extra.append(f"moving your barge to {amsterdam_node(command['node'])}")
    if command.get("block"):
        extra.append(f"taking {amsterdam_block(view, command['block'])} for free")
        sale = SALES.get(command.get("sale") or "")
        if sale:
            extra.append(sale.format(good="good"))
    extra += _moved_figures(view, command)
    return text + (": " + ", ".join(extra) if extra else "")


def _amsterdam_end_turn(view: dict, command: dict) -> str:
    said = ["end your turn"]
    if command.get("keep"):
        said.append(f"keeping 1 {_colour(command['keep'])} resource in your house for next round")
    if command.get("foreman_to"):
        said.append(f"sending the foreman to {_landing(command['foreman_to'])}")
    return ", ".join(said)


def _amsterdam_docker(view: dict, command: dict) -> str:
    return f"pick up the {_colour(command.get('colour'))} docker here (+{_florins(DOCKER_PICKUP_FLORINS)})"


#: Amsterdam's commands in words, one function per command type
AMSTERDAM: dict[str, Describer] = {
    "ChooseOpeningCard": lambda view, command: f"start with {amsterdam_card(command.get('card'))}",
    "ChooseOpeningResources": lambda view, command: (
        f"start with 1 {_colour(command.get('single'))} resource on section 1 of your compass rose"
        f" and 2 {_colour(command.get('pair'))} on section 2"),
    "PlaceFigure": _amsterdam_figure,
    "TakeCard": _amsterdam_take_card,
    "DiscardForTom": lambda view, command: f"TOM discards {amsterdam_card(command.get('card'))}",
    "DeclineCard": lambda view, command: "take no card this round",
    "ChooseDice": _amsterdam_dice,
    "ActivateCard": _amsterdam_activate,
    "UseCard": _amsterdam_use,
    "Convert": lambda view, command: (f"exchange with your {amsterdam_card(command.get('card'))},"
                                      f" {_paying(command.get('payment'))}"),
    "TakeBlock": _amsterdam_block,
    "LoadGood": lambda view, command: f"load {command.get('good')} from your provisional warehouse onto your barge",
    "MoveBarge": _amsterdam_barge,
    "PickUpDocker": _amsterdam_docker,
    "DeliverGood": _amsterdam_deliver,
    "AdvanceAmstel": lambda view, command: f"advance 1 space on the Amstel, {_paying(command.get('payment'))}",
    "BuyPrestige": _amsterdam_prestige,
    "ChooseResource": lambda view, command: f"take a {_colour(command.get('colour'))} resource (of your choice)",
    "EndTurn": _amsterdam_end_turn,
}


# what happened, in words (the last moves of a "your turn" mail) ---------------------------
#: ``type`` (without the title's prefix) -> how to say it; ``{who}`` is the seat's name.
#: Only events a player sees as a move or its visible outcome: bookkeeping is left out.
EVENT_WORDS: dict[str, dict[str, Callable[[dict], str]]] = {
    "kontor": {
        # the same words whatever was laid (a card, or Marins ivres morts' "I pass" card)
        "CardChosen": lambda d: "chose a card, face down",
        "Passed": lambda d: f"passed and took {_count_of(d.get('florins'), 'florin')}",
        "CardsRevealed": lambda d: "the chosen cards were revealed: " + ", ".join(
            f"card {c}" if c is not None else "a pass" for c in d.get("cards") or ()),
        "CardPlaced": lambda d: f"placed card {d.get('card')} {_where(d.get('x', 0), d.get('y', 0))}",
        "ShipMoved": lambda d: f"moved the ship to the water {_where(d.get('x', 0), d.get('y', 0))}",
        "DockRemoved": lambda d: f"sent dock {d.get('card', '')} away".replace("  ", " "),
    },
    "speicherstadt": {
        "CardRevealed": lambda d: f"{speicherstadt_card(d.get('card'))} was revealed in column {d.get('column', 0) + 1}"
                                  + (f" with {_counted(d['cubes'])} on the ship" if d.get("cubes") else ""),
        "FireResolved": lambda d: f"{speicherstadt_card(d.get('card'))} broke out",
        "WorkerPlaced": lambda d: f"placed a worker in column {d.get('column', 0) + 1}",
        "CardBought": lambda d: f"bought {speicherstadt_card(d.get('card'))} for {_count_of(d.get('price'), 'coin')}",
        "CardRefused": lambda d: f"refused the card in column {d.get('column', 0) + 1}",
        "CardDiscarded": lambda d: f"nobody bought {speicherstadt_card(d.get('card'))}: it was discarded",
        "CubeDelivered": lambda d: f"delivered a {d.get('good')} cube to {speicherstadt_card(d.get('contract'))}",
        "CubeSold": lambda d: f"sold a {d.get('good')} cube to a trader",
        "MarketSold": lambda d: f"sold {_counted(d.get('goods'))} at the market",
        "MarketConverted": lambda d: f"traded {_counted(d.get('goods'))} at the market for a {d.get('take')} cube",
        "CubeMoved": lambda d: f"moved a {d.get('good')} cube to the {d.get('target')}",
        "ShippingEnded": lambda d: "ended shipping",
    },
    "amsterdam": {
        "CardTaken": lambda d: f"took {amsterdam_card(d.get('card'))}"
                               + (f", discarding {amsterdam_card(d['discarded'])}" if d.get("discarded") else ""),
        "CardDeclined": lambda d: "took no card",
        "TomDiscarded": lambda d: f"TOM discarded {amsterdam_card(d.get('card'))}",
        "DiceRolled": lambda d: "the dice were rolled: " + ", ".join(str(f) for f in d.get("faces") or ()),
        "DiceChosen": lambda d: "chose two dice" + (
            f": {_counted(d['dice'])}" if d.get("dice") else ", face down"),
        "CardActivated": lambda d: f"activated {amsterdam_card(d.get('card'))}",
        "CardUsed": lambda d: f"used {amsterdam_card(d.get('card'))}",
        "BlockTaken": lambda d: f"bought block {d.get('block')} ({d.get('good')}"
                                + (", sold on the black market)" if d.get("sold") else ")"),
        "TomBlockTaken": lambda d: f"TOM took block {d.get('block')}",
        "GoodLoaded": lambda d: f"loaded {d.get('good')} onto the barge",
        "BargeMoved": lambda d: f"moved the barge to {amsterdam_node(d.get('to'))}",
        "DockerPickedUp": lambda d: f"picked up the {_colour(d.get('colour'))} docker",
        "DockerDelivered": lambda d: f"delivered the {_colour(d.get('colour'))} docker to the docker building",
        "GoodDelivered": lambda d: f"delivered {d.get('good')} to {amsterdam_node(d.get('place')).replace(chr(39) + 's landing', '')}",
        "AmstelAdvanced": lambda d: f"advanced on the Amstel to space {d.get('space')}",
        "TomAdvanced": lambda d: f"TOM advanced on the Amstel to space {d.get('space')}",
        "PrestigeBought": lambda d: f"bought market tile {d.get('tile')}",
        "TurnEnded": lambda d: "ended the turn" + (f", keeping {_colour(d['kept'])} in the house" if d.get("kept") else ""),
    },
    "": {  # the table of correspondence play, in every title
        "TimedOut": lambda d: "ran out of time",
        "Resigned": lambda d: "resigned",
        "MoveTakenBack": lambda d: "took back their last move",
    },
}


def event_words(title_id: str, event: dict, names: list[str], me: int | None) -> str | None:
    """One event as a player sees it (``event`` as the events page gives it to that
    player: redacted), in words, or None for bookkeeping nobody needs to read."""
    kind = str(event.get("type", "")).split(".")[-1]
    say = EVENT_WORDS.get(title_id, {}).get(kind) or EVENT_WORDS[""].get(kind)
    if say is None:
        return None
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    try:
        said = say(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    seat = event.get("seat", data.get("seat"))
    if isinstance(seat, int):
        who = "you" if seat == me else (names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}")
        return f"{who[0].upper()}{who[1:]} {said}"
    return said[0].upper() + said[1:]


#: per title, its commands' describers by command type
DESCRIBERS: dict[str, dict[str, Describer]] = {"kontor": KONTOR, "speicherstadt": SPEICHERSTADT, "amsterdam": AMSTERDAM}


def describe(title_id: str, view: dict | None, command: dict) -> str:
    """``command`` in words, as the seat whose ``view`` this is would read it."""
    say = DESCRIBERS.get(title_id, {}).get(str(command.get("type")))
    try:
        said = say(view or {}, command) if say else None
    except (KeyError, TypeError, ValueError, AttributeError):  # an unusual shape: say it generically
        said = None
    return said or generic(command)


def describe_all(title_id: str, view: dict | None, commands: list[dict]) -> list[str]:
    """Each command in words; two that would read the same get their fields said too, so
    a player can always tell the numbered moves apart."""
    read = _Read(view or {})
    words = [describe(title_id, read, c) for c in commands]
    seen: dict[str, int] = {}
    for said in words:
        seen[said] = seen.get(said, 0) + 1
    return [f"{said} ({generic(c)})" if seen[said] > 1 else said for said, c in zip(words, commands, strict=True)]
