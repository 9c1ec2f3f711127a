"""The computer player: a greedy evaluation of placements (and ship moves).

It reads only what the seat knows: the board, public piles and money, its own hand.
It does not look into hidden information, so it needs no redetermination.  It plays for
its side (its team's colour in the team game).  In a "largest sectors" game a sector is
worth more the larger it is, since only the largest ones count at the end.
"""

from __future__ import annotations

import threading
from bisect import bisect_left

from domain.common.frozen import replace
from domain.kontor.core.board import (
    DOCKS,
    occupancy,
    possible_area,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.decide import placed_goods, placing_card
from domain.kontor.core.placement import box_of, placement_cells
from domain.kontor.core.scoring import choose_largest, extra_warehouses, goods_of
from domain.kontor.core.sides import side_count, side_of
from domain.kontor.core.state import KontorState
from domain.kontor.expansions.warehouse_goods import adjust
from domain.kontor.policy import special_rules_b as rules_b
from domain.kontor.policy.expansions import policy_event, policy_export
from domain.kontor.policy.scenarios import pending_choice, sector_weight
from domain.kontor.scenarios.baksheesh import Bribe

WIN = 10.0
LEAD = 1.5
THREAT = 4.0
MONEY = 0.6
SHIP_MARGIN = 0.5
#: "largest sectors" games: an open sector's lead grows with its size; sectors outside
#: the counted slots are worth a tenth (tuned with bench/ai_kontor.py, advanced game)
GROW_LEAD = 0.6
REST = 0.1
#: team game: 16 of the 20 florins are dealt (the treasury starts with 4) and ties on
#: points, broken by the team's money, are frequent: money is worth more
MONEY_TEAM = 2.5
#: Misère (poverty): six florins in all, and the seat left without any while the treasury
#: is empty loses at once: a florin is worth most of a sector
MONEY_POVERTY = 8.0
POVERTY_RESERVE = 1
POVERTY_GAIN = 1.0


def _poverty_pass(state: KontorState, money: int, gain: float) -> bool:
    """Misère: without a florin, the next canal that empties the treasury ends the game
    against the seat, and passing takes a florin and spares this round's taxes (« ne peut
    être soumis à aucun impôt pendant ce tour »): pass when broke, and with the last
    florin unless the card wins a sector."""
    if money == 0:
        return True
    return money <= POVERTY_RESERVE and state.treasury > 0 and gain < WIN * POVERTY_GAIN


def money_worth(state: KontorState) -> float:
    """What a florin is worth to the policy, in board-evaluation units."""
    if state.options.poverty_end:
        return MONEY * MONEY_POVERTY
    return MONEY * (MONEY_TEAM if state.options.teams else 1.0)


def _winner(state: KontorState, cells: dict, sector, warehouses: frozenset[int], sides: int):
    """Who holds the sector now (bribes and expansions' adjustments included)."""
    return _holder(state, _stored(cells, sector, warehouses), sides)


def _stored(cells: dict, sector, warehouses: frozenset[int]) -> frozenset[int]:
    """The sector's docks that hold warehouses."""
    return frozenset(card for p in sector if (card := cells[p]) in warehouses)


class _Memo(threading.local):
    """A memo of the state one policy call is evaluating, kept per thread (threading.local
    gives each thread its own fields): policy calls running at once never mix theirs."""

    def __init__(self, **fields) -> None:
        self.remember(**fields)

    def remember(self, **fields) -> None:
        self.__dict__.update(fields)


def _holder(state: KontorState, stored: frozenset[int], sides: int):
    """Who holds a sector whose docks with warehouses are ``stored``.  warehouse_counts
    adds up those docks' warehouses wherever they lie, so the holder depends only on them
    and the state: a policy call meets the same ones for many of the cells it tries."""
    if not stored:
        return None  # no warehouse counts there: nobody holds it (warehouse_counts)
    if _WINNERS.state is not state or _WINNERS.sides != sides:
        _WINNERS.remember(state=state, sides=sides, found={})
    found = _WINNERS.found
    if stored not in found:
        by_card = {card: card for card in stored}  # the cards stand for their own cells
        counts = warehouse_counts(
            by_card,
            stored,
            stored,
            sides,
            goods_of(state),
            extra=extra_warehouses(state),
            adjust=adjust(state),
        )
        found[stored] = supremacy(counts)[0]
    return found[stored]


#: _winner's memo for the one state being evaluated (the last one asked about)
_WINNERS = _Memo(state=None, sides=None, found={})


def evaluate_board(state: KontorState, seat: int, cells: dict, warehouses: frozenset[int]) -> float:
    """The board's worth for the seat's side: its sectors held, leads and threats.
    (placement_value gets the same from _value_after without going over every sector.)"""
    opts = state.options
    largest = opts.final_selection == "largest"
    side = side_of(opts, seat)
    sides = side_count(opts, state.seat_count)
    box = box_of(state, cells)
    done = _done(state)
    entries = []
    for sector in sectors(cells):
        if sector in done:
            continue
        winner = _winner(state, cells, sector, warehouses, sides)
        open_cells = _open_cells(cells, sector)
        dist = _dist(sector) if largest else 0
        fact = _fact(sector, winner, open_cells, box, opts.board_dims, dist)
        entries.append(_entry(opts, side, fact))
    return _total(state, seat, entries)


def _total(state: KontorState, seat: int, entries: list) -> float:
    """The board's value from its open sectors' entries (``_entry``), in sectors' order."""
    if state.options.final_selection == "largest":
        return _total_largest(state, seat, entries)
    value = 0.0
    for terms in entries:
        for term in terms:  # added one by one, as floats round
            value += term
    return value


def _done(state: KontorState) -> set:
    """The sectors already scored (they stay on the board)."""
    if _DONE.state is not state:
        _DONE.remember(state=state, found={frozenset(s.cells) for s in state.scored})
    return _DONE.found


#: _done's memo for the last state asked about
_DONE = _Memo(state=None, found=set())


def _dist(cells_of) -> int:
    """Distance to the anchor at (0, 0): on a dense port the path over cards is the
    Manhattan one (the tie-break of the largest sectors)."""
    return min(abs(x) + abs(y) for x, y in cells_of)


def _fact(sector, winner, open_cells: set, box, size, dist: int) -> tuple:
    """What the policy reads of a sector: (cells, holder, open cells, closed, distance)."""
    low_x, high_x, low_y, high_y = possible_area(box, size)
    # as is_closed: no open cell may ever hold a card
    closed = not any(low_x <= x <= high_x and low_y <= y <= high_y for x, y in open_cells)
    return sector, winner, len(open_cells), closed, dist


def _entry(opts, side: int, fact: tuple):
    """A sector's share of the value: the terms added (plain games), or (size, distance,
    value) for choose_largest ("largest sectors" games)."""
    sector, winner, open_count, closed, dist = fact
    if opts.final_selection == "largest":
        sign = 0.0 if winner is None else (1.0 if winner == side else -1.0)
        sign *= sector_weight(opts, sector, closed)  # scenarios
        if closed:
            return len(sector), dist, sign * WIN
        v = sign * LEAD * (1 + len(sector) * GROW_LEAD)
        if open_count == 1:
            v += sign * THREAT
        return len(sector), dist, v
    if winner is None:
        return ()  # worth nothing to anyone, closed or open
    sign = (1.0 if winner == side else -1.0) * sector_weight(opts, sector, closed)  # scenarios
    if closed:
        return (sign * WIN,)
    # a sector with a single open neighbour may be closed by the next canal
    return (sign * LEAD, sign * THREAT) if open_count == 1 else (sign * LEAD,)


def _open_cells(cells: dict, sector) -> set:
    """The empty cells next to ``sector``."""
    out = set()
    for x, y in sector:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in cells:
                out.add(n)
    return out


def _total_largest(state: KontorState, seat: int, entries: list) -> float:
    """Only the largest sectors count at the end: rank every sector (already scored ones
    included) by size and value the ones in the counted slots."""
    opts = state.options
    entries = _scored_entries(state, side_of(opts, seat)) + entries
    if not entries:
        return 0.0
    sizes, dists, values = zip(*entries)
    counted, _ = choose_largest(sizes, dists, opts.final_count, opts.final_min_docks)
    chosen = set(counted)
    value = 0.0
    for i, v in enumerate(values):
        value += v if i in chosen else REST * v
    return value


def _scored_entries(state: KontorState, side: int) -> list:
    """(size, distance, value) of the sectors already scored, for choose_largest."""
    if _SCORED.state is not state or _SCORED.side != side:
        out = []
        for s in state.scored:
            v = 0.0 if s.winner is None else (WIN if s.winner == side else -WIN) * s.points
            out.append((len(s.cells), _dist(s.cells), v))
        _SCORED.remember(state=state, side=side, found=out)
    return _SCORED.found


#: _scored_entries' memo for the last state and side asked about
_SCORED = _Memo(state=None, side=None, found=[])


class _Board:
    """The board a policy call tries its cells against, with what placing one card on an
    empty cell leaves unchanged: the sectors not touching that cell keep their cells,
    holder and open cells, and only the port's extent (which may grow) changes whether
    they are closed.  ``_value_after`` then recomputes only the sectors next to the cell."""

    def __init__(self, state: KontorState, cells: dict, warehouses: frozenset[int]):
        self.state, self.cells, self.warehouses = state, cells, warehouses
        self.sides = side_count(state.options, state.seat_count)
        self.box = box_of(state, cells)
        self.sectors = sectors(cells)
        self.stored = [_stored(cells, s, warehouses) for s in self.sectors]
        self.winners = [_holder(state, stored, self.sides) for stored in self.stored]
        self.open = [_open_cells(cells, s) for s in self.sectors]
        self.dists = [_dist(s) for s in self.sectors]
        #: sectors' order (board.sectors): by their first cell in (y, x) order
        self.firsts = [min((y, x) for x, y in s) for s in self.sectors]
        self.touching: dict = {}  # empty cell -> the sectors next to it
        for i, open_cells in enumerate(self.open):
            for pos in open_cells:
                self.touching.setdefault(pos, []).append(i)
        # the sectors evaluate_board counts: not scored yet; slot: the index among them
        done = _done(state)
        self.counted = [i for i, sector in enumerate(self.sectors) if sector not in done]
        self.slot = {i: k for k, i in enumerate(self.counted)}
        self.counted_firsts = [self.firsts[i] for i in self.counted]
        self.entries_at: dict = {}  # (box, side) -> each counted sector's _entry

    def entries(self, box, side: int) -> list:
        """Each counted sector's entry once the port's extent is ``box``."""
        key = (box, side)
        if key not in self.entries_at:
            self.entries_at[key] = [self.entry(i, self.open[i], box, side) for i in self.counted]
        return self.entries_at[key]

    def entry(self, i: int, open_cells: set, box, side: int):
        """Sector ``i``'s entry with these open cells and extent."""
        opts = self.state.options
        sector = self.sectors[i]
        fact = _fact(sector, self.winners[i], open_cells, box, opts.board_dims, self.dists[i])
        return _entry(opts, side, fact)


def _board(state: KontorState, cells: dict, warehouses: frozenset[int]) -> _Board:
    """The _Board of this board (boards are never changed once built: _after copies)."""
    found = _BOARD.board
    if (
        found is None
        or found.state is not state
        or found.cells is not cells
        or found.warehouses is not warehouses
    ):
        found = _Board(state, cells, warehouses)
        _BOARD.board = found
    return found


#: _board's memo: the last board asked about
_BOARD = _Memo(board=None)


def _board_value(board: _Board, seat: int) -> float:
    """evaluate_board of the board itself (the _Board its cells will be tried against)."""
    side = side_of(board.state.options, seat)
    return _total(board.state, seat, board.entries(board.box, side))


def _value_after(board: _Board, seat: int, card: int, pos) -> float:
    """evaluate_board once ``card`` goes to the empty cell ``pos`` of ``board``: the
    same entries in the same order, the untouched sectors' taken from ``board``."""
    side = side_of(board.state.options, seat)
    x, y = pos
    min_x, max_x, min_y, max_y = board.box
    box = (min(min_x, x), max(max_x, x), min(min_y, y), max(max_y, y))  # box_of with pos
    if card in DOCKS:
        entries = _entries_after_dock(board, side, card, pos, box)
    else:
        entries = _entries_after_canal(board, side, pos, box)
    return _total(board.state, seat, entries)


def _entries_after_canal(board: _Board, side: int, pos, box) -> list:
    """A card that is no dock, on an empty cell: the sectors next to it lose an open cell."""
    entries = list(board.entries(box, side))
    for i in board.touching.get(pos, ()):
        if i in board.slot:
            entries[board.slot[i]] = board.entry(i, board.open[i] - {pos}, box, side)
    return entries


def _entries_after_dock(board: _Board, side: int, card: int, pos, box) -> list:
    """A dock on an empty cell joins the sectors next to it (and itself) into one, placed
    among the others in ``sectors``' order (by first cell)."""
    state, opts = board.state, board.state.options
    x, y = pos
    merged = {pos}
    stored = {card} if CARDS[card].goods or card in board.warehouses else set()  # as _after
    open_cells = {
        n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n not in board.cells
    }
    dist, first = abs(x) + abs(y), (y, x)
    joined = board.touching.get(pos, ())
    for i in joined:
        merged |= board.sectors[i]
        stored |= board.stored[i]
        open_cells |= board.open[i]
        dist, first = min(dist, board.dists[i]), min(first, board.firsts[i])
    open_cells.discard(pos)
    entries = board.entries(box, side)
    gone = {board.slot[i] for i in joined if i in board.slot}
    if gone:
        entries = [e for k, e in enumerate(entries) if k not in gone]
    else:
        entries = list(entries)
    merged = frozenset(merged)
    if merged not in _done(state):
        winner = _holder(state, frozenset(stored), board.sides)
        new = _entry(opts, side, _fact(merged, winner, open_cells, box, opts.board_dims, dist))
        # the joined sectors all come after the new one: the others before it stay put
        entries.insert(bisect_left(board.counted_firsts, first), new)
    return entries


def _after(cells: dict, warehouses: frozenset[int], card: int, pos):
    """The board and warehouses after ``card`` goes to ``pos`` (covering what is there)."""
    cells = dict(cells)
    under = cells.get(pos)
    if under is not None:
        warehouses = warehouses - {under}
    cells[pos] = card
    if CARDS[card].is_dock and CARDS[card].goods:
        warehouses = warehouses | {card}
    return cells, warehouses


def _supplied(state: KontorState, seat: int, card: int) -> KontorState:
    """Embargo: the state whose goods map gives ``card`` only the warehouses its owner's
    supply still holds (core/placement.py:placed_goods); other games: ``state`` itself."""
    if not state.options.warehouse_supply or not CARDS[card].goods:
        return state

    brought = placed_goods(state, seat, card)
    return replace(state, goods_override=state.goods_override + ((card, brought),))


def placement_value(
    state: KontorState, seat: int, card: int, pos, cells=None, warehouses=None
) -> float:
    cells = occupancy(state) if cells is None else cells
    warehouses = state.warehouses if warehouses is None else warehouses
    supplied = _supplied(state, seat, card)
    if pos in cells or supplied is not state:  # a flood, a bridge; Embargo's goods
        after, wh = _after(cells, warehouses, card, pos)
        value = evaluate_board(supplied, seat, after, wh)
    else:
        value = _value_after(_board(state, cells, warehouses), seat, card, pos)
    if CARDS[card].kind == "water" and state.treasury > 0:
        value += money_worth(state)
    return value


def best_cell(
    state: KontorState, seat: int, card: int, rng, noise: float, cells=None, warehouses=None
):
    cells = occupancy(state) if cells is None else cells
    best, best_value = None, float("-inf")
    for pos in placement_cells(state, cells, card, seat):
        v = placement_value(state, seat, card, pos, cells, warehouses)
        v += (rng.below(1000) / 1000.0) * noise
        if v > best_value:
            best, best_value = pos, v
    return best, best_value


def _ship_choice(state: KontorState, seat: int, card: int, ships: list, rng, noise: float):
    """The best ship move with a removal, if it beats placing without moving."""
    cells = occupancy(state)
    _, plain = best_cell(state, seat, card, rng, noise)
    best, best_value = None, plain + SHIP_MARGIN
    side = side_of(state.options, seat)
    for cmd in ships:
        if cmd.remove_x is None:
            continue
        pos = (cmd.remove_x, cmd.remove_y)
        removed = cells[pos]
        if CARDS[removed].owner == side:
            continue
        after = dict(cells)
        del after[pos]
        wh = state.warehouses - {removed}
        _, v = best_cell(state, seat, card, rng, noise, after, wh)
        if v == float("-inf"):
            v = evaluate_board(state, seat, after, wh)
        if v > best_value:
            best, best_value = cmd, v
    if best is None and plain == float("-inf"):
        return ships[0] if ships else None
    return best


def _bribe(state: KontorState, legal: list, evaluate):
    """Bakchich: a bribe (among the legal ones) when removing the dock gains more than its
    price (1 florin per good) is worth."""
    spots = [(c.x, c.y) for c in legal if isinstance(c, Bribe)]
    if not spots:
        return None
    cells = occupancy(state)
    base = evaluate(cells, state.warehouses, state.goods_map())
    best, best_gain = None, 0.0
    for pos in spots:
        card = cells[pos]
        after = dict(cells)
        del after[pos]
        gain = evaluate(after, state.warehouses - {card}, state.goods_map()) - base
        gain -= 2.0 * len(CARDS[card].goods) + 2.0
        if gain > best_gain:
            best, best_gain = Bribe(*pos), gain
    return best


def choose(state: KontorState, seat: int, rng, level: str, legal: list):
    """The basic and advanced game's choice (after the special rules' own phases)."""
    # --- scenarios: pending decisions, bribes ---

    def evaluate(cells, warehouses, goods):
        st = replace(state, goods_override=tuple(goods.items()))
        return evaluate_board(st, seat, cells, warehouses)

    pending = pending_choice(state, rng, evaluate, legal)
    if pending is not None:
        return pending
    if state.phase == "choose":
        bribe = _bribe(state, legal, evaluate)
        if bribe is not None:
            return bribe
    noise = 0.5 if level == "easy" else 0.05
    if state.phase == "event":  # expansions: event cards
        return policy_event(state, seat, legal, rng)
    # --- special rules B: bribes, tavern decisions ---
    special = rules_b.policy_b(
        state, seat, legal, lambda st: evaluate_board(st, seat, occupancy(st), st.warehouses), rng
    )
    if special is not None:
        return special
    # --- end special rules B ---
    if state.phase == "place":
        card = placing_card(state)
        ships = [c for c in legal if isinstance(c, MoveShip)]
        if ships:
            move = _ship_choice(state, seat, card, ships, rng, noise)
            if move is not None:
                return move
        pos, _ = best_cell(state, seat, card, rng, noise)
        return policy_export(state, seat, PlaceCard(*pos), legal)
    cells = occupancy(state)  # one board for every card: best_cell's sectors are shared
    base = _board_value(_board(state, cells, state.warehouses), seat)
    choices = []
    for card in sorted(set(state.hands[seat])):
        pos, v = best_cell(state, seat, card, rng, noise, cells)
        if pos is None:
            continue
        gain = v - base
        if CARDS[card].florin:
            gain += money_worth(state)  # the opponent pays tax
        choices.append((gain, card))
    money = state.money[seat]
    if not choices:
        return Pass()
    gain, card = max(choices)
    if state.options.poverty_end and _poverty_pass(state, money, gain):
        return Pass()
    if money == 0 and state.treasury > 0 and gain < WIN / 2:
        return Pass()
    hidden = rules_b.smuggle_choice(state, seat, card)  # special rules B: Contrebande
    if hidden is not None:
        return hidden
    return ChooseCard(card)
