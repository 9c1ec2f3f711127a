"""Takeback, notes and the time bank from the CLI and the terminal client, as a player runs
them against the live server: subprocesses and a real pseudo-terminal."""

from __future__ import annotations

import json
import re

from clients.sdk import Client
from tests.e2e.test_clients import run
from tests.e2e.test_terminal_client import PROMPT, Terminal


def two_players(server):
    clients = [Client(server), Client(server)]
    people = [clients[0].create_player("Cli Ada"), clients[1].create_player("Cli Bert")]
    return clients, people


def safe_move(clients, game_id):
    """First legal moves until a worker is placed (nothing hidden or random in it)."""
    for _ in range(200):
        seat = clients[0].game(game_id)["to_act"][0]
        legal = clients[seat].legal_commands(game_id, seat)
        done = clients[seat].command(game_id, legal["commands"][0], seat=seat, expected_version=legal["version"])
        if {e["type"] for e in done["events"]} - {"ClockStarted", "BankCharged"} == {"speicherstadt.WorkerPlaced"}:
            return seat
    raise AssertionError("no worker placed")


def cli(server, client, *args):
    return run("clients.cli", "--url", server, "--token", client.token, *args)


def test_the_cli_creates_a_time_bank_game_asks_and_answers_takebacks_and_keeps_notes(server):
    clients, people = two_players(server)
    made = cli(server, clients[0], "new", "speicherstadt", "me", people[1]["id"],
               "--bank", "P3D", "--increment", "P1D", "--max-bank", "P7D", "--max-stand-ins", "1")
    assert made.returncode == 0, made.stderr
    game_id = json.loads(made.stdout)["id"]
    assert json.loads(made.stdout)["time_control"]["max_stand_ins"] == 1
    clients[1].accept(game_id, 1)
    clock = cli(server, clients[0], "clock", game_id)
    assert clock.returncode == 0, clock.stderr
    assert "time bank: P3D to start, P1D after each move, at most P7D" in clock.stdout
    # what is left now: 3 days, less the seconds since it started if seat 0's clock runs
    assert re.search(r"Cli Ada \(seat 0\): bank (3 d left|2 d 23 h left, running,)", clock.stdout), clock.stdout
    mover = safe_move(clients, game_id)
    other = 1 - mover
    asked = cli(server, clients[mover], "takeback", game_id)
    assert asked.returncode == 0, asked.stderr
    assert [e["type"] for e in json.loads(asked.stdout)["events"]] == ["TakebackRequested"]
    declined = cli(server, clients[other], "answer", game_id, "decline")
    assert declined.returncode == 0 and "TakebackDeclined" in declined.stdout
    cli(server, clients[mover], "takeback", game_id)
    accepted = cli(server, clients[other], "answer", game_id, "accept")
    assert accepted.returncode == 0 and "MoveTakenBack" in accepted.stdout
    refused = cli(server, clients[other], "takeback", game_id)  # one line, in words
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "error 422 takeback_unavailable:" in refused.stderr
    assert cli(server, clients[0], "notes", game_id).stdout.strip() == "(no notes)"
    assert cli(server, clients[0], "notes", game_id, "keep tea for the ship").returncode == 0
    assert cli(server, clients[0], "notes", game_id).stdout.strip() == "keep tea for the ship"
    assert cli(server, clients[1], "notes", game_id).stdout.strip() == "(no notes)"
    assert cli(server, clients[0], "notes", game_id, "--clear").returncode == 0
    assert cli(server, clients[0], "notes", game_id).stdout.strip() == "(no notes)"


def test_the_terminal_client_takes_back_keeps_notes_and_names_the_winner(server):
    clients, people = two_players(server)
    created = clients[0].create_game("speicherstadt", [{"player_id": people[0]["id"]},
                                                       {"player_id": people[1]["id"]}], {},
                                     time_control={"bank": "P2D", "increment": "PT12H"})
    game_id = created["id"]
    clients[1].accept(game_id, 1)
    mover = safe_move(clients, game_id)
    other = 1 - mover
    clients[mover].takeback(game_id)
    terminal = Terminal(game_id, "--url", server, "--token", clients[other].token, "--poll", "0.2")
    try:
        # the other player sees the request in words and accepts it with a key
        found = terminal.read_until(re.compile(rb"asks to take back their last move|waiting for the other"))
        assert found, terminal.screen[-2000:]
        assert b"time bank:" in terminal.screen
        terminal.read_until(PROMPT, timeout=3)  # their turn or not: the keys work at the prompt and while waiting
        terminal.type("a")
        assert terminal.read_until(re.compile(rb"takeback accepted")), terminal.screen[-2000:]
        terminal.type("n plan: the coffee column")
        assert terminal.read_until(re.compile(rb"notes saved")), terminal.screen[-2000:]
        terminal.type("n")
        assert terminal.read_until(re.compile(rb"plan: the coffee column")), terminal.screen[-2000:]
        clients[mover].resign(game_id)
        terminal.type("r")
        winner = re.escape(people[other]["name"].encode())
        found = terminal.read_until(re.compile("finished · winners: ".encode() + winner + rb" \(by resignation\)"))
        assert found, terminal.screen[-2000:]
    finally:
        terminal.process.kill()
        terminal.close()
    assert b"Traceback" not in terminal.screen
    assert clients[other].notes(game_id)["text"] == "plan: the coffee column"
    events = [e["type"] for e in clients[0].events(game_id)["events"]]
    assert "MoveTakenBack" in events
