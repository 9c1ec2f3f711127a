"""The patrol ship (« Le bateau », advanced and team games).

« Quand un joueur joue une carte avec un bateau, il peut alors, avant d'effectuer l'action
"placer la carte", déplacer le bateau ... sur n'importe quel canal de son choix sur le
plateau sauf celui sur lequel il se trouve actuellement. » ; « un ou plusieurs docks
adjacents à ce canal comportent un bateau et n'appartiennent pas à un secteur terminé,
l'un de ces docks peut être enlevé. Il est replacé sous la pile de son propriétaire. »

Hook point: ``ship_protected`` (docks the ship may not remove: special rule Protection,
the free wheel's finished sectors); the scenarios without ship set ``Options.ship`` to
False.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.kontor.core.board import Pos, neighbours, occupancy
from domain.kontor.core.commands import MoveShip
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import rules_for
from domain.kontor.core.placement import scored_cells
from domain.kontor.core.sides import owner_side, seats_of
from domain.kontor.core.state import KontorState
from domain.kontor.core.versions import SHIP_REMOVAL_BY_PRINTED_COLOUR


def may_move_ship(state: KontorState, seat: int) -> bool:
    """The placer's revealed card shows a ship and it has not moved the ship yet."""
    if not state.options.ship or state.ship is None or state.phase != "place":
        return False
    if not state.order or state.order[0] != seat or state.ship_moved:
        return False
    card = state.revealed[seat]
    return card is not None and CARDS[card].ship


def targets(state: KontorState, cells: Mapping[Pos, int]) -> list[Pos]:
    """Water cards (canals, the anchor, floods) other than the ship's own."""
    out = [p for p, c in cells.items() if CARDS[c].is_water and p != state.ship]
    return sorted(out, key=lambda p: (p[1], p[0]))


def removable(state: KontorState, cells: Mapping[Pos, int], pos: Pos) -> list[Pos]:
    """Docks next to ``pos`` showing a ship, outside finished sectors (« Les docks sans
    bateau sont inamovibles, ainsi que tous les canaux et tous les docks d'un secteur
    terminé »)."""
    closed = scored_cells(state)
    protected = rules_for(state.options).ship_protected
    out = []
    for n in neighbours(pos):
        card = cells.get(n)
        if card is None or n in closed:
            continue
        c = CARDS[card]
        if c.kind == "dock" and c.ship:
            if any(protects(state, cells, n) for protects in protected):
                continue
            out.append(n)
    return sorted(out, key=lambda p: (p[1], p[0]))


def pile_seats(state: KontorState, card: int) -> tuple[int, ...]:
    """Whose pile may receive a removed dock: its owner's (« Il est replacé sous la pile
    de son propriétaire »), or in the team game the remover's choice among that colour's
    players (« il peut choisir lequel de ses adversaires mettra la carte sous sa pile »).
    In free for all the owner is whoever placed it (« Chaque joueur peut jouer n'importe
    quel dock. Il place ensuite un marqueur à sa couleur »), not its printed colour; the
    dock goes under the one common pile. (Games of a version before that reading keep
    the printed colour: versions.py.)"""
    if state.rules_version in SHIP_REMOVAL_BY_PRINTED_COLOUR:
        return seats_of(state.options, CARDS[card].owner, state.seat_count)
    owner = owner_side(state, card)
    return () if owner is None else seats_of(state.options, owner, state.seat_count)


def ship_commands(state: KontorState, seat: int) -> list[MoveShip]:
    if not may_move_ship(state, seat):
        return []
    cells = occupancy(state)
    out: list[MoveShip] = []
    for x, y in targets(state, cells):
        out.append(MoveShip(x, y))
        for rx, ry in removable(state, cells, (x, y)):
            for to in pile_seats(state, cells[(rx, ry)]):
                out.append(MoveShip(x, y, rx, ry, to))
    return out


def any_removal(state: KontorState) -> bool:
    cells = occupancy(state)
    return any(removable(state, cells, p) for p in targets(state, cells))
