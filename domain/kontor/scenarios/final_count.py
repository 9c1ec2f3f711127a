"""The final count several scenarios change (switches ``final_selection``, ``final_count``,
``final_min_docks``, ``final_max_docks``, ``final_straight`` of scenarios/data.py):

« Seuls les trois plus petits secteurs rapportent des points de victoire » (David et
Goliath) ; « Seuls les 5 les plus petits secteurs seront comptabilisés. S'il y a plus de
cinq secteurs et qu'il faut résoudre une égalité, c'est le secteur le plus éloigné de
l'ancre qui est considérée comme le plus petit ... Si l'égalité persiste, aucun des
secteurs ex æquo n'est comptabilisé ; cela peut impliquer que d'autres secteurs soient
comptabilisés à la place » (Small is beautiful) ; « Seuls les secteurs comportant moins de
4 docks rapportent » (Toujours plus petit) ; « Les secteurs ne sont comptabilisés que si
tous les docks de ce secteur sont en ligne droite » (Je ne veux voir qu'une tête).

The N largest and « Tous les secteurs rapportent » are the core's (core/scoring.py).
Hook point: ``final_selection``.
"""

from __future__ import annotations

from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options
from domain.kontor.core.scoring import fill_slots
from domain.kontor.core.state import KontorState


def is_straight(sector) -> bool:
    """« tous les docks de ce secteur sont en ligne droite »: one row or one column."""
    xs = {p[0] for p in sector}
    ys = {p[1] for p in sector}
    return len(xs) == 1 or len(ys) == 1


def own_selection(options: Options) -> bool:
    return (
        options.final_selection in ("smallest", "every")
        or options.final_straight
        or options.final_max_docks > 0
    )


def select_final(state: KontorState, sizes, dists) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counted, eliminated) for the scenarios' final counts.

    Eligible: at least ``final_min_docks`` docks, at most ``final_max_docks`` (« moins de 4
    docks »), in a straight line when ``final_straight``.  Then "every" counts them all;
    "largest" the N largest (ties: nearer the anchor first, the advanced rule);
    "smallest" the N smallest (« c'est le secteur le plus éloigné de l'ancre qui est
    considérée comme le plus petit ... Si l'égalité persiste, aucun des secteurs ex æquo
    n'est comptabilisé ; cela peut impliquer que d'autres secteurs soient comptabilisés à
    la place »)."""
    opts = state.options
    eligible = []
    for i, s in enumerate(state.scored):
        n = sizes[i]
        if n < opts.final_min_docks:
            continue
        if opts.final_max_docks and n > opts.final_max_docks:
            continue
        if opts.final_straight and not is_straight(s.cells):
            continue
        eligible.append(i)
    if opts.final_selection in ("every", "all") or len(eligible) <= opts.final_count:
        return tuple(sorted(eligible)), ()
    far = 10**6

    def dist(i: int) -> int:
        return dists[i] if dists[i] is not None else far

    if opts.final_selection == "smallest":

        def key(i: int) -> tuple[int, int]:
            return (sizes[i], -dist(i))
    else:

        def key(i: int) -> tuple[int, int]:
            return (-sizes[i], dist(i))

    return fill_slots(eligible, key, opts.final_count)


def final_selection(state: KontorState, sizes, dists):
    """The scenarios' own selection, or None (the core's N largest or every sector)."""
    return select_final(state, sizes, dists) if own_selection(state.options) else None


def register(hooks: Hooks) -> None:
    hooks.final_selection.append(final_selection)
