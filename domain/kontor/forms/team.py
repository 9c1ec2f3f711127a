"""« L'Affrontement à Quatre » (the team game, variant ``team``; also the free wheel at four).

« Dans ce cas le jeu se joue par équipes de deux joueurs. Une équipe prend les cartes et
les gardiens d'entrepôt rouges, l'autre équipe prend les noirs. Les deux joueurs d'une
équipe utilisent le même centre de distribution dans chaque secteur. [...] Les membres de
chaque équipe poursuivent un but commun, mais chacun d'eux a ses propres cartes et possède
son propre argent. [...] Les joueurs assis directement en face l'un de l'autre forment une
paire d'adversaires. C'est dans chacune de ces paires d'adversaires qu'on détermine si des
impôts sont dus. [...] Quand les cartes jouées ont été révélées, les joueurs d'une équipe
peuvent discuter sur la façon de jouer ces deux cartes. En dehors de cette phase, il n'est
pas autorisé de communication entre les partenaires. »

The rules themselves read sides, not teams: the options' ``teams`` and ``tax_pairs``
(set by the variant's settings, core/data.py) make two seats share a colour, and
core/sides.py answers who plays which side. This module is what only the team game
shows: the teams in the view and the result, each seat's partners, and when partners may
talk.
"""

from __future__ import annotations

from domain.kontor.core.data import SEAT_COLORS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options
from domain.kontor.core.sides import seats_of, side_count, side_of, side_values
from domain.kontor.core.state import KontorState


def team_name(options: Options, seat: int) -> str | None:
    """The team colour of a seat when seats share a side, else None."""
    if not options.teams:
        return None
    return SEAT_COLORS[side_of(options, seat)]


def may_confer(state: KontorState, seat: int) -> bool:
    """« Quand les cartes jouées ont été révélées, les joueurs d'une équipe peuvent
    discuter sur la façon de jouer ces deux cartes. En dehors de cette phase, il n'est pas
    autorisé de communication entre les partenaires. »"""
    return state.phase == "place"


def teams(state: KontorState) -> list[dict]:
    """Each team: its colour, seats, points and money (« possède son propre argent »: the
    team's money is the sum, the tie-break of the team game)."""
    opts = state.options
    money = side_values(opts, state.money)
    out = []
    for side in range(side_count(opts, state.seat_count)):
        seats = seats_of(opts, side, state.seat_count)
        out.append(
            {
                "color": SEAT_COLORS[side],
                "seats": list(seats),
                "points": state.points[seats[0]] if seats else 0,
                "money": money[side],
            }
        )
    return out


# the view's parts and the result's keys: registered in team games only (registry.ACTIVE)
def _teams_view(state: KontorState, out: dict) -> None:
    out["teams"] = teams(state)
    for t in out["teams"]:
        t["points"] = out["players"][t["seats"][0]]["points"]


def _partners_view(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    opts = state.options
    if viewer is None:
        return
    side = side_of(opts, viewer)
    out["you"]["team"] = SEAT_COLORS[side]
    out["you"]["partners"] = [s for s in seats_of(opts, side, state.seat_count) if s != viewer]


def _result(state: KontorState, detail: dict) -> None:
    detail["teams"] = teams(state)
    detail["tie_break"] = "team money"


def register(hooks: Hooks) -> None:
    hooks.add_view(lambda state, out, cells, viewer: _teams_view(state, out), name="teams", after="variant")
    hooks.add_view(_partners_view, name="team_partners", after="you")
    hooks.result.append(_result)
