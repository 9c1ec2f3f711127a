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
    legal GAME [--seat N]        what you may play now, numbered from 1, in words
                                 (--json: the commands themselves)
    play GAME N [--seat N]       play move N of that list (1 is the first)
    send GAME JSON [--seat N]    send a command written as JSON
    events GAME [--after N]      the history as you may see it
    turns                        the games waiting for you, most urgent first
    resign GAME [--seat N]       resign (the other seat wins; with more, you rank last)
    abort GAME [--seat N]        cancel a waiting game; abort before the first move, or ask to
    vacation [--from T] [UNTIL | --end]
                                 show, declare or end your vacation (clocks pause)
    tokens                       your personal access tokens (never their secrets)
    new-token NAME [--scope S]...
                                 a new token allowed S (read, play, notifications,
                                 account; default read and play); prints it once
    revoke-token ID              revoke a token: it is refused from now on
    lobby [--title T]            the open games (seeks) anyone may join
    seek TITLE [--seats N]       post an open game: you and N-1 open seats (default 2 seats);
                                 --unrated, --private, --min-rating R, --max-rating R
    challenge NAME TITLE         invite the player of that name (or id) to a 2-seat game
    invitations                  the challenges waiting for your answer
    profile [NAME | ID | me]     ratings per title, games played, won, lost, recent games
    leaderboard TITLE            the best rated players of a title
    archive [--player NAME|me] [--title T] [--result won|lost|any] [--form F]
            [--after T] [--before T]
                                 finished games; open one with show / events
    live [--title T]             games under way that anyone may watch (show GAME)
    takeback GAME [--seat N]     ask to take back your last move (the others answer)
    answer GAME accept|decline [--seat N]
                                 answer the takeback another player asked
    notes GAME [TEXT | --clear]  show or replace your private notes on the game
    clock GAME                   each seat's clock and time bank, in words

New games may have a clock: new ... --per-move P2D [--on-timeout computer|forfeit]
[--max-stand-ins 2], or a time bank: new ... --bank P3D [--increment P1D] [--max-bank P7D]
(seek and challenge take --per-move too).

The token may also come from ENTREPOT_TOKEN, the URL from ENTREPOT_URL. Errors are one
line on stderr: exit 1 for a refusal or an unreachable server, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys

from clients.config import add_connection_arguments
from clients.sdk import ApiError, Client, EntrepotError


def describe(command: dict) -> str:
    """A command in words when the server sent none (an older server)."""
    fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in command.items() if k != "type")
    return f"{command.get('type', '?')}" + (f": {fields}" if fields else "")


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
    new.add_argument("--bank", default=None, help="a time bank instead: ISO 8601 time to start with, e.g. P3D")
    new.add_argument("--increment", default=None, help="time bank: added after each move, e.g. P1D")
    new.add_argument("--max-bank", default=None, help="time bank: at most this much, e.g. P7D")
    new.add_argument("--max-stand-ins", type=int, default=None,
                     help="timeouts the computer covers in a row before the next one forfeits (default 2)")
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
        if name == "legal":
            p.add_argument("--json", action="store_true", help="print each command as JSON too")
    play = sub.add_parser("play")
    play.add_argument("game")
    play.add_argument("number", type=int)
    play.add_argument("--seat", type=int, default=None)
    sub.add_parser("turns")
    for name in ("resign", "abort", "takeback"):
        p = sub.add_parser(name)
        p.add_argument("game")
        p.add_argument("--seat", type=int, default=None)
    answer = sub.add_parser("answer")
    answer.add_argument("game")
    answer.add_argument("verdict", choices=("accept", "decline"))
    answer.add_argument("--seat", type=int, default=None)
    notes = sub.add_parser("notes")
    notes.add_argument("game")
    notes.add_argument("text", nargs="?", default=None)
    notes.add_argument("--clear", action="store_true", help="empty the notes")
    sub.add_parser("clock").add_argument("game")
    vacation = sub.add_parser("vacation")
    vacation.add_argument("until", nargs="?", default=None, help="RFC 3339 time")
    vacation.add_argument("--from", dest="starts", default=None)
    vacation.add_argument("--end", action="store_true", help="end the current vacation now")
    lobby = sub.add_parser("lobby")
    lobby.add_argument("--title", default=None)
    seek = sub.add_parser("seek")
    seek.add_argument("title")
    seek.add_argument("--seats", type=int, default=2)
    challenge = sub.add_parser("challenge")
    challenge.add_argument("name")
    challenge.add_argument("title")
    for p in (seek, challenge):
        p.add_argument("--options", default="{}", help="the options as JSON")
        p.add_argument("--per-move", default=None, help="ISO 8601 time per move, e.g. P2D, PT12H")
        p.add_argument("--on-timeout", default="computer", choices=("computer", "forfeit"))
        p.add_argument("--unrated", action="store_true")
        p.add_argument("--private", action="store_true", help="hidden from the lobby, archive and spectators")
    seek.add_argument("--min-rating", type=int, default=None)
    seek.add_argument("--max-rating", type=int, default=None)
    sub.add_parser("invitations")
    sub.add_parser("profile").add_argument("who", nargs="?", default="me")
    sub.add_parser("leaderboard").add_argument("title")
    archive = sub.add_parser("archive")
    archive.add_argument("--player", default=None)
    archive.add_argument("--title", default=None)
    archive.add_argument("--result", default=None, choices=("won", "lost", "any"))
    archive.add_argument("--form", default=None)
    archive.add_argument("--after", default=None)
    archive.add_argument("--before", default=None)
    sub.add_parser("live").add_argument("--title", default=None)
    send = sub.add_parser("send")
    send.add_argument("game")
    send.add_argument("json")
    send.add_argument("--seat", type=int, default=None)
    sub.add_parser("tokens")
    new_token = sub.add_parser("new-token")
    new_token.add_argument("name")
    new_token.add_argument("--scope", action="append", dest="scopes",
                           choices=("read", "play", "notifications", "account"))
    sub.add_parser("revoke-token").add_argument("id")
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
        control = _time_control(args)
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
        words = legal.get("descriptions") or [describe(c) for c in legal["commands"]]
        if not legal["commands"]:
            print("nothing to play now")
        for i, (command, said) in enumerate(zip(legal["commands"], words, strict=True), start=1):
            print(f"{i:3d}. {said}" + (f"  {json.dumps(command)}" if args.json else ""))
        print(f"(seat {legal['seat']}; play one with: play {args.game} N)")
        return 0
    elif args.command == "play":
        legal = client.legal_commands(args.game, args.seat)
        count = len(legal["commands"])
        if not 1 <= args.number <= count:
            print(f"error: there is no move {args.number} (" + (f"1 to {count} now" if count else "nothing to play now")
                  + ")", file=sys.stderr)
            return 1
        out = client.command(args.game, legal["commands"][args.number - 1], seat=legal["seat"],
                             expected_version=legal["version"])
    elif args.command == "send":
        out = client.command(args.game, _json_argument(args.json, "the command"), seat=args.seat)
    elif args.command == "events":
        out = client.events(args.game, after=args.after)
    elif args.command == "turns":
        return _print_turns(client.me()["id"], client.turns()["games"])
    elif args.command in ("resign", "abort", "takeback"):
        out = getattr(client, args.command)(args.game, args.seat)
    elif args.command == "answer":
        out = client.answer_takeback(args.game, args.verdict == "accept", args.seat)
    elif args.command == "notes":
        if args.clear or args.text is not None:
            out = client.set_notes(args.game, "" if args.clear else args.text)
        else:
            print(client.notes(args.game)["text"] or "(no notes)")
            return 0
    elif args.command == "clock":
        for line in clock_lines(client.game(args.game)):
            print(line)
        return 0
    elif args.command == "vacation":
        if args.end:
            out = client.end_vacation()
        elif args.until:
            out = client.start_vacation(args.until, args.starts)
        else:
            out = client.vacation()
    elif args.command == "tokens":
        return _print_tokens(client.tokens()["tokens"])
    elif args.command == "new-token":
        out = client.create_token(args.name, args.scopes or ["read", "play"])
        print(f"token {out['name']!r} may: {', '.join(out['scopes'])}. Keep it now, it is not shown again:",
              file=sys.stderr)
    elif args.command == "revoke-token":
        client.revoke_token(args.id)
        print(f"token {args.id} revoked")
        return 0
    elif args.command in LOBBY_COMMANDS:
        return LOBBY_COMMANDS[args.command](client, args)
    print(json.dumps(out, indent=2))
    return 0


def _player_id(client: Client, who: str) -> str:
    """A player named by id, by exact name (or the only name with that start), or me."""
    if who == "me":
        return client.me()["id"]
    if len(who) == 36 and who.count("-") == 4:
        return who
    found = client.find_players(who)
    exact = [p for p in found if p["name"].lower() == who.lower()]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]["id"]
    if not found:
        raise BadArgument(f"no player is named {who!r}")
    raise BadArgument(f"several players' names start with {who!r}: {', '.join(p['name'] for p in found)}")


def _clock(game: dict) -> str:
    control = game.get("time_control") or {}
    if control.get("per_move"):
        return f"{control['per_move']} a move"
    if control.get("bank"):
        return f"bank {control['bank']}"
    return "no clock"


def _listing(args) -> dict:
    control = {"per_move": args.per_move, "on_timeout": args.on_timeout} if args.per_move else None
    return {"options": _json_argument(args.options, "--options"), "time_control": control,
            "rated": False if args.unrated else None, "private": True if args.private else None}


def _seek(client: Client, args) -> int:
    me = client.me()["id"]
    extra = _listing(args)
    if args.min_rating is not None or args.max_rating is not None:
        extra["rating_range"] = {"min": args.min_rating, "max": args.max_rating}
    seats = [{"player_id": me}] + [{"open": True}] * (args.seats - 1)
    game = client.create_game(args.title, seats, **extra)
    print(f"posted {game['title']} game {game['id']} ({'rated' if game['rated'] else 'unrated'}, {_clock(game)});"
          f" it starts when {args.seats - 1} more join; withdrawn at {game['expires_at']} if not")
    return 0


def _challenge(client: Client, args) -> int:
    me, them = client.me()["id"], _player_id(client, args.name)
    game = client.create_game(args.title, [{"player_id": me}, {"player_id": them}], **_listing(args))
    print(f"challenged {game['seats'][1]['name']} to {game['title']} (game {game['id']}, {_clock(game)});"
          " it starts when they accept")
    return 0


def _lobby(client: Client, args) -> int:
    games = client.lobby(args.title)["games"]
    if not games:
        print("no open game; post one with: seek TITLE")
    for g in games:
        open_seats = [s["index"] for s in g["seats"] if s["status"] == "open"]
        creator = g["creator"]
        rating = f"{creator['rating']}{'?' if creator['provisional'] else ''}"
        band = g.get("rating_range")
        band_text = f"  for ratings {band['min'] or ''}-{band['max'] or ''}" if band else ""
        print(f"{g['id']}  {g['title']:<14} {creator['name']} ({rating})  {len(g['seats'])} seats,"
              f" open {','.join(map(str, open_seats))}  {_clock(g)}  {'rated' if g['rated'] else 'unrated'}"
              f"  options {json.dumps(g['options'])}{band_text}")
    return 0


def _invitations(client: Client, args) -> int:
    found = client.invitations()
    if not found:
        print("no invitation is waiting for you")
    for i in found:
        c = i["challenger"]
        print(f"{i['game']['id']}  {i['game']['title']:<14} from {c['name']} ({c['rating']}"
              f"{'?' if c['provisional'] else ''})  {_clock(i)}  seat {i['seat']}:"
              f" accept {i['game']['id']} {i['seat']}")
    return 0


def _profile(client: Client, args) -> int:
    profile = client.profile(_player_id(client, args.who))
    print(profile["name"])
    for title, r in profile["ratings"].items():
        print(f"  {title:<14} rating {r['rating']}{' (provisional)' if r['provisional'] else ''},"
              f" {r['games']} rated games; history {' '.join(str(h['rating']) for h in r['history'][-10:])}")
    for title, s in profile["stats"].items():
        print(f"  {title:<14} played {s['played']}, won {s['won']}, lost {s['lost']}")
    for g in profile["recent_games"]:
        print(f"  {g['updated_at'][:10]}  {g['title']:<14} {g['id']}  "
              + " / ".join(s["name"] or s["ai"] or "?" for s in g["seats"]))
    return 0


def _leaderboard(client: Client, args) -> int:
    for place, p in enumerate(client.leaderboard(args.title)["players"], start=1):
        print(f"{place:4d}. {p['rating']:5d}{'?' if p.get('provisional') else ' '} {p['name']} ({p['games']} games)")
    return 0


def _archive(client: Client, args) -> int:
    player = _player_id(client, args.player) if args.player else None
    games = client.archive(player=player, title=args.title, result=args.result, form=args.form,
                           after=args.after, before=args.before)["games"]
    if not games:
        print("no finished game matches")
    for g in games:
        winners = (g.get("result") or {}).get("winners", [])
        names = [s["name"] or f"computer ({s['ai']})" for s in g["seats"]]
        print(f"{g['updated_at'][:16]}  {g['title']:<14} {g['id']}  won by "
              f"{', '.join(names[w] for w in winners) or 'nobody'}  ({' / '.join(names)})")
    return 0


def _live(client: Client, args) -> int:
    games = client.games(status="active", **({"title": args.title} if args.title else {}))["games"]
    if not games:
        print("no game is under way")
    for g in games:
        print(f"{g['id']}  {g['title']:<14} {' / '.join(s['name'] or s['ai'] or 'open' for s in g['seats'])}"
              f"  version {g['version']}  (watch: show {g['id']})")
    return 0


LOBBY_COMMANDS = {"lobby": _lobby, "seek": _seek, "challenge": _challenge, "invitations": _invitations,
                  "profile": _profile, "leaderboard": _leaderboard, "archive": _archive, "live": _live}
def _time_control(args) -> dict | None:
    if args.bank:
        control = {"bank": args.bank, "on_timeout": args.on_timeout}
        control.update({k: v for k, v in (("increment", args.increment), ("max_bank", args.max_bank)) if v})
    elif args.per_move:
        control = {"per_move": args.per_move, "on_timeout": args.on_timeout}
    else:
        return None
    if args.max_stand_ins is not None:
        control["max_stand_ins"] = args.max_stand_ins
    return control


def duration(seconds: float) -> str:
    """Seconds in words a player reads: "2 d 3 h", "5 h 20 min", "45 s"."""
    seconds = max(int(seconds), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


def clock_lines(game: dict) -> list[str]:
    """Each person's seat: its deadline if its clock runs, and its time bank."""
    control = game.get("time_control")
    if not control:
        return ["this game has no clock"]
    if control.get("bank"):
        lines = [f"time bank: {control['bank']} to start, {control.get('increment') or 'nothing'} after each move"
                 + (f", at most {control['max_bank']}" if control.get("max_bank") else "")]
    else:
        lines = [f"time per move: {control['per_move']}"]
    names = {s["index"]: s.get("name") or f"seat {s['index']}" for s in game["seats"]}
    running = {c["seat"]: c for c in game.get("clocks") or []}
    # each bank as the server read it now: a running one less the time its turn has taken
    banks = {b["seat"]: b for b in game.get("banks") or []}
    for seat in sorted(set(running) | set(banks)):
        parts = [f"{names.get(seat, seat)} (seat {seat}):"]
        if seat in banks:
            bank = banks[seat]
            parts.append(f"bank {duration(bank['seconds'])} left" + (", running," if bank.get("running") else ""))
        if seat in running:
            clock = running[seat]
            parts.append(f"to move before {clock['deadline']}"
                         + (f" (paused until {clock['paused_until']})" if clock.get("paused_until") else ""))
        lines.append(" ".join(parts))
    return lines


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


def _print_tokens(tokens: list[dict]) -> int:
    """One line per live token: id, what it may do, name (an app's client id), last use."""
    for token in tokens:
        who = f"app {token['client_id']}" if token["kind"] == "oauth" else token["name"]
        print(f"{token['id']}  {','.join(token['scopes']):<30} {who}  (last used {token['last_used_at'] or 'never'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
