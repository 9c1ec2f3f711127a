"""Finished games played through the real service (PostgreSQL, the one write path), for
the audit tests and the verification benchmark."""

from __future__ import annotations

import random
from collections.abc import Iterator

from domain.decider import GameDefinition, OptionsError
from domain.registry import titles
from service.games.service import SeatRequest


def forms(game: GameDefinition) -> Iterator[tuple[dict, int]]:
    """(raw options, seat count) of every form of a title: each variant at its fewest and
    its most seats."""
    for variant in game.variants:
        counts = []
        for raw in ({"variant": variant}, {}):
            counts = [n for n in range(game.min_players, game.max_players + 1) if _parses(game, raw, n)]
            if counts:
                break
        for n in sorted({counts[0], counts[-1]}) if counts else ():
            yield raw, n


def _parses(game: GameDefinition, raw: dict, seat_count: int) -> bool:
    try:
        game.parse_options(raw, seat_count)
    except OptionsError:
        return False
    return True


def every_form() -> list[tuple[str, dict, int]]:
    return [(title_id, raw, n) for title_id, game in sorted(titles().items()) for raw, n in forms(game)]


def play_finished_game(services, title_id: str, raw_options: dict, seat_count: int, rng: random.Random,
                       computer_seats: tuple[int, ...] = (), max_commands: int = 5000
                       ) -> tuple[str, list[dict]]:
    """A game to its end: people send random legal commands, computer seats play their
    policy through the same write path. Returns the game id and the people's receipts."""
    people = [services.players.create(f"auditee-{i}", None).player for i in range(seat_count)]
    seats = [SeatRequest(ai="easy") if i in computer_seats else SeatRequest(player_id=people[i].id)
             for i in range(seat_count)]
    creator = people[0] if 0 not in computer_seats else people[1]
    snapshot = services.games.create(creator, title_id, raw_options, seats)
    game_id = snapshot.game.id
    for seat in snapshot.game.seats:  # nobody is seated without consent: the invited accept
        if seat.status == "invited":
            services.games.accept(people[seat.index], game_id, seat.index)
    receipts = []
    for _ in range(max_commands):
        with services.store.read() as tx:
            game = tx.game(game_id)
        if game.status == "finished":
            return game_id, receipts
        seat = rng.choice(sorted(game.to_act))
        if seat in computer_seats:
            assert services.games.play_computer(game_id, game.version, seat) == "played"
            continue
        legal = services.games.legal_commands(game_id, people[seat], seat)
        outcome = services.games.execute(people[seat], game_id, seat, rng.choice(legal.commands),
                                         expected_version=legal.version)
        receipts.append(outcome.receipt)
    raise AssertionError("the game did not end")
