"""`entrepot-play` under a real pseudo-terminal against a live server: a whole game typed
move by move, colours drawn, bad input and a server that is down answered in one line."""

from __future__ import annotations

import os
import pty
import random
import re
import select
import subprocess
import sys
import time

from clients.sdk import Client
from tests.conftest import ROOT

PROMPT = re.compile(rb"move 1-(\d+), r to refresh, q to quit: ")


class Terminal:
    """A program on a pseudo-terminal: read what it draws, type into it."""

    def __init__(self, *args: str):
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "140", "LINES": "60"}
        self.process = subprocess.Popen([sys.executable, "-m", "clients.play", *args], cwd=ROOT,
                                        stdin=slave, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        self.screen = b""

    def read_until(self, pattern: re.Pattern, timeout: float = 30) -> re.Match | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = pattern.search(self.screen)
            if found:
                return found
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and closed the terminal
                    return pattern.search(self.screen)
                self.screen += chunk
            elif self.process.poll() is not None:
                return pattern.search(self.screen)
        return None

    def type(self, text: str) -> None:
        self.screen = b""
        os.write(self.master, text.encode() + b"\r")

    def close(self) -> int:
        try:
            return self.process.wait(timeout=15)
        finally:
            os.close(self.master)


def test_a_whole_game_typed_in_the_terminal(server):
    me = Client(server)
    player = me.create_player("Tty")
    game = me.create_game("kontor", [{"player_id": player["id"]}, {"ai": "easy"}], {"variant": "basic"})
    terminal = Terminal(game["id"], "--url", server, "--token", me.token, "--poll", "0.2")
    chooser = random.Random(3)
    first = terminal.read_until(PROMPT)
    assert first, terminal.screen[-2000:]
    assert b"\x1b[" in terminal.screen, "no colours drawn"
    assert b"your moves" in terminal.screen and b"seats" in terminal.screen
    assert b"choose card" in terminal.screen  # the server's words, as in the mail and the web client
    terminal.type("not a number")
    assert terminal.read_until(re.compile(rb"is not a move number between 1 and \d+"))
    deadline = time.monotonic() + 180
    count = int(first.group(1))
    while time.monotonic() < deadline:
        terminal.type(str(chooser.randint(1, count)))
        found = terminal.read_until(re.compile(PROMPT.pattern + "|finished · winners".encode()), timeout=60)
        assert found, terminal.screen[-2000:]
        if found.group(0).startswith(b"finished"):
            break
        count = int(found.group(1))
    else:
        raise AssertionError("the game did not finish")
    assert terminal.close() == 0
    assert b"Traceback" not in terminal.screen
    assert me.game(game["id"])["status"] == "finished"


def test_a_server_that_is_down_is_one_line_not_a_traceback():
    terminal = Terminal("00000000-0000-0000-0000-000000000000", "--url", "http://127.0.0.1:9")
    assert terminal.read_until(re.compile(rb"cannot reach the server at http://127\.0\.0\.1:9"))
    assert terminal.close() == 1
    assert b"Traceback" not in terminal.screen


def test_an_unknown_game_is_one_line(server):
    terminal = Terminal("00000000-0000-0000-0000-000000000000", "--url", server)
    assert terminal.read_until(re.compile(rb"entrepot-play: .*\(404 not_found\)"))
    assert terminal.close() == 1
    assert b"Traceback" not in terminal.screen
