"""A game's position as plain text for a mail, built only from the seat's view
(``title.view(state, seat)``): what the player may see, never more. The scores, the
seat's own hidden cards and the board in characters (the text alternative of the board's
picture); the moves in words are service/games/moves.py's.

Titles have no text rendering of their own (clients/terminal.py is a client, which the
service does not import), so this is a generic summary of the view: scalars as
``key: value``, the players' rows one per line, the caller's own part ("you") in full,
and bigger structures in words cut to a line.
"""

from __future__ import annotations

from typing import Any

from service.games.moves import (
    amsterdam_block,
    amsterdam_card,
    amsterdam_colours,
    amsterdam_node,
    amsterdam_task,
    card_detail,
    speicherstadt_card,
    words_of,
)

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
    singular = {"penalties": "penalty"}.get(unit, unit[:-1])
    return f"{number} {singular if number in (1, -1) else unit}"


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
    if title_id == "amsterdam":
        said = []
        if you.get("tasks"):
            said.append("your task tiles: " + "; ".join(amsterdam_task(t) for t in you["tasks"]))
        choice = you.get("dice_choice")
        if isinstance(choice, dict) and choice.get("dice"):
            said.append(f"your dice, face down until all have chosen: {_and([str(d) for d in choice['dice']])}"
                        f" for sections {_and([str(x) for x in choice.get('slots') or ()])}")
        return ("Only you see: " + "; ".join(said) + ".") if said else ""
    if title_id == "speicherstadt":  # no hand: everything is on the table
        return ""
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


def _who(names: list[str] | None, seat: Any, me: int | None) -> str:
    name = names[seat] if names and isinstance(seat, int) and 0 <= seat < len(names) else (
        f"seat {seat + 1}" if isinstance(seat, int) else str(seat))
    return f"{name} (you)" if seat == me and me is not None else name


def _and(items: list[str]) -> str:
    items = [i for i in items if i]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else (items[0] if items else "none")


def _goods(counts: Any) -> str:
    """``{"coffee": 2, "tea": 0}`` -> ``2 coffee``; a list -> its items counted."""
    if isinstance(counts, dict):
        return _and([f"{n} {str(g).replace('_', ' ')}" for g, n in counts.items() if n]) if any(counts.values()) else "none"
    said: dict[str, int] = {}
    for item in counts or ():
        said[str(item)] = said.get(str(item), 0) + 1
    return _and([f"{n} {g.replace('_', ' ')}" for g, n in said.items()]) if said else "none"


def speicherstadt_text(view: dict, names: list[str] | None = None) -> str:
    """Speicherstadt in words: the round, the cards on offer with their workers and ship
    cubes, the card being sold, the stack by season, the bag and reserve, and each seat's
    coins, points, cards and cubes. Only the view: the stack's order never appears."""
    me = view.get("you", {}).get("seat") if isinstance(view.get("you"), dict) else None
    lines = [f"Round {view.get('round')}, {view.get('phase')} phase"
             + (" (the last round)" if view.get("last_round") else "")
             + f"; {_who(names, view.get('first_player'), me)} holds the metal coin (first player)."]
    to_act = [_who(names, s, me) for s in view.get("to_act") or ()]
    if to_act:
        lines.append(f"To act: {_and(to_act)}.")
    lines.append("On offer (columns from the left):")
    for column in view.get("offer") or ():
        workers = [_who(names, w, me) for w in column.get("workers") or ()]
        said = [f"  {column.get('column', 0) + 1}. {speicherstadt_card(column.get('card'))}"]
        said.append(f"workers from the bottom: {', '.join(workers)}" if workers else "no worker")
        if column.get("cubes"):
            said.append(f"cubes on the ship: {_goods(column['cubes'])}")
        if column.get("status") == "bought" and column.get("buyer") is not None:
            said.append(f"bought by {_who(names, column['buyer'], me)}")
        elif column.get("status") not in (None, "open"):
            said.append(str(column["status"]))
        lines.append("; ".join(said))
    current = view.get("current_offer")
    if isinstance(current, dict):
        lines.append(f"For sale now: {speicherstadt_card(current.get('card'))} to"
                     f" {_who(names, current.get('seat'), me)} for {_count(current.get('price'), 'coins')}.")
    stack = view.get("stack") or {}
    lines.append("Stack, cards left by season: " + ", ".join(f"{k} {v}" for k, v in stack.items())
                 + " (its order is hidden).")
    lines.append(f"Bag: {_goods(view.get('bag'))}. Reserve: {_goods(view.get('reserve'))}.")
    for row in view.get("seats") or ():
        if not isinstance(row, dict):
            continue
        cards = [speicherstadt_card(c) for c in row.get("cards") or ()]
        said = [f"{_who(names, row.get('seat'), me)}: {_count(row.get('coins'), 'coins')},"
                f" {_count(row.get('points'), 'points')}",
                f"cards: {_and(cards) if cards else 'none'}"]
        for key, label in (("unloaded", "cubes to unload"), ("market", "on the market space"),
                           ("warehouse", "in the warehouse")):
            if row.get(key):
                said.append(f"{label}: {_goods(row[key])}")
        for contract in row.get("contracts") or ():
            if isinstance(contract, dict) and not contract.get("complete"):
                said.append(f"{speicherstadt_card(contract.get('card'))} still needs {_and(contract.get('missing') or [])}")
        score = row.get("projected_score")
        if isinstance(score, dict) and "total" in score:
            said.append(f"{score['total']} points if the game ended now")
        lines.append("; ".join(said) + ".")
    return "\n".join(lines)


def amsterdam_text(view: dict, names: list[str] | None = None) -> str:
    """Amsterdam in words: the round and phase, who acts, the cards on offer, the dice,
    the market tile, the city block by block, the harbour (roofs, depots, pontoons,
    barges), the Amstel, the docker building, TOM (solo), and each seat's florins,
    points, resources, cards and goods. Only the view: piles, the market stack, other
    seats' secret tasks and dice choices never appear."""
    me = view.get("you", {}).get("seat") if isinstance(view.get("you"), dict) else None
    seat_names = [*(names or [])]
    lines = [f"Round {view.get('round')} of {view.get('last_round')}, {str(view.get('phase')).replace('_', ' ')} phase."]
    to_act = [_who(seat_names, s, me) for s in view.get("to_act") or ()]
    if to_act:
        lines.append(f"To act: {_and(to_act)}. Turn order: {_and([_who(seat_names, s, me) for s in view.get('order') or ()])}.")
    if view.get("offer"):
        lines.append("Cards on offer: " + "; ".join(amsterdam_card(c) for c in view["offer"]) + ".")
    piles = view.get("piles") or {}
    plural = {"craftsman": "craftsmen"}
    lines.append("Piles (face down): " + ", ".join(f"{n} {k if n == 1 else plural.get(k, k + 's')}"
                                                   for k, n in piles.items()) + ".")
    dice = view.get("dice") or []
    colours = amsterdam_colours()
    if dice:
        lines.append("Dice: " + ", ".join(f"{c} {f}" for c, f in zip(colours, dice, strict=False)) + ".")
    if view.get("dice_chosen"):
        lines.append("Dice chosen (face down) by: " + _and([_who(seat_names, s, me) for s in view["dice_chosen"]]) + ".")
    if view.get("market_tile"):
        lines.append(f"Market tile: {view['market_tile']} ({view.get('market_stack_size', 0)} tiles left in the stack).")
    city = [b for b in view.get("city") or () if isinstance(b, dict)]
    if city:
        lines.append("City (block: what is on it):")
        districts: dict[str, list[str]] = {}
        for block in city:
            name = amsterdam_block({}, block["block"]).split(" (")[0]
            district = name.split(" of the ")[-1] if " of the " in name else ""
            what = (("your" if block["owner"] == me else f"{_who(seat_names, block['owner'], me)}'s")
                    + " coat of arms" if block.get("owner") is not None
                    else block.get("good") or "empty")
            districts.setdefault(district, []).append(f"{name.split(' of the ')[0].removeprefix('block ')}: {what}")
        for district, blocks in districts.items():
            lines.append(f"  {district}: " + ", ".join(blocks))
    harbour = view.get("harbour") or {}
    roofs = harbour.get("roofs") or {}
    if roofs:
        lines.append("Warehouse roofs filled: " + ", ".join(f"{g} {n}" for g, n in roofs.items()) + " (of 3 each).")
    depots = harbour.get("depots") or {}
    if depots:
        lines.append("Depots: " + ", ".join(f"{amsterdam_node(d)} {g or 'free'}" for d, g in depots.items()) + ".")
    pontoons = harbour.get("pontoons") or {}
    if pontoons:
        lines.append("Dockers on the pontoons: " + "; ".join(
            f"{amsterdam_node(p).removeprefix('the ')}: {_and([str(d).replace('_', ' ') for d in ds]) if ds else 'none'}"
            for p, ds in pontoons.items()) + ".")
    if view.get("docker_building"):
        lines.append("Docker building: " + ", ".join(
            f"{str(d.get('colour')).replace('_', ' ')} ({_who(seat_names, d.get('seat'), me)})"
            for d in view["docker_building"] if isinstance(d, dict)) + ".")
    figures = view.get("figures") or {}
    placed = [f"the {k.replace('_', ' ')} on " + (amsterdam_block({}, v).split(" (")[0] if k == "bailiff"
                                                 else f"the black market's {v}" if k == "market_pawn"
                                                 else amsterdam_node(v).replace("'s landing", ""))
              for k, v in figures.items() if isinstance(v, str)]
    if placed:
        lines.append("Figures: " + ", ".join(placed) + ".")
    if view.get("black_market"):
        lines.append("Black market: " + _goods(view["black_market"]) + ".")
    if view.get("districts_scored"):
        lines.append("Districts scored: " + ", ".join(view["districts_scored"]) + ".")
    tom = view.get("tom")
    if isinstance(tom, dict):
        lines.append(f"TOM: {_count(tom.get('points'), 'points')}, {_count(tom.get('florins'), 'florins')},"
                     f" on Amstel space {tom.get('amstel')}.")
    amstel = {a.get("seat"): a for a in view.get("amstel") or () if isinstance(a, dict)}
    for row in view.get("seats") or ():
        if not isinstance(row, dict):
            continue
        seat = row.get("seat")
        said = [f"{_who(seat_names, seat, me)}: {_count(row.get('florins'), 'florins')},"
                f" {_count(row.get('points'), 'points')}, {_count(row.get('penalties'), 'penalties')}"]
        said.append(f"resources to spend: {_goods(row.get('reserve'))}")
        rose = row.get("rose") or {}
        filled = [f"section {k}: {_goods(v)}" for k, v in rose.items() if isinstance(v, dict) and any(v.values())]
        if filled:
            said.append("on the compass rose: " + ", ".join(filled))
        if row.get("house"):
            said.append(f"in the house: {row['house']}")
        for key, label in (("inactive", "inactive cards"), ("active", "active cards")):
            if row.get(key):
                said.append(f"{label}: " + "; ".join(amsterdam_card(c) for c in row[key]))
        if row.get("provisional"):
            said.append(f"provisional warehouse: {_goods(row['provisional'])}")
        barge = row.get("barge") or {}
        if barge.get("node"):
            cargo = _goods(barge.get("goods")) if barge.get("goods") else "no goods"
            dockers = f", dockers {_and([str(d).replace('_', ' ') for d in barge['dockers']])}" if barge.get("dockers") else ""
            said.append(f"barge at {amsterdam_node(barge['node'])} with {cargo}{dockers}")
        space = (amstel.get(seat) or row.get("amstel") or {}).get("space")
        if space is not None:
            said.append(f"Amstel space {space}")
        tasks = row.get("tasks")
        if isinstance(tasks, list) and tasks:
            said.append("task tiles: " + "; ".join(amsterdam_task(t) for t in tasks))
        elif isinstance(tasks, int) and tasks:
            said.append(f"{tasks} secret task tiles (hidden)")
        lines.append("; ".join(said) + ".")
    return "\n".join(lines)


def board_text(title_id: str, view: dict | None, names: list[str] | None = None) -> str:
    """The board in characters, the text alternative of the picture (Kontor: its grid,
    north at the top; Speicherstadt and Amsterdam: the position in words)."""
    if not isinstance(view, dict):
        return "(the game has no position yet)"
    if title_id == "speicherstadt":
        return speicherstadt_text(view, names)
    if title_id == "amsterdam":
        return amsterdam_text(view, names)
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
    me = you.get("seat")
    table = []
    if view.get("to_act"):
        table.append(f"To act: {_and([_who(names, s, me) for s in view['to_act']])}.")
    rows_of = [p for p in view.get("players") or () if isinstance(p, dict)]
    if rows_of:
        table.append("Cards in hand: " + ", ".join(f"{_who(names, p.get('seat'), me)} {p.get('hand_size', 0)}"
                                                  for p in rows_of) + ".")
    if view.get("treasury") is not None:
        table.append(f"Treasury: {_count(view['treasury'], 'florins')}.")
    return ((f"{phase.capitalize()}\n" if phase else "") + "\n".join(rows) + "\n" + legend
            + ("\n" + " ".join(table) if table else ""))
