"""Correspondence play in the web client, in a real browser (Debian's chromium driven by
Playwright) against the live `entrepot serve`: a player asks a takeback with a button,
the other accepts or declines with buttons, notes are written and kept private, a time
bank is shown in words, and a game won by resignation says who won, by name."""

from __future__ import annotations

import shutil

import pytest
import requests
from playwright.sync_api import Page, expect

from clients.sdk import Client
from tests.e2e.web_helpers import PASSWORD, sign_in

pytestmark = pytest.mark.slow(seconds=30)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def open_as(browser, server: str, client: Client, player: dict, game_id: str) -> Page:
    page = browser.new_context().new_page()
    sign_in(page, server, player, at=f"/#/games/{game_id}")  # the page's own form: a session cookie
    expect(page.locator("#status")).to_have_attribute("data-status", "active")
    return page


def safe_move(clients: list[Client], game_id: str) -> int:
    """Play first legal moves until a worker is placed (a move with nothing hidden or
    random in it); returns the seat that placed it."""
    for _ in range(200):
        game = clients[0].game(game_id)
        seat = game["to_act"][0]
        legal = clients[seat].legal_commands(game_id, seat)
        done = clients[seat].command(game_id, legal["commands"][0], seat=seat, expected_version=legal["version"])
        if {e["type"] for e in done["events"]} - {"ClockStarted", "BankCharged"} == {"speicherstadt.WorkerPlaced"}:
            return seat
    raise AssertionError("no worker placed")


def test_takeback_notes_time_bank_and_the_result_in_the_browser(server, browser):
    clients = [Client(server), Client(server)]
    people = [clients[0].create_player("Ada"), clients[1].create_player("Bert")]
    for client, person in zip(clients, people):  # an address and a password, to sign in by the page
        person["email"] = f"{person['name'].lower()}-{person['id'][:8]}@players.test"
        requests.patch(f"{server}/v1/players/me", json={"email": person["email"]}, timeout=30,
                       headers={"Authorization": f"Bearer {client.token}"}).raise_for_status()
        requests.put(f"{server}/v1/players/me/password", json={"password": PASSWORD}, timeout=30,
                     headers={"Authorization": f"Bearer {client.token}"}).raise_for_status()
    created = clients[0].create_game("speicherstadt", [{"player_id": people[0]["id"]}, {"player_id": people[1]["id"]}],
                                     {}, time_control={"bank": "P3D", "increment": "P1D", "max_bank": "P7D"})
    game_id = created["id"]
    clients[1].accept(game_id, 1)
    mover = safe_move(clients, game_id)
    other = 1 - mover
    pages = [open_as(browser, server, clients[s], people[s], game_id) for s in (0, 1)]
    # the time bank in words, for each seat
    expect(pages[mover].locator("#clock-bank")).to_contain_text("Time bank (P3D, +P1D a move, at most P7D)")
    expect(pages[mover].locator("#clock-bank")).to_contain_text(f"{people[mover]['name']} (you)")
    # ask, the other declines
    version = clients[0].game(game_id)["version"]
    pages[mover].get_by_role("button", name="Take back my last move").click()
    expect(pages[mover].locator("#takeback")).to_contain_text("waiting for the other players' answer")
    expect(pages[other].locator("#takeback")).to_contain_text(f"{people[mover]['name']} asks to take back")
    pages[other].get_by_role("button", name="Decline").click()
    expect(pages[mover].get_by_role("button", name="Take back my last move")).to_be_visible()
    assert clients[0].game(game_id)["takeback"] is None
    # ask again, the other accepts: the move is taken back
    pages[mover].get_by_role("button", name="Take back my last move").click()
    expect(pages[other].get_by_role("button", name="Accept the takeback")).to_be_visible()
    pages[other].get_by_role("button", name="Accept the takeback").click()
    expect(pages[mover].get_by_role("button", name="Take back my last move")).to_be_visible()
    types = [e["type"] for e in clients[0].events(game_id, after=version)["events"]]
    assert types[:2] == ["TakebackRequested", "TakebackDeclined"]
    assert "TakebackAccepted" in types and "MoveTakenBack" in types
    assert mover in clients[0].game(game_id)["to_act"]  # its move to make again
    # a takeback refused says why, in words
    pages[other].get_by_role("button", name="Take back my last move").click()
    expect(pages[other].locator("#notice")).to_contain_text("move")
    # private notes
    pages[mover].get_by_label("My notes on this game").fill("watch the coffee column")
    pages[mover].get_by_role("button", name="Save my notes").click()
    expect(pages[mover].locator("#notes-state")).to_contain_text("Saved")
    assert clients[mover].notes(game_id)["text"] == "watch the coffee column"
    assert clients[other].notes(game_id)["text"] == ""
    # the game ends by resignation: the result names the winner, no seat is to act
    clients[other].resign(game_id, other)
    expect(pages[mover].locator("#status")).to_have_attribute("data-status", "finished")
    expect(pages[mover].locator("#status")).to_contain_text(
        f"{people[mover]['name']} (you) won (resigned)")
    expect(pages[mover].locator("#status")).to_contain_text(f"{people[other]['name']} resigned")
    assert clients[0].game(game_id)["view"]["to_act"] == []
