"""The signed-in dashboard in a real browser (Debian's chromium driven by Playwright) against a
live `entrepot serve`: your games most urgent first (your turn first, the nearest deadline
first) with countdowns that tick; the notification settings kept by the server; a game
aborted by both players with the game page's button; and axe-core on the pages the other
browser tests do not check (lobby, leaderboard, archive, games to watch, a profile, the
account page, the mail-link pages), at desktop and phone size."""

from __future__ import annotations

import uuid

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.test_web_pages import no_serious_violation
from tests.e2e.web_helpers import PHONE, api_player, sign_in, wait_until

pytestmark = pytest.mark.slow(seconds=30)


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:6]}"


def _headers(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


def _kontor(server: str, host: dict, other: dict, per_move: str | None) -> str:
    body = {"title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": host["id"]}, {"player_id": other["id"]}]}
    if per_move:
        body["time_control"] = {"per_move": per_move}
    made = requests.post(f"{server}/v1/games", headers=_headers(host), json=body, timeout=30)
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    # the invited player accepts: the game starts (both choose a card at once)
    accepted = requests.post(f"{server}/v1/games/{game_id}/seats/1/accept", headers=_headers(other), json={}, timeout=30)
    assert accepted.status_code in (200, 201), accepted.text
    return game_id


def _play_first(server: str, player: dict, game_id: str, seat: int) -> None:
    legal = requests.get(f"{server}/v1/games/{game_id}/legal-commands?seat={seat}", headers=_headers(player), timeout=30).json()
    done = requests.post(f"{server}/v1/games/{game_id}/commands", headers=_headers(player), timeout=30,
                         json={"seat": seat, "command": legal["commands"][0], "expected_version": legal["version"]})
    assert done.status_code in (200, 201), done.text


def test_the_dashboard_puts_your_turn_and_the_nearest_deadline_first_and_counts_down(server, browser):
    ada, bea = api_player(server, unique("Ada")), api_player(server, unique("Bea"))
    later = _kontor(server, ada, bea, "P3D")      # Ada's turn, 3 days
    sooner = _kontor(server, ada, bea, "P1D")     # Ada's turn, 1 day: before the 3 days
    theirs = _kontor(server, ada, bea, "PT6H")    # Ada has played: Bea's turn, nearest deadline
    _play_first(server, ada, theirs, 0)
    waiting = requests.post(f"{server}/v1/games", headers=_headers(ada), timeout=30, json={
        "title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": ada["id"]}, {"open": True}]})
    assert waiting.status_code == 201, waiting.text

    page = browser.new_context().new_page()
    # the page's clock can be moved forward: the countdowns of days and hours change by
    # the minute
    page.clock.install()
    sign_in(page, server, ada)
    rows = page.locator("#dashboard > li")
    expect(rows).to_have_count(4)
    order = [rows.nth(i).locator("a").first.get_attribute("href").rsplit("/", 1)[1] for i in range(4)]
    assert order == [sooner, later, theirs, waiting.json()["id"]], order
    expect(rows.nth(0)).to_contain_text("your turn")
    expect(rows.nth(2)).to_contain_text(f"Waiting for {bea['name']}")
    expect(rows.nth(3)).to_contain_text("waiting for players")
    # the countdown is live: it changes on screen within a few seconds, the page untouched
    first = rows.nth(0).locator(".deadline")
    expect(first).to_contain_text("left")
    shown = first.inner_text()
    page.clock.run_for(61_000)
    wait_until(page, "s => document.querySelector('#dashboard > li .deadline').textContent !== s", arg=shown, timeout=5_000)
    assert page.title() == "(2) Entrepot"  # the tab counts the games waiting for Ada
    # the game page counts down too
    page.locator(f"a[href='#/games/{sooner}']").click()
    expect(page.locator("#clock")).to_contain_text("left")
    shown = page.locator("#clock").inner_text()
    page.clock.run_for(61_000)
    wait_until(page, "s => document.querySelector('#clock').textContent !== s", arg=shown, timeout=5_000)
    page.context.close()


def test_the_dashboard_says_your_turn_as_soon_as_it_comes(server, browser):
    """The dashboard follows the player's notification stream: when the opponent's move
    makes it Ada's turn, her open dashboard says so at once. The page's clock is installed
    and never moved, so its 10-second re-read never runs: only the stream can tell."""
    ada, bea = api_player(server, unique("Ada")), api_player(server, unique("Bea"))
    game_id = _kontor(server, ada, bea, "P2D")
    _play_first(server, ada, game_id, 0)  # both choose at once: Ada has, Bea has not
    page = browser.new_context().new_page()
    page.clock.install()
    # the stream answers once it knows Ada's newest notification: what comes after is its
    with page.expect_response(lambda response: "/v1/players/me/stream" in response.url, timeout=45_000):
        sign_in(page, server, ada)
    row = page.locator(f"#dashboard > li:has(a[href='#/games/{game_id}'])")
    expect(row).to_contain_text(f"Waiting for {bea['name']}")
    for _ in range(20):  # Bea plays until it is Ada's turn (the placing order follows the cards)
        game = requests.get(f"{server}/v1/games/{game_id}", timeout=30).json()
        if 0 in game["to_act"]:
            break
        _play_first(server, bea, game_id, 1)
    assert 0 in game["to_act"], game["to_act"]
    expect(row).to_contain_text("your turn", timeout=5_000)
    page.context.close()


def test_both_players_abort_a_game_with_its_button(server, browser):
    ada, bea = api_player(server, unique("Ada")), api_player(server, unique("Bea"))
    game_id = _kontor(server, ada, bea, None)
    # both have moved: one alone can no longer abort, the other must agree
    _play_first(server, ada, game_id, 0)
    _play_first(server, bea, game_id, 1)
    pages = []
    for player in (ada, bea):
        page = browser.new_context().new_page()
        sign_in(page, server, player, at=f"/#/games/{game_id}")
        expect(page.locator("#status")).to_have_attribute("data-status", "active")
        pages.append(page)
    first, second = pages
    first.get_by_role("button", name="Abort the game").click()
    # the other page learns it live, and says who asked
    expect(second.locator("#abort-asked")).to_contain_text(f"{ada['name']} asked to abort the game", timeout=15_000)
    second.get_by_role("button", name="Abort the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("The game was aborted", timeout=15_000)
        expect(page.get_by_role("button", name="Resign")).to_have_count(0)
    assert requests.get(f"{server}/v1/games/{game_id}", headers=_headers(ada), timeout=30).json()["status"] == "aborted"
    for page in pages:
        page.context.close()


def test_notification_settings_are_kept_by_the_server(server, browser):
    player = api_player(server, unique("Nora"))
    page = browser.new_context().new_page()
    sign_in(page, server, player)
    page.goto(f"{server}/#/settings")
    expect(page.locator("#notify-messages")).to_be_checked()
    page.locator("#notify-messages").uncheck()
    page.locator("#digest").select_option("daily")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#notice")).to_contain_text("Saved.")
    notify = requests.get(f"{server}/v1/players/me", headers=_headers(player), timeout=30).json()["notify"]
    assert notify.get("messages") is False and notify.get("digest") == "daily", notify
    page.reload()
    expect(page.locator("#notify-messages")).not_to_be_checked()
    expect(page.locator("#digest")).to_have_value("daily")
    page.context.close()


@pytest.mark.parametrize("size", [None, PHONE], ids=["desktop", "phone"])
def test_the_other_pages_pass_axe(server, browser, size):
    player = api_player(server, unique("Axa"))
    page = browser.new_context(**({"viewport": size, "is_mobile": True, "has_touch": True} if size else {})).new_page()
    # a visitor's pages from a mail's links (the tokens here are not real: the page says so)
    for link, name in ((f"{server}/#/signin/not-a-real-token", "sign-in link"), (f"{server}/#/reset/not-a-real-token", "password reset")):
        page.goto(link)
        page.wait_for_timeout(500)
        no_serious_violation(page, name)
    sign_in(page, server, player)
    for route, name in (("#/lobby", "lobby"), ("#/leaderboard", "leaderboard"), ("#/archive", "archive"),
                        ("#/watch", "games to watch"), (f"#/players/{player['id']}", "profile"), ("#/account", "account")):
        page.goto(f"{server}/{route}")
        expect(page.locator("#main h2").first).to_be_visible()
        no_serious_violation(page, name)
    page.context.close()
