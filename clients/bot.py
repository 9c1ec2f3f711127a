"""A bot that plays every game it holds a seat in, over HTTP only.

    python -m clients.bot --url http://127.0.0.1:8000 --token TOKEN [--once]

It accepts the seats it is invited to, lists its active games, and wherever one of its
seats is to act it sends one of the legal commands (chosen at random: a starting point
for smarter bots). A 409 means the game moved on meanwhile: it simply looks again.
"""

from __future__ import annotations

import argparse
import random
import time

from clients.sdk import ApiError, Client


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
            if not legal["commands"]:
                continue
            try:
                client.command(summary["id"], rng.choice(legal["commands"]), seat=seat,
                               expected_version=legal["version"])
                sent += 1
            except ApiError as err:
                if err.code != "version_conflict":
                    raise
    return sent


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bot", description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--once", action="store_true", help="one pass, then stop")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between idle passes")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    client = Client(args.url, args.token)
    rng = random.Random(args.seed)
    while True:
        sent = play_round(client, rng)
        if args.once:
            print(f"sent {sent} commands")
            return 0
        if not sent:
            time.sleep(args.every)


if __name__ == "__main__":
    raise SystemExit(main())
