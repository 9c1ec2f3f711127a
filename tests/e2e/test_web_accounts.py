"""Accounts in the web client (issue 28), in Debian's Chromium driven by Playwright against
a live `entrepot serve`: a player signs up with a name, an email and a password, signs out,
signs in again from a new browser context and finds their game; the session is an
HttpOnly cookie, never a token in localStorage; the account page lists sessions and makes
and revokes a personal token."""

from __future__ import annotations

import re
import shutil
import time
import uuid
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SERVER_MAIL
from tests.e2e.web_helpers import create_game as web_create_game
from tests.e2e.web_helpers import open_legal_moves
from tests.refusals import problem

pytestmark = pytest.mark.slow(seconds=40)  # started early: tests/conftest.py

PASSWORD = "a long enough password"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def create_game(page: Page) -> str:
    return web_create_game(page, "kontor", {"variant": "basic"}, ["easy"])


def test_sign_up_sign_out_and_sign_in_again_from_a_new_context(server, browser):
    email = f"web-{uuid.uuid4().hex[:8]}@players.test"
    first = browser.new_context()
    page = first.new_page()
    page.goto(server + "/")
    page.get_by_label("Your name").fill("Ada")
    page.locator("#new-email").fill(email)
    page.locator("#new-password").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    game_id = create_game(page)
    # the session is an HttpOnly cookie; nothing is kept in localStorage
    cookies = {c["name"]: c for c in first.cookies()}
    assert cookies["entrepot_session"]["httpOnly"] and cookies["entrepot_session"]["sameSite"] == "Lax"
    assert page.evaluate("Object.keys(localStorage)") == []
    assert page.evaluate("document.cookie").count("entrepot_session") == 0
    page.goto(server + "/#/")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="I have an account")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="I have an account")).to_be_visible()
    stale = requests.get(f"{server}/v1/players/me", cookies={"entrepot_session": cookies["entrepot_session"]["value"]},
                         timeout=30)
    problem(stale, 401, "unauthorized")  # the signed-out session is over on the server too
    first.close()

    second = browser.new_context()
    page = second.new_page()
    page.goto(server + "/")
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Password", exact=True).fill("wrong password")
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator("#notice")).to_contain_text("invalid_credentials")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    expect(page.locator(f"a[href='#/games/{game_id}']")).to_be_visible()
    page.locator(f"a[href='#/games/{game_id}']").click()
    expect(page.locator("#board svg")).to_be_visible()
    open_legal_moves(page)
    expect(page.locator("#moves button.move").first).to_be_visible()  # their seat: moves offered

    # the account page: sessions, and a personal token shown once, then revoked
    page.get_by_role("link", name="Account").click()
    expect(page.locator("#sessions")).to_contain_text("(this browser)")
    page.locator("#token-name").fill("my bot")
    page.get_by_role("button", name="Create the token").click()
    token = page.locator("#new-token-value").inner_text()
    assert requests.get(f"{server}/v1/players/me", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).status_code == 200
    page.locator("#tokens li", has_text="my bot").get_by_role("button", name="Revoke").click()
    expect(page.locator("#tokens")).not_to_contain_text("my bot")
    problem(requests.get(f"{server}/v1/players/me", headers={"Authorization": f"Bearer {token}"},
                         timeout=30), 401, "unauthorized")
    second.close()


def test_a_browser_that_kept_a_token_before_sessions_is_moved_to_a_session(server, browser):
    player = requests.post(f"{server}/v1/players", json={"name": "Kept"}, timeout=30).json()
    context = browser.new_context()
    page = context.new_page()
    page.goto(server + "/")
    expect(page.get_by_role("heading", name="I have an account")).to_be_visible()
    # what the web client kept before this version
    page.evaluate("t => { localStorage.setItem('entrepot.token', t);"
                  " localStorage.setItem('entrepot.player', '{}'); }", player["token"])
    page.reload()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    expect(page.locator("#who")).to_contain_text("Kept")
    assert page.evaluate("Object.keys(localStorage)") == []
    assert "entrepot_session" in {c["name"] for c in context.cookies()}
    context.close()


def test_a_third_party_app_is_allowed_from_the_browser(server, browser):
    email = f"app-{uuid.uuid4().hex[:8]}@players.test"
    requests.post(f"{server}/v1/players", json={"name": "Ada", "email": email, "password": PASSWORD}, timeout=30)
    context = browser.new_context()
    page = context.new_page()
    # the app's redirect URI (a loopback server of a native app) answers here
    page.route("http://127.0.0.1:9/**", lambda route: route.fulfill(body="app: thanks"))
    query = ("response_type=code&client_id=board-buddy&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
             "&scope=read+play&state=s1&code_challenge=" + "A" * 43 + "&code_challenge_method=S256")
    page.goto(f"{server}/oauth/authorize?{query}")
    page.get_by_role("link", name="Sign in").click()  # not signed in: to the web client and back
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", name="Allow this application?")).to_be_visible()
    expect(page.locator("#client-id")).to_have_text("board-buddy")
    expect(page.locator("#scopes")).to_contain_text("play for you")
    page.get_by_role("button", name="Allow").click()
    page.wait_for_url("http://127.0.0.1:9/cb?*")
    assert "code=" in page.url and "state=s1" in page.url
    context.close()


def mail_to(address: str, subject: str, seconds: float = 30) -> str:
    """The text of the newest mail the server wrote (no SMTP configured: a folder) to
    ``address`` with ``subject`` in its subject."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in sorted(Path(SERVER_MAIL["dir"]).glob("*.eml"), key=lambda p: p.stat().st_mtime, reverse=True):
            message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            if address in str(message["To"]) and subject in str(message["Subject"]):
                return message.get_body(("plain",)).get_content()
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address}: {subject}")


def test_the_game_link_of_a_mail_opens_after_a_sign_in_link(server, browser):
    """The issue's case: a player who signed up through the API (a token, a verified
    address) opens the "play in the browser" link of a mail in a browser that never saw
    them, asks for a sign-in link, opens it in a new tab, and lands on that game."""
    email = f"mailed-{uuid.uuid4().hex[:8]}@players.test"
    player = requests.post(f"{server}/v1/players", json={"name": "Mailed", "email": email}, timeout=30).json()
    bearer = {"Authorization": f"Bearer {player['token']}"}
    code = re.search(r"/v1/email/verify/(\d+-[a-z2-7]{26})", mail_to(email, "Confirm")).group(1)
    assert requests.post(f"{server}/v1/players/me/email/verify", json={"token": code}, headers=bearer,
                         timeout=30).status_code == 200
    game = requests.post(f"{server}/v1/games", headers=bearer, timeout=30, json={
        "title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": player["id"]}, {"ai": "easy"}]})
    game_id = game.json()["id"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server}/#/games/{game_id}")  # the mail's link
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_role("button", name="Email me a sign-in link").click()
    expect(page.locator("#notice")).to_contain_text("sign-in link is on its way")
    token = re.search(r"/#/signin/(\S+)", mail_to(email, "sign-in link")).group(1)
    tab = context.new_page()
    tab.goto(f"{server}/#/signin/{token}")
    tab.get_by_role("button", name="Sign me in").click()
    tab.wait_for_url(f"**/#/games/{game_id}")
    expect(tab.locator("#board svg")).to_be_visible()
    expect(tab.locator("#who")).to_contain_text("Mailed")
    context.close()
