"""Free wheel scoring: who owns a dock, warehouses per party, supremacy between any number
of parties, and the final count (« Roue libre » 8 and 11, « Roue libre individuelle » 3-5).

Pure functions over a cells map, so the policy can ask about hypothetical boards.

Supremacy with N parties (our reading, docs/rules/kontor.md (Free wheel)): a *party* is a
side (a player; a team at 4 in « Roue libre ») or an alliance in that sector.  A party's
supremacy in a good is its count minus the highest count of any other party in that good
(positive only for the single leader of that good).  Then the basic rules in order:
1. the party alone with the highest supremacy wins (« seul à avoir ... une suprématie
   supérieure aux autres »); 2. among the parties tied there, the one with most
   supremacies; 3. among those still tied (one supremacy each), the party whose good beats
   the others' goods in the value order; otherwise nobody scores.  With two parties this
   is exactly the basic game's rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.kontor.core.board import Pos, sectors
from domain.kontor.core.data import CARDS, GOODS, GOODS_ORDERS
from domain.kontor.core.scoring import sector_points
from domain.kontor.core.sides import seats_of, side_count
from domain.kontor.core.state import KontorState
from domain.kontor.forms.free_wheel.alliances import parties_of
from domain.kontor.forms.free_wheel.state import fw


def owners_map(state: KontorState) -> dict[int, int]:
    if state.options.shared_dock_pile:
        return dict(fw(state).dock_owners)
    return {}


def drunk_docks(state: KontorState) -> frozenset[int]:
    """Docks whose workers are drunk: « le dock ne travaille plus et ne rentre donc pas en
    compte »."""
    return frozenset(d for _, _, d in fw(state).taverns if d is not None)


def side_counts(
    state: KontorState,
    cells: Mapping[Pos, int],
    sector: Iterable[Pos],
    warehouses: frozenset[int],
    drunk: frozenset[int] | None = None,
    owners: dict[int, int] | None = None,
) -> list[list[int]]:
    """Per side, the warehouses of each good (GOODS order) that count in the sector."""
    drunk = drunk_docks(state) if drunk is None else drunk
    owners = owners_map(state) if owners is None else owners
    n = side_count(state.options, state.seat_count)
    counts = [[0] * len(GOODS) for _ in range(n)]
    for pos in sector:
        card = cells[pos]
        if card not in warehouses or card in drunk:
            continue
        c = CARDS[card]
        side = owners.get(card, c.owner) if state.options.shared_dock_pile else c.owner
        if side is None:
            continue
        for good in c.goods:
            counts[side][GOODS.index(good)] += 1
    return counts


def supremacy_n(
    counts: list[tuple[int, ...]] | list[list[int]], order: str
) -> tuple[int | None, str]:
    """The winning party (index) of a sector and the rule that decided it (see above)."""
    if not any(any(row) for row in counts):
        return None, "empty"
    n = len(counts)
    if n < 2:
        return 0, "highest"
    leads: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    for i, good in enumerate(GOODS):
        for p in range(n):
            other = max(counts[q][i] for q in range(n) if q != p)
            if counts[p][i] > other:
                leads[p].append((counts[p][i] - other, good))
    best = [max((d for d, _ in lead), default=0) for lead in leads]
    top = max(best)
    if top == 0:
        return None, "tie"
    cands = [p for p in range(n) if best[p] == top]
    if len(cands) == 1:
        return cands[0], "highest"
    most = max(len(leads[p]) for p in cands)
    cands = [p for p in cands if len(leads[p]) == most]
    if len(cands) == 1:
        return cands[0], "most"
    if most == 1:
        beats = GOODS_ORDERS[order]
        goods = {p: leads[p][0][1] for p in cands}
        wins = [p for p in cands if all(goods[q] in beats[goods[p]] for q in cands if q != p)]
        if len(wins) == 1:
            return wins[0], "value"
    return None, "tie"


def dock_count(cells: Mapping[Pos, int], sector: Iterable[Pos]) -> int:
    """A sector's size: its docks of any colour (customs and bridges included)."""
    return sum(1 for p in sector if CARDS[cells[p]].is_dock)


def sector_result(
    state: KontorState,
    cells: Mapping[Pos, int],
    sector: frozenset[Pos],
    warehouses: frozenset[int] | None = None,
    drunk: frozenset[int] | None = None,
    owners: dict[int, int] | None = None,
) -> dict:
    """Parties, their warehouses, the winner, the sector's worth and the points per seat."""
    opts = state.options
    warehouses = state.warehouses if warehouses is None else warehouses
    per_side = side_counts(state, cells, sector, warehouses, drunk, owners)
    parties = parties_of(state, sector)
    counts = []
    for party in parties:
        row = [0] * len(GOODS)
        for side in party:
            for i, v in enumerate(per_side[side]):
                row[i] += v
        counts.append(tuple(row))
    winner, rule = supremacy_n(counts, opts.goods_order)
    worth = sector_points(cells, sector)
    shares = [0] * state.seat_count
    lost = 0
    if winner is not None:
        party = parties[winner]
        if opts.teams:
            # « Les deux joueurs d'une équipe utilisent le même centre »: each partner holds
            # the team's points (as in the team game)
            for seat in seats_of(opts, party[0], state.seat_count):
                shares[seat] += worth
        elif len(party) == 1:
            shares[party[0]] += worth
        else:
            # « les alliances qui remportent un secteur divisent les points gagnés en parts
            # égales ... le reste va au joueur de l'alliance qui a placé le plus
            # d'entrepôts. En cas d'égalité, le point supplémentaire est perdu. »
            each, rest = divmod(worth, len(party))
            for seat in party:
                shares[seat] += each
            if rest:
                placed = {seat: sum(per_side[seat]) for seat in party}
                most = max(placed.values())
                top = [seat for seat in party if placed[seat] == most]
                if len(top) == 1:
                    shares[top[0]] += rest
                else:
                    lost = rest
    return {
        "parties": parties,
        "warehouses": tuple(counts),
        "winner": winner,
        "rule": rule,
        "points": worth if winner is not None else 0,
        "shares": tuple(shares),
        "lost": lost,
    }


def counted_sectors(state: KontorState, cells: Mapping[Pos, int]) -> list[frozenset[Pos]]:
    """« Tous les secteurs sont comptabilisés, à condition de comporter au moins 2 docks »."""
    return [s for s in sectors(cells) if dock_count(cells, s) >= state.options.final_min_docks]


def provisional_points(state: KontorState, cells: Mapping[Pos, int], results: list | None = None) -> tuple[int, ...]:
    """Points per seat if the game ended now (every sector of at least two docks).
    ``results``: (sector, ``sector_result``) of every sector, when the caller has them."""
    if results is None:
        results = [(sector, sector_result(state, cells, sector)) for sector in sectors(cells)]
    points = [0] * state.seat_count
    for sector, result in results:
        if dock_count(cells, sector) >= state.options.final_min_docks:  # counted_sectors
            for seat, p in enumerate(result["shares"]):
                points[seat] += p
    return tuple(points)
