"""What the free wheel games add to the view (called from view.py).

Public: whose turn and which step, who must pass his next turn, tavern coins, alliances
and a pending proposal, free for all's one dock pile (size, top, docks the ship put back),
who owns each dock (free for all markers), the sectors with their parties and provisional
leaders, and provisional points (nothing is scored before the end: « Les joueurs peuvent,
à titre indicatif, placer des gardiens »).  Nothing hidden is added.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, closed_within, possible_area, sectors
from domain.kontor.core.data import CARDS, GOODS, MARKER_COLORS, card_json
from domain.kontor.core.placement import box_of
from domain.kontor.core.sides import owner_side, side_count
from domain.kontor.core.state import KontorState, change_part
from domain.kontor.forms.free_wheel.scoring import (
    dock_count,
    drunk_docks,
    owners_map,
    provisional_points,
    sector_result,
    side_counts,
)
from domain.kontor.forms.free_wheel.state import FreeWheelState, fw
from domain.kontor.forms.free_wheel.turns import draw_piles


def _xy(pos) -> dict:
    return {"x": pos[0], "y": pos[1]}


def _where(cells: Mapping[Pos, int], card: int) -> dict | None:
    pos = next((p for p, c in cells.items() if c == card), None)
    return _xy(pos) if pos is not None else None


def _party(state: KontorState, party) -> list:
    return [MARKER_COLORS[s] for s in party]


def free_wheel_keys(state: KontorState, out: dict, cells, viewer) -> None:
    opts = state.options
    finished = state.phase == "over"
    size = opts.board_size
    n_sides = side_count(opts, state.seat_count)
    # worked out once for every sector (and the provisional points): the sectors, what
    # may still hold a card (is_closed), the drunk docks and the docks' owners, and what
    # each sector would score now
    found = sectors(cells)
    open_area = possible_area(box_of(state, cells), size)
    drunk = drunk_docks(state)
    owners = owners_map(state)
    now = [sector_result(state, cells, sector, drunk=drunk, owners=owners) for sector in found]
    out["turn"] = {
        "seat": fw(state).current,
        "number": state.round,
        "step": state.phase,
    }
    points = state.points if finished else provisional_points(state, cells, list(zip(found, now)))
    for seat, p in enumerate(out["players"]):
        p["points"] = points[seat]
        p["provisional"] = not finished
        p["skip_next_turn"] = bool(fw(state).skip_next[seat]) if fw(state).skip_next else False
        p["guardians"] = 0
    if opts.teams and "teams" in out:
        for t in out["teams"]:
            t["points"] = out["players"][t["seats"][0]]["points"]
    # who owns each dock (free for all: the seat that played it)
    if opts.shared_dock_pile:
        for cell in out["board"]["cells"]:
            owner = owner_side(state, cell["card"]["id"])
            cell["owner_seat"] = owner
            cell["marker"] = MARKER_COLORS[owner] if owner is not None else None
        for w in out["board"]["warehouses"]:
            owner = owner_side(state, w["card"])
            w["owner"] = MARKER_COLORS[owner] if owner is not None else None
        out["dock_pile"] = {
            "size": len(fw(state).common_docks),
            "top": card_json(fw(state).common_docks[0]) | {"id": fw(state).common_docks[0]}
            if fw(state).common_docks
            else None,
            "known_bottom": list(fw(state).common_docks[len(fw(state).common_docks) - fw(state).common_known :])
            if fw(state).common_known
            else [],
        }
    out["taverns"] = [
        {
            "card": tavern,
            "owner": owner,
            "at": _where(cells, tavern),
            "drunk": _where(cells, dock) if dock is not None else None,
            "drunk_card": dock,
        }
        for tavern, owner, dock in fw(state).taverns
    ]
    if opts.alliances:
        out["alliances"] = [
            {"seats": [a, b], "cells": [_xy(p) for p in where]} for a, b, where in fw(state).alliances
        ]
        out["proposal"] = (
            {
                "seat": fw(state).proposal[0],
                "partner": fw(state).proposal[1],
                "x": fw(state).proposal[2],
                "y": fw(state).proposal[3],
            }
            if fw(state).proposal
            else None
        )
        out["barred"] = list(fw(state).barred)
    # sectors: parties, provisional leader, what would be scored now
    results = {r.cells: r for r in fw(state).results}
    views = []
    for sector, r in zip(found, now):
        ordered = tuple(sorted(sector, key=lambda p: (p[1], p[0])))
        per_side = side_counts(state, cells, sector, state.warehouses, drunk, owners)
        final = results.get(ordered)
        size_ = dock_count(cells, sector)
        closed = closed_within(cells, sector, open_area)
        views.append(
            {
                "cells": [_xy(p) for p in ordered],
                "closed": closed,
                "size": size_,
                "counts": size_ >= opts.final_min_docks,
                "scored": final is not None,
                "warehouses": {
                    MARKER_COLORS[s]: dict(zip(GOODS, per_side[s])) for s in range(n_sides)
                },
                "parties": [_party(state, p) for p in r["parties"]],
                "party_warehouses": [dict(zip(GOODS, row)) for row in r["warehouses"]],
                "leader": _party(state, r["parties"][r["winner"]])
                if r["winner"] is not None
                else None,
                "rule": r["rule"],
                "points": r["points"],
                "shares": list(r["shares"]),
                "drunk": [_xy(p) for p in ordered if cells[p] in drunk],
                # « Les joueurs peuvent, à titre indicatif, placer des gardiens »
                "indicative_guardian": not finished
                and r["winner"] is not None
                and closed,
            }
        )
    out["board"]["sectors"] = views
    out["final_sectors"] = [
        {
            "cells": [_xy(p) for p in r.cells],
            "parties": [_party(state, p) for p in r.parties],
            "winner": r.winner,
            "rule": r.rule,
            "points": r.points,
            "shares": list(r.shares),
            "lost": r.lost,
        }
        for r in fw(state).results
    ]


def slot(state: KontorState, card: int) -> tuple:
    """The kind of a hidden card as an observer knows it: the specials are shuffled into
    the canal pile (« On met les cartes spéciales dans le paquet des canaux »), so a hidden
    water-pile card is just "from the canal pile"; in free for all the docks form one pile."""
    c = CARDS[card]
    if c.is_special or c.kind in ("water", "anchor"):
        return ("water",)
    if state.options.shared_dock_pile:
        return ("dock",)
    return ("dock", c.owner)


def _keys(state: KontorState, out: dict, cells, viewer) -> None:
    if state.options.sequential_turns:
        free_wheel_keys(state, out, cells, viewer)


def you_keys(state: KontorState, out: dict, cells, viewer) -> None:
    """The seat's own keys, once ``out["you"]`` exists (the view hook runs after it; the
    form's keys run before): its marker colour in free for all, and the piles it may draw
    from (they depend on its hand: its own secret)."""
    if not state.options.sequential_turns or viewer is None or "you" not in out:
        return
    if state.options.shared_dock_pile:
        out["you"]["color"] = MARKER_COLORS[viewer]
    out["you"]["draw_piles"] = (
        draw_piles(state, viewer) if state.phase == "draw" and fw(state).current == viewer else []
    )


def _slot(state: KontorState, base):
    """Specials hide among the canals; in free for all the docks form one pile."""
    if not state.options.sequential_turns:
        return base
    return lambda card: slot(state, card)


def result_keys(state: KontorState, detail: dict) -> None:
    """The result's final count of every sector of at least two docks."""
    if not state.options.score_at_end:
        return
    detail["sectors"] = [
        {
            "cells": [list(p) for p in r.cells],
            "parties": [list(p) for p in r.parties],
            "winner": r.winner,
            "rule": r.rule,
            "points": r.points,
            "shares": list(r.shares),
            "lost": r.lost,
        }
        for r in fw(state).results
    ]


def redact(event, viewer, data: dict) -> dict:
    """GameStarted: free for all's one dock pile, face up (size and top; every game's
    GameStarted has the field, empty but in free for all)."""
    if type(event) is ev.GameStarted:
        data["common_docks"] = {
            "size": len(event.common_docks),
            "top": event.common_docks[0] if event.common_docks else None,
        }
    return data


def hidden_common_docks(state: KontorState, observer):
    """Free for all's one dock pile below its top card and above the docks the ship put
    back (public), re-dealt by redetermine."""
    if not fw(state).common_docks:
        return None
    cut = max(1, len(fw(state).common_docks) - fw(state).common_known)

    def put_back(out: KontorState, dealt: tuple[int, ...]) -> KontorState:
        docks = fw(state).common_docks
        return change_part(out, FreeWheelState, common_docks=docks[:1] + dealt + docks[cut:])

    return fw(state).common_docks[1:cut], put_back


def register(hooks) -> None:
    hooks.add_view(_keys, name="free_wheel", before="you")
    hooks.add_view(you_keys, name="free_wheel_you", after="you")
    hooks.slot.append(_slot)
    hooks.result.append(result_keys)
    hooks.redact.append(redact)
    hooks.hidden_stock.append(hidden_common_docks)
