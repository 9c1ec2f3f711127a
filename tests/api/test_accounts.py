"""Accounts (issue 28): passwords, cookie sessions, CSRF, personal access tokens with
scopes, enumeration, sign-in limits. Real PostgreSQL and Redis, the real app."""

from __future__ import annotations

import statistics
import time
import uuid
from dataclasses import replace

import pytest

from api import create_app
from service.runtime.container import build
from tests.openapi_check import ValidatingClient
from tests.refusals import problem

PASSWORD = "correct horse battery"
ALL = ["read", "play", "notifications", "account"]


def address() -> str:
    return f"ada-{uuid.uuid4().hex[:10]}@players.test"


@pytest.fixture
def browser(app) -> ValidatingClient:
    """A fresh client with its own cookie jar: a browser that has never been here."""
    return ValidatingClient(app.test_client())


@pytest.fixture
def account(client):
    def make(name: str = "Ada") -> dict:
        email = address()
        created = client.post("/v1/players", json={"name": name, "email": email, "password": PASSWORD})
        assert created.status_code == 201, created.json
        return {**created.json, "email": email}

    return make


def sign_in(browser, email: str, password: str = PASSWORD):
    return browser.post("/v1/sessions", json={"email": email, "password": password})


def csrf(browser) -> dict:
    return {"X-CSRF-Token": browser.client.get_cookie("entrepot_csrf").value}


def kontor_against_ai(player_id: str) -> dict:
    return {"title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": player_id}, {"ai": "easy"}]}


def test_sign_up_sign_out_and_sign_in_again_from_a_fresh_browser(client, account, app):
    ada = account()
    first = ValidatingClient(app.test_client())
    signed = sign_in(first, ada["email"])
    assert signed.status_code == 201, signed.json
    assert signed.json["player_id"] == ada["id"]
    cookies = signed.headers.getlist("Set-Cookie")
    session_cookie = next(c for c in cookies if c.startswith("entrepot_session="))
    assert "HttpOnly" in session_cookie and "SameSite=Lax" in session_cookie and "Path=/" in session_cookie
    assert "Secure" not in session_cookie  # plain http here; see the TLS test below
    assert any(c.startswith("entrepot_csrf=") and "HttpOnly" not in c for c in cookies)
    # the cookie authenticates: a game made with it is the player's
    created = first.post("/v1/games", json=kontor_against_ai(ada["id"]), headers=csrf(first))
    assert created.status_code == 201, created.json
    assert first.get("/v1/players/me").json["id"] == ada["id"]
    # sign out: the cookie is cleared, and the old cookie value no longer works either
    stolen = first.client.get_cookie("entrepot_session").value
    out = first.delete("/v1/sessions/current", headers=csrf(first))
    assert out.status_code == 204
    assert first.client.get_cookie("entrepot_session") is None
    problem(first.get("/v1/players/me"), 401, "unauthorized")
    replay = ValidatingClient(app.test_client())
    replay.client.set_cookie("entrepot_session", stolen)
    problem(replay.get("/v1/players/me"), 401, "unauthorized")
    # nothing was lost: a new browser signs in and finds the game
    second = ValidatingClient(app.test_client())
    assert sign_in(second, ada["email"]).status_code == 201
    mine = second.get("/v1/games?player=me").json["games"]
    assert [g["id"] for g in mine] == [created.json["id"]]
    # and the sign-up token still works, as before
    assert client.get("/v1/players/me", token=ada["token"]).json["id"] == ada["id"]


def test_the_session_cookie_is_secure_over_tls(app, account):
    ada = account()
    browser = app.test_client()
    signed = browser.post("/v1/sessions", json={"email": ada["email"], "password": PASSWORD},
                          base_url="https://localhost")
    assert signed.status_code == 201
    assert all("Secure" in c for c in signed.headers.getlist("Set-Cookie"))


def test_passwords_are_stored_as_argon2id_and_sessions_as_hashes(services, account, browser):
    ada = account()
    sign_in(browser, ada["email"])
    secret = browser.client.get_cookie("entrepot_session").value
    with services.store.read() as tx:
        stored = tx.conn.execute("SELECT password_hash FROM players WHERE id = %s", (ada["id"],)).fetchone()[0]
        sessions = [r[0] for r in tx.conn.execute("SELECT token_hash FROM sessions WHERE player_id = %s",
                                                  (ada["id"],))]
        tokens = [r[0] for r in tx.conn.execute("SELECT token_hash FROM access_tokens WHERE player_id = %s",
                                                (ada["id"],))]
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert secret not in sessions and len(sessions) == 1 and len(sessions[0]) == 64
    assert ada["token"] not in tokens and len(tokens) == 1


def test_wrong_passwords_and_unknown_addresses_get_the_same_answer(account, browser):
    ada = account()
    wrong = sign_in(browser, ada["email"], "not the password")
    unknown = sign_in(browser, address(), "not the password")
    problem(wrong, 401, "invalid_credentials")
    problem(unknown, 401, "invalid_credentials")
    # the same problem, word for word; only each answer's own request id differs
    assert {**wrong.json, "request_id": None} == {**unknown.json, "request_id": None}
    assert wrong.json["code"] == "invalid_credentials"
    assert browser.client.get_cookie("entrepot_session") is None


def test_enumeration_timings_are_alike(account, browser):
    """The argon2 work is done for an unknown address too (on a dummy hash): the medians of
    both kinds of failure are within a factor that an absent argon2 (x20 or more) exceeds."""
    ada = account()
    stranger = address()

    def timed(email: str) -> float:
        start = time.perf_counter()
        problem(sign_in(browser, email, "wrong password"), 401, "invalid_credentials")
        return time.perf_counter() - start

    known, unknown = [], []
    for _ in range(4):
        known.append(timed(ada["email"]))
        unknown.append(timed(stranger))
    ratio = statistics.median(unknown) / statistics.median(known)
    assert 0.5 < ratio < 2.0, (known, unknown)


def test_sign_up_answers_alike_for_a_taken_address(client, account):
    ada = account()
    again = client.post("/v1/players", json={"name": "Other", "email": ada["email"], "password": "another password"})
    fresh = client.post("/v1/players", json={"name": "Other", "email": address(), "password": "another password"})
    assert again.status_code == fresh.status_code == 201
    assert sorted(again.json) == sorted(fresh.json) and again.json["email"] == ada["email"]


def test_sign_in_link_and_reset_requests_answer_alike(account, browser):
    ada = account()
    for path in ("/v1/sessions/link", "/v1/password-reset"):
        known = browser.post(path, json={"email": ada["email"]})
        unknown = browser.post(path, json={"email": address()})
        assert known.status_code == unknown.status_code == 202
        assert known.json == unknown.json


def test_csrf_foreign_origin_and_missing_token_are_refused(account, browser):
    ada = account()
    sign_in(browser, ada["email"])
    body = kontor_against_ai(ada["id"])
    foreign = browser.post("/v1/games", json=body, headers={**csrf(browser), "Origin": "https://evil.test"})
    assert foreign.status_code == 403 and foreign.json["code"] == "csrf_refused"
    cross = browser.post("/v1/games", json=body, headers={**csrf(browser), "Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403 and cross.json["code"] == "csrf_refused"
    bare = browser.post("/v1/games", json=body)
    assert bare.status_code == 403 and bare.json["code"] == "csrf_refused"
    forged = browser.post("/v1/games", json=body, headers={"X-CSRF-Token": "guessed"})
    problem(forged, 403, "csrf_refused")
    # sign out is a change too
    problem(browser.delete("/v1/sessions/current"), 403, "csrf_refused")
    # nothing was made by the refused requests
    assert browser.get("/v1/games?player=me").json["games"] == []
    # reads need no token; our own origin with the token works
    ok = browser.post("/v1/games", json=body, headers={**csrf(browser), "Origin": "http://localhost"})
    assert ok.status_code == 201, ok.json
    # a sign-in posted from another site is refused too (no login CSRF)
    other = ValidatingClient(browser.client.application.test_client())
    login = other.post("/v1/sessions", json={"email": ada["email"], "password": PASSWORD},
                       headers={"Origin": "https://evil.test"})
    assert problem(login, 403, "csrf_refused") and other.client.get_cookie("entrepot_session") is None


def test_a_token_only_player_adds_an_email_and_a_password(client, new_player, browser):
    old = new_player("Old")
    email = address()
    assert client.patch("/v1/players/me", token=old["token"], json={"email": email}).status_code == 200
    added = client.put("/v1/players/me/password", token=old["token"], json={"password": PASSWORD})
    assert added.status_code == 204
    assert sign_in(browser, email).json["player_id"] == old["id"]
    # changing it needs the current one
    change = client.put("/v1/players/me/password", token=old["token"], json={"password": "a newer password"})
    assert change.status_code == 422 and change.json["code"] == "wrong_password"
    change = client.put("/v1/players/me/password", token=old["token"],
                        json={"password": "a newer password", "current_password": PASSWORD})
    assert change.status_code == 204
    problem(sign_in(browser, email), 401, "invalid_credentials")
    assert sign_in(browser, email, "a newer password").status_code == 201


def test_a_browser_that_kept_its_token_gets_a_session(new_player, browser):
    old = new_player("Kept")
    opened = browser.post("/v1/sessions", token=old["token"])
    assert opened.status_code == 201 and opened.json["player_id"] == old["id"]
    assert browser.get("/v1/sessions/current").json["player_id"] == old["id"]


def test_sessions_are_listed_and_one_ended_is_refused_at_once(account, app):
    ada = account()
    laptop, phone = (ValidatingClient(app.test_client()) for _ in range(2))
    sign_in(laptop, ada["email"])
    sign_in(phone, ada["email"])
    listed = laptop.get("/v1/players/me/sessions").json["sessions"]
    assert len(listed) == 2 and [s["current"] for s in listed] == [True, False]
    phone_id = listed[1]["id"]
    ended = laptop.delete(f"/v1/players/me/sessions/{phone_id}", headers=csrf(laptop))
    assert ended.status_code == 204
    problem(phone.get("/v1/players/me"), 401, "unauthorized")
    assert laptop.get("/v1/players/me").status_code == 200
    problem(laptop.delete(f"/v1/players/me/sessions/{phone_id}", headers=csrf(laptop)), 404, "not_found")
    problem(laptop.delete("/v1/players/me/sessions/not-an-id", headers=csrf(laptop)), 404, "not_found")


def test_personal_tokens_are_created_listed_and_revoked(client, account):
    ada = account()
    listed = client.get("/v1/players/me/tokens", token=ada["token"]).json["tokens"]
    assert [(t["name"], t["scopes"], t["kind"]) for t in listed] == [("sign-up token", ALL, "personal")]
    made = client.post("/v1/players/me/tokens", token=ada["token"], json={"name": "my bot", "scopes": ["play", "read"]})
    assert made.status_code == 201, made.json
    assert made.json["scopes"] == ["read", "play"] and made.json["token"]
    listed = client.get("/v1/players/me/tokens", token=ada["token"]).json["tokens"]
    assert [t["name"] for t in listed] == ["sign-up token", "my bot"]
    assert all("token" not in t for t in listed)  # never the secret again
    bot = made.json["token"]
    assert client.get("/v1/players/me", token=bot).status_code == 200
    assert client.delete(f"/v1/players/me/tokens/{made.json['id']}", token=ada["token"]).status_code == 204
    refused = client.get("/v1/players/me", token=bot)
    assert refused.status_code == 401 and refused.json["code"] == "unauthorized"
    problem(client.delete(f"/v1/players/me/tokens/{made.json['id']}", token=ada["token"]), 404, "not_found")
    # even the sign-up token can be revoked, with a session or another token
    other = client.post("/v1/players/me/tokens", token=ada["token"], json={"name": "spare", "scopes": ["account"]})
    assert client.delete(f"/v1/players/me/tokens/{listed[0]['id']}", token=other.json["token"]).status_code == 204
    problem(client.get("/v1/players/me", token=ada["token"]), 401, "unauthorized")


@pytest.mark.parametrize("body", [{"name": "x", "scopes": []}, {"name": "x", "scopes": ["admin"]},
                                  {"name": "", "scopes": ["read"]}, {"scopes": ["read"]}, {"name": "x"}])
def test_bad_token_requests_are_422(client, new_player, body):
    ada = new_player()
    answer = client.post("/v1/players/me/tokens", token=ada["token"], json=body)
    assert answer.status_code == 422 and answer.json["code"] == "validation_error"


def test_another_players_token_cannot_be_revoked(client, new_player):
    ada, bob = new_player("Ada"), new_player("Bob")
    bobs = client.get("/v1/players/me/tokens", token=bob["token"]).json["tokens"][0]["id"]
    problem(client.delete(f"/v1/players/me/tokens/{bobs}", token=ada["token"]), 404, "not_found")
    assert client.get("/v1/players/me", token=bob["token"]).status_code == 200


# every route family, the scope it needs, and a request to it (a 403 missing_scope
# without the scope; anything but 401/403 with it)
FAMILIES = [
    ("read", "GET", "/v1/players/me", None),
    ("read", "GET", "/v1/games?player=me", None),
    ("read", "GET", "/v1/games/{game}", None),
    ("read", "GET", "/v1/games/{game}/legal-commands?seat=0", None),
    ("read", "GET", "/v1/games/{game}/events", None),
    ("read", "GET", "/v1/games/{game}/messages", None),
    ("read", "GET", "/v1/players/me/vacation", None),
    ("play", "POST", "/v1/games", "game"),
    ("play", "POST", "/v1/games/{game}/messages", {"text": "hello"}),
    ("play", "POST", "/v1/games/{game}/commands", {"command": {"type": "nothing"}}),
    ("play", "POST", "/v1/games/{game}/resign", {}),
    ("play", "PUT", "/v1/players/me/vacation", {"from": "2030-01-01T00:00:00Z", "until": "2030-01-02T00:00:00Z"}),
    ("notifications", "GET", "/v1/players/me/webhooks", None),
    ("notifications", "POST", "/v1/players/me/webhooks", {"url": "https://example.test/hook", "events": ["your_turn"]}),
    ("account", "GET", "/v1/players/me/tokens", None),
    ("account", "POST", "/v1/players/me/tokens", {"name": "n", "scopes": ["read"]}),
    ("account", "GET", "/v1/players/me/sessions", None),
    ("account", "PATCH", "/v1/players/me", {"notify": {"reminder": False}}),
    ("account", "PUT", "/v1/players/me/password", {"password": "another password"}),
    ("account", "POST", "/v1/players/me/email/verify", {"token": "1-abc"}),
]


@pytest.mark.parametrize("scope,method,path,body", FAMILIES, ids=[f"{m} {p}" for _, m, p, _ in FAMILIES])
def test_scopes_on_every_route_family(client, new_player, scope, method, path, body):
    ada = new_player("Scoped")
    game = client.post("/v1/games", token=ada["token"], json=kontor_against_ai(ada["id"])).json["id"]
    path = path.format(game=game)
    if body == "game":
        body = kontor_against_ai(ada["id"])
    without = [s for s in ALL if s != scope]
    lacking = client.post("/v1/players/me/tokens", token=ada["token"], json={"name": "lacking", "scopes": without})
    having = client.post("/v1/players/me/tokens", token=ada["token"], json={"name": "having", "scopes": [scope]})
    refused = client.open(method, path, token=lacking.json["token"], json=body)
    assert refused.status_code == 403, refused.json
    assert refused.json["code"] == "missing_scope" and scope in refused.json["detail"]
    allowed = client.open(method, path, token=having.json["token"], json=body)
    assert allowed.status_code not in (401, 403), allowed.json


@pytest.fixture
def limited(settings):
    """An app with low sign-in limits and buckets of its own."""
    services = build(replace(settings, queue_name=f"{settings.queue_name}-signin-{uuid.uuid4().hex[:6]}",
                             signin_limit_per_account="3 per minute", signin_limit_per_address="5 per minute"))
    yield ValidatingClient(create_app(services).test_client())
    services.close()


def from_address(ip: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": ip}}


def test_sign_in_attempts_are_limited_per_account_and_per_address(limited, account):
    ada = account()
    for i in range(3):  # from three addresses: the account's limit counts them all
        assert limited.post("/v1/sessions", json={"email": ada["email"], "password": "guess"},
                            **from_address(f"10.1.0.{i}")).status_code == 401
    stopped = limited.post("/v1/sessions", json={"email": ada["email"], "password": PASSWORD},
                           **from_address("10.1.0.9"))
    assert stopped.status_code == 429 and stopped.json["code"] == "rate_limited"
    assert 1 <= int(stopped.headers["Retry-After"]) <= 60
    # an unknown address is limited alike (no tell)
    stranger = address()
    answers = [limited.post("/v1/sessions", json={"email": stranger, "password": "guess"},
                            **from_address(f"10.2.0.{i}")).status_code for i in range(4)]
    assert answers == [401, 401, 401, 429]
    # one client address trying many accounts: its own limit
    answers = [limited.post("/v1/password-reset", json={"email": address()}, **from_address("10.3.0.1")).status_code
               for _ in range(6)]
    assert answers == [202] * 5 + [429]
    # another address and another account are not affected
    assert limited.post("/v1/sessions/link", json={"email": address()}, **from_address("10.3.0.2")).status_code == 202


def test_a_password_without_an_email_is_refused(client):
    refused = client.post("/v1/players", json={"name": "NoMail", "password": PASSWORD})
    assert problem(refused, 422, "validation_error") and "password" in refused.json["errors"]
