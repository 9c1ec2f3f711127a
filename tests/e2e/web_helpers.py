"""Shared steps of the browser tests: a Chromium, signing up, the new-game form, and
playing a game by clicking the board and the player's cards until it ends."""

from __future__ import annotations

import random
import shutil
import time
import uuid
from urllib.parse import urlparse

import requests
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import ROOT

ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# the flags a closed network needs (no background connections to the outside)
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 390, "height": 844}
#: what a player clicks: the board's highlighted places and the pieces of the table
#: (cards, cubes, dice, tokens), then one of the short choices a piece may open
ON_TABLE = "#board .clickable, #table .clickable"


def commands_url(url: str) -> bool:
    """POST /v1/games/{id}/commands, whatever its query (the page sends its moves with
    ``?include=legal_commands``); never legal-commands."""
    return urlparse(url).path.endswith("/commands")


def wait_until(page: Page, predicate: str, arg=None, timeout: float = 10_000) -> None:
    """Wait until the page's `predicate(arg)` is true. Polled from here with evaluate, not
    with wait_for_function: its polling evaluates a string, which the client's CSP
    (script-src 'self', no 'unsafe-eval') forbids."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(predicate, arg):
                return
        except PlaywrightError:
            pass  # the page is being replaced: ask again
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"not true after {timeout} ms: {predicate}")
        time.sleep(0.05)


def sign_up(page: Page, server: str, name: str) -> None:
    page.goto(server + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()


PASSWORD = "a long enough password"


def api_player(server: str, name: str) -> dict:
    """A player signed up through the API with an email and a password (its token is for
    the test's own requests, never given to the page)."""
    email = f"{name.lower().replace(' ', '-')}-{uuid.uuid4().hex[:8]}@players.test"
    made = requests.post(f"{server}/v1/players", json={"name": name, "email": email, "password": PASSWORD},
                         timeout=30)
    assert made.status_code == 201, made.text
    return {**made.json(), "email": email}


def sign_in(page: Page, server: str, player: dict, at: str = "/") -> None:
    """Sign in by the page's own form, with the email and password: a session cookie."""
    page.goto(server + at)
    page.get_by_label("Email", exact=True).fill(player["email"])
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    # a busy machine may take its time to answer the sign-in
    expect(page.locator("#who")).to_contain_text(player["name"], timeout=20_000)


def open_legal_moves(page: Page) -> None:
    """Open the game page's list of every legal move in words, once the page is drawn and
    read (a loaded machine may take long: a click during the first draw was seen to leave
    the list closed); if it is found closed, the failure says so rather than "hidden"."""
    page.wait_for_selector("#main[data-busy='0']", timeout=30_000)
    page.get_by_text("Every legal move, in words").click()
    expect(page.locator("details:has(#moves)")).to_have_attribute("open", "")


def create_game(page: Page, title: str, options: dict | None = None, seats: list[str] | None = None) -> str:
    """The new-game form: a title, its options from lists, the other seats (computer levels,
    "open", or "invite:<name>")."""
    page.locator("#new-title").select_option(title)
    for key, value in (options or {}).items():
        page.locator(f"[data-option='{key}']").select_option(str(value))
    seats = seats or ["easy"]
    page.locator("#new-count").select_option(str(len(seats) + 1))
    for index, kind in enumerate(seats, start=2):
        if kind.startswith("invite:"):
            page.locator(f"#seat-{index}-kind").select_option("invite")
            page.locator(f"#seat-{index}-name").fill(kind.split(":", 1)[1])
        else:
            page.locator(f"#seat-{index}-kind").select_option(kind)
    page.get_by_role("button", name="Create the game").click()
    try:
        page.wait_for_url("**/#/games/*", timeout=10_000)
    except PlaywrightTimeout:
        raise AssertionError(f"no game: {page.locator('#notice').inner_text()}") from None
    return page.url.rsplit("/", 1)[1]


def version_of(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-version") or 0)


def play_by_clicks(page: Page, name: str, budget_seconds: float = 150, stop_after: int | None = None,
                   end_turn_chance: float = 0.4) -> int:
    """Click the board and the table (never the list of moves) until the game ends (or
    `stop_after` moves were played). A turn's token ("End turn", "End shipping") is
    clicked with `end_turn_chance` when offered: higher, a game has fewer moves."""
    chooser = random.Random(name)
    deadline = time.monotonic() + budget_seconds
    moves = 0
    while time.monotonic() < deadline:
        if page.locator("#status").get_attribute("data-status") == "finished" or moves == stop_after:
            return moves
        # the page is drawn (a busy machine may take long to answer its reads)
        page.wait_for_selector("#main[data-busy='0']", timeout=30_000)
        targets = page.locator(ON_TABLE)
        # now and then the player ends the turn (a token) rather than wander the board
        tokens = page.locator("#table .piece.token")
        if tokens.count() and chooser.random() < end_turn_chance:
            targets = tokens
        count = targets.count()
        if count == 0:
            page.wait_for_timeout(50)
            continue
        before = version_of(page)
        try:
            targets.nth(chooser.randrange(count)).click(timeout=1_500)
            choices = page.locator("#choices button.choice")
            offered = choices.count()
            if offered:
                choices.nth(chooser.randrange(offered)).click(timeout=1_500)
        except PlaywrightTimeout:
            continue  # a live update redrew the page under the click: look again
        try:
            wait_until(
                page, "v => Number(document.querySelector('#status').dataset.version) > v"
                " || document.querySelector('#notice').textContent !== ''", arg=before, timeout=10_000)
        except PlaywrightTimeout:
            continue
        notice = page.locator("#notice").inner_text()
        # only a race with the computer seat may refuse a move, and it says so in words
        assert not notice or "no longer possible" in notice or "(game_not_active)" in notice, notice
        page.evaluate("document.querySelector('#notice').textContent = ''")
        moves += 1
    raise AssertionError(f"{name}: the game did not finish in {budget_seconds} s ({moves} moves)")
