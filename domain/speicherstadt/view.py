"""What a seat (or the public) sees; event redaction; re-dealing the hidden stack.

Hidden while the game runs: the order of the stack (its size per season is public, and so
is what is left in each season: the card list is printed in the rules), and the seed.
The bag is public as a multiset (45 cubes, every drawn cube is shown on a ship); the
cubes to come are drawn at random when a ship is revealed, so no future is stored.
Nothing else is secret: there is no hand, so ``view["you"]`` only names the seat.
"""

from __future__ import annotations

from domain.common.codec import to_data
from domain.common.frozen import replace
from domain.speicherstadt import events as ev
from domain.speicherstadt.data import CARD, GOODS, SEASONS
from domain.speicherstadt.rules import column_on_offer, contract_needs, to_act
from domain.speicherstadt.scoring import contract_complete, score_seat
from domain.speicherstadt.state import FINISHED, State


def _goods(vector: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(GOODS, vector))


def season_counts(deck: tuple[str, ...]) -> dict[str, int]:
    return {s: sum(1 for c in deck if CARD[c].season == s) for s in SEASONS}


def view(state: State, viewer: int | None) -> dict:
    finished = state.phase == FINISHED
    offer = []
    for i, col in enumerate(state.offer):
        offer.append({"column": i, "card": col.card, "workers": list(col.workers),
                      "cubes": list(col.cubes), "status": col.status, "buyer": col.buyer})
    seats = []
    for i, seat in enumerate(state.seats):
        seats.append({
            "seat": i, "coins": seat.coins, "points": seat.points, "cards": list(seat.cards),
            "market": list(seat.market), "warehouse": list(seat.warehouse),
            "unloaded": list(seat.loose), "bought_this_round": seat.bought,
            "contracts": [{"card": c, "placed": list(p), "missing": list(contract_needs(seat, c)),
                           "complete": contract_complete(c, p)} for c, p in seat.contracts],
            "workers_placed": sum(col.workers.count(i) for col in state.offer),
            "projected_score": to_data(score_seat(seat)),
        })
    out: dict = {
        "title": "speicherstadt",
        "round": state.round,
        "phase": state.phase,
        "to_act": list(to_act(state)),
        "first_player": state.first_player,
        "last_round": state.last_round,
        "offer": offer,
        "stack": season_counts(state.deck),
        "discard": list(state.discard),
        "removed": list(state.removed),
        "bag": _goods(state.bag),
        "reserve": _goods(state.reserve),
        "seats": seats,
        "shipping": sorted(state.shipping),
        "current_offer": None,
        "you": {"seat": viewer} if viewer is not None else None,
    }
    col = column_on_offer(state)
    if col is not None:
        out["current_offer"] = {"column": state.purchase_column, "card": col.card,
                                "seat": col.workers[0], "price": len(col.workers)}
    if finished:
        out["scores"] = [to_data(line) for line in state.scores]
        out["winners"] = list(state.winners)
        out["stack_order"] = list(state.deck)
    return out


def redact_event(event, viewer: int | None) -> dict:
    data = to_data(event)
    if isinstance(event, ev.GameStarted):
        data["seed"] = None
    if isinstance(event, ev.DeckBuilt):
        data["deck"] = None
        data["stack"] = season_counts(event.deck)
    return data


def redetermine(state: State, observer: int | None, rng) -> State:
    """Re-deal the stack within each season and replace the seed: same public facts.
    Each season's cards are sorted before the shuffle, so the deal depends on which cards
    are hidden, never on where they lie."""
    if state.phase == FINISHED:
        return state
    deck: tuple[str, ...] = ()
    for season in SEASONS:
        deck += rng.shuffle(sorted(c for c in state.deck if CARD[c].season == season))
    seed = "".join(f"{rng.u64():016x}" for _ in range(4))
    return replace(state, deck=deck, seed=seed)
