"""Speicherstadt as a picture: the offer row with its workers, the stacks, the seats.

Drawn from the view the caller may see: the stacks are counts, never their order.
"""

from __future__ import annotations

from boards.palette import CARD_BACK, INK, PAPER, goods_colour, seat_colour
from boards.svg import Picture

MARGIN = 16
COLUMN = 150
CARD_HEIGHT = 96
SEAT_ROW = 34


def _cards_by_id(components: dict | None) -> dict:
    return {card["id"]: card for card in (components or {}).get("cards", ())}


def _card_name(card_id: str, cards: dict) -> str:
    card = cards.get(card_id)
    return card["name"] if card else card_id


def _goods_row(picture: Picture, goods, x: float, y: float) -> None:
    for index, good in enumerate(goods):
        picture.add("rect", x=x + index * 13, y=y, width=10, height=10, fill=goods_colour(good),
                    stroke=INK, stroke_width=0.5, tooltip=good)


def draw(view: dict, components: dict | None = None) -> str:
    cards = _cards_by_id(components)
    offer = view.get("offer", [])
    seats = view.get("seats", [])
    width = max(2 * MARGIN + max(len(offer), 4) * COLUMN, 640)
    offer_top = 44
    seats_top = offer_top + CARD_HEIGHT + 70
    height = seats_top + SEAT_ROW * (len(seats) + 1) + MARGIN
    picture = Picture(width, height, "Speicherstadt board",
                      f"Round {view.get('round')}, phase {view.get('phase')}")
    picture.add("rect", x=0, y=0, width=width, height=height, fill=PAPER)
    status = "finished" if view.get("finished") else f"round {view.get('round')} · {view.get('phase')}"
    picture.text(MARGIN, 26, f"Speicherstadt · {status}", size=16, fill=INK, font_weight="bold")
    stacks = " ".join(f"{season}:{count}" for season, count in (view.get("stack") or {}).items())
    picture.text(width - MARGIN, 26, f"stacks {stacks}", size=12, fill=INK, text_anchor="end")

    picture.open("g", class_="offer")
    for slot in offer:
        x = MARGIN + slot["column"] * COLUMN
        picture.open("g", class_="offer-column", data_column=slot["column"],
                     tooltip=f"column {slot['column']}: {_card_name(slot['card'], cards)}, "
                             f"{slot.get('status')}")
        picture.add("rect", x=x, y=offer_top, width=COLUMN - 10, height=CARD_HEIGHT, rx=6,
                    fill="#efe3c8", stroke=INK)
        picture.text(x + 6, offer_top + 16, _card_name(slot["card"], cards), size=12, fill=INK,
                     font_weight="bold")
        picture.text(x + 6, offer_top + 32, slot["card"], size=9, fill="#555555")
        _goods_row(picture, (cards.get(slot["card"]) or {}).get("goods", ()), x + 6, offer_top + 40)
        _goods_row(picture, slot.get("cubes", ()), x + 6, offer_top + 56)
        for index, worker in enumerate(slot.get("workers", ())):
            picture.add("circle", cx=x + 12 + index * 16, cy=offer_top + CARD_HEIGHT - 14, r=6,
                        fill=seat_colour(None, worker), stroke=INK,
                        tooltip=f"worker of seat {worker}")
        if slot.get("status") != "open":
            picture.text(x + COLUMN - 16, offer_top + CARD_HEIGHT - 10, str(slot.get("status")),
                         size=10, fill="#555555", text_anchor="end")
        picture.close("g")
    picture.close("g")

    bag = view.get("bag") or {}
    picture.text(MARGIN, offer_top + CARD_HEIGHT + 24, "bag", size=11, fill="#555555")
    for index, (good, count) in enumerate(bag.items()):
        x = MARGIN + 40 + index * 80
        picture.add("rect", x=x, y=offer_top + CARD_HEIGHT + 14, width=12, height=12,
                    fill=goods_colour(good), stroke=INK, tooltip=f"{count} {good} in the bag")
        picture.text(x + 18, offer_top + CARD_HEIGHT + 24, f"{good} {count}", size=11, fill=INK)

    picture.open("g", class_="seats")
    for label, x in (("seat", 0), ("coins", 110), ("points", 170), ("cards", 230),
                     ("warehouse", 400)):
        picture.text(MARGIN + x, seats_top + 12, label, size=11, fill="#555555")
    to_act = set(view.get("to_act") or ())
    for row, seat in enumerate(seats):
        y = seats_top + SEAT_ROW * (row + 1)
        index = seat.get("seat", row)
        picture.add("rect", x=MARGIN, y=y, width=14, height=14, fill=seat_colour(None, index),
                    stroke=INK)
        mark = " ◀" if index in to_act else ""
        picture.text(MARGIN + 20, y + 12, f"seat {index}{mark}", size=12, fill=INK)
        picture.text(MARGIN + 110, y + 12, str(seat.get("coins", "?")), size=12, fill=INK)
        picture.text(MARGIN + 170, y + 12, str(seat.get("points", 0)), size=12, fill=INK)
        owned = seat.get("cards") or []
        for position, card_id in enumerate(owned[:12]):
            picture.add("rect", x=MARGIN + 230 + position * 14, y=y, width=12, height=16,
                        fill="#efe3c8", stroke=INK, tooltip=_card_name(card_id, cards))
        if isinstance(seat.get("hand_size"), int):
            for position in range(seat["hand_size"]):
                picture.add("rect", x=MARGIN + 230 + position * 14, y=y, width=12, height=16,
                            fill=CARD_BACK, stroke=INK, tooltip="a hidden card")
        _goods_row(picture, seat.get("warehouse") or (), MARGIN + 400, y + 2)
    picture.close("g")
    return picture.render()
