"""OAuth 2.0 authorization code with PKCE S256 (issue 28), end to end with `requests`
against a live `entrepot serve`: a third-party app gets a code through the consent page,
exchanges it for a token, plays a game with it, and revokes it (RFC 7009)."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import uuid
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from tests.refusals import problem

CLIENT_ID = "ada-bot.example"
REDIRECT = "http://127.0.0.1:9/callback"  # a loopback redirect (a native app): never fetched here


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


@pytest.fixture
def signed_in(server):
    """A player with an account, and a browser-like session signed in to it."""
    email = f"oauth-{uuid.uuid4().hex[:8]}@players.test"
    created = requests.post(f"{server}/v1/players", json={"name": "Ada", "email": email,
                                                          "password": "a good password"}, timeout=30)
    assert created.status_code == 201, created.text
    browser = requests.Session()
    browser.headers["Origin"] = server  # what a browser sends on a form post from the page
    assert browser.post(f"{server}/v1/sessions", json={"email": email, "password": "a good password"},
                        timeout=30).status_code == 201
    return created.json(), browser


def authorize_url(server: str, challenge: str, scope: str = "read play", **extra) -> str:
    query = {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": REDIRECT, "scope": scope,
             "state": "xyz", "code_challenge": challenge, "code_challenge_method": "S256", **extra}
    return f"{server}/oauth/authorize?{urlencode(query)}"


def consent(browser: requests.Session, url: str, decision: str = "allow") -> dict:
    page = browser.get(url, timeout=30)
    assert page.status_code == 200, page.text
    assert CLIENT_ID in page.text and "127.0.0.1:9" in page.text
    csrf = re.search(r"name='csrf_token' value='([^']+)'", page.text).group(1)
    answer = browser.post(url, data={"csrf_token": csrf, "decision": decision}, allow_redirects=False, timeout=30)
    assert answer.status_code == 302, answer.text
    location = answer.headers["Location"]
    assert location.startswith(REDIRECT + "?")
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def exchange(server: str, code: str, verifier: str, redirect: str = REDIRECT) -> requests.Response:
    return requests.post(f"{server}/oauth/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": CLIENT_ID,
        "code_verifier": verifier}, timeout=30)


def test_metadata(server):
    meta = requests.get(f"{server}/.well-known/oauth-authorization-server", timeout=30).json()
    assert meta["issuer"] == server
    assert meta["authorization_endpoint"] == f"{server}/oauth/authorize"
    assert meta["token_endpoint"] == f"{server}/oauth/token"
    assert meta["revocation_endpoint"] == f"{server}/oauth/revoke"
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["scopes_supported"] == ["read", "play", "notifications", "account"]


def test_a_third_party_app_plays_a_game_with_an_oauth_token(server, signed_in):
    player, browser = signed_in
    verifier, challenge = pkce()
    page = browser.get(authorize_url(server, challenge), timeout=30)
    assert "<strong>read</strong>" in page.text and "<strong>play</strong>" in page.text
    assert "account" not in re.search(r"<ul id='scopes'>(.*?)</ul>", page.text).group(1)
    back = consent(browser, authorize_url(server, challenge))
    assert back["state"] == "xyz"
    issued = exchange(server, back["code"], verifier)
    assert issued.status_code == 200, issued.text
    token = issued.json()
    assert token["token_type"].lower() == "bearer" and token["scope"] == "read play"
    app = requests.Session()
    app.headers["Authorization"] = f"Bearer {token['access_token']}"
    # a game played with it
    game = app.post(f"{server}/v1/games", json={"title": "kontor", "options": {"variant": "basic"},
                                                 "seats": [{"player_id": player["id"]}, {"ai": "easy"}]}, timeout=30)
    assert game.status_code == 201, game.text
    game_id = game.json()["id"]
    for _ in range(5):  # the computer seat chooses at once too: a 409 means ask again
        legal = app.get(f"{server}/v1/games/{game_id}/legal-commands?seat=0", timeout=30).json()
        played = app.post(f"{server}/v1/games/{game_id}/commands",
                          json={"seat": 0, "command": legal["commands"][0], "expected_version": legal["version"]},
                          timeout=30)
        if played.status_code != 409:
            break
    assert played.status_code == 201, played.text
    # scopes it was not granted
    assert app.get(f"{server}/v1/players/me/tokens", timeout=30).json()["code"] == "missing_scope"
    problem(app.get(f"{server}/v1/players/me/webhooks", timeout=30), 403, "missing_scope")
    # the player sees the app's token on the tokens page, named by its client id
    listed = requests.get(f"{server}/v1/players/me/tokens", headers={"Authorization": f"Bearer {player['token']}"},
                          timeout=30).json()["tokens"]
    assert [t["client_id"] for t in listed if t["kind"] == "oauth"] == [CLIENT_ID]
    # RFC 7009 revocation: refused at once
    revoked = requests.post(f"{server}/oauth/revoke", data={"token": token["access_token"], "client_id": CLIENT_ID},
                            timeout=30)
    assert revoked.status_code == 200, revoked.text
    problem(app.get(f"{server}/v1/players/me", timeout=30), 401, "unauthorized")
    # the code worked once
    assert exchange(server, back["code"], verifier).json()["error"] == "invalid_grant"


def test_pkce_is_required_and_checked(server, signed_in):
    _, browser = signed_in
    verifier, challenge = pkce()
    back = consent(browser, authorize_url(server, challenge))
    wrong = exchange(server, back["code"], pkce()[0])
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    # a code is burnt by a failed exchange too
    assert exchange(server, back["code"], verifier).json()["error"] == "invalid_grant"
    # no challenge, or the plain method: refused back to the app, no code
    for extra in ({"code_challenge": ""}, {"code_challenge_method": "plain"}):
        answer = browser.get(authorize_url(server, challenge, **extra), allow_redirects=False, timeout=30)
        assert answer.status_code == 302
        query = parse_qs(urlsplit(answer.headers["Location"]).query)
        assert query["error"] == ["invalid_request"] and "code" not in query
    # another redirect URI at the token endpoint
    back = consent(browser, authorize_url(server, challenge))
    assert exchange(server, back["code"], verifier, "http://127.0.0.1:9/other").json()["error"] == "invalid_grant"


def test_denied_consent_and_bad_redirects(server, signed_in):
    _, browser = signed_in
    _, challenge = pkce()
    assert consent(browser, authorize_url(server, challenge), decision="deny")["error"] == "access_denied"
    # only https or loopback redirect URIs; no redirect to an unchecked place: an error page
    for redirect in ("http://evil.test/cb", "javascript:alert(1)", "https://app.test/cb#frag"):
        answer = browser.get(authorize_url(server, challenge, redirect_uri=redirect), allow_redirects=False,
                             timeout=30)
        assert answer.status_code == 400 and "not valid" in answer.text
    https = browser.get(authorize_url(server, challenge, redirect_uri="https://app.test/cb"), timeout=30)
    assert https.status_code == 200 and "app.test" in https.text
    # unknown scopes go back as invalid_scope
    answer = browser.get(authorize_url(server, challenge, scope="read admin"), allow_redirects=False, timeout=30)
    assert parse_qs(urlsplit(answer.headers["Location"]).query)["error"] == ["invalid_scope"]


def test_the_consent_form_is_refused_from_another_site(server, signed_in):
    _, browser = signed_in
    _, challenge = pkce()
    url = authorize_url(server, challenge)
    page = browser.get(url, timeout=30)
    csrf = re.search(r"name='csrf_token' value='([^']+)'", page.text).group(1)
    foreign = browser.post(url, data={"csrf_token": csrf, "decision": "allow"}, headers={"Origin": "https://evil.test"},
                           allow_redirects=False, timeout=30)
    assert foreign.status_code == 403 and "Location" not in foreign.headers
    forged = browser.post(url, data={"csrf_token": "guess", "decision": "allow"}, allow_redirects=False, timeout=30)
    assert forged.status_code == 403


def test_without_a_session_the_page_asks_to_sign_in(server):
    _, challenge = pkce()
    page = requests.get(authorize_url(server, challenge), timeout=30)
    assert page.status_code == 200 and "Sign in" in page.text and "next=" in page.text
