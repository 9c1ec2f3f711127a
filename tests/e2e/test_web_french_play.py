"""A game of each title in French, in Chromium: after a few moves by clicks, every word the
player sees on the game page (the status, the board's labels and tooltips, the pieces, the
list of legal moves, the move log, the names given to screen readers) is French. English
words that a French page must never show are looked for (the server draws the board and
names goods, colours and phases in English: the page says them in French)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_web_pages import no_serious_violation
from tests.e2e.web_helpers import ARTIFACTS, DESKTOP, PHONE, create_game, play_by_clicks, sign_up

pytestmark = pytest.mark.slow(seconds=40)

TITLES = [("kontor", {"variant": "basic"}), ("speicherstadt", {}), ("amsterdam", {"rounds": 10})]

#: words of the English page (its moves, its log's fields, the boards' labels) that are not
#: French words as well
ENGLISH = {
    "the", "of", "with", "your", "you", "and", "card", "cards", "column", "row", "seat", "round", "hand", "water",
    "ship", "dock", "bag", "treasury", "worker", "barge", "start", "grey", "black", "red", "white", "pink", "brown",
    "tea", "wine", "coffee", "beer", "cheese", "lace", "paying", "take", "buy", "move", "moves", "turn",
    "bought", "owned", "cost", "space", "money", "coins", "anchor", "harbour", "waterway", "pontoon", "depot",
    "offer", "yes", "false", "true", "undefined", "null", "resource", "computer", "easy", "waiting", "account",
    "scored", "choose", "purchase", "demand", "deliver", "sell", "store", "keep", "end", "pass", "draw",
    "x", "y",
}
SEEN = """() => [document.querySelector('#main').innerText,
  ...Array.from(document.querySelectorAll('#board svg text, #board svg title'))
     .map(node => node.firstChild && node.firstChild.nodeType === 3 ? node.firstChild.textContent : ''),
  ...Array.from(document.querySelectorAll('[aria-label]')).map(node => node.getAttribute('aria-label')),
  document.querySelector('header').innerText].join('\\n')"""


def english_words(text: str) -> set[str]:
    # letters only: "grey1" (a block of Amsterdam) holds "grey"
    return {word.lower() for word in re.findall(r"[^\W\d_]+", text)} & ENGLISH


@pytest.mark.parametrize("title,options", TITLES)
def test_a_game_page_in_french_says_everything_in_french(server, browser, title, options):
    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_up(page, server, f"Élise {title}")
    create_game(page, title, options, ["easy"])
    # a few moves, so that the log has events with fields and the board has pieces
    play_by_clicks(page, f"{title}-french", stop_after=8, end_turn_chance=0.2)
    english_page = page.locator("#main").inner_text()
    assert english_words(english_page), "the English page shows the words this test looks for"

    page.get_by_label("Language").select_option("fr")
    expect(page.get_by_role("heading", name="Plateau")).to_be_visible()
    page.wait_for_selector("#main[data-busy='0']")
    page.locator("#log-heading").click()
    page.locator("#moves-heading").click()
    expect(page.locator("#log li").first).to_be_visible()
    if page.locator("#status").get_attribute("data-status") == "active":
        expect(page.locator("#moves li").first).to_be_visible()
    # a piece that stands for several moves: its short choice in words
    several = page.locator("#board .clickable[aria-label$='coups'], #table .clickable[aria-label$='coups']")
    if several.count():
        several.first.click()
        expect(page.locator("#choices button.choice").first).to_be_visible()
    seen = page.evaluate(SEEN)
    assert "colonne" in seen or "Colonne" in seen or "manche" in seen, seen[:2000]
    found = english_words(seen)
    lines = [line for line in seen.splitlines() if english_words(line)]
    assert not found, f"English on the French page: {sorted(found)} in {lines[:12]}"
    no_serious_violation(page, f"{title} game page in French")
    page.screenshot(path=str(ARTIFACTS / f"{title}-desktop-fr.png"), full_page=True)
    page.context.close()


def test_a_refusal_is_said_in_french(server, browser):
    """The server explains a refusal in English; a French page says what its code means."""
    page = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    page.goto(server + "/")
    page.get_by_label("Adresse", exact=True).fill("personne@players.test")
    page.get_by_label("Mot de passe", exact=True).fill("pas le bon mot de passe")
    page.get_by_role("button", name="Se connecter", exact=True).click()
    expect(page.locator("#notice")).to_contain_text("Adresse ou mot de passe inconnus.")
    expect(page.locator("#notice")).not_to_contain_text("wrong")
    page.context.close()
