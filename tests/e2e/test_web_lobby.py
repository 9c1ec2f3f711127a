"""The web client's lobby pages (clients/web/lobby.js) in a real browser (Debian's chromium
driven by Playwright) against a live `entrepot serve`: a seek appears live in another
player's lobby and is joined, a challenge by name is shown with the challenger's rating and
clock, then profile, leaderboard, archive and watching, all through the pages in words."""

from __future__ import annotations

import time
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_web_client import ARTIFACTS, sign_up

pytestmark = pytest.mark.slow(seconds=40)


def player_of(page: Page) -> dict:
    """The signed-in player, asked with the page's own cookie session."""
    return page.evaluate("fetch('/v1/players/me').then((r) => r.json())")


def resign_in_page(page: Page, game_id: str) -> None:
    """Resign with the page's cookie session and its CSRF token (as the page itself would)."""
    status = page.evaluate(
        """async (id) => {
             const csrf = document.cookie.split('; ').find((c) => c.startsWith('entrepot_csrf='));
             const r = await fetch(`/v1/games/${id}/resign`, {method: 'POST',
               headers: {'X-CSRF-Token': csrf ? decodeURIComponent(csrf.split('=')[1]) : ''}});
             return r.status;
           }""", game_id)
    assert 200 <= status < 300, status


def test_lobby_challenge_profile_leaderboard_archive_and_watching(server, browser):  # noqa: F811
    tag = uuid.uuid4().hex[:4]
    host_name, guest_name = f"WebHost{tag}", f"WebGuest{tag}"
    host, guest = browser.new_page(), browser.new_page()
    sign_up(host, server, host_name)
    sign_up(guest, server, guest_name)

    # the guest watches the lobby; the host posts an open game; it appears without a reload
    guest.get_by_role("link", name="Lobby").click()
    expect(guest.get_by_role("heading", name="Open games")).to_be_visible()
    host.goto(server + "/#/lobby")
    host.locator("#seek-title").select_option("kontor")
    host.locator("#seek-form").select_option("basic")
    host.locator("#seek-clock").select_option("P2D")
    host.get_by_role("button", name="Post the game").click()
    seek = guest.locator("#seeks li", has_text=host_name)
    expect(seek).to_contain_text("2 days a move", timeout=10_000)
    expect(seek).to_contain_text("rated")
    expect(seek).to_contain_text("(1000 (provisional))")
    seek.get_by_role("button", name="Join").click()
    guest.wait_for_url("**/#/games/*")
    game_id = guest.url.rsplit("/", 1)[1]
    expect(guest.locator("#status")).to_have_attribute("data-status", "active")

    # a challenge by name
    host.goto(server + "/#/lobby")
    host.locator("#challenge-title").select_option("kontor")
    host.locator("#challenge-form").select_option("basic")
    host.get_by_label("Player's name").fill(guest_name)
    host.get_by_role("button", name="Find").click()
    host.get_by_role("button", name=f"Challenge {guest_name}").click()
    host.wait_for_url("**/#/games/*")
    challenge_id = host.url.rsplit("/", 1)[1]
    guest.goto(server + "/#/lobby")
    invitation = guest.locator("#invitations li", has_text=host_name)
    expect(invitation).to_contain_text(f"{host_name} (1000 (provisional)) invites you to Kontor")
    expect(invitation).to_contain_text("no clock")
    invitation.get_by_role("button", name="Decline").click()
    expect(guest.locator("#invitations")).to_contain_text("No invitation")

    # someone watches the game under way, as a spectator
    watcher = browser.new_page()
    sign_up(watcher, server, f"Watcher{tag}")
    watcher.get_by_role("link", name="Watch").click()
    watcher.locator(f"#live-games li[data-game='{game_id}']").get_by_role("link").click()
    watcher.wait_for_url(f"**/#/games/{game_id}")
    expect(watcher.locator("#status")).to_have_attribute("data-status", "active")
    expect(watcher.locator("#moves button.move")).to_have_count(0)  # a spectator has no moves
    expect(watcher.locator("#board svg")).to_be_visible()

    # the guest resigns; the rating job rates the game; profile, leaderboard, archive
    resign_in_page(guest, game_id)
    host_id = player_of(host)["id"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        host.goto(server + f"/#/players/{host_id}")
        host.reload()
        if host.locator("#profile-ratings").count() and "not rated" not in host.locator("#profile-ratings").inner_text():
            break
        time.sleep(0.3)
    row = host.locator("#profile-ratings tbody tr", has_text="kontor")
    expect(row).to_contain_text("(provisional)")
    expect(host.get_by_role("heading", name=host_name)).to_be_visible()
    host.screenshot(path=str(ARTIFACTS / "profile.png"), full_page=True)
    host.get_by_role("link", name="Leaderboards").click()
    host.goto(server + "/#/leaderboard/kontor")
    expect(host.locator("#leaderboard")).to_contain_text(host_name)
    host.get_by_role("link", name="Archive").click()
    host.locator("#archive-player").fill(guest_name)
    host.locator("#archive-result").select_option("lost")
    host.get_by_role("button", name="Search").click()
    found = host.locator(f"#archive-results li[data-game='{game_id}']")
    expect(found).to_contain_text("lost")
    assert challenge_id not in host.locator("#archive-results").inner_text()
    found.get_by_role("link").click()
    host.wait_for_url(f"**/#/games/{game_id}")
    expect(host.locator("#status")).to_have_attribute("data-status", "finished")
    expect(host.locator("#history")).to_be_visible()
    host.screenshot(path=str(ARTIFACTS / "archive-game.png"), full_page=True)
