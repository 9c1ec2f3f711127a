"""Amsterdam as a picture: the city by district, the Amstel, the harbour, the black market,
the market tile, the card offer and every seat's florins, points, reserve and barge.

Drawn from the view the caller may see (the piles and the market stack are counts) and the
title's component data (`GET /v1/titles/amsterdam`: block positions, the harbour graph,
the Amstel's bridges, the black market grid).
"""

from __future__ import annotations

from boards.palette import CARD_BACK, INK, PAPER, seat_colour
from boards.svg import Picture

MARGIN = 16
BLOCK = 34
DISTRICT_GAP = 14
AMSTEL_SPACE = 30
NODE = 24
SEAT_ROW = 30

DISTRICT_COLOURS = {"black": "#3b3b3b", "brown": "#8d6e63", "violet": "#7e57c2", "pink": "#ec87b5",
                    "orange": "#f0a04b", "grey": "#9e9e9e"}
GOODS_INITIALS = {"beer": "Be", "tulip": "Tu", "cheese": "Ch", "furniture": "Fu", "genever": "Ge",
                  "tiles": "Ti", "lace": "La", "coffee": "Co", "crystal": "Cr"}


def _block_places(blocks: list[dict], top: int) -> dict[str, tuple[int, int]]:
    """Each block's corner: districts in rows of three, each laid out as its own blocks are
    (their x and y taken relative to the district's first block)."""
    districts = list(dict.fromkeys(b["district"] for b in blocks))
    places = {}
    for index, district in enumerate(districts):
        own = [b for b in blocks if b["district"] == district]
        min_x, min_y = min(b["x"] for b in own), min(b["y"] for b in own)
        height = max(b["y"] for b in own) - min_y + 1
        left = MARGIN + (index % 3) * (3 * (BLOCK + 2) + DISTRICT_GAP)
        upper = top + (index // 3) * (height * (BLOCK + 2) + DISTRICT_GAP + 12)
        for block in own:
            places[block["id"]] = (left + (block["x"] - min_x) * (BLOCK + 2),
                                   upper + (block["y"] - min_y) * (BLOCK + 2))
    return places


def _city(picture: Picture, view: dict, components: dict, top: int) -> int:
    blocks = components.get("city", {}).get("blocks", [])
    shown = {b["block"]: b for b in view.get("city", ())}
    places = _block_places(blocks, top)
    bottom = top
    picture.open("g", class_="city")
    for block in blocks:
        x, y = places[block["id"]]
        state = shown.get(block["id"], {})
        owner, good = state.get("owner"), state.get("good")
        words = f"{block['id']} in {block['district']}, cost {block['cost']}"
        words += f", owned by seat {owner}" if owner is not None else f", {good or 'empty'}"
        picture.open("g", class_="block", data_block=block["id"], tooltip=words)
        picture.add("rect", x=x, y=y, width=BLOCK, height=BLOCK, rx=4,
                    fill=DISTRICT_COLOURS.get(block["colour"], "#cccccc"), stroke=INK,
                    stroke_width=2 if block.get("double") else 1)
        if owner is not None:
            picture.add("rect", x=x + 7, y=y + 7, width=BLOCK - 14, height=BLOCK - 14,
                        fill=seat_colour(None, owner), stroke="#ffffff")
        elif good:
            picture.text(x + BLOCK / 2, y + BLOCK / 2 + 4, GOODS_INITIALS.get(good, good[:2]),
                         size=11, fill="#ffffff", text_anchor="middle")
        picture.close("g")
        bottom = max(bottom, y + BLOCK)
    for district in dict.fromkeys(b["district"] for b in blocks):
        lowest = max((b for b in blocks if b["district"] == district), key=lambda b: places[b["id"]][1])
        x, y = places[lowest["id"]]
        picture.text(min(places[b["id"]][0] for b in blocks if b["district"] == district),
                     y + BLOCK + 11, district, size=10, fill="#555555")
    picture.close("g")
    return bottom + 24


def _amstel(picture: Picture, view: dict, components: dict, top: int) -> int:
    river = components.get("amstel", {})
    spaces = river.get("spaces", 0)
    bridges = {int(k): v for k, v in (river.get("bridges") or {}).items()}
    picture.text(MARGIN, top + 12, "Amstel", size=11, fill="#555555")
    picture.open("g", class_="amstel")
    for space in range(1, spaces + 1):
        x = MARGIN + 50 + (space - 1) * (AMSTEL_SPACE + 2)
        picture.add("rect", x=x, y=top, width=AMSTEL_SPACE, height=20, fill="#7fb3d5",
                    stroke=INK, stroke_width=0.5, tooltip=f"space {space}")
        if space in bridges:
            picture.add("rect", x=x + AMSTEL_SPACE - 2, y=top - 4, width=4, height=28, fill="#6d4c41",
                        tooltip=f"bridge after space {space}: {bridges[space]} points")
    for index, boat in enumerate(view.get("amstel", ())):
        space = boat.get("space") or 0
        x = MARGIN + 50 + max(space - 1, 0) * (AMSTEL_SPACE + 2) + 6 + 6 * (index % 3)
        picture.add("circle", cx=x, cy=top + 10, r=5, fill=seat_colour(None, boat["seat"]),
                    stroke="#ffffff", tooltip=f"seat {boat['seat']} on space {space}")
    picture.close("g")
    return top + 36


def _harbour(picture: Picture, view: dict, components: dict, top: int) -> int:
    """The waterway as a line of its W nodes, each node's quays and pontoons above it."""
    edges = (components.get("harbour") or {}).get("edges", {})
    harbour = view.get("harbour") or {}
    barges = {int(seat): node for seat, node in (harbour.get("barges") or {}).items()}
    trunk = ["start"] + sorted((n for n in edges if n.startswith("W")), key=lambda n: int(n[1:]))
    picture.text(MARGIN, top + 12, "harbour", size=11, fill="#555555")
    picture.open("g", class_="harbour")
    places: dict[str, tuple[float, float]] = {}
    for column, node in enumerate(trunk):
        x = MARGIN + 60 + column * (NODE + 14)
        places[node] = (x, top + 40)
        for row, branch in enumerate(b for b in edges.get(node, ()) if b not in trunk):
            places[branch] = (x, top + 40 - (row + 1) * (NODE + 4)) if row < 1 else \
                (x, top + 40 + (row) * (NODE + 4))
    for node, (x, y) in places.items():
        label = node if node.startswith(("W", "D")) or node == "start" else \
            GOODS_INITIALS.get(node, node.split(":")[-1][:2])
        fill = "#aed6f1" if node in trunk else "#f5eedc"
        if node in (harbour.get("depots") or {}) and harbour["depots"][node]:
            label = f"{node}:{GOODS_INITIALS.get(harbour['depots'][node], '?')}"
        picture.open("g", class_="harbour-node", data_to=node, tooltip=node)
        picture.add("rect", x=x, y=y, width=NODE + 8, height=NODE, rx=4, fill=fill, stroke=INK,
                    stroke_width=0.5)
        picture.text(x + (NODE + 8) / 2, y + NODE / 2 + 4, label, size=8, fill=INK, text_anchor="middle")
        picture.close("g")
    for seat, node in sorted(barges.items()):
        if node in places:
            x, y = places[node]
            picture.add("rect", x=x + 2 + 7 * seat, y=y + NODE - 7, width=6, height=6,
                        fill=seat_colour(None, seat), stroke="#ffffff",
                        tooltip=f"barge of seat {seat} at {node}")
    picture.close("g")
    lowest = max((y for _, y in places.values()), default=top)
    return lowest + NODE + 16


def _market(picture: Picture, view: dict, top: int, width: int) -> int:
    piles = view.get("piles") or {}
    line = (f"market tile {view.get('market_tile')} · stack {view.get('market_stack_size', 0)} · "
            + " · ".join(f"{name} pile {count}" for name, count in piles.items()))
    picture.text(MARGIN, top + 12, line, size=11, fill=INK)
    black_market = ", ".join(view.get("black_market") or ()) or "empty"
    picture.text(MARGIN, top + 28, f"black market: {black_market}", size=11, fill=INK)
    docker = ", ".join(f"{d['colour']} (seat {d['seat']})" for d in view.get("docker_building") or ()) or "empty"
    picture.text(width / 2, top + 28, f"docker building: {docker}", size=11, fill=INK)
    picture.open("g", class_="offer")
    picture.text(MARGIN, top + 52, "offer", size=11, fill="#555555")
    for index, card in enumerate(view.get("offer") or ()):
        x = MARGIN + 50 + index * 46
        picture.open("g", class_="offer-card", data_card=card, tooltip=f"card {card}")
        picture.add("rect", x=x, y=top + 38, width=40, height=28, rx=4, fill="#efe3c8", stroke=INK)
        picture.text(x + 20, top + 57, card, size=11, fill=INK, text_anchor="middle")
        picture.close("g")
    picture.close("g")
    return top + 76


def _seats(picture: Picture, view: dict, top: int) -> int:
    columns = (("seat", 0), ("florins", 90), ("points", 150), ("penalties", 210),
               ("reserve", 290), ("cards", 470), ("barge", 560))
    for label, x in columns:
        picture.text(MARGIN + x, top + 12, label, size=11, fill="#555555")
    to_act = set(view.get("to_act") or ())
    picture.open("g", class_="seats")
    for row, seat in enumerate(view.get("seats", ())):
        y = top + SEAT_ROW * (row + 1)
        index = seat.get("seat", row)
        picture.add("rect", x=MARGIN, y=y, width=14, height=14, fill=seat_colour(None, index), stroke=INK)
        picture.text(MARGIN + 20, y + 12, f"seat {index}{' ◀' if index in to_act else ''}", size=12, fill=INK)
        for label, x in columns[1:4]:
            picture.text(MARGIN + x, y + 12, str(seat.get(label, 0)), size=12, fill=INK)
        for position, (colour, count) in enumerate((seat.get("reserve") or {}).items()):
            picture.add("rect", x=MARGIN + 290 + position * 28, y=y, width=12, height=12,
                        fill=DISTRICT_COLOURS.get(colour, "#ccc"), stroke=INK,
                        tooltip=f"{count} {colour} in reserve")
            picture.text(MARGIN + 304 + position * 28, y + 11, str(count), size=10, fill=INK)
        cards = len(seat.get("inactive") or ()) + len(seat.get("active") or ()) + len(seat.get("used") or ())
        picture.add("rect", x=MARGIN + 470, y=y - 2, width=12, height=16, fill=CARD_BACK, stroke=INK,
                    tooltip=f"{cards} cards")
        picture.text(MARGIN + 488, y + 12, str(cards), size=12, fill=INK)
        barge = seat.get("barge") or {}
        goods = ", ".join(GOODS_INITIALS.get(g, g) for g in barge.get("goods", ()))
        picture.text(MARGIN + 560, y + 12, f"{barge.get('node', '?')} {goods}", size=11, fill=INK)
    picture.close("g")
    return top + SEAT_ROW * (len(view.get("seats", ())) + 1)


def draw(view: dict, components: dict | None = None) -> str:
    components = components or {}
    width = 980
    # the parts are laid out top to bottom; a first pass with a scratch picture measures them
    scratch = Picture(width, 10, "")
    city_bottom = _city(scratch, view, components, 44)
    amstel_bottom = _amstel(scratch, view, components, city_bottom)
    harbour_bottom = _harbour(scratch, view, components, amstel_bottom)
    market_bottom = _market(scratch, view, harbour_bottom, width)
    height = _seats(scratch, view, market_bottom) + MARGIN
    status = "finished" if view.get("phase") == "finished" else \
        f"round {view.get('round')} of {view.get('last_round')} · {view.get('phase')}"
    picture = Picture(width, height, "Amsterdam board", status)
    picture.add("rect", x=0, y=0, width=width, height=height, fill=PAPER)
    picture.text(MARGIN, 26, f"Amsterdam · {status}", size=16, fill=INK, font_weight="bold")
    _city(picture, view, components, 44)
    _amstel(picture, view, components, city_bottom)
    _harbour(picture, view, components, amstel_bottom)
    _market(picture, view, harbour_bottom, width)
    _seats(picture, view, market_bottom)
    return picture.render()
