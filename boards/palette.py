"""Colours shared by the drawings: seats, goods and card kinds."""

from __future__ import annotations

SEAT_COLOURS = {
    "red": "#c0392b",
    "black": "#2c2c2c",
    "blue": "#2763b8",
    "green": "#2e8b57",
    "yellow": "#d4ac0d",
    "white": "#f4f4f4",
    "purple": "#7d3c98",
    "orange": "#e67e22",
}
#: seat index -> colour, for titles whose seats have no printed colour
SEAT_ORDER = ("red", "blue", "green", "yellow", "purple")

GOODS_COLOURS = {
    "tea": "#3c8d40",
    "wine": "#8e2453",
    "spice": "#d35400",
    "coffee": "#6f4e37",
    "saffron": "#f1c40f",
    "rubber": "#34495e",
    "carpet": "#a93226",
}

INK = "#1b1b1b"
PAPER = "#fbf7ef"
CARD_BACK = "#7a5c3e"


def seat_colour(name: str | None, index: int = 0) -> str:
    if name in SEAT_COLOURS:
        return SEAT_COLOURS[name]
    return SEAT_COLOURS[SEAT_ORDER[index % len(SEAT_ORDER)]]


def goods_colour(name: str) -> str:
    return GOODS_COLOURS.get(name, "#777777")
