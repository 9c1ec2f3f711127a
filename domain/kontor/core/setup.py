"""Setting up a game: layouts, decks, hands, money. Reads Options, never a variant name.

Extension point: a scenario's starting layout is a new ``Options.layout`` value handled by
``layout_positions``; removed cards (cranes, taverns) a filter in ``_dock_deck``.
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.data import SETUP, dock_deck, special_cards, water_deck
from domain.kontor.core.hooks import answer, filtered, rules_for
from domain.kontor.core.options import Options
from domain.kontor.core.sides import seats_of, side_count, side_of
from domain.kontor.core.state import Cell
from domain.kontor.core.versions import rules_version_of
from domain.rng import Rng


def cross_positions(arm: int) -> list[tuple[int, int]]:
    """The starting cross around the anchor: "huit premières cartes ... une croix"."""
    out = []
    for d in range(1, arm + 1):
        out += [(0, -d), (-d, 0), (d, 0), (0, d)]
    return sorted(out, key=lambda p: (p[1], p[0]))


def layout_positions(options: Options) -> list[tuple[int, int]]:
    """Cells of the starting canals around the anchor, in dealing order."""
    if options.layout == "cross":
        return cross_positions(SETUP["cross_arm"])
    if options.layout == "anchor":
        return []
    scenario_cells = answer(rules_for(options).layout, options)  # e.g. a scenario's « selon le dessin »
    if scenario_cells is not None:
        return scenario_cells
    raise ValueError(f"unknown layout {options.layout!r}")


def start_version(options: Options, seat_count: int, seed_hex: str, rules_version: str) -> list:
    """The setup of a game played under ``rules_version``: the released versions differ
    only in what decide decides (versions.py), so the same deal, recording that version."""
    started, *rest = start(options, seat_count, seed_hex)
    return [replace(started, rules_version=rules_version), *rest]


def start(options: Options, seat_count: int, seed_hex: str) -> list:
    own = answer(rules_for(options).start, options, seat_count, seed_hex)  # a form's own set-up
    if own is not None:
        return own
    rng = Rng(seed_hex, 0)
    water = list(rng.shuffle(water_deck()))
    positions = layout_positions(options)
    cross = [Cell(0, 0, 0)] + [Cell(x, y, water.pop(0)) for x, y in positions]
    hands: list[tuple[int, ...]] = []
    piles: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    water_hands: list[tuple[int, ...]] = []
    for _seat in range(seat_count):
        water_hands.append(tuple(water.pop(0) for _ in range(options.hand_water)))
    k = options.hand_docks
    dock_hands: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    for side in range(side_count(options, seat_count)):
        # « Les cartes sont battues comme d'habitude, puis coupées en deux piles égales »
        deck = rng.shuffle(filtered(rules_for(options).dock_deck, dock_deck(side), options))
        members = seats_of(options, side, seat_count)
        share = len(deck) // len(members)
        for i, seat in enumerate(members):
            mine = deck[i * share : (i + 1) * share]
            # scenarios: with a removed crane a colour has 21 docks; the odd card goes to
            # the first partner's pile (« deux piles égales » as nearly as possible)
            mine += deck[share * len(members) :][i : i + 1]
            dock_hands[seat] = mine[:k]
            piles[seat] = mine[k:]
    specials: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    aside: tuple[int, ...] = ()
    if options.specials_dealt:
        # « Les six cartes spéciales neutres sont brouillées et chaque joueur en prend une
        # cachée dans la main. Le reste est enlevé du jeu et gardé caché. »
        deal = list(rng.shuffle(special_cards()))
        for seat in range(seat_count):
            specials[seat] = tuple(deal.pop(0) for _ in range(options.specials_dealt))
        aside = tuple(deal)
    # the rules' own deal (e.g. Justice's decks, specials in hand, the special-card pile)
    extra: dict = {}
    follow: list = []
    for deal in rules_for(options).deal:
        fields, more = deal(options, seat_count, rng, dock_hands, piles, specials)
        extra |= fields
        follow += more
    for seat in range(seat_count):
        hands.append(dock_hands[seat] + water_hands[seat] + specials[seat])
    money = options.starting_money
    for start_fields in rules_for(options).start_fields:  # e.g. a scenario's canals aside, sunken goods
        extra |= start_fields(options, rng, cross, water)
    assert all(side_of(options, s) < side_count(options, seat_count) for s in range(seat_count))
    started = [
        ev.GameStarted(
            options=options,
            seat_count=seat_count,
            seed=seed_hex,
            rules_version=rules_version_of(options.variant),
            rng_counter=rng.counter,
            cross=tuple(cross),
            hands=tuple(hands),
            dock_piles=tuple(piles),
            water_pile=tuple(water),
            money=(money,) * seat_count,
            treasury=options.treasury_total - money * seat_count,
            ship=(0, 0) if options.ship else None,
            specials_aside=aside,
            **extra,
        ),
        *follow,
    ]
    # e.g. the expansions' event deck, shuffled after everything else
    for more in rules_for(options).start_events:
        started += more(options, seat_count, seed_hex, rng.counter)
    return started
