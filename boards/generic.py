"""The picture of a title that has no drawing module yet: its name and the view's scalars."""

from __future__ import annotations

from boards.palette import INK, PAPER
from boards.svg import Picture

MARGIN = 16
LINE = 18


def draw(view: dict, components: dict | None = None) -> str:
    facts = [(key, value) for key, value in view.items()
             if isinstance(value, (str, int, float, bool)) and key != "you"]
    height = 48 + LINE * len(facts) + MARGIN
    picture = Picture(480, height, "Game board", "No drawing for this title yet: the facts")
    picture.add("rect", x=0, y=0, width=480, height=height, fill=PAPER)
    picture.text(MARGIN, 26, str(view.get("title", "game")), size=16, fill=INK, font_weight="bold")
    for row, (key, value) in enumerate(facts):
        picture.text(MARGIN, 48 + LINE * row, f"{key}: {value}", size=12, fill=INK)
    return picture.render()
