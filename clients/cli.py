"""A command-line client for Entrepot, over HTTP only.

    python -m clients.cli [--url URL] [--token TOKEN] COMMAND ...

    player NAME                  create a player; prints its token (shown once)
    titles                       the hosted titles
    new TITLE SEAT...            create a game; seats: me | ai:LEVEL | open | PLAYER_ID
                                 (a PLAYER_ID is invited: that player must accept)
    accept GAME SEAT             accept the seat you were invited to
    decline GAME SEAT            decline it (the seat closes)
    join GAME SEAT               take an open seat
    games [--status S]           your games
    show GAME                    the game with your view
    legal GAME [--seat N]        what you may send now, numbered
    play GAME N [--seat N]       send the N-th legal command
    send GAME JSON [--seat N]    send a command written as JSON
    events GAME [--after N]      the history as you may see it
    turns                        the games waiting for you, most urgent first
    resign GAME [--seat N]       resign (the other seat wins; with more, you rank last)
    abort GAME [--seat N]        cancel a waiting game; abort before the first move, or ask to
    vacation [--from T] [UNTIL | --end]
                                 show, declare or end your vacation (clocks pause)

New games may have a clock: new ... --per-move P2D [--on-timeout computer|forfeit].

The token may also come from ENTREPOT_TOKEN, the URL from ENTREPOT_URL. Errors are one
line on stderr: exit 1 for a refusal or an unreachable server, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys

from clients.config import add_connection_arguments
from clients.sdk import ApiError, Client, EntrepotError


class BadArgument(Exception):
    """A command-line argument the client cannot use (one line)."""


def _json_argument(text: str, what: str):
    try:
        return json.loads(text)
    except ValueError as err:
        raise BadArgument(f"{what} is not valid JSON ({err})") from None


def _seat(spec: str, me: str) -> dict:
    if spec == "me":
        return {"player_id": me}
    if spec == "open":
        return {"open": True}
    if spec.startswith("ai:"):
        return {"ai": spec[3:]}
    return {"player_id": spec}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.cli", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add_connection_arguments(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("player").add_argument("name")
    sub.add_parser("titles")
    new = sub.add_parser("new")
    new.add_argument("title")
    new.add_argument("seats", nargs="+")
    new.add_argument("--options", default="{}", help="the options as JSON")
    new.add_argument("--per-move", default=None, help="ISO 8601 time per move, e.g. P2D, PT12H")
    new.add_argument("--on-timeout", default="computer", choices=("computer", "forfeit"))
    for name in ("accept", "decline", "join"):
        p = sub.add_parser(name)
        p.add_argument("game")
        p.add_argument("seat", type=int)
    games = sub.add_parser("games")
    games.add_argument("--status", default=None)
    for name in ("show", "legal", "events"):
        p = sub.add_parser(name)
        p.add_argument("game")
        p.add_argument("--seat", type=int, default=None)
        p.add_argument("--after", type=int, default=0)
    play = sub.add_parser("play")
    play.add_argument("game")
    play.add_argument("number", type=int)
    play.add_argument("--seat", type=int, default=None)
    sub.add_parser("turns")
    for name in ("resign", "abort"):
        p = sub.add_parser(name)
        p.add_argument("game")
        p.add_argument("--seat", type=int, default=None)
    vacation = sub.add_parser("vacation")
    vacation.add_argument("until", nargs="?", default=None, help="RFC 3339 time")
    vacation.add_argument("--from", dest="starts", default=None)
    vacation.add_argument("--end", action="store_true", help="end the current vacation now")
    send = sub.add_parser("send")
    send.add_argument("game")
    send.add_argument("json")
    send.add_argument("--seat", type=int, default=None)
    args = parser.parse_args(argv)
    client = Client(args.url, args.token)
    try:
        return _run(client, args)
    except ApiError as err:
        print(f"error {err.status} {err.code}: {err.detail}", file=sys.stderr)
        for field, messages in (err.body.get("errors") or {}).items():
            print(f"  {field}: {'; '.join(messages)}", file=sys.stderr)
        return 1
    except EntrepotError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except BadArgument as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _run(client: Client, args) -> int:
    out = None
    if args.command == "player":
        out = client.create_player(args.name)
    elif args.command == "titles":
        out = [{k: t[k] for k in ("id", "name", "min_players", "max_players", "variants")} for t in client.titles()]
    elif args.command == "new":
        options = _json_argument(args.options, "--options")
        me = client.me()["id"]
        control = {"per_move": args.per_move, "on_timeout": args.on_timeout} if args.per_move else None
        out = client.create_game(args.title, [_seat(s, me) for s in args.seats], options,
                                 time_control=control)
    elif args.command in ("accept", "decline", "join"):
        out = getattr(client, args.command)(args.game, args.seat)
    elif args.command == "games":
        out = client.games(player="me", **({"status": args.status} if args.status else {}))
    elif args.command == "show":
        out = client.game(args.game, args.seat)
    elif args.command == "legal":
        legal = client.legal_commands(args.game, args.seat)
        for i, command in enumerate(legal["commands"]):
            print(f"{i:3d}  {json.dumps(command)}")
        print(f"(version {legal['version']}, seat {legal['seat']})")
        return 0
    elif args.command == "play":
        legal = client.legal_commands(args.game, args.seat)
        if not 0 <= args.number < len(legal["commands"]):
            print(f"error: there is no legal command {args.number} ({len(legal['commands'])} now)",
                  file=sys.stderr)
            return 1
        out = client.command(args.game, legal["commands"][args.number], seat=legal["seat"],
                             expected_version=legal["version"])
    elif args.command == "send":
        out = client.command(args.game, _json_argument(args.json, "the command"), seat=args.seat)
    elif args.command == "events":
        out = client.events(args.game, after=args.after)
    elif args.command == "turns":
        return _print_turns(client.me()["id"], client.turns()["games"])
    elif args.command in ("resign", "abort"):
        out = getattr(client, args.command)(args.game, args.seat)
    elif args.command == "vacation":
        if args.end:
            out = client.end_vacation()
        elif args.until:
            out = client.start_vacation(args.until, args.starts)
        else:
            out = client.vacation()
    print(json.dumps(out, indent=2))
    return 0


def _print_turns(me: str, games: list[dict]) -> int:
    """One line per game waiting for me: its deadline (or none), title, id, my seats."""
    if not games:
        print("no game is waiting for you")
        return 0
    for game in games:
        mine = [s["index"] for s in game["seats"] if s["player_id"] == me and s["index"] in game["to_act"]]
        deadlines = [c["deadline"] for c in game["clocks"] if c["seat"] in mine]
        paused = any(c["paused_until"] for c in game["clocks"] if c["seat"] in mine)
        when = min(deadlines) if deadlines else "no clock"
        print(f"{when:<28} {game['title']:<14} {game['id']}  seat {','.join(map(str, mine))}"
              f"{'  (paused: you are away)' if paused else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
