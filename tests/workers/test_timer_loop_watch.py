"""The worker's watch over its timer loop (workers/__main__.py, TimerLoop.check): a loop
that died is started again; one that has not ended a turn for STUCK_AFTER_SECONDS is
logged with where it waits, and replaced after twice that. Without it a silent loop left every timer to the sweeper's
pace (seen once in CI: reminders 5 to 12 s late)."""

from __future__ import annotations

import logging
import threading
import time

import workers.__main__ as worker_main


class _Loop(worker_main.TimerLoop):
    """A timer loop whose turns are the test's: ``release`` ends the current one."""

    def __init__(self) -> None:
        super().__init__(threading.Event(), 1.0, jobs=None, timers=True)
        self.release = threading.Event()
        self.runs = 0

    def _forever(self, generation: int) -> None:
        self.runs += 1
        self.release.wait(10)
        self.release.clear()


def test_a_loop_that_stopped_is_started_again(caplog):
    loop = _Loop()
    loop.start()
    loop.release.set()
    loop.thread.join(5)
    assert not loop.thread.is_alive() and loop.runs == 1
    with caplog.at_level(logging.ERROR, logger="entrepot.worker"):
        loop.check()
    assert loop.thread.is_alive() and loop.runs == 2
    assert "started again" in caplog.text
    loop.release.set()


def test_a_loop_silent_too_long_is_reported_with_where_it_waits(caplog, monkeypatch):
    loop = _Loop()
    loop.start()
    with caplog.at_level(logging.ERROR, logger="entrepot.worker"):
        loop.check()
        assert caplog.text == ""  # a turn under way, not yet too long
        monkeypatch.setattr(worker_main, "STUCK_AFTER_SECONDS", 60.0)
        loop.turn_ended = time.monotonic() - 90  # silent longer than that, not yet twice
        loop.check()
        loop.check()  # said once per STUCK_AFTER_SECONDS, not at every look
    assert caplog.text.count("has not ended a turn") == 1 and "takes over" not in caplog.text
    assert "_forever" in caplog.text and "self.release.wait(10)" in caplog.text  # where it waits
    loop.release.set()
    loop.thread.join(5)


def test_a_loop_silent_twice_too_long_is_replaced(caplog, monkeypatch):
    loop = _Loop()
    loop.start()
    stuck = loop.thread
    monkeypatch.setattr(worker_main, "STUCK_AFTER_SECONDS", 60.0)
    loop.turn_ended = time.monotonic() - 121
    with caplog.at_level(logging.ERROR, logger="entrepot.worker"):
        loop.check()
    assert "a new one takes over" in caplog.text
    assert loop.thread is not stuck and loop.thread.is_alive() and loop.runs == 2 and loop.generation == 2
    loop.release.set()
