"""`entrepot-play GAME`: play a game in the terminal, drawn with rich.

    entrepot-play [--url URL] [--token TOKEN] [--seat N] GAME

Shows the board, the seats, your hand and the clock; when it is your turn, numbers your
legal moves: type a number to play it, `r` to look again, `q` to leave. It never prints a
traceback: a bad input or a server that is down gets one line saying what happened.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import requests
from rich.console import Console

from clients.sdk import ApiError, Client
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
        console.print(moves_table(legal["commands"]))
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
    parser.add_argument("--url", default=os.environ.get("ENTREPOT_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("ENTREPOT_TOKEN"))
    parser.add_argument("--seat", type=int, default=None)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks while waiting")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    try:
        return play(Client(args.url, args.token), console, args.game, args.seat, args.poll)
    except ApiError as err:
        console.print(f"[red]entrepot-play: {err.detail or err.code} ({err.status} {err.code})[/red]")
    except requests.ConnectionError:
        console.print(f"[red]entrepot-play: cannot reach the server at {args.url}[/red]")
    except requests.RequestException as err:
        console.print(f"[red]entrepot-play: {err.__class__.__name__}: {err}[/red]")
    except KeyboardInterrupt:
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
