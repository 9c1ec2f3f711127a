"""Given events, when a command, then events (or a RuleViolation code)."""

from __future__ import annotations

from domain.decider import Issued
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.options import Options
from domain.kontor.core.state import Cell
from domain.kontor.core.versions import RULES_VERSION

AT = "2026-01-01T00:00:00Z"
SEED = "ab" * 32
RED, BLACK = 0, 1


def cards(
    kind: str = "dock",
    owner: int | None = None,
    goods: tuple[str, ...] | None = None,
    florin: bool | None = False,
    crane: bool = False,
    tavern: bool = False,
) -> list[int]:
    """Card ids from the data tables matching the description (tests never hard-code)."""
    out = []
    for c in CARDS.values():
        if c.kind != kind or c.owner != owner:
            continue
        if goods is not None and tuple(sorted(c.goods)) != tuple(sorted(goods)):
            continue
        if florin is not None and c.florin != florin:
            continue
        if c.crane != crane or c.tavern != tavern:
            continue
        out.append(c.id)
    return out


def dock(owner: int, *goods: str, florin: bool = False, n: int = 0) -> int:
    return cards("dock", owner, tuple(goods), florin)[n]


def water(florin: bool = False, n: int = 0) -> int:
    return cards("water", None, (), florin)[n]


def waters(count: int, florin: bool = False, skip: int = 0) -> list[int]:
    return cards("water", None, (), florin)[skip : skip + count]


def crane(owner: int) -> int:
    return cards("dock", owner, (), None, crane=True)[0]


def tavern(owner: int) -> int:
    return cards("dock", owner, (), None, tavern=True)[0]


CROSS = [(0, -2), (0, -1), (-2, 0), (-1, 0), (1, 0), (2, 0), (0, 1), (0, 2)]


def cross_layout(skip: int = 30) -> dict[tuple[int, int], int]:
    """The anchor and 8 plain canals in the starting cross (canals taken from the end of
    the plain-canal list so tests can use the first ones freely)."""
    plain = cards("water", None, (), False)
    layout = {(0, 0): 0}
    for i, pos in enumerate(CROSS):
        layout[pos] = plain[-1 - i]
    return layout


def started(
    layout: dict[tuple[int, int], int] | None = None,
    hands: tuple[tuple[int, ...], ...] = ((), ()),
    dock_piles: tuple[tuple[int, ...], ...] = ((), ()),
    water_pile: tuple[int, ...] = (),
    money: tuple[int, ...] = (4, 4),
    treasury: int = 12,
    options: Options | None = None,
    seat_count: int = 2,
    ship: tuple[int, int] | None = None,
    specials_aside: tuple[int, ...] = (),
) -> ev.GameStarted:
    layout = cross_layout() if layout is None else layout
    options = options or Options()
    if ship is None and options.ship:
        ship = (0, 0)
    return ev.GameStarted(
        options=options,
        seat_count=seat_count,
        seed=SEED,
        rules_version=RULES_VERSION,
        rng_counter=0,
        cross=tuple(Cell(x, y, c) for (x, y), c in layout.items()),
        hands=tuple(tuple(h) for h in hands),
        dock_piles=tuple(tuple(p) for p in dock_piles),
        water_pile=tuple(water_pile),
        money=money,
        treasury=treasury,
        ship=ship,
        specials_aside=specials_aside,
    )


def given(*events):
    return GAME.fold(events)


def when(state, seat, command) -> list:
    return GAME.decide(state, Issued(seat, AT, command))


def then(state, seat, command):
    """Apply a command; return (events, new state)."""
    events = when(state, seat, command)
    return events, GAME.fold(events, state)


def of_type(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def types(events) -> list[str]:
    return [type(e).__name__ for e in events]


def choose(state, red_cmd, black_cmd):
    """Both seats act in the choice phase (red first); returns (events, state)."""
    all_events = []
    for seat, cmd in ((RED, red_cmd), (BLACK, black_cmd)):
        events, state = then(state, seat, cmd)
        all_events += events
    return all_events, state


def full_board(holes=(), overrides=None, spare_water: int = 0) -> dict:
    """A 6x6 port x in -2..3, y in -2..3 filled with canals, except ``holes``;
    ``overrides`` puts given cards on given cells. The first ``spare_water`` plain canals
    are kept off the board for hands and piles."""
    overrides = dict(overrides or {})
    plain = cards("water", None, (), None)[spare_water:]
    layout = {}
    i = 0
    for y in range(-2, 4):
        for x in range(-2, 4):
            if (x, y) in holes:
                continue
            if (x, y) == (0, 0):
                layout[(x, y)] = 0
            elif (x, y) in overrides:
                layout[(x, y)] = overrides[(x, y)]
            else:
                layout[(x, y)] = plain[i]
                i += 1
    return layout


def placing(layout, red_card=None, black_card=None, extra=((), ()), pre=(), **kw):
    """After the reveal: red chose ``red_card`` (None: passed), black ``black_card``."""
    hands = (
        ((red_card,) if red_card is not None else ()) + tuple(extra[0]),
        ((black_card,) if black_card is not None else ()) + tuple(extra[1]),
    )
    state = given(started(layout, hands=hands, **kw), *pre)
    red_cmd = ChooseCard(red_card) if red_card is not None else Pass()
    black_cmd = ChooseCard(black_card) if black_card is not None else Pass()
    events, state = choose(state, red_cmd, black_cmd)
    return events, state


def take_turn(layout, card, pos, extra=((), ()), pre=(), **kw):
    """Red plays ``card`` at ``pos`` while black passes. Red keeps a spare canal and a
    spare dock in hand unless ``extra`` says otherwise, so the game goes on."""
    if extra == ((), ()):
        spare = cards("dock", RED, None, None)
        spare_dock = next(c for c in spare if c != card)
        extra = ((spare_dock, water(n=9)), (water(n=10),))
    _, state = placing(layout, card, None, extra=extra, pre=pre, **kw)
    events, state = then(state, RED, PlaceCard(*pos))
    return events, state


def with_warehouses(layout) -> list:
    """WarehousesAdded for every goods dock of a test layout, in layout order."""
    out = []
    for card in layout.values():
        c = CARDS[card]
        if c.kind == "dock" and c.goods:
            out.append(ev.WarehousesAdded(c.owner, card, c.goods))
    return out
