"""Phase 3, taxes: a florin card makes the opponents in its tax group pay the treasury.

Groups come from ``sides.tax_groups``: the two players of the 2-player game, or each pair
of facing opponents in the team game. Extension point: free wheel's taxes on one's own
turn, and special rules changing money, hook in here.
"""

from __future__ import annotations

from domain.kontor.core import events as ev
from domain.kontor.core.data import CARDS, SETUP
from domain.kontor.core.sides import tax_groups


def collect_taxes(log) -> None:
    st = log.state
    for group in tax_groups(st.options, st.seat_count):
        _group_taxes(log, group)


def _group_taxes(log, group: tuple[int, ...]) -> None:
    """Impôts: a florin card makes each opponent that plays a card pay 1 to the treasury."""
    st = log.state
    cards = st.revealed
    florin = {s: cards[s] is not None and CARDS[cards[s]].florin for s in group}
    # a seat that passed is spared all tax; otherwise it owes if an opponent shows a florin
    owes = [s for s in group if cards[s] is not None and any(florin[o] for o in group if o != s)]
    if not owes:
        return
    tax = SETUP["tax"]
    unable = [s for s in owes if st.money[s] < tax]
    if len(unable) == len(owes) and len(owes) == len(group):
        # "ils en sont alors tous deux dispensés, et reçoivent au contraire un florin"
        treasury = st.treasury
        gifts = []
        for _s in owes:
            g = min(SETUP["exemption_income"], treasury)
            treasury -= g
            gifts.append(g)
        log.emit(ev.TaxWaived(tuple(owes), tuple(gifts)))
        return
    for s in unable:
        # "vous devez reprendre la carte que vous aviez jouée dans la main"
        log.emit(ev.CardReturned(s, cards[s], "tax_unpaid"))
    for s in owes:
        if s in unable:
            continue
        # "Si la carte que vous reprenez en main montrait un florin, votre adversaire n'a
        # plus à payer l'impôt."
        still_taxing = [o for o in group if o != s and florin[o] and o not in unable]
        if still_taxing:
            log.emit(ev.TaxPaid(s, tax))
        else:
            log.emit(ev.TaxCancelled(s))
