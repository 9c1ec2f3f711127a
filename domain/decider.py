"""The shape of a title: a Decider, and the types every title and the service share.

A title is a pure function pair over frozen data:

    decide(state, issued) -> list[Event]   every rule, check and random draw
    evolve(state, event)  -> state         applies a fact, decides nothing

The first events of a game come from ``start(options, seat_count, seed)``; a state is
the left fold of ``evolve`` over a game's events, starting from ``None``.

Commands arrive wrapped in ``Issued``, which carries what the pure core may not fetch
for itself: the acting seat and the time.  Seeds arrive in ``start`` and live in the
state; every random draw goes through ``domain.rng`` keyed by that seed and a counter
kept in the state (see rng.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The viewer that holds no seat: the public.
SPECTATOR = None


class RuleViolation(Exception):
    """A command the rules forbid.

    ``code`` is stable and machine-readable (``kontor.crane_blocks_dock``); ``message``
    names the rule in words a player understands, ideally with the rulebook passage.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class NotYourTurn(RuleViolation):
    """The seat may not act now (it is not among ``to_act``)."""

    def __init__(self, message: str = "It is not this seat's turn to act."):
        super().__init__("not_your_turn", message)


class GameOver(RuleViolation):
    def __init__(self, message: str = "The game is over."):
        super().__init__("game_over", message)


class OptionsError(Exception):
    """Options that do not describe a playable game. ``errors`` maps field -> messages."""

    def __init__(self, errors: Mapping[str, Sequence[str]]):
        super().__init__("; ".join(f"{k}: {', '.join(v)}" for k, v in errors.items()))
        self.errors = {k: list(v) for k, v in errors.items()}


@dataclass(frozen=True)
class Issued:
    """A command as it reaches ``decide``: who sends it, and when.

    ``seat`` is None for commands of the system itself (timers).  ``at`` is an RFC 3339
    UTC time supplied by the shell; rules that need a clock read it from here.
    """

    seat: int | None
    at: str
    command: Any


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)
    #: why the game ended ("scored" | "timeout" | "resigned" | "abandoned" | "aborted"),
    #: given by the table of correspondence play (domain/common/table.py); titles leave it
    reason: str | None = None
    #: (seat, why it left) of each seat that left the game before its end
    out: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class GameDefinition:
    """Everything the service needs to host a title. Each title exports one as ``GAME``.

    Functions (all pure):
      parse_options(raw: Mapping, seat_count: int) -> Options     raises OptionsError
      options_schema() -> dict                                    JSON Schema of raw options
      start(options, seat_count, seed_hex) -> list[Event]         setup, all random draws
      decide(state, Issued) -> list[Event]                        raises RuleViolation
      evolve(state | None, event) -> state
      to_act(state) -> tuple[int, ...]                            seats that may act now
      legal_commands(state, seat) -> list[Command]                every command seat may send
      view(state, viewer: int | None) -> dict                     JSON-ready, redacted
      redact_event(event, viewer: int | None) -> dict             JSON-ready event data
      is_finished(state) -> bool
      result(state) -> Result | None
      redetermine(state, observer: int | None, rng) -> state      hidden info re-dealt
      policy(state, seat, rng, level: str) -> Command             the computer player
      component_data() -> dict                                    cards/board for clients
      evaluate(state, seat) -> float in [0, 1]   optional: the seat's winning chances, for
                                                 the search's rollouts cut after
                                                 ``rollout_depth`` decisions
    """

    id: str
    name: str
    rules_version: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]
    options_type: type
    command_types: tuple[type, ...]
    event_types: tuple[type, ...]
    parse_options: Callable[[Mapping[str, Any], int], Any]
    options_schema: Callable[[], dict]
    start: Callable[[Any, int, str], list[Any]]
    decide: Callable[[Any, Issued], list[Any]]
    evolve: Callable[[Any, Any], Any]
    to_act: Callable[[Any], tuple[int, ...]]
    legal_commands: Callable[[Any, int], list[Any]]
    view: Callable[[Any, int | None], dict]
    redact_event: Callable[[Any, int | None], dict]
    is_finished: Callable[[Any], bool]
    result: Callable[[Any], Result | None]
    redetermine: Callable[[Any, int | None, Any], Any]
    policy: Callable[[Any, int, Any, str], Any]
    component_data: Callable[[], dict]
    #: (event type name, schema_version) -> function(old data dict) -> data dict of
    #: the next version.  Stored events are never edited; old shapes are upcast on load.
    upcasters: Mapping[tuple[str, int], Callable[[dict], dict]] = field(default_factory=dict)
    #: Computer levels this title's policy understands.
    ai_levels: tuple[str, ...] = ("easy", "normal", "strong")
    #: team_of(options, seat) -> a team name, or None where seats play alone.
    team_of: Callable[[Any, int], str | None] = field(default=lambda options, seat: None)
    #: may_confer(state, seat) -> whether partners may talk now (a rulebook may allow
    #: discussion only at certain moments, e.g. Kontor's team game after the reveal).
    may_confer: Callable[[Any, int], bool] = field(default=lambda state, seat: True)
    #: evaluate(state, seat) -> the seat's chances in [0, 1]; None: the search's rollouts
    #: play to the end (domain/common/search.py)
    evaluate: Callable[[Any, int], float] | None = None
    #: words_view(state, viewer) -> the part of ``view`` the viewer's legal commands are
    #: said in words from (service/games/moves.py), cheaper to build; None: the whole view
    words_view: Callable[[Any, int | None], dict] | None = None
    #: rollout decisions before ``evaluate`` is asked
    rollout_depth: int | None = None
    #: rules_version_of(options) -> the rules version a game with these options is played
    #: under (recorded in its first event), where it depends on the options; else
    #: ``rules_version``.
    rules_version_of: Callable[[Any], str] | None = None
    #: Every rules version this code still decides exactly as released (an audit replays a
    #: finished game under the version it was played with, or refuses clearly).
    released_versions: tuple[str, ...] = ()
    #: earlier_versions_of(options) -> released versions before the current one that games
    #: with these options were played under (still decided as played: the rules ask
    #: ``state.rules_version`` where a later version changed them)
    earlier_versions_of: Callable[[Any], tuple[str, ...]] = field(default=lambda options: ())
    #: start_version(options, seat_count, seed_hex, rules_version) -> the setup events of a
    #: game played under that version (an earlier one too); None: ``start``
    start_version: Callable[[Any, int, str, str], list[Any]] | None = None

    def view_for_words(self, state: Any, viewer: int | None) -> dict:
        """What the viewer's commands are said in words from: ``words_view`` where the title
        has one, else the whole view."""
        return (self.words_view or self.view)(state, viewer)

    def fold(self, events: Sequence[Any], state: Any = None) -> Any:
        for event in events:
            state = self.evolve(state, event)
        return state

    def rules_version_for(self, options: Any) -> str:
        return self.rules_version_of(options) if self.rules_version_of else self.rules_version

    def plays_version(self, options: Any, rules_version: str) -> bool:
        """Whether a game with these options may have been played under that version."""
        return rules_version == self.rules_version_for(options) or rules_version in (
            self.earlier_versions_of(options)
        )

    def decides_version(self, rules_version: str) -> bool:
        """Whether this code decides games of that rules version as released."""
        return rules_version in (self.released_versions or (self.rules_version,))

    def seat_count_allowed(self, seat_count: int) -> bool:
        return self.min_players <= seat_count <= self.max_players


def event_name(event_or_type: Any) -> str:
    """The explicit, permanent type name of an event or command class (``TYPE``)."""
    return event_or_type.TYPE


def schema_version(event_or_type: Any) -> int:
    return getattr(event_or_type, "SCHEMA_VERSION", 1)
