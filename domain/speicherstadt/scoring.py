"""Final scoring: every card, the fires' points, coins as the tie-break."""

from __future__ import annotations

from domain.speicherstadt.data import (
    BOATMEN_CHURCH,
    CARD,
    CHAMBER_OF_COMMERCE,
    COUNTING_OFFICE,
    COUNTING_OFFICE_POINTS,
    END_POINTS,
    PORT,
    SHIP,
    ST_MICHAELIS,
    TRADER,
    WAREHOUSE,
    contract_points,
)
from domain.speicherstadt.state import ScoreLine, SeatState


def contract_complete(card_id: str, placed: tuple[str, ...]) -> bool:
    return sorted(placed) == sorted(CARD[card_id].goods)


def score_seat(seat: SeatState) -> ScoreLine:
    kinds = [CARD[c].kind for c in seat.cards]
    table = END_POINTS["table"]
    offices_table = COUNTING_OFFICE_POINTS["table"]
    offices = offices_table[min(kinds.count(COUNTING_OFFICE), len(offices_table) - 1)]
    contracts = sum(contract_points(CARD[c]) for c, placed in seat.contracts
                    if contract_complete(c, placed))
    chamber = END_POINTS["per_coin_chamber"] * seat.coins if CHAMBER_OF_COMMERCE in kinds else 0
    churches = kinds.count(BOATMEN_CHURCH) * table[BOATMEN_CHURCH] + kinds.count(
        ST_MICHAELIS) * table[ST_MICHAELIS]
    port = END_POINTS["per_ship_port"] * kinds.count(SHIP) if PORT in kinds else 0
    warehouse = END_POINTS["per_cube_warehouse"] * len(seat.warehouse) if WAREHOUSE in kinds else 0
    traders = kinds.count(TRADER) * table[TRADER]
    total = seat.points + offices + contracts + chamber + churches + port + warehouse + traders
    return ScoreLine(fire=seat.points, offices=offices, contracts=contracts, chamber=chamber,
                     churches=churches, port=port, warehouse=warehouse, traders=traders,
                     total=total, coins=seat.coins)


def winners(lines: tuple[ScoreLine, ...]) -> tuple[int, ...]:
    """Most points; tied, most coins; still tied, the win is shared."""
    best = max((line.total, line.coins) for line in lines)
    return tuple(i for i, line in enumerate(lines) if (line.total, line.coins) == best)
