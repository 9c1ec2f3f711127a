"""Rules versions: the one each variant's new games record in GameStarted, and the earlier
ones this code still decides exactly as they were played (an audit re-derives a finished
game under the version it recorded; ``state.rules_version`` selects the old behaviour).

A fix that changes what some game would decide bumps the versions of the variants it
touches; the fixed rule asks the tables below for the versions played before it.
"""

from __future__ import annotations

#: variant -> the rules version its new games record
RULES_VERSIONS: dict[str, str] = {
    "basic": "kontor-basic-2",
    "advanced": "kontor-advanced-2",
    "team": "kontor-team-2",
    "free_wheel": "kontor-free-wheel-2",
    "free_for_all": "kontor-free-for-all-3",
}
RULES_VERSION = RULES_VERSIONS["basic"]

#: Libre choix judged a card in hand by its printed kind (only plain docks and canals
#: counted) before « Le pont est considéré comme un dock » was read into it (issue 13)
FREE_DRAW_BY_PRINTED_KIND = frozenset({"kontor-basic-1", "kontor-advanced-1", "kontor-team-1"})
#: free for all sent a dock the ship removed under the pile of its printed colour before
#: « replacé sous la pile de son propriétaire » meant whoever placed it (issue 13)
SHIP_REMOVAL_BY_PRINTED_COLOUR = frozenset({"kontor-free-for-all-1"})
#: the free wheel games judged a draw by the pile it came from (the dock pile brought a
#: dock, the canal pile a canal) though the special cards are shuffled into the canal pile,
#: before « Le pont est considéré comme un dock » was read into the drawn card (issue 25)
FREE_WHEEL_DRAW_BY_PILE = frozenset(
    {"kontor-free-wheel-1", "kontor-free-for-all-1", "kontor-free-for-all-2"}
)

#: variant -> the earlier versions still decided as played
EARLIER_VERSIONS: dict[str, tuple[str, ...]] = {
    "basic": ("kontor-basic-1",),
    "advanced": ("kontor-advanced-1",),
    "team": ("kontor-team-1",),
    "free_wheel": ("kontor-free-wheel-1",),
    "free_for_all": ("kontor-free-for-all-2", "kontor-free-for-all-1"),
}
RELEASED_VERSIONS: tuple[str, ...] = tuple(RULES_VERSIONS.values()) + tuple(
    v for earlier in EARLIER_VERSIONS.values() for v in earlier
)


def rules_version_of(variant: str | None) -> str:
    return RULES_VERSIONS.get(variant or "basic", RULES_VERSION)
