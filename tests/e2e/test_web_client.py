"""The web client in a real browser (Debian's chromium driven by Playwright) against a live
`entrepot serve`: a person signs up, creates a game against a computer seat and plays it to
the end through the page alone; a second browser sees the game move live.

Screenshots of each title's board at a few versions are written to test-artifacts/web/.
"""

from __future__ import annotations

import random
import shutil
import time

import pytest
from playwright.sync_api import Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import ROOT

pytestmark = pytest.mark.slow(seconds=120)  # started first: tests/conftest.py

ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# the flags a closed network needs (no background connections to the outside)
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield launched
        launched.close()


def sign_up(page: Page, server: str, name: str) -> None:
    page.goto(server + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()


def create_game(page: Page, title: str, options: str, opponents: int = 1) -> str:
    page.get_by_label("Title").select_option(title)
    page.get_by_label("Computer opponents").fill(str(opponents))
    page.get_by_label("Level").select_option("easy")
    page.get_by_label("Options (JSON)").fill(options)
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/#/games/*")
    return page.url.rsplit("/", 1)[1]


def version_of(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-version") or 0)


def play_to_the_end(page: Page, name: str, budget_seconds: float = 240) -> int:
    """Click legal moves (on the board when it offers one, else in the list) until the end."""
    chooser = random.Random(name)
    deadline = time.monotonic() + budget_seconds
    moves, shots = 0, 0
    while time.monotonic() < deadline:
        status = page.locator("#status")
        if status.get_attribute("data-status") == "finished":
            page.screenshot(path=str(ARTIFACTS / f"{name}-finished.png"), full_page=True)
            return moves
        buttons = page.locator("#moves button.move")
        if buttons.count() == 0:
            page.wait_for_timeout(100)
            continue
        before = version_of(page)
        on_board = page.locator("#board .clickable")
        board_count, button_count = on_board.count(), buttons.count()
        if moves % 2 and board_count:
            target = on_board.nth(chooser.randrange(board_count))
        elif button_count:
            target = buttons.nth(chooser.randrange(button_count))
        else:
            continue  # the list was redrawn between two looks
        try:
            target.click(timeout=5_000)
        except PlaywrightTimeout:
            continue  # a live update redrew the page under the click: look again
        narrowed = page.locator("#moves button:not(.move)")  # "Show every move"
        offered = page.locator("#moves button.move")
        offered_count = offered.count()
        if narrowed.count() and offered_count:
            # a board element with several moves (say, ways to pay) only narrowed the list
            try:
                offered.nth(chooser.randrange(offered_count)).click(timeout=5_000)
            except PlaywrightTimeout:
                continue  # a live update redrew the list under the click: look again
        # the page moves on, or says why not (then it shows the game as it is and we go on);
        # a click that a live update's redraw swallowed did nothing: look again (the budget
        # above still fails a page that never gets there)
        try:
            page.wait_for_function(
                "v => Number(document.querySelector('#status').dataset.version) > v"
                " || document.querySelector('#notice').textContent !== ''", arg=before, timeout=10_000)
        except PlaywrightTimeout:
            continue
        notice = page.locator("#notice").inner_text()
        # a move raced by the computer seat's (its move came first, or ended the game)
        assert not notice or "(version_conflict)" in notice or "(game_not_active)" in notice, notice
        page.evaluate("document.querySelector('#notice').textContent = ''")
        moves += 1
        if moves in (1, 10) and shots < 2:
            page.screenshot(path=str(ARTIFACTS / f"{name}-move-{moves}.png"), full_page=True)
            shots += 1
    raise AssertionError(f"{name}: the game did not finish in {budget_seconds} s ({moves} moves)")


@pytest.mark.parametrize("title,options,opponents", [
    ("kontor", '{"variant": "basic"}', 1),
    ("speicherstadt", "{}", 1),
    ("amsterdam", '{"rounds": 10}', 1),
])
def test_a_person_plays_a_whole_game_in_the_browser(server, browser, title, options, opponents):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    sign_up(page, server, "Ada")
    game_id = create_game(page, title, options, opponents)
    expect(page.locator("#board svg")).to_be_visible()
    moves = play_to_the_end(page, title)
    assert moves > 5
    assert page.locator("#status").inner_text().startswith("Finished")
    # scroll back through the history: the board as it was at version 1
    page.locator("#history").fill("1")
    page.locator("#history").dispatch_event("input")
    expect(page.locator("#history-label")).to_contain_text("version 1 of")
    page.screenshot(path=str(ARTIFACTS / f"{title}-version-1.png"), full_page=True)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the audit record").click()
    assert download.value.suggested_filename == f"entrepot-{game_id}.json"
    page.context.close()


def test_a_second_browser_sees_the_game_move_live(server, browser):
    player = browser.new_context().new_page()
    sign_up(player, server, "Ada")
    game_id = create_game(player, "kontor", '{"variant": "basic"}')
    watcher = browser.new_context().new_page()
    sign_up(watcher, server, "Watcher")
    watcher.goto(f"{server}/#/games/{game_id}")
    expect(watcher.locator("#board svg")).to_be_visible()
    seen = version_of(watcher)
    player.locator("#moves button.move").first.click()
    # no reload in the watcher: the stream wakes it
    watcher.wait_for_function(
        "v => Number(document.querySelector('#status').dataset.version) > v", arg=seen, timeout=20_000)
    player.locator("#message-text").fill("good luck")
    player.get_by_role("button", name="Send").click()
    expect(player.locator("#messages")).to_contain_text("good luck")


def test_keyboard_play_and_a_phone_sized_screen(server, browser):
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_up(page, server, "Mobile")
    create_game(page, "kontor", '{"variant": "basic"}')
    first = page.locator("#moves button.move").first
    expect(first).to_be_visible()
    before = version_of(page)
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => Number(document.querySelector('#status').dataset.version) > v", arg=before, timeout=20_000)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page scrolls sideways on a phone ({width} px)"
    page.screenshot(path=str(ARTIFACTS / "kontor-phone.png"), full_page=True)


def test_a_declined_invitation_closes_the_seat_and_the_creator_cancels_in_the_browser(server, browser):
    """Issue 26, item 13, as a person meets it: the invited player declines; the seat is
    closed (nobody may join it) and the creator cancels the waiting game from the lobby."""
    import requests

    page = browser.new_context().new_page()
    sign_up(page, server, "Host")
    me = page.evaluate("fetch('/v1/players/me').then((r) => r.json())")  # the page's cookie session
    guest = requests.post(f"{server}/v1/players", json={"name": "NoThanks"}, timeout=10).json()
    game = page.evaluate(
        """async (body) => {
             const csrf = document.cookie.split('; ').find((c) => c.startsWith('entrepot_csrf='));
             const r = await fetch('/v1/games', {method: 'POST', body: JSON.stringify(body),
               headers: {'Content-Type': 'application/json',
                         'X-CSRF-Token': csrf ? decodeURIComponent(csrf.split('=')[1]) : ''}});
             return r.json();
           }""", {"title": "kontor", "seats": [{"player_id": me["id"]}, {"player_id": guest["id"]}]})
    declined = requests.post(f"{server}/v1/games/{game['id']}/seats/1/decline", timeout=10,
                             headers={"Authorization": f"Bearer {guest['token']}"})
    assert declined.json()["seats"][1]["status"] == "declined"
    stranger = requests.post(f"{server}/v1/players", json={"name": "Stranger"}, timeout=10).json()
    joined = requests.post(f"{server}/v1/games/{game['id']}/seats/1/join", timeout=10,
                           headers={"Authorization": f"Bearer {stranger['token']}"})
    assert joined.status_code == 409
    page.goto(server + "/")
    page.reload()
    item = page.locator("ul.games li", has_text=game["id"][:8])
    item.get_by_role("button", name="cancel this game").click()
    expect(page.locator("ul.games li", has_text=game["id"][:8]).locator(".badge").first).to_have_text("aborted")
