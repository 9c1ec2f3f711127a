"""Correspondence rules of issue 27: no winning by absence (``max_stand_ins``), why a game
ended (``result.reason``, ``result.out``), a finished game's view, the time bank, and
vacations only in games with a clock. Real PostgreSQL, time moved by hand (FixedClock),
timers run as their RQ job runs them (``ClockService.run_timer``)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from service.clock import FixedClock
from service.games.pictures import board_picture
from service.games.service import SeatRequest
from service.job_queue import RecordingJobQueue
from service.runtime.container import build

START = datetime(2031, 3, 3, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def clock():
    return FixedClock(START)


@pytest.fixture(scope="module")
def svc(settings, clock):
    services = build(replace(settings, timer_grace_seconds=0.0), clock=clock, jobs=RecordingJobQueue())
    yield services
    services.close()


_count = [0]


@pytest.fixture(autouse=True)
def fresh_time(clock):
    _count[0] += 1
    clock.at = START + timedelta(days=400 * _count[0])  # each test in a year of its own


def players(svc, n):
    return [svc.players.create(f"P{i}", None).player for i in range(n)]


def new_game(svc, title, people, time_control):
    seats = [SeatRequest(player_id=p.id) for p in people]
    snapshot = svc.games.create(people[0], title, {"variant": "basic"} if title == "kontor" else {},
                                seats, time_control=time_control)
    for index, person in enumerate(people[1:], start=1):
        svc.games.accept(person, snapshot.game.id, index)
    return snapshot.game.id


def game(svc, game_id):
    with svc.store.read() as tx:
        return tx.game(game_id)


def events(svc, game_id, types=None):
    page = svc.games.events(game_id, None, 0, 1000)
    return [e for e in page.events if types is None or e["type"] in types]


def play(svc, game_id, player, seat):
    legal = svc.games.legal_commands(game_id, player, seat)
    return svc.games.execute(player, game_id, seat, legal.commands[0], legal.version)


def clocks(svc, game_id):
    return {c["seat"]: c for c in game(svc, game_id).table["clocks"]}


def iso(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def time_out(svc, clock, game_id, seat):
    """Move the time to the seat's deadline and run the timer (a reminder first if one is due)."""
    clock.at = datetime.fromisoformat(clocks(svc, game_id)[seat]["deadline"].replace("Z", "+00:00"))
    for _ in range(3):
        done = svc.clocks.run_timer(game_id, game(svc, game_id).version)
        if done == "TimeOut":
            return
    raise AssertionError(f"no timeout ran: {done}")


def silent_seat_game(svc, clock, title, control, moves_of_the_silent_seat=()):
    """Seat 0 plays at once; seat 1 never moves (except when told to, by the count of its
    turns in ``moves_of_the_silent_seat``), its timeouts answered by the computer's job.
    Returns (game id, how many timeouts seat 1 had)."""
    a, b = players(svc, 2)
    gid = new_game(svc, title, [a, b], control)
    timeouts, turns = 0, 0
    for _ in range(400):
        row = game(svc, gid)
        if row.status != "active":
            break
        if 0 in row.to_act:
            play(svc, gid, a, 0)
        elif 1 in row.to_act and 1 in clocks(svc, gid):
            turns += 1
            if turns in moves_of_the_silent_seat:
                play(svc, gid, b, 1)
            else:
                time_out(svc, clock, gid, 1)
                timeouts += 1
        else:  # the computer owes seat 1's timed-out move
            assert svc.games.play_computer(gid, row.version, 1) == "played"
    return gid, timeouts


# no winning by absence ------------------------------------------------------------------
@pytest.mark.parametrize("title", ["kontor", "speicherstadt", "amsterdam"])
def test_after_max_stand_ins_timeouts_the_next_one_forfeits_the_silent_seat(svc, clock, title):
    gid, timeouts = silent_seat_game(svc, clock, title, {"per_move": "PT1H", "on_timeout": "computer"})
    row = game(svc, gid)
    assert row.status == "finished" and timeouts == 3  # default 2 stand-ins, the third is out
    kinds = [e["data"]["on_timeout"] for e in events(svc, gid, {"TimedOut"})]
    assert kinds == ["computer", "computer", "forfeit"]
    assert [e["type"] for e in events(svc, gid)][-3:] == ["TimedOut", "SeatOut", "WonByDefault"]
    assert row.result["winners"] == [0] and row.result["reason"] == "timeout"
    assert row.result["out"] == [{"seat": 1, "reason": "timeout"}]
    assert row.result["detail"]["ended_by"] == "timeout"


def test_the_limit_counts_consecutive_timeouts_only_a_move_of_its_own_resets_it(svc, clock):
    control = {"per_move": "PT1H", "on_timeout": "computer", "max_stand_ins": 1}
    # turns 1 and 3 time out, turn 2 is the seat's own move: never two in a row
    gid, timeouts = silent_seat_game(svc, clock, "speicherstadt", control, moves_of_the_silent_seat=(2, 4))
    kinds = [e["data"]["on_timeout"] for e in events(svc, gid, {"TimedOut"})]
    assert kinds[:2] == ["computer", "computer"]  # turn 1, then turn 3 after a move of its own
    assert kinds[-1] == "forfeit" and kinds.count("forfeit") == 1  # turns 5 and 6 in a row: out
    assert game(svc, gid).result["reason"] == "timeout"


def test_max_stand_ins_zero_forfeits_at_the_first_timeout(svc, clock):
    gid, timeouts = silent_seat_game(svc, clock, "kontor",
                                     {"per_move": "PT1H", "on_timeout": "computer", "max_stand_ins": 0})
    assert timeouts == 1 and game(svc, gid).result["out"] == [{"seat": 1, "reason": "timeout"}]


# why a game ended, and how a finished game looks ------------------------------------------
@pytest.mark.parametrize("title", ["kontor", "speicherstadt", "amsterdam"])
def test_a_resigned_game_says_so_and_its_view_asks_no_seat_to_act(svc, title):
    a, b = players(svc, 2)
    gid = new_game(svc, title, [a, b], {"per_move": "P2D"})
    assert game(svc, gid).to_act  # someone was to act
    svc.clocks.resign(b, gid, None)
    row = game(svc, gid)
    assert row.status == "finished" and row.to_act == ()
    assert row.result["reason"] == "resigned" and row.result["out"] == [{"seat": 1, "reason": "resigned"}]
    assert row.result["detail"]["ended_by"] == "resigned"  # not "forfeit"
    for viewer in (a, b, None):
        view = svc.games.get(gid, viewer).view
        assert view["to_act"] == [] and view["phase"] == "finished"
        assert not any(p.get("to_act") for p in view.get("players", []) if isinstance(p, dict))
    picture = board_picture(svc.games, gid, a, None, None)
    assert "finished" in picture and "◀" not in picture  # the board shows the game over


def test_a_solo_game_given_up_is_abandoned(svc):
    [a] = players(svc, 1)
    gid = new_game(svc, "amsterdam", [a], None)
    svc.clocks.resign(a, gid, None)
    result = game(svc, gid).result
    assert result["reason"] == "abandoned" and result["winners"] == []
    assert result["out"] == [{"seat": 0, "reason": "resigned"}]


def test_a_game_played_to_its_end_was_scored_and_names_the_seats_that_left(svc, clock):
    people = players(svc, 3)
    gid = new_game(svc, "speicherstadt", people, None)
    svc.clocks.resign(people[2], gid, None)
    chooser = random.Random(27)  # random legal moves: the first ones may go round in circles
    for _ in range(3000):
        row = game(svc, gid)
        if row.status != "active":
            break
        seat = row.to_act[0]
        if seat == 2:
            svc.games.play_computer(gid, row.version, 2)
        else:
            legal = svc.games.legal_commands(gid, people[seat], seat)
            svc.games.execute(people[seat], gid, seat, chooser.choice(legal.commands), legal.version)
    row = game(svc, gid)
    assert row.status == "finished", (row.status, row.to_act, row.version)
    result = row.result
    assert result["reason"] == "scored" and result["out"] == [{"seat": 2, "reason": "resigned"}]


# the time bank --------------------------------------------------------------------------
BANK = {"bank": "PT1H", "increment": "PT30M", "max_bank": "PT2H", "on_timeout": "computer", "reminders": [0.5]}


def test_the_bank_runs_while_the_seat_must_act_gains_the_increment_and_is_capped(svc, clock):
    a, b = players(svc, 2)
    gid = new_game(svc, "speicherstadt", [a, b], BANK)
    row = game(svc, gid)
    assert row.time_control["bank"] == "PT1H" and row.time_control["bank_seconds"] == 3600.0
    assert [(b["seat"], b["seconds"]) for b in row.table["banks"]] == [(0, 3600.0), (1, 3600.0)]
    assert {b["seat"] for b in row.table["banks"] if b["running"]} == set(row.to_act)
    people = (a, b)
    seat = row.to_act[0]
    started = clock.at
    assert clocks(svc, gid)[seat]["deadline"] == iso(started + timedelta(hours=1))
    clock.at += timedelta(minutes=20)
    play(svc, gid, people[seat], seat)
    [charged] = events(svc, gid, {"BankCharged"})
    assert charged["data"] == {"seat": seat, "used_seconds": 1200.0, "bank_seconds": 4200.0}  # 40 min + 30
    banks = {b["seat"]: b["seconds"] for b in game(svc, gid).table["banks"]}
    assert banks[seat] == 4200.0
    # the seat's next clock starts with its bank; moving at once twice fills it to the cap
    for expected in (6000.0, 7200.0, 7200.0):
        for _ in range(50):
            row = game(svc, gid)
            if row.to_act[0] == seat:
                break
            other = row.to_act[0]
            play(svc, gid, people[other], other)
        start_of_clock = clock.at
        bank_before = {b["seat"]: b["seconds"] for b in game(svc, gid).table["banks"]}[seat]
        assert clocks(svc, gid)[seat]["deadline"] == iso(start_of_clock + timedelta(seconds=bank_before))
        play(svc, gid, people[seat], seat)
        assert events(svc, gid, {"BankCharged"})[-1]["data"]["bank_seconds"] == expected


def test_on_a_bank_the_reminder_is_a_fraction_of_the_bank_and_a_timeout_leaves_the_increment(svc, clock):
    a, b = players(svc, 2)
    gid = new_game(svc, "speicherstadt", [a, b], BANK)
    seat = game(svc, gid).to_act[0]
    start = clock.at
    clock.at = start + timedelta(minutes=29)
    assert svc.clocks.run_timer(gid, game(svc, gid).version) == "early"
    clock.at = start + timedelta(minutes=30)  # half of the 1 h bank
    assert svc.clocks.run_timer(gid, game(svc, gid).version) == "Remind"
    clock.at = start + timedelta(hours=1)
    assert svc.clocks.run_timer(gid, game(svc, gid).version) == "TimeOut"
    banks = {b["seat"]: b["seconds"] for b in game(svc, gid).table["banks"]}
    assert banks[seat] == 1800.0  # emptied, then the increment for its next move


def test_a_read_shows_what_is_left_of_each_bank_now(svc, clock):
    """The row keeps each bank as of its seat's last move; every read (the game, the list,
    the games to act) says what is left now, by the clock port: the running seat's bank
    less the time its turn has taken, and nothing spent while its clock is paused."""
    a, b = players(svc, 2)
    people = (a, b)
    gid = new_game(svc, "speicherstadt", [a, b], BANK)
    seat = game(svc, gid).to_act[0]
    other = 1 - seat

    def banks_read(read):
        return {x["seat"]: (x["seconds"], x["running"]) for x in read.table["banks"]}

    clock.at += timedelta(minutes=20)
    expected = {seat: (2400.0, True), other: (3600.0, False)}
    assert banks_read(svc.games.get(gid, people[seat]).game) == expected
    [listed] = [g for g in svc.games.list(people[seat], people[seat].id, "active", None, 50, None) if g.id == gid]
    assert banks_read(listed) == expected
    [waiting] = [g for g in svc.clocks.to_act(people[seat], 50) if g.id == gid]
    assert banks_read(waiting) == expected
    assert banks_read(game(svc, gid))[seat] == (3600.0, True)  # the row itself: as of the last move
    clock.at += timedelta(minutes=50)  # past its deadline, before the timer ran: nothing left
    assert banks_read(svc.games.get(gid, None).game)[seat] == (0.0, True)
    clock.at -= timedelta(minutes=50)
    # a vacation pauses the clock: the bank stays as it was when the clock paused
    svc.clocks.start_vacation(people[seat], None, clock.at + timedelta(days=2))
    clock.at += timedelta(days=1)
    assert banks_read(svc.games.get(gid, people[seat]).game)[seat] == (2400.0, True)
    clock.at += timedelta(days=1, minutes=10)  # back (the vacation's end not yet applied): running again
    assert banks_read(svc.games.get(gid, people[seat]).game)[seat] == (1800.0, True)
    # the move charges what the turn took: the row agrees with what the reads said
    svc.clocks.run_timer(gid, game(svc, gid).version)
    play(svc, gid, people[seat], seat)
    assert banks_read(game(svc, gid))[seat] == (1800.0 + 1800.0, False)
    assert banks_read(svc.games.get(gid, None).game)[seat] == (3600.0, False)


# vacations only where a clock runs ------------------------------------------------------
def test_a_vacation_adds_events_only_to_games_with_a_clock(svc, clock):
    a, b = players(svc, 2)
    clocked = new_game(svc, "kontor", [a, b], {"per_move": "P2D"})
    unclocked = new_game(svc, "kontor", [a, b], None)
    svc.clocks.start_vacation(a, None, clock.at + timedelta(days=3))
    assert events(svc, clocked, {"VacationStarted"})
    assert not events(svc, unclocked, {"VacationStarted"})
    svc.clocks.end_vacation(a)
    assert events(svc, clocked, {"VacationEnded"})
    assert not events(svc, unclocked, {"VacationEnded"})
    assert svc.clocks.sweep()[2] == 0  # nor does the sweeper bring it there later
    # a game without a clock that starts while its player is away records no vacation either
    svc.clocks.start_vacation(b, None, clock.at + timedelta(days=3))
    later = new_game(svc, "kontor", [b, a], None)
    assert not events(svc, later, {"VacationStarted"})
