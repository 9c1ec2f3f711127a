"""`entrepot-play GAME`: play a game in the terminal, drawn with rich.

    entrepot-play [--url URL] [--token TOKEN] [--seat N] GAME

Shows the board, the seats, your hand and the clock; when it is your turn, numbers your
legal moves: type a number to play it, `r` to look again, `q` to leave. It never prints a
traceback: a bad input or a server that is down gets one line saying what happened.
"""

from __future__ import annotations

import argparse
import sys
import time

from rich.console import Console
from rich.markup import escape

from clients.config import add_connection_arguments
from clients.sdk import ApiError, Client, EntrepotError
from clients.terminal import game_panel, moves_table


def choose(console: Console, count: int) -> int | str:
    while True:
        try:
            answer = console.input(f"move 1-{count}, r to refresh, q to quit: ").strip().lower()
        except EOFError:
            return "q"
        if answer in ("q", "r"):
            return answer
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        console.print(f"[red]'{answer}' is not a move number between 1 and {count}[/red]")


def play(client: Client, console: Console, game_id: str, seat: int | None, poll: float) -> int:
    while True:
        game = client.game(game_id, seat)
        console.print(game_panel(game))
        if game["status"] != "active":
            return 0
        legal = client.legal_commands(game_id, seat)
        if not legal["commands"]:
            console.print("waiting for the other seats…")
            time.sleep(poll)
            continue
        console.print(moves_table(legal["commands"], legal.get("descriptions")))
        answer = choose(console, len(legal["commands"]))
        if answer == "q":
            return 0
        if answer == "r":
            continue
        try:
            client.command(game_id, legal["commands"][answer], seat=legal["seat"],
                           expected_version=legal["version"])
        except ApiError as err:
            console.print(f"[red]refused: {err.detail} ({err.code})[/red]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="entrepot-play", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    add_connection_arguments(parser)
    parser.add_argument("--seat", type=int, default=None)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks while waiting")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    try:
        return play(Client(args.url, args.token), console, args.game, args.seat, args.poll)
    except ApiError as err:
        console.print(f"[red]entrepot-play: {err.detail or err.code} ({err.status} {err.code})[/red]")
    except EntrepotError as err:  # the server is down, or it timed out
        console.print(f"[red]entrepot-play: {escape(str(err))}[/red]")
    except KeyboardInterrupt:
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
