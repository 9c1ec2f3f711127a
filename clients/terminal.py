"""Games drawn for a terminal with rich: the board, the seats, the hand, the clock, the moves.

Drawn from the game JSON the API serves (the caller's view), one drawing per title and a
summary for any other, so the terminal client needs nothing but the public contract.
"""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SEAT_STYLES = {"red": "bold white on red3", "black": "bold white on grey15", "blue": "bold white on blue3",
               "green": "bold white on green4", "yellow": "bold black on yellow3"}
KIND_STYLES = {"water": "black on sky_blue2", "anchor": "black on khaki1", "flood": "white on blue",
               "bridge": "black on tan", "customs": "black on grey70"}
GOODS_LETTERS = {"tea": "t", "wine": "w", "spice": "s"}


def describe(command: dict) -> str:
    fields = [f"{k}={v!r}" for k, v in command.items() if k != "type"]
    return " ".join([command["type"], *fields])


def kontor_card(card: dict) -> Text:
    style = SEAT_STYLES.get(card.get("owner"), "") if card.get("kind") == "dock" else \
        KIND_STYLES.get(card.get("kind"), "")
    label = "⚓" if card.get("kind") == "anchor" else str(card.get("number") or "")
    goods = "".join(GOODS_LETTERS.get(g, "?") for g in card.get("goods", ()))
    marks = "".join(m for k, m in (("florin", "f"), ("ship", "S"), ("crane", "C"),
                                   ("tavern", "T")) if card.get(k))
    return Text(f"{label:>3}{goods:<3}{marks:<2}", style=style)


def kontor_board(view: dict) -> Table:
    board = view.get("board", {})
    cells = {(c["x"], c["y"]): c["card"] for c in board.get("cells", ())}
    legal = {(c["x"], c["y"]) for c in board.get("legal_cells", ()) or ()}
    points = list(cells) + list(legal) or [(0, 0)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    grid = Table.grid(padding=(0, 1))
    for _ in range(min(xs), max(xs) + 1):
        grid.add_column()
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            if (x, y) in cells:
                row.append(kontor_card(cells[(x, y)]))
            elif (x, y) in legal:
                row.append(Text(f"{x:>3},{y:<3}", style="green"))
            else:
                row.append(Text(" " * 8))
        grid.add_row(*row)
    return grid


def kontor_seats(view: dict) -> Table:
    table = Table(box=box.SIMPLE, title="seats")
    for column in ("seat", "points", "money", "hand"):
        table.add_column(column)
    for player in view.get("players", ()):
        name = Text(f" {player.get('color')} ", style=SEAT_STYLES.get(player.get("color"), ""))
        table.add_row(name, str(player.get("points", 0)), str(player.get("money", 0)),
                      "▮" * player.get("hand_size", 0))
    return table


def kontor(view: dict) -> Group:
    parts = [Text(f"round {view.get('round')} · {view.get('phase')} · treasury "
                  f"{view.get('treasury', 0)}"), kontor_board(view), kontor_seats(view)]
    hand = (view.get("you") or {}).get("hand")
    if hand:
        row = Table.grid(padding=(0, 1))
        row.add_row(Text("your hand:"), *[kontor_card(card) for card in hand])
        parts.append(row)
    return Group(*parts)


def speicherstadt(view: dict) -> Group:
    offer = Table(box=box.SIMPLE, title="offer")
    for column in ("column", "card", "workers", "status"):
        offer.add_column(column)
    for slot in view.get("offer", ()):
        offer.add_row(str(slot["column"]), slot["card"], " ".join(str(w) for w in slot.get("workers", ())),
                      str(slot.get("status")))
    seats = Table(box=box.SIMPLE, title="seats")
    for column in ("seat", "coins", "points", "cards", "warehouse"):
        seats.add_column(column)
    for seat in view.get("seats", ()):
        seats.add_row(str(seat.get("seat")), str(seat.get("coins", "?")), str(seat.get("points", 0)),
                      ", ".join(seat.get("cards") or ()), ", ".join(seat.get("warehouse") or ()))
    return Group(Text(f"round {view.get('round')} · {view.get('phase')}"), offer, seats)


def amsterdam(view: dict) -> Group:
    city = Table(box=box.SIMPLE, title="city")
    city.add_column("block")
    city.add_column("holds")
    for block in view.get("city", ()):
        holds = f"seat {block['owner']}" if block.get("owner") is not None else (block.get("good") or "")
        city.add_row(block["block"], holds)
    seats = Table(box=box.SIMPLE, title="seats")
    for column in ("seat", "florins", "points", "penalties", "reserve", "amstel", "barge"):
        seats.add_column(column)
    for seat in view.get("seats", ()):
        reserve = " ".join(f"{c}:{n}" for c, n in (seat.get("reserve") or {}).items() if n)
        barge = seat.get("barge") or {}
        seats.add_row(str(seat.get("seat")), str(seat.get("florins", 0)), str(seat.get("points", 0)),
                      str(seat.get("penalties", 0)), reserve, str((seat.get("amstel") or {}).get("space", "")),
                      f"{barge.get('node', '')} {', '.join(barge.get('goods', ()))}")
    offer = ", ".join(view.get("offer") or ()) or "-"
    header = Text(f"round {view.get('round')} of {view.get('last_round')} · {view.get('phase')} · "
                  f"market tile {view.get('market_tile')} · offer {offer}")
    return Group(header, city, seats)


def summary(view: dict) -> Group:
    facts = Table.grid(padding=(0, 2))
    for key, value in view.items():
        if isinstance(value, (str, int, float, bool)):
            facts.add_row(key, str(value))
    return Group(facts)


DRAWINGS = {"amsterdam": amsterdam, "kontor": kontor, "speicherstadt": speicherstadt}


REASONS = {"timeout": "on time", "resigned": "by resignation", "abandoned": "abandoned", "aborted": "aborted"}


def seat_name(game: dict, index: int) -> str:
    for seat in game.get("seats") or ():
        if seat["index"] == index:
            return seat.get("name") or (f"computer ({seat['ai']})" if seat.get("ai") else f"seat {index}")
    return f"seat {index}"


def result_line(game: dict) -> str:
    """"finished · winners: Ada (on time)" in players' words."""
    result = game["result"]
    winners = ", ".join(seat_name(game, w) for w in result.get("winners") or ()) or "nobody"
    why = REASONS.get(result.get("reason") or "")
    return f"finished · winners: {winners}" + (f" ({why})" if why else "")


def bank_text(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m {secs}s"


def game_panel(game: dict) -> Panel:
    status = game["status"]
    if status == "finished" and game.get("result"):
        line = result_line(game)
    else:
        line = f"{status} · version {game['version']} · to act: {game.get('to_act') or '-'}"
    if game.get("deadline"):
        line += f" · clock: {game['deadline']}"
    parts = [Text(line, style="bold")]
    banks = game.get("banks") or ()
    if banks and status == "active":
        # each bank as the server read it now (a running one less its turn so far)
        parts.append(Text("time bank: " + " · ".join(f"{seat_name(game, b['seat'])} {bank_text(b['seconds'])}"
                                                     + (" running" if b.get("running") else "") for b in banks)))
    takeback = game.get("takeback")
    if takeback and status == "active":
        parts.append(Text(f"{seat_name(game, takeback['seat'])} asks to take back their last move"
                          " (a to accept, d to decline)", style="bold yellow"))
    parts.append(DRAWINGS.get(game["title"], summary)(game.get("view") or {}))
    return Panel(Group(*parts), title=f"{game['title']} {game['id'][:8]}")


def moves_table(commands: list[dict], descriptions: list[str] | None = None) -> Table:
    """The moves numbered from 1, in the server's words (the legal-commands
    ``descriptions``, as the mail and the web client say them) when it sends them."""
    table = Table(box=box.SIMPLE, title="your moves")
    table.add_column("#", justify="right")
    table.add_column("move")
    words = descriptions if descriptions and len(descriptions) == len(commands) else None
    for number, command in enumerate(commands, start=1):
        table.add_row(str(number), words[number - 1] if words else describe(command))
    return table
