"""What each viewer may see: view, redact_event, redetermine, result."""

from __future__ import annotations

from dataclasses import replace

from domain.common.codec import to_data
from domain.decider import Result
from domain.kontor import events as ev
from domain.kontor.board import (
    bounds,
    is_closed,
    legal_cells,
    occupancy,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.data import CARDS, GOODS, SEAT_COLORS, card_json
from domain.kontor.decide import placing_card, to_act
from domain.kontor.state import KontorState


def is_finished(state: KontorState) -> bool:
    return state.phase == "over"


def result(state: KontorState) -> Result | None:
    if not is_finished(state):
        return None
    return Result(
        scores=tuple(float(p) for p in state.points),
        winners=state.winners,
        detail={
            "reason": state.end_reason,
            "points": list(state.points),
            "money": list(state.money),
            "tie_break": "money",
        },
    )


def _color(seat: int | None) -> str | None:
    return SEAT_COLORS[seat] if seat is not None else None


def _pile(cards: tuple[int, ...]) -> dict:
    return {"size": len(cards), "top": card_json(cards[0]) | {"id": cards[0]} if cards else None}


def view(state: KontorState, viewer: int | None) -> dict:
    cells = occupancy(state)
    size = state.options.board_size
    min_x, max_x, min_y, max_y = bounds(cells)
    width, height = max_x - min_x + 1, max_y - min_y + 1
    finished = is_finished(state)
    acting = to_act(state)
    scored = {frozenset(s.cells): s for s in state.scored}
    sector_views = []
    for sector in sectors(cells):
        ordered = sorted(sector, key=lambda p: (p[1], p[0]))
        s = scored.get(sector)
        counts = warehouse_counts(cells, sector, state.warehouses, state.seat_count)
        centres = {}
        for seat in range(state.seat_count):
            centre = next(
                (
                    {"x": c.x, "y": c.y}
                    for c in state.board
                    if (c.x, c.y) in sector
                    and c.card in state.warehouses
                    and CARDS[c.card].owner == seat
                ),
                None,
            )
            centres[SEAT_COLORS[seat]] = centre
        leader, rule = supremacy(counts) if s is None else (s.winner, s.rule)
        sector_views.append(
            {
                "cells": [{"x": x, "y": y} for x, y in ordered],
                "closed": s is not None or is_closed(cells, sector, size),
                "scored": s is not None,
                "winner": _color(s.winner) if s else None,
                "rule": s.rule if s else None,
                "guardian": {"x": s.guardian[0], "y": s.guardian[1]} if s and s.guardian else None,
                "leader": _color(leader) if s is None else None,
                "leader_rule": rule if s is None else None,
                "warehouses": {
                    SEAT_COLORS[seat]: dict(zip(GOODS, counts[seat]))
                    for seat in range(state.seat_count)
                },
                "distribution_centres": centres,
            }
        )
    card = placing_card(state)
    legal = []
    if card is not None:
        legal = [{"x": x, "y": y} for x, y in legal_cells(cells, card, state.order[0], size)]
    players = []
    for seat in range(state.seat_count):
        players.append(
            {
                "seat": seat,
                "color": SEAT_COLORS[seat],
                "points": state.points[seat],
                "money": state.money[seat],
                "hand_size": len(state.hands[seat]),
                "dock_pile": _pile(state.dock_piles[seat]),
                "chosen": state.chosen[seat] is not None or state.revealed[seat] is not None,
                "passed": state.passed[seat],
                "revealed": state.revealed[seat],
                "tax": state.tax[seat] or None,
                "to_act": seat in acting,
                "guardians": sum(1 for s in state.scored if s.winner == seat),
            }
        )
    out = {
        "phase": state.phase,
        "round": state.round,
        "finished": finished,
        "rules_version": state.rules_version,
        "options": to_data(state.options),
        "board": {
            "cells": [
                {"x": c.x, "y": c.y, "card": card_json(c.card) | {"id": c.card}}
                for c in state.board
            ],
            "size": size,
            "bounds": {"min_x": min_x, "max_x": max_x, "min_y": min_y, "max_y": max_y},
            "width": width,
            "height": height,
            "width_fixed": width >= size,
            "height_fixed": height >= size,
            "full": len(cells) >= size * size,
            "warehouses": [
                {
                    "x": c.x,
                    "y": c.y,
                    "card": c.card,
                    "owner": _color(CARDS[c.card].owner),
                    "goods": list(CARDS[c.card].goods),
                }
                for c in state.board
                if c.card in state.warehouses
            ],
            "sectors": sector_views,
            "legal_cells": legal,
        },
        "treasury": state.treasury,
        "water_pile": _pile(state.water_pile),
        "players": players,
        "to_act": list(acting),
        "placing": {"seat": state.order[0], "card": card} if card is not None else None,
        "order": list(state.order),
        "returned": [{"seat": s, "card": c, "reason": r} for s, c, r in state.returned],
        "idle_rounds": state.idle_rounds,
        "end_reason": state.end_reason,
        "winners": list(state.winners) if finished else None,
    }
    if viewer is not None:
        out["you"] = {
            "seat": viewer,
            "color": SEAT_COLORS[viewer],
            "hand": [card_json(c) | {"id": c} for c in sorted(state.hands[viewer])],
            "chosen": state.chosen[viewer],
        }
    if finished:
        out["hidden"] = {
            "hands": [list(h) for h in state.hands],
            "dock_piles": [list(p) for p in state.dock_piles],
            "water_pile": list(state.water_pile),
            "seed": state.seed,
        }
    return out


def redact_event(event, viewer: int | None) -> dict:
    data = to_data(event)
    t = type(event)
    if t is ev.GameStarted:
        data["seed"] = None
        n = event.seat_count
        data["hands"] = [list(event.hands[s]) if s == viewer else None for s in range(n)]
        data["hand_sizes"] = [len(h) for h in event.hands]
        data["dock_piles"] = [
            {"size": len(p), "top": p[0] if p else None} for p in event.dock_piles
        ]
        data["water_pile"] = {
            "size": len(event.water_pile),
            "top": event.water_pile[0] if event.water_pile else None,
        }
    elif t is ev.CardChosen and event.seat != viewer:
        data["card"] = None
    return data


def redetermine(state: KontorState, observer: int | None, rng) -> KontorState:
    """Re-deal what ``observer`` cannot see: other seats' hands and unrevealed choices, and
    every pile below its visible top card. Each hidden slot keeps its kind (a seat's dock
    or a canal), so counts and every public fact stay the same."""
    if state.phase == "over":
        return state
    n = state.seat_count
    hands = [list(h) for h in state.hands]
    chosen = list(state.chosen)
    docks_pool: list[list[int]] = [[] for _ in range(n)]
    water_pool: list[int] = []
    for s in range(n):
        if s == observer:
            continue
        for c in hands[s] + ([chosen[s]] if chosen[s] is not None else []):
            if CARDS[c].is_water:
                water_pool.append(c)
            else:
                docks_pool[CARDS[c].owner].append(c)
    for s in range(n):
        docks_pool[s].extend(state.dock_piles[s][1:])
    water_pool.extend(state.water_pile[1:])
    docks_pool = [list(rng.shuffle(p)) for p in docks_pool]
    water_pool = list(rng.shuffle(water_pool))

    def take(card: int) -> int:
        if CARDS[card].is_water:
            return water_pool.pop()
        return docks_pool[CARDS[card].owner].pop()

    for s in range(n):
        if s == observer:
            continue
        hands[s] = [take(c) for c in hands[s]]
        if chosen[s] is not None:
            chosen[s] = take(chosen[s])
    piles = tuple(p[:1] + tuple(take(c) for c in p[1:]) for p in state.dock_piles)
    water_pile = state.water_pile[:1] + tuple(take(c) for c in state.water_pile[1:])
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        chosen=tuple(chosen),
        dock_piles=piles,
        water_pile=water_pile,
        seed="0" * 64,
    )
