"""A bot that plays every game it holds a seat in, over HTTP only.

    python -m clients.bot [--url URL] [--token TOKEN] [--once]

The URL and token default to $ENTREPOT_URL and $ENTREPOT_TOKEN, as for the CLI.

It accepts the seats it is invited to, lists its active games, and wherever one of its
seats is to act it sends one of the legal commands (chosen at random: a starting point
for smarter bots), playing on while each answer tells it more moves of that seat. A 409
means the game moved on meanwhile: it simply looks again. A server that cannot be
reached is reported in one line; the bot retries (or, with --once, exits 1).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from clients.config import add_connection_arguments
from clients.sdk import ApiError, Client, Unreachable


def accept_invitations(client: Client, me: str) -> int:
    """Accept every seat the bot was invited to (a bot is there to play); returns how many."""
    accepted = 0
    for summary in client.games(player="me", status="waiting")["games"]:
        for seat in summary["seats"]:
            if seat["player_id"] == me and seat.get("status") == "invited":
                client.accept(summary["id"], seat["index"])
                accepted += 1
    return accepted


def play_round(client: Client, rng: random.Random) -> int:
    """One pass over the bot's games: accept its invitations, then act wherever one of its
    seats is to act; returns the number of commands sent."""
    sent = 0
    me = client.me()["id"]
    accept_invitations(client, me)
    for summary in client.games(player="me", status="active")["games"]:
        mine = [s["index"] for s in summary["seats"] if s["player_id"] == me]
        for seat in mine:
            if seat not in summary["to_act"]:
                continue
            legal = client.legal_commands(summary["id"], seat)
            while legal["commands"]:  # each answer tells what the seat may play next
                try:
                    answer = client.command(summary["id"], rng.choice(legal["commands"]), seat=seat,
                                            expected_version=legal["version"], next_moves=True)
                except ApiError as err:
                    if err.code != "version_conflict":
                        raise
                    break
                sent += 1
                legal = answer["legal_commands"]
    return sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bot", description=__doc__.splitlines()[0])
    add_connection_arguments(parser)
    parser.add_argument("--once", action="store_true", help="one pass, then stop")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between idle passes")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    client = Client(args.url, args.token)
    if client.token is None:
        print("error: the bot needs a token: pass --token or set ENTREPOT_TOKEN", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    while True:
        try:
            sent = play_round(client, rng)
        except Unreachable as err:
            print(f"error: {err}", file=sys.stderr)
            if args.once:
                return 1
            sent = 0
        except ApiError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
        if args.once:
            print(f"sent {sent} commands")
            return 0
        if not sent:
            time.sleep(args.every)


if __name__ == "__main__":
    raise SystemExit(main())
