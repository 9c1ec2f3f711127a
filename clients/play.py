"""`entrepot-play GAME`: play a game in the terminal, drawn with rich.

    entrepot-play [--url URL] [--token TOKEN] [--seat N] GAME

Shows the board, the seats, your hand, the clock and your time bank; when it is your turn,
numbers your legal moves: type a number to play it, `r` to look again, `q` to leave. At
any prompt (and while waiting for the others) `t` asks to take back your last move, `a` or
`d` accepts or declines a takeback another player asked, `n` shows your private notes and
`n TEXT` replaces them. It never prints a traceback: a bad input or a server that is down
gets one line saying what happened.
"""

from __future__ import annotations

import argparse
import select
import sys
import time

from rich.console import Console
from rich.markup import escape

from clients.config import add_connection_arguments
from clients.sdk import ApiError, Client, EntrepotError
from clients.terminal import game_panel, moves_table

#: keys of the table besides the moves: takeback, its answers, notes
TABLE_KEYS = ("t", "a", "d", "n")


def choose(console: Console, count: int) -> int | str:
    while True:
        try:
            typed = console.input(f"move 1-{count}, r to refresh, q to quit: ").strip()
        except EOFError:
            return "q"
        answer = typed.lower()
        if answer in ("q", "r") or answer in TABLE_KEYS or answer.startswith("n "):
            return typed if answer.startswith("n ") else answer
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        console.print(f"[red]'{answer}' is not a move number between 1 and {count}[/red]")


def table_key(client: Client, console: Console, game_id: str, seat: int | None, key: str) -> None:
    """Takeback, its answers, notes: said in words, refusals in one line."""
    try:
        if key == "t":
            client.takeback(game_id, seat)
            console.print("asked to take back your last move: the other players answer")
        elif key in ("a", "d"):
            client.answer_takeback(game_id, key == "a", seat)
            console.print("takeback accepted" if key == "a" else "takeback declined")
        elif key == "n":
            console.print(escape(client.notes(game_id)["text"] or "(no notes yet: type n and your text)"))
        else:
            client.set_notes(game_id, key[2:].strip())
            console.print("notes saved (only you can read them)")
    except ApiError as err:
        console.print(f"[red]{escape(err.detail or err.code)}[/red]")


def typed_while_waiting(poll: float) -> str | None:
    """A line typed while the others play (t, a, d, n, q), or None after ``poll`` seconds."""
    try:
        ready, _, _ = select.select([sys.stdin], [], [], poll)
    except (OSError, ValueError):  # no terminal to read (stdin closed or not selectable)
        time.sleep(poll)
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    return line.strip() if line else "q"


def play(client: Client, console: Console, game_id: str, seat: int | None, poll: float) -> int:
    told = None  # your moves, as your last move's answer told them
    while True:
        game = client.game(game_id, seat)
        console.print(game_panel(game))
        if game["status"] != "active":
            return 0
        if told is not None and told["version"] == game["version"]:
            legal = told  # one request less a move while you play on
        else:
            legal = client.legal_commands(game_id, seat)
        told = None
        if not legal["commands"]:
            console.print("waiting for the other seats… (t: take back your move, n: notes, q: quit)")
            typed = typed_while_waiting(poll)
            if typed is not None and typed.lower() == "q":
                return 0
            if typed and (typed.lower() in TABLE_KEYS or typed.lower().startswith("n ")):
                table_key(client, console, game_id, seat, typed if typed.lower().startswith("n ") else typed.lower())
            continue
        console.print(moves_table(legal["commands"], legal.get("descriptions")))
        answer = choose(console, len(legal["commands"]))
        if answer == "q":
            return 0
        if answer == "r":
            continue
        if isinstance(answer, str):
            table_key(client, console, game_id, seat, answer)
            continue
        try:
            told = client.command(game_id, legal["commands"][answer], seat=legal["seat"],
                                  expected_version=legal["version"], next_moves=True)["legal_commands"]
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
