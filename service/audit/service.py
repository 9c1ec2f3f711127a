"""Audit records (docs/audit.md): a game's history as one self-contained JSON document.

Once a game is over its record is complete: the seed and the chain key, and per step the
command as received, who sent it, the events it produced and the chain hash, so anyone can
re-derive every event offline (``entrepot verify``). Before the end the record holds only
what a spectator may see: redacted events, no command (a command may name a hidden card),
and hashes only on a keyed chain (v2), which cannot be tested against a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.decider import GameDefinition
from service.audit import chain
from service.games.service import viewer_of
from service.games.states import decode
from service.games.store import Game, StoredCommand, StoredEvent
from service.games.titles import title as title_of
from verifier.record import FORMAT, RNG, event_json


def build_record(game: Game, events: Sequence[StoredEvent], commands: Sequence[StoredCommand],
                 seed: str | None, chain_key: str | None, keys: Sequence[dict]) -> dict:
    """The record of ``game`` from its stored rows; complete only when it is finished (then
    ``seed`` and ``chain_key`` are its secrets, revealed)."""
    title = title_of(game.title)
    complete = game.status == "finished"
    hashes_public = complete or game.chain != chain.CHAIN_V1
    steps = [
        _step(title, run, command, complete, hashes_public)
        for run, command in _steps(events, commands)
    ]
    return {
        "format": FORMAT,
        "game_id": game.id,
        "title": game.title,
        "rules_version": game.rules_version,
        "options": game.options,
        "seat_count": game.seat_count,
        "seats": [{"index": s.index, "player_id": s.player_id, "name": s.name, "ai": s.ai} for s in game.seats],
        "status": game.status,
        "complete": complete,
        "rng": RNG,
        "chain": game.chain,
        "genesis": chain.genesis(game.id),
        "chain_key": chain_key if complete else None,
        "seed_commitment": game.seed_commitment,
        "seed_source": game.seed_source,
        "seed": seed if complete else None,
        # what a client can check with this record alone, now
        "checkable": {
            "chain": complete,
            "seed": complete,
            "events": complete and all(command is not None for _, command in _steps(events, commands)),
        },
        "steps": steps,
        "result": game.result,
        "keys": list(keys),
    }


def _steps(events: Sequence[StoredEvent], commands: Sequence[StoredCommand]):
    """(events, their command or None) per step: each stored command's events, and each run
    of events without a stored command (games played before commands were recorded)."""
    by_version = {c.version: c for c in commands}
    at = 0
    while at < len(events):
        command = by_version.get(at)
        if command is not None:
            end = command.last_seq
        else:
            end = min((v for v in by_version if v > at), default=len(events))
        yield events[at:end], command
        at = end


def _step(title: GameDefinition, events: Sequence[StoredEvent], command: StoredCommand | None,
          complete: bool, hashes_public: bool) -> dict:
    rendered = []
    for stored in events:
        data = stored.data if complete else title.redact_event(decode(title, stored), None)
        event = event_json(stored.seq, stored.type, stored.schema_version, stored.seat, stored.at, data)
        if hashes_public:
            event["hash"] = stored.hash
        rendered.append(event)
    step: dict[str, Any] = {
        "version": events[0].seq - 1,
        "recorded": command is not None,
        "seat": command.seat if command else None,
        "sender": command.sender if command else None,
        "at": command.at if command else None,
        # a command may name what is hidden (a face-down card): only once the game is over
        "command": command.command if command and complete else None,
        "events": rendered,
    }
    if hashes_public:
        step["hash"] = events[-1].hash
    return step


class AuditService:
    def __init__(self, store, games, keys=None):
        self.store = store
        self.games = games
        self.keys = keys

    def record(self, game_id: str, caller=None) -> dict:
        with self.store.read() as tx:
            game = self.games.game_row(tx, game_id)
            viewer_of(game, caller, None)  # a private game is its players' only
            return self._record(tx, game)

    def finished(self, title: str | None, after, before, cursor: tuple[str, str] | None,
                 limit: int) -> tuple[list[tuple[Game, str]], tuple[str, str] | None]:
        """A page of finished games (oldest first) and the cursor after it, or None at the end."""
        if title is not None:
            title_of(title)  # an unknown title is a 422, not an empty page
        with self.store.read() as tx:
            page = tx.finished_games(title, after, before, cursor, limit)
        following = (page[-1][1], page[-1][0].id) if len(page) == limit else None
        return page, following

    def records(self, games: list[tuple[Game, str]]):
        """The records of these finished games, one at a time (a page may be large)."""
        for game, finished_at in games:
            with self.store.read() as tx:
                yield {**self._record(tx, game), "finished_at": finished_at}

    def _record(self, tx, game: Game) -> dict:
        events = tx.events(game.id, upto=game.version)
        commands = tx.commands(game.id, upto=game.version)
        seed, chain_key = tx.secrets(game.id) if game.status == "finished" else (None, None)
        keys = self.keys.published(tx) if self.keys is not None else []
        return build_record(game, events, commands, seed, chain_key, keys)
