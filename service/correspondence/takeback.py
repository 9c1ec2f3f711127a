"""Takeback with consent: a player asks to undo their own last move; every other person's
seat still in the game accepts or declines (domain/common/table.py decides, the history
keeps the request, the answers and the compensating ``MoveTakenBack``).

The service finds the move: the last title move of the stream not already taken back,
its command and how many events it made, and hands them to the table's
``RequestTakeback``, which checks them against the folded state (the same move, from the
same state, revealing nothing hidden or random) and which the audit record keeps as the
step's command, so ``entrepot verify`` re-decides it like any other.
"""

from __future__ import annotations

from domain.common.codec import CodecError
from domain.common.envelope import decode_command
from domain.common.table import TABLE_EVENT_NAMES, AnswerTakeback, RequestTakeback
from service.errors import IllegalCommand, NotFound, VersionConflict
from service.games.idempotency import IdempotencyKey
from service.games.service import GameService, is_game_id
from service.games.store import Game, Player, Store
from service.games.titles import title as title_of

#: How far back (events) the last move is looked for: a move is a few events, the table's
#: own (clocks, reminders, answers) may follow it.
LOOK_BACK = 400


class TakebackUnavailable(IllegalCommand):
    """422: this takeback cannot be asked or answered now; ``detail`` says why, ``rule``
    names the case (``takeback.unavailable``, ``takeback.pending``, ``takeback.none_asked``...)."""

    code = "takeback_unavailable"


class TakebackService:
    def __init__(self, store: Store, games: GameService):
        self.store = store
        self.games = games

    def request(self, caller: Player, game_id: str, seat: int | None, idem: IdempotencyKey | None = None):
        for attempt in range(3):
            game = self._game(game_id)
            seat = self.games.acting_seat(game, caller, seat)
            command = self._request_of(caller, game, seat)
            try:
                return self._run(caller, game, seat, command, idem)
            except VersionConflict:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def answer(self, caller: Player, game_id: str, seat: int | None, accept: bool,
               idem: IdempotencyKey | None = None):
        game = self._game(game_id)
        seat = self.games.acting_seat(game, caller, seat)
        return self._run(caller, game, seat, AnswerTakeback(seat, accept, _humans(game)), idem, expected=False)

    def _run(self, caller, game: Game, seat: int, command, idem, expected: bool = True):
        try:
            return self.games.execute(caller, game.id, seat, command,
                                      expected_version=game.version if expected else None, idem=idem)
        except TakebackUnavailable:
            raise
        except IllegalCommand as err:
            if err.rule.startswith("takeback."):
                raise TakebackUnavailable(err.detail, err.rule) from None
            raise

    def _request_of(self, caller: Player, game: Game, seat: int) -> RequestTakeback:
        """The table's command for taking back ``seat``'s last move, read from the stream;
        TakebackUnavailable if its last move is not there to take back."""
        if game.status != "active":
            raise TakebackUnavailable(f"this game is {game.status}", "takeback.unavailable")
        with self.store.read() as tx:
            events = tx.events(game.id, after=max(0, game.version - LOOK_BACK))
            commands = tx.commands(game.id)
        skip, last = 0, None
        for event in reversed(events):
            if event.type == "MoveTakenBack":
                skip += int(event.data["events"])
            elif event.type in TABLE_EVENT_NAMES:
                continue
            elif skip:
                skip -= 1
            else:
                last = event
                break
        command = next((c for c in commands if last is not None and c.version < last.seq <= c.last_seq), None)
        if command is None or command.command is None:
            raise TakebackUnavailable("there is no move of yours to take back", "takeback.unavailable")
        if command.seat != seat:
            raise TakebackUnavailable("another seat has moved since your last move", "takeback.unavailable")
        if command.sender != {"kind": "player", "player_id": caller.id}:
            raise TakebackUnavailable("the last move of this seat was not yours to take back (the computer made it)",
                                      "takeback.unavailable")
        count = sum(1 for e in events if command.version < e.seq <= command.last_seq
                    and e.type not in TABLE_EVENT_NAMES)
        title = title_of(game.title)
        try:
            move = decode_command(title, command.command)
        except CodecError:
            raise TakebackUnavailable("the last move cannot be taken back", "takeback.unavailable") from None
        return RequestTakeback(seat, count, command.at, _humans(game), move)

    def _game(self, game_id: str) -> Game:
        with self.store.read() as tx:
            game = tx.game(game_id) if is_game_id(game_id) else None
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game


def _humans(game: Game) -> tuple[int, ...]:
    return tuple(s.index for s in game.seats if s.player_id is not None)
