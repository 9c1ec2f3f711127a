"""Kontor (Michael Schacht): the basic, advanced (2 players) and team (4 players) games, and
the free wheel games (« Roue libre » 2 or 4, « Roue libre individuelle » 3 or 4 players)."""

from __future__ import annotations

from domain.decider import GameDefinition
from domain.kontor.core.data import component_data
from domain.kontor.core.decide import decide, legal_commands, start, to_act
from domain.kontor.core.evolve import evolve
from domain.kontor.core.options import Options, options_schema, parse_options
from domain.kontor.core.setup import start_version
from domain.kontor.core.versions import (
    EARLIER_VERSIONS,
    RELEASED_VERSIONS,
    RULES_VERSION,
    rules_version_of,
)
from domain.kontor.core.view import is_finished, redact_event, redetermine, result, view, words_view
from domain.kontor.policy import evaluate, policy
from domain.kontor.registry import COMMAND_TYPES, EVENT_TYPES, may_confer, register_all, team_of

register_all()


GAME = GameDefinition(
    id="kontor",
    name="Kontor",
    rules_version=RULES_VERSION,
    min_players=2,
    max_players=4,
    variants=("basic", "advanced", "team", "free_wheel", "free_for_all"),
    options_type=Options,
    command_types=COMMAND_TYPES,
    event_types=EVENT_TYPES,
    parse_options=parse_options,
    options_schema=options_schema,
    start=start,
    decide=decide,
    evolve=evolve,
    to_act=to_act,
    legal_commands=legal_commands,
    view=view,
    words_view=words_view,
    redact_event=redact_event,
    is_finished=is_finished,
    result=result,
    redetermine=redetermine,
    policy=policy,
    component_data=component_data,
    team_of=team_of,
    may_confer=may_confer,
    evaluate=evaluate,
    rollout_depth=3,
    rules_version_of=lambda options: rules_version_of(options.variant),
    earlier_versions_of=lambda options: EARLIER_VERSIONS.get(options.variant or "basic", ()),
    released_versions=RELEASED_VERSIONS,
    start_version=start_version,
)

__all__ = ["GAME", "team_of"]
