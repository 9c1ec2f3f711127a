"""Every title played to the end in Chromium at desktop size by clicking only the board and
the player's cards (never the list of moves) against an easy computer seat (the same at
phone size: test_web_play_phone.py). Screenshots go to test-artifacts/web/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_web_pages import no_serious_violation
from tests.e2e.web_helpers import (
    ARTIFACTS,
    DESKTOP,
    create_game,
    play_by_clicks,
    sign_up,
)

pytestmark = pytest.mark.slow(seconds=45)

TITLES = [("kontor", {"variant": "basic"}), ("speicherstadt", {}), ("amsterdam", {"rounds": 10})]


@pytest.mark.parametrize("title,options", TITLES)
def test_a_whole_game_by_clicking_the_board_and_the_cards(server, browser, title, options):
    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_up(page, server, f"Ada {title}")
    create_game(page, title, options, ["easy"])
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("(you)")
    page.screenshot(path=str(ARTIFACTS / f"{title}-desktop.png"), full_page=True)
    no_serious_violation(page, f"{title} game page")
    moves = play_by_clicks(page, f"{title}-desktop", budget_seconds=420, end_turn_chance=0.6)
    assert moves > 3
    status = page.locator("#status").inner_text()
    # who won, why, and the scores, by name
    assert status.startswith("Finished.") and "won (scored)" in status and "Scores:" in status, status
    assert f"Ada {title} (you)" in status, status
    page.screenshot(path=str(ARTIFACTS / f"{title}-desktop-finished.png"), full_page=True)
    page.context.close()
