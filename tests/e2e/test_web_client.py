"""The web client in a real browser (Debian's chromium driven by Playwright) against a live
`entrepot serve`: two people play each other with live chat by name, a spectator watches,
the history shows the past and refuses moves there, a waiting game says so, a click that
meets a concurrent update is explained in words (and one that meets conflicts at every try
says it was not played), an open choice and the keyboard's place survive another player's
update, the audit record downloads, and the keyboard plays.
"""

from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.web_helpers import (
    ARTIFACTS,
    ON_TABLE,
    PHONE,
    api_player,
    commands_url,
    create_game,
    open_legal_moves,
    play_by_clicks,
    sign_in,
    sign_up,
    version_of,
    wait_until,
)
from tests.refusals import problem

pytestmark = pytest.mark.slow(seconds=10)  # started first: tests/conftest.py


def test_two_browsers_play_and_chat_by_name_and_a_spectator_watches(server, browser):
    ada = browser.new_context().new_page()
    sign_up(ada, server, "Ada")
    game_id = create_game(ada, "kontor", {"variant": "basic"}, ["open"])
    # a game waiting for its second player says so, and no error
    expect(ada.locator("#status")).to_contain_text("waiting for players")
    expect(ada.locator("#notice")).to_be_empty()

    bea = browser.new_context().new_page()
    sign_up(bea, server, "Bea")
    open_seats = bea.locator("section", has=bea.get_by_role("heading", name="Open seats"))
    offer = open_seats.locator(f"li[data-game='{game_id}']")  # other tests' games wait there too
    expect(offer).to_contain_text("Ada")
    offer.get_by_role("button", name="join seat 2").click()
    bea.wait_for_url(f"**/#/games/{game_id}")
    expect(bea.locator("#status")).to_contain_text("Bea (you)")
    expect(bea.locator("#status")).to_contain_text("Ada")
    # Ada's page starts the game live, her name marked as hers
    expect(ada.locator("#status")).to_contain_text("Ada (you)", timeout=15_000)
    expect(ada.locator("#status")).to_contain_text("Bea")

    spectator = browser.new_context().new_page()
    spectator.goto(f"{server}/#/games/{game_id}")
    expect(spectator.locator("#board svg")).to_be_visible()
    expect(spectator.locator("#chat-form")).to_be_hidden()  # a spectator does not post
    expect(spectator.locator("#table")).not_to_contain_text("Waiting for the other seats")

    # whoever is to act plays one move by clicking the board; the other page follows live
    mover, other = (ada, bea) if ada.locator(ON_TABLE).count() else (bea, ada)
    expect(mover.locator(ON_TABLE).first).to_be_visible()
    seen = version_of(other)
    assert play_by_clicks(mover, "two-browsers", stop_after=1) == 1
    wait_until(
        other, "v => Number(document.querySelector('#status').dataset.version) > v", arg=seen, timeout=15_000)

    ada.locator("#message-text").fill("good luck")
    ada.get_by_role("button", name="Send").click()
    expect(ada.locator("#messages")).to_contain_text("Ada (you): good luck")
    # live, with the author's name, in the other browser and for the spectator
    expect(bea.locator("#messages")).to_contain_text("Ada: good luck", timeout=10_000)
    expect(bea.locator("#unread")).to_contain_text("1 unread")
    expect(spectator.locator("#messages")).to_contain_text("Ada: good luck", timeout=10_000)
    spectator.screenshot(path=str(ARTIFACTS / "kontor-spectator.png"), full_page=True)
    for page in (ada, bea, spectator):
        page.context.close()


def test_history_log_the_past_refuses_moves_now_returns_and_a_stale_click_is_explained(server, browser):
    page = browser.new_context().new_page()
    hedda = api_player(server, "Hedda")  # its token moves from "another device" below
    sign_in(page, server, hedda)
    game_id = create_game(page, "kontor", {"variant": "basic"}, ["easy"])
    play_by_clicks(page, "history", stop_after=3)
    page.get_by_text("Move log").click()
    first = page.locator("#log button.log-entry").first
    expect(first).to_be_visible()
    first.click()
    expect(page.locator("#past")).to_be_visible()
    expect(page.locator(ON_TABLE)).to_have_count(0)   # nothing to play in the past
    expect(page.locator("#moves button.move")).to_have_count(0)
    page.get_by_role("button", name="Now", exact=True).click()
    expect(page.locator("#past")).to_be_hidden()
    expect(page.locator(ON_TABLE).first).to_be_visible(timeout=15_000)

    # a move sent elsewhere (another device of the same player) while this page still
    # offers the old ones: that move is no longer legal and the page says so in words.
    # The page is reloaded without its live stream, so it keeps showing the old moves.
    page.route("**/stream*", lambda route: route.abort())
    page.reload()
    open_legal_moves(page)
    stale = page.locator("#moves button.move[data-index='0']")
    expect(stale).to_be_visible(timeout=15_000)
    page.wait_for_selector("#main[data-busy='0']")
    headers = {"Authorization": f"Bearer {hedda['token']}"}
    seat = requests.get(f"{server}/v1/games/{game_id}", headers=headers, timeout=10).json()["your_seats"][0]
    offered = requests.get(f"{server}/v1/games/{game_id}/legal-commands?seat={seat}", headers=headers, timeout=10).json()
    sent = requests.post(f"{server}/v1/games/{game_id}/commands", headers=headers, timeout=10,
                         json={"seat": seat, "command": offered["commands"][0], "expected_version": offered["version"]})
    assert sent.status_code == 201, sent.text
    stale.click()
    expect(page.locator("#notice")).to_contain_text("it is no longer possible")
    expect(page.locator("#notice")).not_to_contain_text("version_conflict")

    # the refusal redraws the page (the controls too, the download button among them): a
    # click aimed while it moved could land beside it (seen once under a full suite's load)
    page.wait_for_selector("#main[data-busy='0']")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the audit record").click()
    assert download.value.suggested_filename == f"entrepot-{game_id}.json"
    page.context.close()


def test_keyboard_play_on_a_phone_sized_screen(server, browser):
    page = browser.new_context(viewport=PHONE).new_page()
    sign_up(page, server, "Mobile")
    create_game(page, "kontor", {"variant": "basic"}, ["easy"])
    piece = page.locator(ON_TABLE).first
    expect(piece).to_be_visible(timeout=15_000)
    expect(page).to_have_title("(1) Entrepot")  # the tab counts the games waiting for you
    page.wait_for_selector("#main[data-busy='0']")
    before = version_of(page)
    piece.focus()
    page.keyboard.press("Enter")
    if page.locator("#choices button.choice").count():
        page.keyboard.press("Enter")  # the first choice has the focus
    wait_until(
        page, "v => Number(document.querySelector('#status').dataset.version) > v", arg=before, timeout=20_000)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page scrolls sideways on a phone ({width} px)"
    page.screenshot(path=str(ARTIFACTS / "kontor-phone.png"), full_page=True)


def test_a_click_meeting_an_update_that_leaves_it_legal_is_sent_again(server, browser):
    """Bea asks to abort (an event: the version moves, Ada's moves stay the same): Ada's
    click, offered at the old version, is sent again at the new one and played."""
    ada = browser.new_context().new_page()
    sign_up(ada, server, "Ada")
    game_id = create_game(ada, "kontor", {"variant": "basic"}, ["open"])
    bea = requests.post(f"{server}/v1/players", json={"name": "Bea"}, timeout=10).json()
    bea_headers = {"Authorization": f"Bearer {bea['token']}"}
    joined = requests.post(f"{server}/v1/games/{game_id}/seats/1/join", headers=bea_headers, json={}, timeout=10)
    assert joined.status_code in (200, 201), joined.text
    moved = False
    for _ in range(6):  # a move each, until it is Ada's turn after a first move
        game = requests.get(f"{server}/v1/games/{game_id}", headers=bea_headers, timeout=10).json()
        if 0 in game["to_act"] and moved:
            break
        if 1 in game["to_act"]:
            offered = requests.get(f"{server}/v1/games/{game_id}/legal-commands?seat=1", headers=bea_headers, timeout=10).json()
            sent = requests.post(f"{server}/v1/games/{game_id}/commands", headers=bea_headers, timeout=10,
                                 json={"seat": 1, "command": offered["commands"][0]})
            assert sent.status_code == 201, sent.text
        else:
            ada.reload()
            play_by_clicks(ada, "retry", stop_after=1)
        moved = True
    ada.route("**/stream*", lambda route: route.abort())  # Ada's page holds still
    ada.reload()
    open_legal_moves(ada)
    stale = ada.locator("#moves button.move[data-index='0']")
    expect(stale).to_be_visible(timeout=15_000)
    ada.wait_for_selector("#main[data-busy='0']")
    before = version_of(ada)
    asked = requests.post(f"{server}/v1/games/{game_id}/abort", headers=bea_headers, json={}, timeout=10)
    assert asked.status_code in (200, 201, 202), asked.text
    after_abort = requests.get(f"{server}/v1/games/{game_id}", headers=bea_headers, timeout=10).json()
    assert after_abort["status"] == "active" and after_abort["version"] > before
    stale.click()
    wait_until(
        ada, "v => Number(document.querySelector('#status').dataset.version) > v", arg=after_abort["version"], timeout=15_000)
    expect(ada.locator("#notice")).to_be_empty()
    expect(ada.locator("#abort-asked")).to_contain_text("Bea asked to abort the game")
    ada.context.close()


def ada_and_bea(server: str, title: str, options: dict) -> tuple[dict, list[dict], str]:
    """Ada and Bea (signed up by the API) in a two-seat game of ``title``, started: (Ada,
    each one's request headers, the game's id)."""
    ada, bea = api_player(server, "Ada"), api_player(server, "Bea")
    heads = [{"Authorization": f"Bearer {p['token']}"} for p in (ada, bea)]
    made = requests.post(f"{server}/v1/games", headers=heads[0], timeout=10, json={
        "title": title, "options": options, "seats": [{"player_id": ada["id"]}, {"player_id": bea["id"]}]})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    accepted = requests.post(f"{server}/v1/games/{game_id}/seats/1/accept", headers=heads[1], timeout=10)
    assert accepted.status_code == 200, accepted.text
    return ada, heads, game_id


def first_legal_move(server: str, game_id: str, seat: int, heads: list[dict]) -> int:
    """``seat`` plays the first of its legal moves by the API, at the version it read; its seat."""
    offered = requests.get(f"{server}/v1/games/{game_id}/legal-commands?seat={seat}", headers=heads[seat],
                           timeout=10).json()
    sent = requests.post(f"{server}/v1/games/{game_id}/commands", headers=heads[seat], timeout=10,
                         json={"seat": seat, "command": offered["commands"][0], "expected_version": offered["version"]})
    assert sent.status_code == 201, sent.text
    return seat


def redrawn_by_an_abort_request(page, server: str, game_id: str, bea_headers: dict, before: int) -> None:
    """Bea asks to abort (an event: the version moves, the moves stay the same); once the
    page of the other player says so, it has been redrawn at the new version."""
    asked = requests.post(f"{server}/v1/games/{game_id}/abort", headers=bea_headers, json={}, timeout=10)
    assert asked.status_code in (200, 201, 202), asked.text
    expect(page.locator("#abort-asked")).to_contain_text("Bea asked to abort the game", timeout=15_000)
    page.wait_for_selector("#main[data-busy='0']")
    assert version_of(page) > before


def test_an_open_choice_stays_open_when_another_players_update_redraws_the_page(server, browser):
    """Ada clicks a piece that stands for several moves ("Which one?"); before she picks,
    Bea asks to abort (an event: the version moves, Ada's page redraws live, her moves stay
    the same). The choice stays open with the same moves, and her pick is played. (Every
    redraw used to close it: in a simultaneous phase the others' moves took the choice away
    under the player's finger.) Amsterdam: its pieces often stand for several moves; the
    two play by the API until Ada's page offers one."""
    ada_player, heads, game_id = ada_and_bea(server, "amsterdam", {"rounds": 10})
    ada = browser.new_context().new_page()
    sign_in(ada, server, ada_player, at=f"/#/games/{game_id}")
    several = ada.locator("#board .clickable[aria-label$=' moves'], #table .clickable[aria-label$=' moves']")
    for _ in range(120):  # moves by the API (each seat its first legal one) until the page offers such a piece
        game = requests.get(f"{server}/v1/games/{game_id}", headers=heads[0], timeout=10).json()
        assert game["status"] == "active", game["status"]
        if 0 in game["to_act"]:
            wait_until(ada, "v => Number(document.querySelector('#status').dataset.version) >= v", arg=game["version"],
                       timeout=15_000)
            ada.wait_for_selector("#main[data-busy='0']")
            if several.count():
                break
        first_legal_move(server, game_id, game["to_act"][0], heads)
    else:
        raise AssertionError("no piece of several moves offered to Ada in 120 moves")
    piece = several.first.get_attribute("aria-label")
    several.first.click()
    offered = ada.locator("#choices button.choice")
    expect(offered.first).to_be_visible()
    words = offered.all_inner_texts()
    assert len(words) > 1, words
    offered.nth(1).focus()  # the keyboard on the second move
    before = version_of(ada)

    redrawn_by_an_abort_request(ada, server, game_id, heads[1], before)
    assert offered.all_inner_texts() == words  # the same choice, still open
    assert ada.evaluate("document.activeElement.textContent") == words[1]  # the keyboard where it was
    # Cancel returns the keyboard to the piece as redrawn; Enter opens the choice again, and
    # Enter on its first move plays it
    ada.locator("#choices button.cancel").click()
    assert ada.evaluate("document.activeElement.getAttribute('aria-label')") == piece
    ada.keyboard.press("Enter")
    expect(offered.first).to_be_focused()

    with ada.expect_response(lambda r: r.request.method == "POST" and commands_url(r.url),
                             timeout=15_000) as answer:
        ada.keyboard.press("Enter")
    assert answer.value.status == 201, answer.value.text()
    expect(ada.locator("#choices button.choice")).to_have_count(0)
    expect(ada.locator("#notice")).to_be_empty()
    ada.context.close()


@pytest.mark.parametrize("where", ["the list of moves", "the board"])
def test_the_keyboard_keeps_its_place_when_another_players_update_redraws_the_page(server, browser, where):
    """Ada's keyboard is on a move (in the list of moves in words, or a place of the board)
    when Bea asks to abort: the page redraws live, and the focus is on the same move after
    it, not back at the top of the page."""
    ada_player, heads, game_id = ada_and_bea(server, "kontor", {"variant": "basic"})
    moved = set()
    for _ in range(8):  # a move each (an abort asked before is no question: it aborts), then Ada's turn
        game = requests.get(f"{server}/v1/games/{game_id}", headers=heads[0], timeout=10).json()
        if moved == {0, 1} and 0 in game["to_act"]:
            break
        moved.add(first_legal_move(server, game_id, game["to_act"][0], heads))
    else:
        raise AssertionError(f"not Ada's turn after a move each: {game['to_act']}")
    ada = browser.new_context().new_page()
    sign_in(ada, server, ada_player, at=f"/#/games/{game_id}")
    expect(ada.locator("#board .clickable").first).to_be_visible(timeout=15_000)
    if where == "the list of moves":
        open_legal_moves(ada)
        held = ada.locator("#moves button.move").nth(2)
        name = "textContent"
    else:
        ada.wait_for_selector("#main[data-busy='0']")
        held = ada.locator("#board .clickable").nth(2)
        name = "getAttribute('aria-label')"
    held.focus()
    said = ada.evaluate(f"document.activeElement.{name}")
    assert said, where
    # the page scrolled away from it (reading the chat below, say): the redraw leaves it there
    scrolled = ada.evaluate("window.scrollTo(0, document.body.scrollHeight), window.scrollY")
    assert scrolled > 0
    before = version_of(ada)

    redrawn_by_an_abort_request(ada, server, game_id, heads[1], before)
    assert ada.evaluate(f"document.activeElement.{name}") == said
    assert ada.evaluate("window.scrollY") == scrolled
    ada.context.close()


def test_a_move_that_meets_a_conflict_at_every_try_is_not_lost_in_silence(server, browser):
    """The page sends a move again while it stays legal; when every try meets a version
    conflict (here the browser's network answers each POST /commands with one), it stops
    after four and says in words that the move was not played, rather than nothing."""
    page = browser.new_context().new_page()
    sign_up(page, server, "Busy")
    create_game(page, "kontor", {"variant": "basic"}, ["easy"])
    piece = page.locator(ON_TABLE).first
    expect(piece).to_be_visible(timeout=15_000)
    page.wait_for_selector("#main[data-busy='0']")
    tries = []

    def conflict(route):
        tries.append(route.request.post_data_json)
        route.fulfill(status=409, content_type="application/problem+json", body=json.dumps({
            "type": "about:blank", "title": "Conflict", "status": 409, "code": "version_conflict",
            "detail": "the game is at a later version"}))

    page.route(commands_url, conflict)
    piece.click()
    if page.locator("#choices button.choice").count():
        page.locator("#choices button.choice").first.click()
    expect(page.locator("#notice")).to_contain_text("it was not played", timeout=15_000)
    assert len(tries) == 4, tries
    assert len({json.dumps(t["command"], sort_keys=True) for t in tries}) == 1, tries  # the same move each time
    page.context.close()


def test_a_declined_invitation_closes_the_seat_and_the_creator_cancels_in_the_browser(server, browser):
    """Issue 26, item 13, as a person meets it: the invited player declines; the seat is
    closed (nobody may join it) and the creator cancels the waiting game from the lobby."""
    page = browser.new_context().new_page()
    host = api_player(server, "Host")
    sign_in(page, server, host)
    me = host
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
    problem(joined, 409, "seat_taken")
    page.goto(server + "/")
    page.reload()
    item = page.locator(f"#dashboard li:has(a[href='#/games/{game['id']}'])")
    item.get_by_role("button", name="cancel this game").click()
    expect(item.locator(".badge").first).to_have_text("aborted")


def test_the_moves_a_move_s_answer_tells_are_drawn_without_asking_again(server, browser):
    """The page sends each move with include=legal_commands; when the answer tells the seat's
    next moves (solo Amsterdam: almost every move), the redraw offers those and asks no GET
    legal-commands, neither for the move's own redraw nor for the stream's wake-up."""
    ada_player = api_player(server, "Ada")
    made = requests.post(f"{server}/v1/games", timeout=10, headers={"Authorization": f"Bearer {ada_player['token']}"},
                         json={"title": "amsterdam", "options": {}, "seats": [{"player_id": ada_player["id"]}]})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    ada = browser.new_context().new_page()
    asked: list[str] = []
    ada.on("request", lambda request: asked.append(request.url) if "/legal-commands" in request.url else None)
    sign_in(ada, server, ada_player, at=f"/#/games/{game_id}")
    open_legal_moves(ada)
    told_then_asked = told = 0
    for _ in range(4):
        first = ada.locator("#moves button.move[data-index='0']")
        expect(first).to_be_visible(timeout=15_000)
        ada.wait_for_selector("#main[data-busy='0']")
        before, asked_before = version_of(ada), len(asked)
        with ada.expect_response(lambda r: r.request.method == "POST" and commands_url(r.url)) as answered:
            first.click()
        answer = answered.value
        assert answer.status == 201 and "include=legal_commands" in answer.url
        wait_until(ada, "v => Number(document.querySelector('#status').dataset.version) > v", arg=before)
        ada.wait_for_timeout(300)  # the stream's wake-up for the move redraws too
        ada.wait_for_selector("#main[data-busy='0']")
        next_moves = answer.json()["legal_commands"]
        if next_moves["commands"] and next_moves["version"] == version_of(ada):
            told += 1
            told_then_asked += len(asked) > asked_before
            expect(ada.locator("#moves button.move")).to_have_count(len(next_moves["commands"]))
    assert told >= 2 and told_then_asked == 0, (told, told_then_asked, asked)
    ada.context.close()
