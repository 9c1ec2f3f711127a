"""Every title played to its end at phone size (390x844, touch) in Chromium by clicking only
the board and the player's cards, never the list of moves, against an easy computer seat
(Kontor basic, Speicherstadt at two, Amsterdam's short game of 10 rounds: the shortest form
of each). The page never scrolls sideways, axe-core finds no serious violation, and the
screenshots of each title at phone size go to test-artifacts/web/. (Desktop:
test_web_play.py; a file of its own so that the two run side by side under xdist.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_web_pages import no_serious_violation
from tests.e2e.web_helpers import (
    ARTIFACTS,
    PHONE,
    create_game,
    play_by_clicks,
    sign_up,
)

pytestmark = pytest.mark.slow(seconds=45)

TITLES = [("kontor", {"variant": "basic"}), ("speicherstadt", {}), ("amsterdam", {"rounds": 10})]


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page scrolls sideways on a phone ({width} px)"


@pytest.mark.parametrize("title,options", TITLES)
def test_a_whole_game_by_clicking_on_a_phone(server, browser, title, options):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(page, server, f"Mobile {title}")
    create_game(page, title, options, ["easy"])
    expect(page.locator("#board svg")).to_be_visible()
    if title == "amsterdam":  # its picture's two-letter labels are spelled out under it
        expect(page.locator("#board-legend")).to_contain_text("the waterway of the harbour")
        assert page.locator("#board svg text title").count() > 0
    no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / f"{title}-phone.png"), full_page=True)
    # a turn ends as soon as it may more often than at desktop size: fewer moves (about a
    # minute a game on a quiet machine; the budget is only the cap of a game that hangs)
    moves = play_by_clicks(page, f"{title}-phone", budget_seconds=420, end_turn_chance=0.8)
    assert moves > 3
    status = page.locator("#status").inner_text()
    # who won, why, and the scores, by name
    assert status.startswith("Finished.") and "won (scored)" in status and "Scores:" in status, status
    assert f"Mobile {title} (you)" in status, status
    no_serious_violation(page, f"{title} finished on a phone")
    no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / f"{title}-phone-finished.png"), full_page=True)
    page.context.close()
