"""Alliances of « Roue libre individuelle » (rule 4), for 3 or 4 players.

« Si deux joueurs sont d'accord, ils peuvent déclarer une alliance dans un secteur,
regroupant alors leurs entrepôts dans un centre de distribution unique. Le centre de
l'alliance est comparé aux autres centres de distribution comme il en serait pour un
simple joueur. Un joueur ne peut rejoindre ou quitter une alliance qu'avant de jouer sa
carte à son tour de jeu. Une alliance ne peut comporter que deux joueurs. Si deux
secteurs ou plus se rejoignent, avec pour conséquence qu'un joueur se retrouve soudain
allié à plus d'un autre joueur, toutes les alliances impliquant les joueurs concernés
sont immédiatement rompues ... Les joueurs peuvent former de nouvelles alliances dès leur
prochain tour de jeu. »

Model: an alliance is (seat a, seat b, the sector's cells when declared).  It applies to
every current sector that contains one of those cells, so it follows the sector as it
grows, and both parts keep it if the sector is split.  Consent in asynchronous play: the
seat whose turn it is sends ``ProposeAlliance{x, y, seat}`` before playing its card; the
game waits for the partner's ``AcceptAlliance`` or ``DeclineAlliance`` (at most one
proposal per turn), then the turn goes on.  ``LeaveAlliance{x, y}`` ends one's alliance
in that sector, on one's own turn before playing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.decider import RuleViolation
from domain.kontor.core.board import Pos, sector_of, sectors
from domain.kontor.core.data import CARDS
from domain.kontor.core.sides import side_count
from domain.kontor.core.state import KontorState
from domain.kontor.forms.free_wheel.commands import AcceptAlliance, LeaveAlliance, ProposeAlliance
from domain.kontor.forms.free_wheel.events import (
    AllianceDeclared,
    AllianceDeclined,
    AllianceEnded,
    AllianceProposed,
)
from domain.kontor.forms.free_wheel.state import fw


def pairs_in(
    alliances: Iterable[tuple[int, int, tuple[Pos, ...]]], sector: Iterable[Pos]
) -> list[tuple[int, int]]:
    """The allied pairs of a sector (each once), in declaration order."""
    cells = set(sector)
    out: list[tuple[int, int]] = []
    for a, b, where in alliances:
        if (a, b) not in out and any(p in cells for p in where):
            out.append((a, b))
    return out


def parties_of(state: KontorState, sector: Iterable[Pos]) -> tuple[tuple[int, ...], ...]:
    """The parties compared in a sector: each side alone, or an alliance as one."""
    n = side_count(state.options, state.seat_count)
    if not state.options.alliances or not fw(state).alliances:
        return tuple((s,) for s in range(n))
    used: set[int] = set()
    parties: list[tuple[int, ...]] = []
    for a, b in pairs_in(fw(state).alliances, sector):
        if a in used or b in used:
            continue  # a conflict is broken at once by decide; never seen after it
        parties.append((a, b))
        used |= {a, b}
    parties += [(s,) for s in range(n) if s not in used]
    return tuple(sorted(parties))


def _dock_sector(cells: Mapping[Pos, int], x: int, y: int) -> frozenset[Pos] | None:
    card = cells.get((x, y))
    if card is None or not CARDS[card].is_dock:
        return None
    return sector_of(cells, (x, y))


def may_propose(state: KontorState, seat: int) -> bool:
    return (
        state.options.alliances
        and state.phase == "turn"
        and fw(state).current == seat
        and not fw(state).proposed
        and seat not in fw(state).barred
    )


def alliance_commands(state: KontorState, seat: int, cells: Mapping[Pos, int]) -> list:
    """ProposeAlliance (one cell per sector) and LeaveAlliance the seat may send now."""
    if not state.options.alliances or state.phase != "turn" or fw(state).current != seat:
        return []
    out: list = []
    for sector in sectors(cells):
        x, y = min(sector, key=lambda p: (p[1], p[0]))
        pairs = pairs_in(fw(state).alliances, sector)
        allied = {s for pair in pairs for s in pair}
        if seat in allied:
            out.append(LeaveAlliance(x, y))
            continue
        if not may_propose(state, seat):
            continue
        for partner in range(state.seat_count):
            if partner != seat and partner not in allied and partner not in fw(state).barred:
                out.append(ProposeAlliance(x, y, partner))
    return out


def propose(log, seat: int, cmd: ProposeAlliance, cells: Mapping[Pos, int]) -> None:
    st = log.state
    if not may_propose(st, seat):
        raise RuleViolation(
            "kontor.alliance_timing",
            "An alliance is declared on one's own turn before playing a card, once per turn, "
            "and not in the turn one's alliances were broken (« Un joueur ne peut rejoindre "
            "ou quitter une alliance qu'avant de jouer sa carte à son tour de jeu »).",
        )
    sector = _dock_sector(cells, cmd.x, cmd.y)
    partner = cmd.seat
    if sector is None or not (0 <= partner < st.seat_count) or partner == seat:
        raise RuleViolation(
            "kontor.alliance_target",
            "Name a dock of the sector and another player (« déclarer une alliance dans un "
            "secteur »).",
        )
    allied = {s for pair in pairs_in(fw(st).alliances, sector) for s in pair}
    if seat in allied or partner in allied or partner in fw(st).barred:
        raise RuleViolation(
            "kontor.alliance_size",
            "An alliance has two players, and a player has one ally per sector (« Une "
            "alliance ne peut comporter que deux joueurs »).",
        )
    log.emit(AllianceProposed(seat, partner, cmd.x, cmd.y))


def answer(log, seat: int, cmd, cells: Mapping[Pos, int]) -> None:
    st = log.state
    if st.phase != "alliance" or fw(st).proposal is None or fw(st).proposal[1] != seat:
        raise RuleViolation("kontor.no_proposal", "No alliance proposal awaits your answer.")
    if isinstance(cmd, AcceptAlliance):
        proposer, partner, x, y = fw(st).proposal
        sector = sector_of(cells, (x, y))
        ordered = tuple(sorted(sector, key=lambda p: (p[1], p[0])))
        log.emit(AllianceDeclared(tuple(sorted((proposer, partner))), ordered))
    else:
        log.emit(AllianceDeclined(seat))


def leave(log, seat: int, cmd: LeaveAlliance, cells: Mapping[Pos, int]) -> None:
    st = log.state
    if not st.options.alliances or st.phase != "turn" or fw(st).current != seat:
        raise RuleViolation(
            "kontor.alliance_timing",
            "One leaves an alliance on one's own turn before playing a card (« qu'avant de "
            "jouer sa carte à son tour de jeu »).",
        )
    sector = _dock_sector(cells, cmd.x, cmd.y)
    pairs = pairs_in(fw(st).alliances, sector) if sector is not None else []
    mine = [p for p in pairs if seat in p]
    if not mine:
        raise RuleViolation("kontor.no_alliance", "You have no alliance in that sector.")
    for a, b, where in fw(st).alliances:
        if (a, b) == mine[0] and any(p in sector for p in where):
            log.emit(AllianceEnded((a, b), where, "left"))


def check_alliances(log, cells: Mapping[Pos, int]) -> None:
    """After the board changed: an alliance whose sector is gone ends; when merged
    sectors ally a player to more than one other, every alliance of that player ends
    (« toutes les alliances impliquant les joueurs concernés sont immédiatement
    rompues »)."""
    st = log.state
    if not fw(st).alliances:
        return
    for a, b, where in fw(st).alliances:
        if not any(p in cells and CARDS[cells[p]].is_dock for p in where):
            log.emit(AllianceEnded((a, b), where, "sector_gone"))
    st = log.state
    concerned: set[int] = set()
    for sector in sectors(cells):
        pairs = pairs_in(fw(st).alliances, sector)
        for seat in range(st.seat_count):
            if len({p for p in pairs if seat in p}) > 1:
                concerned.add(seat)
    if concerned:
        for a, b, where in fw(st).alliances:
            if a in concerned or b in concerned:
                log.emit(AllianceEnded((a, b), where, "merged"))
