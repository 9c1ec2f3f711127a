"""Special rule « Misère » (``poverty``, 2 and 4 players; switch ``poverty_end``).

« Disposition initiale normale. Plateau : 7x7 cases. Chaque joueur ne reçoit que trois
florins ; le reste est enlevé du jeu. Il n'y a donc que six florins dans le jeu à 2, et 12
dans celui à 4. Si un joueur n'a plus d'argent, et qu'il n'y en a pas dans la trésorerie,
la partie se termine prématurément et l'adversaire gagne. »

The board and the money are switches (rules/settings.py); this module ends the game
between two moves.
"""

from __future__ import annotations

from domain.kontor.core.hooks import Hooks
from domain.kontor.core.sides import seats_of, side_count, side_of
from domain.kontor.rules.pending_step import waiting_step


def check_poverty(log) -> None:
    """After every command: a seat without money and an empty treasury end the game; the
    other sides win (at 4, the broke seat's team loses)."""
    st = log.state
    if st.phase in ("over", "starting_docks") or waiting_step(st):
        return
    opts = st.options
    if opts.poverty_end and st.treasury == 0 and any(m == 0 for m in st.money):
        broke_sides = {side_of(opts, s) for s in range(st.seat_count) if st.money[s] == 0}
        sides = side_count(opts, st.seat_count)
        winning = [side for side in range(sides) if side not in broke_sides]
        winners = tuple(s for side in winning for s in seats_of(opts, side, st.seat_count))
        log.end_game("poverty", winners or None)


def register(hooks: Hooks) -> None:
    hooks.add_step("poverty", lambda log, _: check_poverty(log) or False, after="command_over")
