"""Rules versions: the one new games record in GameStarted, and the earlier ones this code
still decides exactly as they were played (an audit re-derives a finished game under the
version it recorded; ``state.rules_version`` selects the old behaviour).

A fix that changes what some game would decide bumps the version; the fixed rule asks the
sets below for the versions played before it.
"""

from __future__ import annotations

RULES_VERSION = "amsterdam-2"

#: amsterdam-1 (issue 25): a triple of TOM's fetched the docker of the pontoon's colour
#: wherever it stood, not the docker standing on that pontoon (L927-930)
TRIPLE_BY_DOCKER_COLOUR = frozenset({"amsterdam-1"})
#: amsterdam-1: a market tile without an Amstel move put TOM on top of his space's stack
#: (« avance sur la rivière Amstel le cas échéant », L942)
TOM_CLIMBS_WITHOUT_MOVING = frozenset({"amsterdam-1"})
#: amsterdam-1: tile CB 21 offered the barge's own space (« déplacez votre barge », L2238)
CB21_MAY_STAY = frozenset({"amsterdam-1"})

#: the earlier versions still decided as played
EARLIER_VERSIONS: tuple[str, ...] = ("amsterdam-1",)
RELEASED_VERSIONS: tuple[str, ...] = (RULES_VERSION, *EARLIER_VERSIONS)
