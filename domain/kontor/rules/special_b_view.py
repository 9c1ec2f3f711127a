"""View, redaction and redetermination of the special rules B (rules/special_b.py): what
« Corruption », « Point final », « Vieilles rancunes » and « Contrebande » (« Elle n'est
révélée qu'à la fin de la partie ») show, and what they hide.

Public keys appear only when their rule is on (the basic view is unchanged).  Secrets:
the face-down cards (Contrebande) -- on the board every viewer sees the colour's
face-down pseudo card; the owner sees the real card under ``you.face_down``.
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy
from domain.kontor.core.data import CARDS, SEAT_COLORS
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState
from domain.kontor.rules.special_b import (
    bribe_targets,
    grudge_decider,
    grudge_tavern,
    smugglable,
)


def _xy(pos) -> dict:
    return {"x": pos[0], "y": pos[1]}


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    opts = state.options
    if opts.bribery:
        out["bribery"] = {
            "level": opts.bribery,
            "pending": None
            if state.bribe is None
            else {
                "seat": state.bribe[0],
                "tavern": _xy(state.bribe[2:4]),
                "left": state.bribe[1],
                "targets": [_xy(p) for p in bribe_targets(state)],
            },
        }
        out["board"]["bribe_warehouses"] = [
            {
                **_xy(pos),
                "card": card,
                "owner": SEAT_COLORS[CARDS[card].owner],
                "good": CARDS[card].goods[0],
            }
            for pos, card in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if card in state.warehouses
            for _ in range(state.bribes.count(card))
        ]
    if opts.final_point:
        out["final_point"] = {
            "last_closed": [[_xy(p) for p in state.scored[i].cells] for i in state.last_closed],
            "awarded": state.final_point_done,
        }
    if opts.old_grudges:
        pending = None
        if state.phase == "grudges" and state.grudge_pending:
            i = state.grudge_pending[0]
            pending = {
                "sector": [_xy(p) for p in state.scored[i].cells],
                "tavern": _xy(grudge_tavern(state, i)[1]),
                "seat": grudge_decider(state),
            }
        out["old_grudges"] = {
            "pending": pending,
            "waiting": len(state.grudge_pending),
            "decided": [
                {"sector": [_xy(p) for p in state.scored[i].cells], "counted": counted}
                for i, counted in state.grudges
            ],
        }
    if opts.smuggling:
        out["board"]["face_down"] = [
            {**_xy(p), "color": SEAT_COLORS[CARDS[c].owner]}
            for p, c in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if CARDS[c].kind == "face_down"
        ]
        for p in out["players"]:
            p["smuggling_used"] = p["seat"] in state.smuggle_used
        if viewer is not None and "you" in out:
            fd = state.face_down[viewer] if state.face_down else None
            out["you"]["face_down"] = [
                {"x": x, "y": y, "card": card}
                for seat, x, y, card in state.smuggled
                if seat == viewer
            ]
            out["you"]["face_down_chosen"] = None if fd is None else {"card": fd[0], "draw": fd[1]}


def redact(data: dict) -> dict:
    """Another seat's CardChosen: neither the card nor whether it lies face down."""
    data.pop("face_down", None)
    data.pop("draw", None)
    return data


def _eligible(card: int, side: int) -> bool:
    c = CARDS[card]
    return smugglable(card) and (c.kind == "water" or c.owner == side)


def redetermine_b(old: KontorState, new: KontorState, observer: int | None, rng) -> KontorState:
    """Re-deal the face-down cards the observer cannot see.  In the choice phase another
    seat's face-down intent is secret too; on the board and in flight a face-down card
    may be any unseen canal or own goods dock: swapped first with an unseen card of its
    kind (hand or pile below its top), then with a hand card of the other kind (the draw
    pile was chosen freely, so the kinds in the hand do not tell)."""
    if not new.options.smuggling:
        return new
    n = new.seat_count
    hands = [list(h) for h in new.hands]
    piles = [list(p) for p in new.dock_piles]
    water = list(new.water_pile)
    known = new.pile_known or (0,) * n
    fd = list(new.face_down or (None,) * n)
    smuggled = list(new.smuggled)
    for s in range(n):
        if s == observer:
            continue
        side = side_of(new.options, s)
        if new.phase == "choose" and new.chosen[s] is not None:
            card = new.chosen[s]
            if s not in new.smuggle_used and smugglable(card) and rng.below(2) == 0:
                fd[s] = (card, ("dock", "water")[rng.below(2)])
            else:
                fd[s] = None
            continue

        # expansions (Lutte d'influence): cards shown in a hand are known, never swapped
        shown = old.known_hand[s] if old.known_hand else frozenset()

        def swap(card: int, s: int = s, side: int = side, shown: frozenset = shown) -> int:
            kind = CARDS[card].kind
            same: list[tuple[str, int]] = [("self", -1)]
            for i, c in enumerate(hands[s]):
                if CARDS[c].kind == kind and _eligible(c, side) and c not in shown:
                    same.append(("hand", i))
            if kind == "water":
                same += [("water", i) for i in range(1, len(water))]
            else:
                cut = max(1, len(piles[s]) - known[s])
                same += [("pile", i) for i in range(1, cut) if _eligible(piles[s][i], side)]
            where, i = same[rng.below(len(same))]
            store = {"hand": hands[s], "water": water, "pile": piles[s]}.get(where)
            if store is not None:
                card, store[i] = store[i], card
            other = [("self", -1)] + [
                ("hand", i)
                for i, c in enumerate(hands[s])
                if CARDS[c].kind != CARDS[card].kind and _eligible(c, side) and c not in shown
            ]
            where, i = other[rng.below(len(other))]
            if where == "hand":
                card, hands[s][i] = hands[s][i], card
            return card

        if fd[s] is not None:
            fd[s] = (swap(fd[s][0]), fd[s][1])
        for k, (seat, x, y, card) in enumerate(smuggled):
            if seat == s:
                smuggled[k] = (seat, x, y, swap(card))
    del old
    return replace(
        new,
        hands=tuple(tuple(h) for h in hands),
        dock_piles=tuple(tuple(p) for p in piles),
        water_pile=tuple(water),
        face_down=tuple(fd),
        smuggled=tuple(smuggled),
    )


__all__ = ["redact", "redetermine_b", "view_keys", "occupancy"]


def _redact(event, viewer: int | None, data: dict) -> dict:
    if type(event) is ev.CardChosen and event.seat != viewer:
        return redact(data)
    return data


def register(hooks) -> None:
    hooks.view.append(view_keys)
    hooks.redact.append(_redact)
    hooks.redetermine.append(
        lambda original, observer, rng, slot, state: redetermine_b(original, state, observer, rng)
    )
