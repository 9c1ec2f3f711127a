"""Kontor's board as a picture: the harbour grid, the piles, the seats and the caller's hand.

Drawn only from the view the caller may see: other seats' hands are card backs counted
by `hand_size`, a face-down choice is a back until it is revealed.
"""

from __future__ import annotations

from boards.palette import CARD_BACK, INK, PAPER, goods_colour, seat_colour
from boards.svg import Picture

CELL = 64
GAP = 4
MARGIN = 16
HEADER = 44
PANEL_ROW = 30
HAND_CARD = 52

KIND_FILL = {
    "anchor": "#e8d28a",
    "water": "#9cc7ea",
    "flood": "#4f86c6",
    "bridge": "#b08a64",
    "customs": "#9a9a9a",
}


def describe(card: dict) -> str:
    """The card in words: the tooltip and the text alternative of its picture."""
    words = [card.get("kind", "card")]
    if card.get("number") is not None:
        words.insert(0, f"#{card['number']}")
    if card.get("owner"):
        words.append(f"of {card['owner']}")
    if card.get("goods"):
        words.append("with " + ", ".join(card["goods"]))
    words += [mark for mark in ("florin", "ship", "crane", "tavern") if card.get(mark)]
    return " ".join(words)


def _card_fill(card: dict) -> str:
    if card.get("kind") == "dock":
        return seat_colour(card.get("owner"))
    return KIND_FILL.get(card.get("kind"), "#cccccc")


def draw_card(picture: Picture, card: dict, x: float, y: float, size: float, **attrs) -> None:
    picture.open("g", tooltip=describe(card), class_="card", **attrs)
    picture.add("rect", x=x, y=y, width=size, height=size, rx=6, fill=_card_fill(card),
                stroke=INK, stroke_width=1)
    light = card.get("kind") == "dock" and card.get("owner") in ("black", "red", "blue", "green")
    ink = "#ffffff" if light else INK
    if card.get("number") is not None:
        picture.text(x + 4, y + 13, str(card["number"]), size=11, fill=ink)
    if card.get("kind") == "anchor":
        picture.text(x + size / 2, y + size / 2 + 5, "anchor", size=11, fill=INK,
                     text_anchor="middle")
    for index, good in enumerate(card.get("goods", ())):
        cx = x + 10 + index * 15
        picture.add("circle", cx=cx, cy=y + size - 11, r=6, fill=goods_colour(good),
                    stroke="#ffffff", stroke_width=1)
    marks = [label for mark, label in (("florin", "f"), ("ship", "S"), ("crane", "C"),
                                       ("tavern", "T")) if card.get(mark)]
    for index, label in enumerate(marks):
        picture.text(x + size - 9 - index * 11, y + 13, label, size=11, fill=ink,
                     text_anchor="middle", font_weight="bold")
    picture.close("g")


def draw_back(picture: Picture, x: float, y: float, size: float, label: str = "") -> None:
    picture.add("rect", x=x, y=y, width=size, height=size, rx=6, fill=CARD_BACK, stroke=INK,
                tooltip=label or "a hidden card")


def _board_origin(board: dict) -> tuple[int, int]:
    bounds = board.get("bounds") or {"min_x": 0, "min_y": 0}
    return bounds["min_x"], bounds["min_y"]


def _board_extent(board: dict) -> tuple[int, int, int, int]:
    """Smallest and largest x and y over placed and legal cells."""
    points = [(c["x"], c["y"]) for c in board.get("cells", ())]
    points += [(c["x"], c["y"]) for c in board.get("legal_cells", ()) or ()]
    if not points:
        return 0, 0, 0, 0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), max(xs), min(ys), max(ys)


def draw(view: dict, components: dict | None = None) -> str:
    board = view.get("board", {})
    min_x, max_x, min_y, max_y = _board_extent(board)
    columns, rows = max_x - min_x + 1, max_y - min_y + 1
    players = view.get("players", [])
    hand = (view.get("you") or {}).get("hand") or []
    board_width = columns * (CELL + GAP)
    width = max(2 * MARGIN + board_width, 2 * MARGIN + 420, 2 * MARGIN + len(hand) * (HAND_CARD + 6))
    board_top = HEADER
    panel_top = board_top + rows * (CELL + GAP) + MARGIN
    hand_top = panel_top + PANEL_ROW * (len(players) + 1)
    height = hand_top + (HAND_CARD + 2 * MARGIN if hand else MARGIN)
    picture = Picture(width, height, "Kontor board",
                      f"Round {view.get('round')}, phase {view.get('phase')}")
    picture.add("rect", x=0, y=0, width=width, height=height, fill=PAPER)
    status = "finished" if view.get("finished") else f"round {view.get('round')} · {view.get('phase')}"
    picture.text(MARGIN, 26, f"Kontor · {status}", size=16, fill=INK, font_weight="bold")
    water = view.get("water_pile") or {}
    picture.text(width - MARGIN, 26, f"treasury {view.get('treasury', 0)} · water pile "
                 f"{water.get('size', 0)}", size=12, fill=INK, text_anchor="end")

    def at(x: int, y: int) -> tuple[int, int]:
        return MARGIN + (x - min_x) * (CELL + GAP), board_top + (y - min_y) * (CELL + GAP)

    picture.open("g", class_="board")
    for cell in board.get("cells", ()):
        px, py = at(cell["x"], cell["y"])
        draw_card(picture, cell["card"], px, py, CELL, data_x=cell["x"], data_y=cell["y"])
    for sector in board.get("sectors", ()):
        guardian = sector.get("guardian")
        if sector.get("scored") and guardian:
            px, py = at(guardian["x"], guardian["y"])
            picture.add("circle", cx=px + CELL / 2, cy=py + CELL / 2, r=9,
                        fill=seat_colour(sector.get("winner")), stroke="#ffffff", stroke_width=2,
                        class_="guardian", tooltip=f"sector scored by {sector.get('winner')}")
    for cell in board.get("legal_cells", ()) or ():
        px, py = at(cell["x"], cell["y"])
        picture.add("rect", x=px + 2, y=py + 2, width=CELL - 4, height=CELL - 4, rx=6,
                    fill="#2e7d32", fill_opacity=0.08, stroke="#2e7d32", stroke_width=2,
                    stroke_dasharray="6 4",
                    class_="legal-cell", data_x=cell["x"], data_y=cell["y"],
                    tooltip=f"a card may go at ({cell['x']}, {cell['y']})")
    picture.close("g")

    picture.open("g", class_="seats")
    picture.text(MARGIN, panel_top + 12, "seat", size=11, fill="#555555")
    picture.text(MARGIN + 110, panel_top + 12, "points", size=11, fill="#555555")
    picture.text(MARGIN + 170, panel_top + 12, "money", size=11, fill="#555555")
    picture.text(MARGIN + 230, panel_top + 12, "hand", size=11, fill="#555555")
    for row, player in enumerate(players):
        y = panel_top + PANEL_ROW * (row + 1)
        colour = seat_colour(player.get("color"), row)
        picture.add("rect", x=MARGIN, y=y, width=14, height=14, fill=colour, stroke=INK)
        mark = " ◀" if player.get("to_act") else ""
        picture.text(MARGIN + 20, y + 12, f"{player.get('color')}{mark}", size=12, fill=INK)
        picture.text(MARGIN + 110, y + 12, str(player.get("points", 0)), size=12, fill=INK)
        picture.text(MARGIN + 170, y + 12, str(player.get("money", 0)), size=12, fill=INK)
        for back in range(min(player.get("hand_size", 0), 12)):
            draw_back(picture, MARGIN + 230 + back * 12, y, 10,
                      f"{player.get('hand_size', 0)} cards in {player.get('color')}'s hand")
    picture.close("g")

    if hand:
        picture.text(MARGIN, hand_top + 4, "your hand", size=11, fill="#555555")
        picture.open("g", class_="hand")
        for index, card in enumerate(hand):
            draw_card(picture, card, MARGIN + index * (HAND_CARD + 6), hand_top + 10, HAND_CARD,
                      data_card=card.get("id", card.get("number")))
        picture.close("g")
    return picture.render()
