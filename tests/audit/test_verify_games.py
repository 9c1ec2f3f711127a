"""Random finished games of every title and form, played through the real service, verify
offline: every event re-derived from the seed and the stored commands (issue 15)."""

from __future__ import annotations

import random

import pytest

from tests.audit.play import every_form, play_finished_game
from verifier.verify import verify_record

pytestmark = pytest.mark.slow(seconds=40)  # started first: tests/conftest.py

FORMS = every_form()
#: forms whose last seat is a computer (its policy is slow; once per title is enough; never a
#: solo game, whose one seat is the person playing it)
WITH_COMPUTER = [next(f for f in FORMS if f[0] == t and f[2] > 1) for t in {t for t, _, _ in FORMS}]


@pytest.mark.parametrize(("title_id", "raw", "seats"), FORMS,
                         ids=[f"{t}-{'-'.join(map(str, r.values())) or 'default'}-{n}" for t, r, n in FORMS])
def test_a_finished_game_verifies(services, title_id, raw, seats):
    rng = random.Random(f"{title_id}{raw}{seats}")
    computer = (title_id, raw, seats) in WITH_COMPUTER
    game_id, receipts = play_finished_game(services, title_id, raw, seats, rng, computer_seats=(seats - 1,) if computer else ())
    record = services.audit.record(game_id)
    report = verify_record(record, receipts)
    assert report.ok, report.summary()
    assert report.summary() == (f"verified: {len(record['steps'])} steps, every event re-derived;"
                                f" {len(receipts)} receipt(s) match")
    assert report.rederived_steps == len(record["steps"]) > 10
    senders = {step["sender"]["kind"] for step in record["steps"]}
    assert senders == {"server", "player"} | ({"computer"} if computer else set())
    assert record["checkable"] == {"chain": True, "seed": True, "events": True}
