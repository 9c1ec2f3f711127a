"""Board geometry and sector scoring: pure functions over {(x, y): card id}."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.data import GOODS_BEATS as _GOODS_BEATS
from domain.kontor.core.state import KontorState

Pos = tuple[int, int]
NEIGHBOURS: tuple[Pos, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def occupancy(state: KontorState) -> dict[Pos, int]:
    return {(c.x, c.y): c.card for c in state.board}


def neighbours(pos: Pos) -> Iterable[Pos]:
    x, y = pos
    return ((x + dx, y + dy) for dx, dy in NEIGHBOURS)


def bounds(cells: Mapping[Pos, int]) -> tuple[int, int, int, int]:
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    return min(xs), max(xs), min(ys), max(ys)


def possible(pos: Pos, box: tuple[int, int, int, int], size: int) -> bool:
    """Can this cell ever hold a card? Only inside every 6x6 square that still contains the
    layout ("il n'est plus possible de jouer des cartes qui agrandiraient davantage le
    plateau dans ce sens")."""
    low_x, high_x, low_y, high_y = possible_area(box, size)
    x, y = pos
    return low_x <= x <= high_x and low_y <= y <= high_y


def possible_area(box: tuple[int, int, int, int], size: int) -> tuple[int, int, int, int]:
    """The cells that may still hold a card (``possible``): low_x <= x <= high_x and
    low_y <= y <= high_y; for loops over many cells."""
    min_x, max_x, min_y, max_y = box
    # scenarios: ``size`` may be (width, height) for a port that is not square
    w, h = (size, size) if isinstance(size, int) else size
    return max_x - w + 1, min_x + w - 1, max_y - h + 1, min_y + h - 1


def grow(box: tuple[int, int, int, int] | None, cells: Iterable[Pos]) -> tuple[int, int, int, int]:
    """The bounds of ``box`` and ``cells`` together."""
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    if box is not None:
        xs += [box[0], box[1]]
        ys += [box[2], box[3]]
    return min(xs), max(xs), min(ys), max(ys)


def crane_blocks(cells: Mapping[Pos, int], pos: Pos, seat: int) -> bool:
    """An opponent's crane next to ``pos`` forbids a dock there (not water). ``seat`` is
    the placer's side (colour): partners' cranes do not block each other."""
    for n in neighbours(pos):
        card = cells.get(n)
        if card is not None:
            c = CARDS[card]
            if c.crane and c.owner is not None and c.owner != seat:
                return True
    return False


def legal_cells(cells: Mapping[Pos, int], card: int, seat: int, size: int, box=None) -> list[Pos]:
    """Empty cells touching a card by a side, inside the 6x6 limit, and for a dock not next
    to an opponent's crane. Sorted (y, x) for stable command lists. ``seat`` is the
    placer's side; ``box`` the port's fixed extent (default: the cards' bounds)."""
    box = bounds(cells) if box is None else grow(box, cells)
    low_x, high_x, low_y, high_y = possible_area(box, size)
    blocked = crane_blocked(cells, seat) if CARDS[card].is_dock else frozenset()
    out: set[Pos] = set()
    # the computer player asks this for every card it weighs: one pass over the cards
    for x, y in cells:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells or n in blocked:
                continue
            if low_x <= n[0] <= high_x and low_y <= n[1] <= high_y:
                out.add(n)
    return sorted(out, key=lambda p: (p[1], p[0]))


def crane_blocked(cells: Mapping[Pos, int], seat: int) -> set[Pos]:
    """The cells where ``crane_blocks`` forbids ``seat`` a dock: next to an opponent's
    crane."""
    out: set[Pos] = set()
    for pos, card in cells.items():
        c = CARDS[card]
        if c.crane and c.owner is not None and c.owner != seat:
            out.update(neighbours(pos))
    return out


#: the cards that form sectors (``Card.is_dock``), as a set: the computer player asks
#: this hundreds of thousands of times a game
DOCKS = frozenset(card for card, c in CARDS.items() if c.is_dock)


def sector_of(cells: Mapping[Pos, int], start: Pos) -> frozenset[Pos]:
    """The docks orthogonally connected to ``start`` (any owner: "sans qu'on ait à tenir
    compte du propriétaire de ces docks")."""
    seen = {start}
    stack = [start]
    while stack:
        x, y = stack.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in seen and cells.get(n) in DOCKS:
                seen.add(n)
                stack.append(n)
    return frozenset(seen)


def sectors(cells: Mapping[Pos, int]) -> list[frozenset[Pos]]:
    """Every sector (``sector_of``), in the (y, x) order of their first docks."""
    # sector_of's search from each dock not yet in a sector, over the set of docks: the
    # water, most of the board, is looked at once, not at every step
    docks = {pos for pos, card in cells.items() if card in DOCKS}
    out = []
    for y, x in sorted((y, x) for x, y in docks):
        if (x, y) not in docks:
            continue  # in a sector found already
        sector = {(x, y)}
        stack = [(x, y)]
        while stack:
            px, py = stack.pop()
            for n in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                if n in docks and n not in sector:
                    sector.add(n)
                    stack.append(n)
        docks -= sector
        out.append(frozenset(sector))
    return out


def is_closed(cells: Mapping[Pos, int], sector: Iterable[Pos], size: int, box=None) -> bool:
    """Closed: no neighbouring cell can ever hold a card -- each neighbour is water (or a
    dock of the sector) or lies outside every 6x6 square still open to the layout."""
    box = bounds(cells) if box is None else grow(box, cells)
    return closed_within(cells, sector, possible_area(box, size))


def closed_within(cells: Mapping[Pos, int], sector: Iterable[Pos], area: tuple[int, int, int, int]) -> bool:
    """``is_closed`` with the cells that may still hold a card (``possible_area``) worked
    out by the caller: once for every sector of a board, not once per sector."""
    low_x, high_x, low_y, high_y = area
    for x, y in sector:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in cells and low_x <= n[0] <= high_x and low_y <= n[1] <= high_y:
                return False
    return True


def warehouse_counts(
    cells: Mapping[Pos, int],
    sector: Iterable[Pos],
    warehouses: frozenset[int],
    seat_count: int,
    goods_of: Mapping[int, tuple[str, ...]] | None = None,
    extra: tuple[int, ...] = (),
    adjust: Mapping[int, tuple[int, ...]] | None = None,  # expansions: per dock, deltas
) -> tuple[tuple[int, ...], ...]:
    """Per seat, the number of warehouses of each good (GOODS order) in the sector: those of
    its docks there (RULES-NOTES: warehouses belong to the dock that produced them)."""
    counts = [[0] * len(GOODS) for _ in range(seat_count)]
    for pos in sector:
        card = cells[pos]
        if card not in warehouses:
            continue
        c = CARDS[card]
        # special rules A (Choix de la marchandise): ``goods_of`` names the goods that
        # got warehouses when not all the printed ones did
        goods = goods_of.get(card, c.goods) if goods_of else c.goods
        for good in goods:
            counts[c.owner][GOODS.index(good)] += 1
        # special rules B (Corruption): ``extra`` lists docks holding a bribe warehouse
        # more, of their single good
        if extra and c.goods:
            counts[c.owner][GOODS.index(c.goods[0])] += extra.count(card)
        if adjust and card in adjust:  # expansions: exported / swapped warehouses
            for i, delta in enumerate(adjust[card]):
                counts[c.owner][i] += delta
    return tuple(tuple(row) for row in counts)


def supremacy_leads(counts) -> list[int]:
    """For each party, how far its best supremacy is ahead of the best of the others'
    (negative when behind), for the computer players: a sector held by one warehouse flips
    with the next dock, one held by three does not."""
    n = len(counts)
    if n < 2:
        return [0] * n
    best = []
    for p in range(n):
        row = counts[p]
        best.append(
            max(row[i] - max(counts[q][i] for q in range(n) if q != p) for i in range(len(row)))
        )
    out = []
    for p in range(n):
        others = max(best[q] for q in range(n) if q != p)
        out.append(best[p] - others)
    return out


def supremacy_lead(counts, party: int) -> int:
    return supremacy_leads(counts)[party]


def supremacy(
    counts: tuple[tuple[int, ...], ...], beats: Mapping[str, str] | None = None
) -> tuple[int | None, str]:
    """The winner of a two-seat sector and the rule that decided it.

    1. the highest single supremacy; 2. more supremacies; 3. the value of the good
    (wine > spice > tea > wine); otherwise a tie. No warehouses: nothing ("empty")."""
    if not any(map(any, counts)):
        return None, "empty"
    a, b = counts[0], counts[1]
    # per seat: its highest supremacy, how many goods it leads, the last good it leads
    # (with a single lead: that good); every view and computer move asks this per sector
    best0 = best1 = leads0 = leads1 = 0
    good0 = good1 = ""
    for good, x, y in zip(GOODS, a, b):
        if x > y:
            leads0 += 1
            good0 = good
            best0 = max(best0, x - y)
        elif x < y:
            leads1 += 1
            good1 = good
            best1 = max(best1, y - x)
    if best0 != best1:
        return (0 if best0 > best1 else 1), "highest"
    if leads0 != leads1:
        return (0 if leads0 > leads1 else 1), "most"
    if leads0 == 1:
        GOODS_BEATS = beats or _GOODS_BEATS  # noqa: N806 -- expansions: « Blocus maritime »
        g0, g1 = good0, good1
        if GOODS_BEATS[g0] == g1:
            return 0, "value"
        if GOODS_BEATS[g1] == g0:
            return 1, "value"
    return None, "tie"
