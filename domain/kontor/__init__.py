"""Kontor (Michael Schacht): the basic 2-player game."""

from __future__ import annotations

from domain.decider import GameDefinition
from domain.kontor.commands import COMMAND_TYPES
from domain.kontor.data import component_data
from domain.kontor.decide import RULES_VERSION, decide, legal_commands, start, to_act
from domain.kontor.events import EVENT_TYPES
from domain.kontor.evolve import evolve
from domain.kontor.options import Options, options_schema, parse_options
from domain.kontor.policy import policy
from domain.kontor.view import is_finished, redact_event, redetermine, result, view

GAME = GameDefinition(
    id="kontor",
    name="Kontor",
    rules_version=RULES_VERSION,
    min_players=2,
    max_players=2,
    variants=("basic",),
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
    redact_event=redact_event,
    is_finished=is_finished,
    result=result,
    redetermine=redetermine,
    policy=policy,
    component_data=component_data,
)

__all__ = ["GAME"]
