"""Setting up a game: layouts, decks, hands, money. Reads Options, never a variant name.

Extension points: a scenario's starting layout is a new ``Options.layout`` value, its canals
in the rules' table ``layouts``; removed cards (cranes, taverns) a name of
``Options.removed_cards``, its cards in the table ``removed_cards``. The set-up itself is
a step list, START_STEPS.
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.data import SETUP, dock_deck, special_cards, water_deck
from domain.kontor.core.hooks import rules_for, step_list
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
    scenario_cells = rules_for(options).layouts.get(options.layout)  # a scenario's « selon le dessin »
    if scenario_cells is not None:
        return list(scenario_cells)
    raise ValueError(f"unknown layout {options.layout!r}")


def dock_deck_of(options: Options, side: int) -> tuple[int, ...]:
    """A colour's dock deck before shuffling, less the cards the options remove
    (``Options.removed_cards``: the rules' table ``removed_cards``, e.g. the scenarios')."""
    deck = dock_deck(side)
    if not options.removed_cards:
        return deck
    table = rules_for(options).removed_cards
    unknown = [name for name in options.removed_cards if name not in table]
    if unknown:
        raise ValueError(f"unknown removed cards {unknown!r}")
    removed = [table[name] for name in options.removed_cards]
    return tuple(card for card in deck if not any(out(card) for out in removed))


def start_version(options: Options, seat_count: int, seed_hex: str, rules_version: str) -> list:
    """The setup of a game played under ``rules_version``: the released versions differ
    only in what decide decides (versions.py), so the same deal, recording that version."""
    started, *rest = start(options, seat_count, seed_hex)
    return [replace(started, rules_version=rules_version), *rest]


class SetUp:
    """A game's set-up being carried out by the steps of START_STEPS: the options, the
    seats, the seed and its RNG, the deal so far (the starting canals ``cross``, the
    ``water`` pile, the seats' ``hands`` and ``dock_piles``, the special cards set
    ``aside``, the rules' GameStarted ``fields``) and the ``events`` recorded."""

    __slots__ = ("options", "seat_count", "seed_hex", "rng", "cross", "water", "hands", "dock_piles", "aside",
                 "fields", "follow", "events")

    def __init__(self, options: Options, seat_count: int, seed_hex: str):
        self.options, self.seat_count, self.seed_hex = options, seat_count, seed_hex
        self.rng = Rng(seed_hex, 0)
        self.cross: list = []
        self.water: list = []
        self.hands: tuple = ()
        self.dock_piles: tuple = ()
        self.aside: tuple = ()
        #: GameStarted's fields beyond the core's (the rules' deal, start_fields)
        self.fields: dict = {}
        #: the events the rules' deal makes follow GameStarted
        self.follow: list = []
        self.events: list = []


def start(options: Options, seat_count: int, seed_hex: str) -> list:
    """The set-up: the steps of START_STEPS (and the rules'), in order, until one stops."""
    setup = SetUp(options, seat_count, seed_hex)
    for _, step in step_list(rules_for(options), "start", START_STEPS)[0]:
        if step(setup, None):
            break
    return setup.events


def step_deal(setup: SetUp, _: None) -> bool:
    """The starting canals, the hands, the dock piles, the special cards, then the rules'
    own deal (Justice's decks, specials in hand, the special-card pile)."""
    options, seat_count, rng = setup.options, setup.seat_count, setup.rng
    water = setup.water = list(rng.shuffle(water_deck()))
    positions = layout_positions(options)
    setup.cross = [Cell(0, 0, 0)] + [Cell(x, y, water.pop(0)) for x, y in positions]
    piles: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    water_hands: list[tuple[int, ...]] = []
    for _seat in range(seat_count):
        water_hands.append(tuple(water.pop(0) for _ in range(options.hand_water)))
    k = options.hand_docks
    dock_hands: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    for side in range(side_count(options, seat_count)):
        # « Les cartes sont battues comme d'habitude, puis coupées en deux piles égales »
        deck = rng.shuffle(dock_deck_of(options, side))
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
    for deal in rules_for(options).deal:
        fields, more = deal(options, seat_count, rng, dock_hands, piles, specials)
        setup.fields |= fields
        setup.follow += more
    setup.hands = tuple(dock_hands[s] + water_hands[s] + specials[s] for s in range(seat_count))
    setup.dock_piles = tuple(piles)
    setup.aside = aside
    return False


def step_start_fields(setup: SetUp, _: None) -> bool:
    """The rules' GameStarted fields: e.g. a scenario's canals aside, sunken goods (they
    may take from the water pile and change the starting canals)."""
    for start_fields in rules_for(setup.options).start_fields:
        setup.fields |= start_fields(setup.options, setup.rng, setup.cross, setup.water)
    return False


def step_game_started(setup: SetUp, _: None) -> bool:
    """GameStarted, then the events the rules' deal made follow it."""
    options, seat_count, rng = setup.options, setup.seat_count, setup.rng
    money = options.starting_money
    assert all(side_of(options, s) < side_count(options, seat_count) for s in range(seat_count))
    setup.events += [
        ev.GameStarted(
            options=options,
            seat_count=seat_count,
            seed=setup.seed_hex,
            rules_version=rules_version_of(options.variant),
            rng_counter=rng.counter,
            cross=tuple(setup.cross),
            hands=setup.hands,
            dock_piles=setup.dock_piles,
            water_pile=tuple(setup.water),
            money=(money,) * seat_count,
            treasury=options.treasury_total - money * seat_count,
            ship=(0, 0) if options.ship else None,
            specials_aside=setup.aside,
            **setup.fields,
        ),
        *setup.follow,
    ]
    return False


#: a game's set-up, in order (name, step(SetUp, None) -> bool: True stops the list); a
#: form swaps "deal" for its whole set-up (the free wheel), the rules add their steps
#: (the expansions' event deck, shuffled after everything else)
START_STEPS: tuple[tuple[str, object], ...] = (
    ("deal", step_deal),
    ("start_fields", step_start_fields),
    ("game_started", step_game_started),
)
