"""The web client's social and account controls in a real browser (Debian's chromium driven
by Playwright) against a live `entrepot serve`: an invitation by name from the new-game
form accepted in other browsers, team chat live through the game stream (no polling) and
never read by the other team,
vacation and webhooks from the settings page seen over the API, and the front page that
must not draw over a page opened right after it."""

from __future__ import annotations

import threading
import uuid
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.test_web_pages import no_serious_violation
from tests.e2e.web_helpers import (
    ARTIFACTS,
    ON_TABLE,
    PHONE,
    api_player,
    commands_url,
    create_game,
    sign_in,
    sign_up,
    wait_until,
)

pytestmark = pytest.mark.slow(seconds=40)


def unique(name: str) -> str:
    """Players are found by name: each test's own, whatever other tests call theirs."""
    return f"{name}-{uuid.uuid4().hex[:6]}"


def click_one_move(page) -> None:
    """Click the first thing the board or the table offers, and its first choice; returns
    once the server has taken this page's move. In a simultaneous phase the others' moves
    redraw the page: the version that moves does not say this page's move was sent, and a
    click landing as the page is redrawn may meet nothing (seen once on the phone-sized
    page, in a full run); then the page still offers its moves, and the player clicks again."""
    for _ in range(3):
        page.wait_for_selector("#main[data-busy='0']", timeout=30_000)
        try:
            with page.expect_response(_move_taken, timeout=15_000):
                page.locator(ON_TABLE).first.click()
                if page.locator("#choices button.choice").count():
                    page.locator("#choices button.choice").first.click()
            return
        except PlaywrightTimeout:
            page.wait_for_selector("#main[data-busy='0']", timeout=30_000)
            if not page.locator(ON_TABLE).count():  # taken after all (a slow answer): nothing left to play
                return
    raise AssertionError(f"three clicks and no move taken: {page.locator('#status').inner_text()!r}, "
                         f"notice {page.locator('#notice').inner_text()!r}")


def _move_taken(response) -> bool:
    return response.request.method == "POST" and commands_url(response.url) and response.status == 201


def accept_invitation(page, game_id: str, host: str, joined: str | None = None) -> None:
    """The invited player's dashboard (open since they signed up: it is live) says who invited
    them (and who has accepted already) and the clock, in words; they accept and land on the
    game."""
    invitation = page.locator(f"#dashboard li:has(a[href='#/games/{game_id}']) .invitation")
    expect(invitation).to_contain_text(f"{host} invited you" + (f" (with {joined})" if joined else " ·"),
                                       timeout=30_000)
    expect(invitation).to_contain_text("2 days a move")
    invitation.get_by_role("button", name="Accept").click()
    page.wait_for_url(f"**/#/games/{game_id}")


def test_an_invitation_by_name_is_accepted_and_the_team_chats_live(server, browser):
    """Ada invites Bea (her partner) and Cid (the other team, with a computer) by name to a
    Kontor team game (teams: seats 1-2 and 3-4); each sees who invited them and the clock,
    and accepts; once the cards are revealed Ada and Bea talk in their team's channel, live
    in Bea's browser (the game stream says "message": the page does not poll), while Cid,
    on the other team, and a spectator never see it (they see the table's channel)."""
    ada_name, bea_name, cid_name = unique("Ada"), unique("Bea"), unique("Cid")
    ada = browser.new_context().new_page()
    sign_up(ada, server, ada_name)
    bea = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(bea, server, bea_name)
    cid = browser.new_context().new_page()
    sign_up(cid, server, cid_name)

    ada.locator("#new-title").select_option("kontor")
    ada.locator("#new-clock").select_option("P2D")
    game_id = create_game(ada, "kontor", {"variant": "team"}, [f"invite:{bea_name}", f"invite:{cid_name}", "easy"])
    expect(ada.locator("#status")).to_contain_text("waiting for players")

    accept_invitation(bea, game_id, ada_name)
    expect(bea.locator("#status")).to_contain_text(f"{bea_name} (you)")
    no_serious_violation(cid, "dashboard with an invitation")
    accept_invitation(cid, game_id, ada_name, joined=bea_name)
    # Ada's page starts the game live
    expect(ada.locator("#status")).not_to_contain_text("waiting for players", timeout=20_000)
    expect(ada.locator("#status")).to_contain_text(bea_name)
    expect(ada.locator("#status")).to_contain_text(cid_name)

    # each player takes a card by clicking; the cards are then revealed and placed, the
    # only time the rules let partners confer
    for page in (ada, bea, cid):
        expect(page.locator(ON_TABLE).first).to_be_visible(timeout=20_000)
        click_one_move(page)
    for page in (ada, bea, cid):
        try:
            wait_until(page, "() => !document.querySelector('#message-channel option[value=team]').disabled",
                       timeout=20_000)
        except PlaywrightTimeout as err:  # say where the game and each page were (seen once, in a full run)
            game = requests.get(f"{server}/v1/games/{game_id}", timeout=10).json()
            pages = {p.locator("#status").inner_text(): (p.locator("#status").get_attribute("data-version"),
                                                         p.locator("#notice").inner_text()) for p in (ada, bea, cid)}
            events = requests.get(f"{server}/v1/games/{game_id}/events", timeout=10).json()["events"]
            raise AssertionError(f"the team channel stayed closed: the game at version {game['version']}, phase "
                                 f"{game['view'].get('phase')}, to act {game['to_act']}; the pages (version, "
                                 f"notice): {pages}; the events: {[(e['seq'], e['type'], e['seat']) for e in events]}"
                                 ) from err

    spectator = browser.new_context().new_page()
    spectator.goto(f"{server}/#/games/{game_id}")
    expect(spectator.locator("#board svg")).to_be_visible()

    ada.locator("#message-channel").select_option("team")
    ada.locator("#message-text").fill("take the crane")
    ada.get_by_role("button", name="Send").click()
    expect(ada.locator("#messages")).to_contain_text(f"{ada_name} (you) (team): take the crane")
    expect(bea.locator("#messages")).to_contain_text(f"{ada_name} (team): take the crane", timeout=10_000)
    expect(bea.locator("#unread")).to_contain_text("1 unread")
    # the table's channel reaches everyone, the spectator too; the team's never leaves it
    ada.locator("#message-channel").select_option("table")
    ada.locator("#message-text").fill("good game")
    ada.get_by_role("button", name="Send").click()
    for page in (spectator, cid):
        expect(page.locator("#messages")).to_contain_text(f"{ada_name}: good game", timeout=10_000)
        expect(page.locator("#messages")).not_to_contain_text("take the crane")
    # Cid's own team (his partner is the computer) is his, and the other team never reads it
    cid.locator("#message-channel").select_option("team")
    cid.locator("#message-text").fill("they want the crane")
    cid.get_by_role("button", name="Send").click()
    expect(cid.locator("#messages")).to_contain_text(f"{cid_name} (you) (team): they want the crane")
    cid.locator("#message-channel").select_option("table")
    cid.locator("#message-text").fill("good luck")
    cid.get_by_role("button", name="Send").click()
    for page in (ada, bea, spectator):
        expect(page.locator("#messages")).to_contain_text(f"{cid_name}: good luck", timeout=10_000)
        expect(page.locator("#messages")).not_to_contain_text("they want the crane")
    bea.screenshot(path=str(ARTIFACTS / "kontor-team-chat-phone.png"), full_page=True)
    for page in (ada, bea, cid, spectator):
        page.context.close()


class _Hooks(BaseHTTPRequestHandler):
    received: list[bytes] = []
    arrived = threading.Event()

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).received.append(body)
        type(self).arrived.set()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_vacation_and_webhooks_from_the_settings_page_take_effect(server, browser):
    player = api_player(server, unique("Vera"))
    headers = {"Authorization": f"Bearer {player['token']}"}
    page = browser.new_context().new_page()
    sign_in(page, server, player)
    page.goto(f"{server}/#/settings")
    expect(page.locator("#vacation-state")).to_contain_text("Not on vacation")

    # a vacation of a week from today
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    until = page.evaluate("new Date(Date.now() + 7 * 86400000).toISOString().slice(0, 10)")
    page.locator("#vacation-from").fill(today)
    page.locator("#vacation-until").fill(until)
    page.get_by_role("button", name="Take a vacation").click()
    expect(page.locator("#vacation-state")).to_contain_text("On vacation from")
    away = requests.get(f"{server}/v1/players/me/vacation", headers=headers, timeout=30).json()
    assert away["current"] and away["current"]["until"].startswith(until), away
    no_serious_violation(page, "settings on vacation")
    page.get_by_role("button", name="End the vacation").click()
    expect(page.locator("#vacation-state")).to_contain_text("Not on vacation")
    assert requests.get(f"{server}/v1/players/me/vacation", headers=headers, timeout=30).json()["current"] is None

    # a webhook: listed over the API, then called when it is the player's turn
    receiver = HTTPServer(("127.0.0.1", 0), _Hooks)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{receiver.server_port}/hook"
        page.locator("#webhook-url").fill(url)
        page.get_by_role("button", name="Add a webhook").click()
        expect(page.locator("#notice")).to_contain_text("signing secret")
        expect(page.locator("#webhooks")).to_contain_text(url)
        listed = requests.get(f"{server}/v1/players/me/webhooks", headers=headers, timeout=30).json()
        assert [hook["url"] for hook in listed["webhooks"]] == [url], listed
        made = requests.post(f"{server}/v1/games", headers=headers, timeout=30, json={
            "title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": player["id"]}, {"ai": "easy"}]})
        assert made.status_code == 201, made.text
        assert _Hooks.arrived.wait(60), "no webhook call"
        assert any(made.json()["id"].encode() in body for body in _Hooks.received)
        page.get_by_role("button", name="Remove").click()
        expect(page.locator("#webhooks li")).to_have_count(0)
        assert requests.get(f"{server}/v1/players/me/webhooks", headers=headers, timeout=30).json()["webhooks"] == []
    finally:
        receiver.shutdown()
    page.context.close()


def test_the_front_page_never_draws_over_a_page_opened_right_after_it(server, browser):
    """The front page waits for the titles; the player opens a game before they come: the
    game stays on screen when they arrive (the late drawing is dropped)."""
    page = browser.new_context().new_page()
    sign_up(page, server, unique("Quick"))
    game_id = create_game(page, "kontor", {"variant": "basic"}, ["easy"])
    expect(page.locator("#board svg")).to_be_visible()
    held, holding = [], [True]
    page.route("**/v1/titles", lambda route: held.append(route) if holding else route.continue_())
    with page.expect_request("**/v1/titles"):
        page.evaluate("location.hash = '#/'")
    page.evaluate(f"location.hash = '#/games/{game_id}'")
    expect(page.locator("#board svg")).to_be_visible(timeout=15_000)
    assert held, "the front page asked for the titles"
    holding.clear()
    for route in held:  # the front page's answer comes now, after the game was drawn
        route.continue_()
    wait_until(page, "() => Number(document.documentElement.dataset.staleDrops || 0) > 0", timeout=15_000)
    expect(page.get_by_role("heading", name="Your games")).to_have_count(0)
    expect(page.locator("#board svg")).to_be_visible()
    page.context.close()
