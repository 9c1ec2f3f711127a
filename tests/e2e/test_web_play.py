"""Every title played to the end in Chromium by clicking only the board and the player's
cards (never the list of moves) against an easy computer seat; at phone size (390x844) the
same clicks play the first moves of each title and the page never scrolls sideways.
Screenshots of each title at both sizes go to test-artifacts/web/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e.test_web_pages import no_serious_violation
from tests.e2e.web_helpers import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_FLAGS,
    DESKTOP,
    PHONE,
    create_game,
    play_by_clicks,
    sign_up,
)

pytestmark = pytest.mark.slow(seconds=45)

TITLES = [("kontor", {"variant": "basic"}), ("speicherstadt", {}), ("amsterdam", {"rounds": 10})]


@pytest.fixture(scope="module")
def browser():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.mark.parametrize("title,options", TITLES)
def test_a_whole_game_by_clicking_the_board_and_the_cards(server, browser, title, options):
    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_up(page, server, f"Ada {title}")
    create_game(page, title, options, ["easy"])
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("(you)")
    page.screenshot(path=str(ARTIFACTS / f"{title}-desktop.png"), full_page=True)
    no_serious_violation(page, f"{title} game page")
    moves = play_by_clicks(page, f"{title}-desktop")
    assert moves > 3
    status = page.locator("#status").inner_text()
    # who won, why, and the scores, by name
    assert status.startswith("Finished.") and "won (scored)" in status and "Scores:" in status, status
    assert f"Ada {title} (you)" in status, status
    page.screenshot(path=str(ARTIFACTS / f"{title}-desktop-finished.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("title,options", TITLES)
def test_the_first_moves_by_clicking_on_a_phone(server, browser, title, options):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(page, server, f"Mobile {title}")
    create_game(page, title, options, ["easy"])
    expect(page.locator("#board svg")).to_be_visible()
    assert play_by_clicks(page, f"{title}-phone", stop_after=6) == 6
    no_serious_violation(page, f"{title} on a phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page scrolls sideways on a phone ({width} px)"
    page.screenshot(path=str(ARTIFACTS / f"{title}-phone.png"), full_page=True)
    page.context.close()
